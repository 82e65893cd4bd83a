//! Gate-level co-simulation (issue 18 item 4): each block's small config also has a twin built
//! from its yosys netlist (sim/build_twins.rs): `synth_ice40 -dsp` (and, for the blocks whose
//! netlist has no DP16KD / MULT18X18D, `synth_ecp5`), `write_verilog -noattr`, verilated with the
//! cell models that ship with yosys. The block's random soak stimulus runs on it through the
//! block's lock-step driver for 1e5 cycles, every output port compared with the golden model
//! every cycle: a synthesis/simulation mismatch or an init value the netlist loses shows here.

use sim::cosim::{self, Netlist, ThreadOpts};
use sim::soak::{self, Target};

/// The gate-level twins, as in sim/build_twins.rs (`GATE_VARIANTS`): every one is built by every
/// `cargo test` and runs below.
const TWINS: [(&str, &str, Netlist); 8] = [
    ("alu_pipeline", "na1_d1", Netlist::Ice40),
    ("branch_unit", "n4", Netlist::Ice40),
    ("branch_unit", "n4", Netlist::Ecp5),
    ("region_addr_gen", "cfg_a", Netlist::Ice40),
    ("region_addr_gen", "cfg_a", Netlist::Ecp5),
    ("tanh_sigmoid", "lanes1", Netlist::Ice40),
    ("trap_controller", "w4", Netlist::Ice40),
    ("trap_controller", "w4", Netlist::Ecp5),
];
const CYCLES: u64 = 100_000;

fn id(block: &str, variant: &str, n: Netlist) -> String {
    format!("{block}_{variant}/eu_{block}{}", n.suffix())
}

/// How many instances of `cell` the netlist has (`  CELL _123_ (` or `  CELL #(`).
fn count(netlist: &str, cell: &str) -> usize {
    netlist.lines().filter(|l| l.strip_prefix("  ").and_then(|r| r.strip_prefix(cell)).is_some_and(|r| r.starts_with(' ') || r.starts_with('#'))).count()
}

/// The twins really are netlists: only cell instances and assigns, no process of the RTL (so the
/// random runs below cannot pass on the RTL by accident), built from the family's cells, with the
/// DSP and RAM cells where the block has multipliers and ROMs.
#[test]
fn twins_are_the_synthesized_netlists() {
    for (block, variant, n) in TWINS {
        assert!(cosim::models().iter().any(|m| m.id == id(block, variant, n)), "{}: the twin is not built", id(block, variant, n));
        let m = cosim::model(&id(block, variant, n));
        let rtl = cosim::model(&format!("{block}_{variant}/eu_{block}"));
        let text = std::fs::read_to_string(m.verilog).unwrap_or_else(|e| panic!("{}: {e}", m.verilog));
        assert_eq!(text.matches("\nmodule ").count() + usize::from(text.starts_with("module ")), 1, "{}: one flat module", m.id);
        for word in ["always", "initial", "reg "] {
            assert!(!text.lines().any(|l| l.trim_start().starts_with(word)), "{}: the netlist has `{word}`: not a gate-level netlist", m.id);
        }
        let (luts, ffs, carries): (&str, &[&str], &str) = match n {
            Netlist::Ice40 => ("SB_LUT4", &["SB_DFF", "SB_DFFE", "SB_DFFSR", "SB_DFFESR", "SB_DFFSS", "SB_DFFESS", "SB_DFFR", "SB_DFFER", "SB_DFFS", "SB_DFFES"], "SB_CARRY"),
            Netlist::Ecp5 => ("LUT4", &["TRELLIS_FF"], "CCU2C"),
        };
        let ff_count: usize = ffs.iter().map(|c| count(&text, c)).sum();
        println!(
            "{}: {} {luts}, {ff_count} flip-flops, {} {carries}, {} SB_MAC16, {} SB_RAM40_4K, {} bytes",
            m.id,
            count(&text, luts),
            count(&text, carries),
            count(&text, "SB_MAC16"),
            count(&text, "SB_RAM40_4K"),
            text.len()
        );
        assert!(count(&text, luts) > 100 && ff_count > 50, "{}: too few cells for the block", m.id);
        // Same ports as the RTL model, so the driver and the golden model apply unchanged.
        let names = |d: &'static [cosim::PortDesc]| d.iter().map(|p| (p.name, p.width)).collect::<Vec<_>>();
        assert_eq!(names(m.inputs), names(rtl.inputs), "{}: inputs", m.id);
        assert_eq!(names(m.outputs), names(rtl.outputs), "{}: outputs", m.id);
    }
    let netlist = |b, v| std::fs::read_to_string(cosim::model(&id(b, v, Netlist::Ice40)).verilog).unwrap();
    // Multipliers map to the DSP cell (-dsp) and the tanh tables to block RAM: their cell
    // models are exercised too.
    for (block, variant) in [("tanh_sigmoid", "lanes1"), ("alu_pipeline", "na1_d1")] {
        let text = netlist(block, variant);
        assert!(count(&text, "SB_MAC16") > 0 && count(&text, "SB_RAM40_4K") > 0, "the {block} netlist has no SB_MAC16 / SB_RAM40_4K");
    }
}

fn random_on_netlist(block: &str, variant: &str, n: Netlist) {
    let t = Target { block: block.into(), variant: variant.into() };
    let t0 = std::time::Instant::now();
    match soak::run_one(&t, 0x5EED, CYCLES, ThreadOpts { netlist: Some(n), ..Default::default() }) {
        Ok(c) => {
            assert!(c >= CYCLES, "{t}: only {c} cycles ran");
            println!("{t} {n:?} netlist: {c} cycles, every port equal to the golden model, {:.1} s", t0.elapsed().as_secs_f64());
        }
        Err(msg) => panic!("{t}: the {n:?} netlist differs from the golden model:\n{msg}"),
    }
}

#[test]
fn alu_pipeline_ice40_netlist_random() {
    random_on_netlist("alu_pipeline", "na1_d1", Netlist::Ice40);
}
#[test]
fn branch_unit_ice40_netlist_random() {
    random_on_netlist("branch_unit", "n4", Netlist::Ice40);
}
#[test]
fn branch_unit_ecp5_netlist_random() {
    random_on_netlist("branch_unit", "n4", Netlist::Ecp5);
}
/// The twin that showed why the netlists go through `splitnets` (sim/build_twins.rs
/// `GATE_SYNTH_TAIL`): without it Verilator 5.006 gave `out_err` 4 for 0x14 at cycle 6.
#[test]
fn region_addr_gen_ice40_netlist_random() {
    random_on_netlist("region_addr_gen", "cfg_a", Netlist::Ice40);
}
#[test]
fn region_addr_gen_ecp5_netlist_random() {
    random_on_netlist("region_addr_gen", "cfg_a", Netlist::Ecp5);
}
#[test]
fn tanh_sigmoid_ice40_netlist_random() {
    random_on_netlist("tanh_sigmoid", "lanes1", Netlist::Ice40);
}
#[test]
fn trap_controller_ice40_netlist_random() {
    random_on_netlist("trap_controller", "w4", Netlist::Ice40);
}
#[test]
fn trap_controller_ecp5_netlist_random() {
    random_on_netlist("trap_controller", "w4", Netlist::Ecp5);
}

/// A mismatch on a twin (one bit of the expectation flipped, as a golden model with that wrong
/// bit would give) is reported like any other, and since twins are built without trace its
/// waveform is the RTL model's, replaying the same inputs: the VCD exists, is named after the RTL
/// model, and holds the RTL's internal signals (which the netlist no longer has).
#[test]
fn a_mismatch_on_a_twin_writes_the_rtl_waveform() {
    let tmp = tempfile::tempdir().unwrap();
    let t = Target { block: "trap_controller".into(), variant: "w4".into() };
    let opts = ThreadOpts { netlist: Some(Netlist::Ice40), flip_at: Some(200), trace_dir: Some(tmp.path().into()), ..Default::default() };
    let msg = soak::run_one(&t, 7, 1_000, opts).expect_err("the flipped bit must be reported");
    assert!(msg.contains("co-sim mismatch in trap_controller_w4/eu_trap_controller+ice40 at cycle 200"), "{msg}");
    let vcd = msg.lines().find_map(|l| l.trim().strip_prefix("waveform of the last 64 steps: ")).unwrap_or_else(|| panic!("no waveform in:\n{msg}"));
    let name = std::path::Path::new(vcd).file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("trap_controller_w4__eu_trap_controller__") && !name.contains("ice40"), "{vcd}");
    let text = std::fs::read_to_string(vcd).unwrap();
    assert!(text.contains("$enddefinitions") && text.contains("warps$0$ws_q"), "{vcd}: not the RTL's waveform");
}
