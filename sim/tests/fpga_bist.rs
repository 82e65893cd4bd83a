//! The FPGA BIST top of the harness self-test design, co-simulated in Verilator: it must reach
//! PASS with the signature the golden model predicts (LEDs and the UART line decoded here), FAIL
//! with a fault injected (and then report exactly the faulty signature the Rust model predicts),
//! FAIL on a wrong expected signature, and restart from the button.

use hdl::bist::{self as hb, selftest};
use sim::bist::{check_model_against_dut, signature, Layout, SelftestModel};
use sim::cosim::{Dut, In, Out};

const MODEL: &str = "bist_selftest/eu_bist_selftest";

struct Top {
    dut: Dut,
    btn_n: In,
    fault: In,
    expected: In,
    pass: Out,
    fail: Out,
    busy: Out,
    tx: Out,
    /// LED polarity of the co-simulated board (iCEBreaker: active low).
    on: u64,
    div: u64,
}

#[derive(Debug, PartialEq)]
enum Leds {
    Busy,
    Pass,
    Fail,
}

impl Top {
    fn new() -> Self {
        Self::open(MODEL, &selftest::cosim_params())
    }

    /// Any co-simulated BIST top (`bist_<block>/eu_bist_<block>`) with its co-sim parameters.
    fn open(model: &str, p: &hb::BistParams) -> Self {
        let dut = Dut::new(model);
        assert_eq!(dut.param("uart_div"), p.board.uart_div().to_string());
        Top {
            btn_n: dut.input("btn_n"),
            fault: dut.input("inject_fault"),
            expected: dut.input("expected"),
            pass: dut.output("led_pass"),
            fail: dut.output("led_fail"),
            busy: dut.output("led_busy"),
            tx: dut.output("uart_tx"),
            on: if p.board.led_active_low { 0 } else { 1 },
            div: p.board.uart_div() as u64,
            dut,
        }
    }

    fn leds(&self) -> Leds {
        let l = |p| self.dut.get(p) == self.on;
        match (l(self.busy), l(self.pass), l(self.fail)) {
            (true, false, false) => Leds::Busy,
            (false, true, false) => Leds::Pass,
            (false, false, true) => Leds::Fail,
            x => panic!("inconsistent LEDs busy/pass/fail = {x:?} at cycle {}", self.dut.cycle()),
        }
    }

    /// Runs until the LEDs leave Busy; returns the LED state and the number of cycles it took.
    fn run_to_result(&mut self, limit: u64) -> (Leds, u64) {
        let start = self.dut.cycle();
        loop {
            self.dut.tick();
            assert_eq!(self.dut.get(self.tx), 1, "UART idle while the test runs");
            let l = self.leds();
            if l != Leds::Busy {
                return (l, self.dut.cycle() - start);
            }
            assert!(self.dut.cycle() - start < limit, "no result after {limit} cycles");
        }
    }

    /// Decodes one UART line (8N1, LSB first, sampled mid-bit) up to `\n`.
    fn read_line(&mut self) -> String {
        let mut line = Vec::new();
        let mut idle = 0;
        loop {
            self.dut.tick();
            if self.dut.get(self.tx) == 1 {
                idle += 1;
                assert!(idle < 100 * self.div, "UART stayed idle; got {:?} so far", String::from_utf8_lossy(&line));
                continue;
            }
            idle = 0;
            // Start bit seen at its first cycle: sample each bit in its middle.
            for _ in 0..self.div / 2 {
                self.dut.tick();
            }
            assert_eq!(self.dut.get(self.tx), 0, "start bit still low mid-bit");
            let mut byte = 0u8;
            for b in 0..8 {
                for _ in 0..self.div {
                    self.dut.tick();
                }
                byte |= (self.dut.get(self.tx) as u8) << b;
            }
            for _ in 0..self.div {
                self.dut.tick();
            }
            assert_eq!(self.dut.get(self.tx), 1, "stop bit");
            line.push(byte);
            if byte == b'\n' {
                return String::from_utf8(line).expect("ASCII line");
            }
            assert!(line.len() < 200, "runaway line");
        }
    }
}

fn expected_sig(fault: bool) -> u32 {
    let layout = Layout::of(&selftest::dut_module().unwrap());
    signature(&layout, &mut SelftestModel::default(), hb::DEFAULT_CYCLES, fault)
}

fn start(top: &mut Top, expected: u32, fault: bool) {
    top.dut.set(top.btn_n, 1);
    top.dut.set(top.fault, fault as u64);
    top.dut.set(top.expected, expected as u64);
    top.dut.reset(1);
}

/// Cycles from the end of `rst` to the result: power-on reset (the button synchroniser settles
/// inside it) plus one for the registered restart, the DUT reset phase, the run, the drain cycle
/// and one cycle to register the comparison.
fn cycles_to_result() -> u64 {
    let (sw, _) = hb::port_widths(&selftest::dut_module().unwrap().ports);
    hb::POR_CYCLES as u64 + 1 + hb::reset_cycles(sw) as u64 + hb::DEFAULT_CYCLES as u64 + 2
}

#[test]
fn golden_cycle_model_matches_the_plain_selftest_design() {
    check_model_against_dut("selftest_default/eu_selftest", &mut SelftestModel::default(), 20_000, 7);
}

#[test]
fn layout_follows_port_order_and_matches_the_wiring_constants() {
    let l = Layout::of(&selftest::dut_module().unwrap());
    let names: Vec<_> = l.inputs.iter().map(|(p, bit, _)| (p.name.as_str(), *bit)).collect();
    assert_eq!(names, [("ce", 0), ("a", 1), ("b", 33), ("wide_d", 65)]);
    let names: Vec<_> = l.outputs.iter().map(|(p, bit, _)| (p.name.as_str(), *bit)).collect();
    assert_eq!(names, [("sum", 0), ("wide_q", 33), ("nibble", 129)]);
    assert_eq!((l.sw, l.rw), (selftest::SW, selftest::RW));
}

#[test]
fn bist_top_reaches_pass_with_the_golden_signature() {
    let sig = expected_sig(false);
    println!("golden signature {sig:08x}");
    let mut top = Top::new();
    start(&mut top, sig, false);
    let (leds, n) = top.run_to_result(100_000);
    assert_eq!(leds, Leds::Pass);
    assert_eq!(n, cycles_to_result(), "result after POR + DUT reset + run + drain");
    let line = top.read_line();
    assert_eq!(line, format!("eu_selftest cycles={} sig={sig:08x} PASS\r\n", hb::DEFAULT_CYCLES));
    assert_eq!(top.leds(), Leds::Pass, "result stays");
}

#[test]
fn injected_fault_gives_fail_with_the_predicted_faulty_signature() {
    let (good, bad) = (expected_sig(false), expected_sig(true));
    assert_ne!(good, bad, "the fault changes the signature");
    let mut top = Top::new();
    start(&mut top, good, true);
    let (leds, _) = top.run_to_result(100_000);
    assert_eq!(leds, Leds::Fail);
    let line = top.read_line();
    assert_eq!(line, format!("eu_selftest cycles={} sig={bad:08x} FAIL\r\n", hb::DEFAULT_CYCLES));
}

#[test]
fn wrong_expected_signature_gives_fail() {
    let good = expected_sig(false);
    let mut top = Top::new();
    start(&mut top, good ^ 0x8000_0000, false);
    assert_eq!(top.run_to_result(100_000).0, Leds::Fail);
    assert_eq!(top.read_line(), format!("eu_selftest cycles={} sig={good:08x} FAIL\r\n", hb::DEFAULT_CYCLES));
}

#[test]
fn button_restarts_the_run_and_the_report() {
    let good = expected_sig(false);
    let mut top = Top::new();
    start(&mut top, good, false);
    assert_eq!(top.run_to_result(100_000).0, Leds::Pass);
    top.read_line();
    // Press (active low) for a while, with the fault switch on: the new run must fail.
    top.dut.set(top.fault, 1);
    top.dut.set(top.btn_n, 0);
    for _ in 0..50 {
        top.dut.tick();
    }
    assert_eq!(top.leds(), Leds::Busy, "held in restart while pressed");
    top.dut.set(top.btn_n, 1);
    let (leds, n) = top.run_to_result(100_000);
    assert_eq!(leds, Leds::Fail);
    let (sw, _) = hb::port_widths(&selftest::dut_module().unwrap().ports);
    // Button synchroniser (2) + registered restart (1) + DUT reset + run + drain + compare; no
    // power-on delay this time.
    assert_eq!(n, 3 + hb::reset_cycles(sw) as u64 + hb::DEFAULT_CYCLES as u64 + 2);
    assert!(top.read_line().ends_with(" FAIL\r\n"));
}

/// The board build's Verilog (signature baked in by `sim::bist::build`, the `expected` port tied
/// to a wrong value) simulated as it is written to the bitstream flow, in Icarus Verilog from
/// power-up (flops start at their `initial` values, no `rst`): PASS, and FAIL for the
/// `--fault` build, at the predicted cycle.
#[test]
fn baked_board_top_passes_from_power_up_in_icarus() {
    require_iverilog();
    let e = sim::bist_models::entry("selftest").unwrap();
    for fault in [false, true] {
        let built = sim::bist_models::build(&e, "default", hb::HX8K_BREAKOUT, hb::DEFAULT_CYCLES, fault);
        assert_eq!(built.params.expected, Some(expected_sig(false)));
        let out = run_icarus(&built.top);
        // The result LEDs light one cycle after `done_r` is set: after the edge counted here.
        let want = format!(
            "RESULT pass={} fail={} cycles={}",
            (!fault) as u8,
            fault as u8,
            cycles_to_result() + 1
        );
        assert!(out.contains(&want), "fault={fault}: want `{want}`, Icarus printed:\n{out}");
    }
}

/// Simulates a BIST top from power-up in Icarus Verilog (no `rst`, button released, fault switch
/// off, `expected` port 0) until the busy LED goes off (active-high board LEDs); returns the
/// `RESULT pass=.. fail=.. cycles=..` line.
/// Icarus Verilog is a required test tool (scripts/setup.sh installs it): a missing `iverilog`
/// fails the test with the install command rather than letting it pass unchecked.
fn require_iverilog() {
    for tool in ["iverilog", "vvp"] {
        let ok = std::process::Command::new(tool).arg("-V").output().is_ok();
        assert!(ok, "{tool} not found: run scripts/setup.sh (or apt-get install -y iverilog)");
    }
}

fn run_icarus(top: &hdl::EmittedModule) -> String {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("top.v");
    std::fs::write(&v, &top.verilog).unwrap();
    let tb = dir.path().join("tb.v");
    std::fs::write(
        &tb,
        format!(
            "module tb;\n reg clk = 0; integer n = 0; wire lp, lf, lb, tx;\n\
             {top} dut(.clk(clk), .rst(1'b0), .btn_n(1'b1), .inject_fault(1'b0), .expected(32'h0),\n\
             .led_pass(lp), .led_fail(lf), .led_busy(lb), .uart_tx(tx));\n\
             always #1 clk = ~clk;\n\
             always @(posedge clk) begin n = n + 1;\n\
               if (lb === 1'b0) begin $display(\"RESULT pass=%b fail=%b cycles=%0d\", lp, lf, n); $finish; end\n\
               if (n > 20000) begin $display(\"TIMEOUT\"); $finish; end\n\
             end\nendmodule\n",
            top = top.name
        ),
    )
    .unwrap();
    let sim = dir.path().join("a.out");
    let st = std::process::Command::new("iverilog").arg("-o").arg(&sim).arg(&tb).arg(&v).output().unwrap();
    assert!(st.status.success(), "iverilog: {}", String::from_utf8_lossy(&st.stderr));
    let run = std::process::Command::new("vvp").arg("-n").arg(&sim).output().unwrap();
    String::from_utf8_lossy(&run.stdout).into_owned()
}

/// Golden model of `hdl::bist::example` (from its doc comment): `out_valid <= in_valid`,
/// `q <= d[11:4] + k` (8 bits), registered; `parity = k[0] ^ in_valid`, combinational.
#[derive(Default)]
struct ExampleModel {
    v: u32,
    q: u32,
}

impl sim::bist::CycleModel for ExampleModel {
    fn reset(&mut self) {
        *self = Self::default();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let (valid, d, k) = (i[0] & 1, i[1], i[2]);
        o[0] = self.v;
        o[1] = self.q;
        o[2] = (k & 1) ^ valid;
        self.v = valid;
        self.q = ((d >> 4) + k) & 0xFF;
    }
}

/// The recipe for narrow DUTs and 1-bit ports: the example DUT (17 stimulus / 10 response bits)
/// in a padded `BistCore<64, 32>`. The signature computed at the DUT's own widths must make the
/// padded top PASS, and a fault must make it FAIL.
#[test]
fn narrow_dut_in_a_padded_core_passes_with_the_signature_of_its_own_widths() {
    require_iverilog();
    use hdl::bist::example;
    let layout = Layout::of(&example::dut_module().unwrap());
    assert_eq!((layout.sw, layout.rw), (17, 10));
    let cycles = 1000;
    let sig = signature(&layout, &mut ExampleModel::default(), cycles, false);
    let bad = signature(&layout, &mut ExampleModel::default(), cycles, true);
    assert_ne!(sig, bad);
    for fault in [false, true] {
        let p = hb::BistParams {
            dut_name: "eu_bist_example_dut".into(),
            board: hb::HX8K_BREAKOUT,
            cycles,
            expected: Some(sig),
            fault_always: fault,
        };
        let top = example::emit(&p).unwrap();
        let out = run_icarus(&top);
        let want = format!(
            "RESULT pass={} fail={} cycles={}",
            (!fault) as u8,
            fault as u8,
            hb::POR_CYCLES as u64 + 1 + hb::reset_cycles(layout.sw) as u64 + cycles as u64 + 2 + 1
        );
        assert!(out.contains(&want), "fault={fault}: want `{want}`, Icarus printed:\n{out}");
    }
}

// ------------------------------------------------------------------------------------------
// Block BIST tops: region_addr_gen (RAG), branch_unit, trap_controller (small configs).
// ------------------------------------------------------------------------------------------

use sim::bist_models::branch_unit::{BranchBist, BranchCycles};
use sim::bist_models::region_addr_gen::{RagBist, RagCycles};
use sim::bist_models::trap_controller::{TrapBist, TrapCycles};

/// Runs a block's co-simulated BIST top twice: with the golden signature it must PASS at the
/// predicted cycle and print `<dut> cycles=4096 sig=<golden> PASS`; with the fault switch on it
/// must FAIL and print exactly the faulty signature the golden model predicts.
fn block_top_passes_and_fails(block: &str, model: &mut dyn FnMut() -> Box<dyn sim::bist::CycleModel>, p: &hb::BistParams) {
    let e = sim::bist_models::entry(block).unwrap();
    let dut = (e.dut)("small");
    let layout = Layout::of(&dut);
    let good = signature(&layout, model().as_mut(), hb::DEFAULT_CYCLES, false);
    let bad = signature(&layout, model().as_mut(), hb::DEFAULT_CYCLES, true);
    assert_ne!(good, bad, "the fault changes the signature");
    println!("{block}: golden signature {good:08x}, with fault {bad:08x}");
    let mut top = Top::open(&format!("bist_{block}/eu_bist_{block}"), p);
    start(&mut top, good, false);
    let (leds, n) = top.run_to_result(100_000);
    assert_eq!(leds, Leds::Pass, "{block}: BIST top with the golden signature");
    let rc = hb::reset_cycles(layout.sw.max(64)) as u64;
    assert_eq!(n, hb::POR_CYCLES as u64 + 1 + rc + hb::DEFAULT_CYCLES as u64 + 2);
    assert_eq!(top.read_line(), format!("{} cycles={} sig={good:08x} PASS\r\n", dut.name, hb::DEFAULT_CYCLES));
    start(&mut top, good, true);
    assert_eq!(top.run_to_result(100_000).0, Leds::Fail, "{block}: fault injected");
    assert_eq!(top.read_line(), format!("{} cycles={} sig={bad:08x} FAIL\r\n", dut.name, hb::DEFAULT_CYCLES));
}

fn rag_small() -> hdl::region_addr_gen::Config {
    sim::bist::load_config("region_addr_gen", "small", |a| a.region_addr_gen)
}
fn branch_small() -> hdl::branch_unit::Config {
    sim::bist::load_config("branch_unit", "small", |a| a.branch_unit)
}
fn trap_small() -> hdl::trap_controller::Config {
    sim::bist::load_config("trap_controller", "small", |a| a.trap_controller)
}

#[test]
fn small_configs_are_the_cosimulated_variants() {
    assert_eq!(rag_small(), hdl::bist::region_addr_gen::small_config());
    assert_eq!(branch_small(), hdl::bist::branch_unit::small_config());
    let (t, s) = (trap_small(), hdl::bist::trap_controller::small_config());
    assert_eq!(format!("{t:?}"), format!("{s:?}"));
}

#[test]
fn rag_cycle_model_matches_the_plain_verilated_rag() {
    check_model_against_dut("region_addr_gen_cfg_a_p/eu_region_addr_gen", &mut RagCycles::new(&rag_small()), 20_000, 11);
}

#[test]
fn branch_cycle_model_matches_the_plain_verilated_branch_unit() {
    // dbg_stk (every stack entry) is not in the BIST layout; tests/branch_unit.rs compares it
    sim::bist::check_model_against_dut_except("branch_unit_t4_p2/eu_branch_unit", &mut BranchCycles::new(&branch_small()), 20_000, 12, &["dbg_stk"]);
}

#[test]
fn trap_cycle_model_matches_the_plain_verilated_trap_controller() {
    check_model_against_dut("trap_controller_w4/eu_trap_controller", &mut TrapCycles::with_state_tap(&trap_small()), 20_000, 13);
}

/// The same at pipe = 1 (timing-closure §3.3): the cycle model delays the inputs one cycle.
#[test]
fn trap_cycle_model_matches_the_plain_verilated_trap_controller_at_pipe1() {
    let cfg = hdl::trap_controller::Config { pipe: 1, ..trap_small() };
    check_model_against_dut("trap_controller_w4_p/eu_trap_controller", &mut TrapCycles::with_state_tap(&cfg), 20_000, 14);
}

#[test]
fn rag_bist_top_passes_and_fails() {
    block_top_passes_and_fails("region_addr_gen", &mut || Box::new(RagBist::new(&rag_small())) as Box<dyn sim::bist::CycleModel>, &hdl::bist::region_addr_gen::cosim_params());
}

#[test]
fn branch_bist_top_passes_and_fails() {
    block_top_passes_and_fails("branch_unit", &mut || Box::new(BranchBist::new(&branch_small())) as Box<dyn sim::bist::CycleModel>, &hdl::bist::branch_unit::cosim_params());
}

#[test]
fn trap_bist_top_passes_and_fails() {
    block_top_passes_and_fails("trap_controller", &mut || Box::new(TrapBist::new(&trap_small())) as Box<dyn sim::bist::CycleModel>, &hdl::bist::trap_controller::cosim_params());
}

/// eu_core: the BIST wrapper runs kernel 1 at BIST size (128 values through TANH and SIGMOID) on
/// data-memory words from the stimulus and reads the 256 result words back; the signature the ISA
/// model predicts is the one the Verilated top prints. On a thread with a 16 MiB stack: with the
/// trap controller in the core (2026-11-28) the Verilated BIST top overflowed a test thread's
/// default 2 MiB (it passes with 3 MiB; not measured before the controller; Verilator keeps the
/// design's wide temporaries on the stack).
#[test]
fn eu_core_bist_top_passes_and_fails() {
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            let cfg = sim::bist::load_config("eu_core", "small", |a| a.eu_core);
            assert_eq!(cfg, hdl::bist::eu_core::small_config());
            block_top_passes_and_fails("eu_core", &mut || Box::new(sim::bist_models::eu_core::EuCoreRun::new(&cfg)) as Box<dyn sim::bist::CycleModel>, &hdl::bist::eu_core::cosim_params());
        })
        .unwrap()
        .join()
        .unwrap();
}

/// The kernel in the eu_core BIST top's ROM (kernels/activation_bist.hex, read by hdl) is the
/// assembled kernels/activation_bist.s (`eu-asm asm kernels/activation_bist.s -o
/// kernels/activation_bist.hex` regenerates it), and that source is kernel 1 (kernels/activation.s)
/// with only its size changed: 4 iterations instead of 128, results at bytes 512 and 1024 instead
/// of 16384 and 32768.
#[test]
fn eu_core_kernel_hex_is_the_assembled_source() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../kernels/");
    let src = std::fs::read_to_string(format!("{dir}{}", hdl::bist::eu_core::KERNEL_SOURCE)).unwrap();
    let p = sim::golden::eu_core::asm::assemble(&src).unwrap();
    assert_eq!(hdl::bist::eu_core::kernel(), p.code, "kernels/activation_bist.hex is stale: eu-asm asm kernels/activation_bist.s -o kernels/activation_bist.hex");
    assert_eq!(p.handler, None);
    let full = std::fs::read_to_string(format!("{dir}activation.s")).unwrap();
    let code = |s: &str| s.lines().filter(|l| !l.trim_start().starts_with(';')).map(str::to_string).collect::<Vec<_>>().join("\n");
    let scaled = code(&full).replace("r1, 16384", "r1, 512").replace("r1, 32768", "r1, 1024").replace("r10, 128", "r10, 4");
    assert_eq!(code(&src), scaled, "kernels/activation_bist.s is kernels/activation.s at another size only");
}

/// The shaped stimulus reaches the blocks' normal paths, not only their error paths (the figures
/// are printed for docs/fpga.md; the bounds are loose floors).
#[test]
fn shaped_stimulus_coverage() {
    let n = hb::DEFAULT_CYCLES;
    let lay = |b: &str| Layout::of(&(sim::bist_models::entry(b).unwrap().dut)("small"));
    let mut r = RagBist::new(&rag_small());
    signature(&lay("region_addr_gen"), &mut r, n, false);
    let m = &r.inner;
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "region_addr_gen: {} cycles, {} descriptors accepted ({:.1}%): clean {:.1}%, semantic error {:.1}%, fatal {:.1}%",
        m.cycles, m.accepted, pct(m.accepted, m.cycles), pct(m.clean, m.accepted), pct(m.semantic, m.accepted), pct(m.fatal, m.accepted)
    );
    assert!(m.accepted > m.cycles / 3 && m.clean > m.accepted / 4 && m.fatal > m.accepted / 20 && m.semantic > 0);

    let mut b = BranchBist::new(&branch_small());
    signature(&lay("branch_unit"), &mut b, n, false);
    let m = &b.inner;
    let distinct = m.events.iter().filter(|&&c| c > 0).count();
    println!(
        "branch_unit: {} cycles, {} requests: error response {:.1}%, unit faulted {:.1}% of requests, {distinct} distinct events",
        m.cycles, m.reqs, pct(m.errs, m.reqs), pct(m.faulted, m.reqs)
    );
    assert!(m.reqs > m.cycles / 2 && m.faulted < m.reqs / 2 && m.errs < m.reqs * 3 / 4 && distinct >= 15);

    let mut t = TrapBist::new(&trap_small());
    signature(&lay("trap_controller"), &mut t, n, false);
    let m = &t.inner;
    println!(
        "trap_controller: {} cycles: NORM {:.1}%, DRAIN {:.1}%, ENTER {:.1}%, HANDLER {:.1}%; {} handler entries; new sticky error on {:.1}% of cycles",
        m.cycles,
        pct(m.mode_cycles[0], m.cycles),
        pct(m.mode_cycles[1], m.cycles),
        pct(m.mode_cycles[2], m.cycles),
        pct(m.mode_cycles[3], m.cycles),
        m.entries,
        pct(m.err_cycles, m.cycles)
    );
    assert!(m.entries >= 10 && m.mode_cycles[0] > m.cycles / 10 && m.mode_cycles[3] > m.cycles / 10);
}

/// The RAG's `rf64` board config (RB 8 x NR 8: the iCE40-sized one; not a co-sim build) as the
/// board flow builds it (signature baked in), in Icarus from power-up: PASS, and FAIL with the
/// fault build.
#[test]
fn rag_rf64_board_top_passes_and_fails_in_icarus() {
    require_iverilog();
    let e = sim::bist_models::entry("region_addr_gen").unwrap();
    let layout = Layout::of(&(e.dut)("rf64"));
    let cycles = 1024; // Icarus is slow on the RAG's sixteen address channels
    for fault in [false, true] {
        let built = sim::bist_models::build(&e, "rf64", hb::HX8K_BREAKOUT, cycles, fault);
        let out = run_icarus(&built.top);
        let want = format!(
            "RESULT pass={} fail={} cycles={}",
            (!fault) as u8,
            fault as u8,
            hb::POR_CYCLES as u64 + 1 + hb::reset_cycles(layout.sw.max(64)) as u64 + cycles as u64 + 2 + 1
        );
        assert!(out.contains(&want), "fault={fault}: want `{want}`, Icarus printed:\n{out}");
    }
}

// ------------------------------------------------------------------------------------------
// Block BIST tops: alu_pipeline, tanh_sigmoid (small configs).
// ------------------------------------------------------------------------------------------

use sim::bist_models::alu_pipeline::{AluBist, AluCycles};
use sim::bist_models::tanh_sigmoid::{TanhBist, TanhCycles};

fn alu_small() -> hdl::alu_pipeline::Config {
    sim::bist::load_config("alu_pipeline", "small", |a| a.alu_pipeline)
}
fn tanh_small() -> hdl::tanh_sigmoid::Config {
    sim::bist::load_config("tanh_sigmoid", "small", |a| a.tanh_sigmoid)
}

#[test]
fn alu_and_tanh_small_configs_are_the_cosimulated_variants() {
    let (a, s) = (alu_small(), hdl::bist::alu_pipeline::small_config());
    assert_eq!(format!("{a:?}"), format!("{s:?}"));
    let (t, s) = (tanh_small(), hdl::bist::tanh_sigmoid::small_config());
    assert_eq!(format!("{t:?}"), format!("{s:?}"));
}

/// The ALU adapter against the plain Verilated ALU. No plain model of the small config
/// (NUM_ALUS 2, IMEM_DEPTH 4) is verilated (one more model of this size costs minutes of C++ build
/// for everyone); the adapter is config-generic, so it is checked on `na3_d16` (NUM_ALUS 3,
/// IMEM_DEPTH 16), and the small config end to end by the BIST top's signature below.
#[test]
fn alu_cycle_model_matches_the_plain_verilated_alu() {
    let cfg = hdl::alu_pipeline::Config { num_alus: 3, imem_depth: 16, ..Default::default() };
    check_model_against_dut("alu_pipeline_na3_d16/eu_alu_pipeline", &mut AluCycles::new(&cfg), 20_000, 14);
}

#[test]
fn tanh_cycle_model_matches_the_plain_verilated_tanh() {
    check_model_against_dut("tanh_sigmoid_lanes1_lat18/eu_tanh_sigmoid", &mut TanhCycles::new(&tanh_small()), 20_000, 15);
}

#[test]
fn alu_bist_top_passes_and_fails() {
    block_top_passes_and_fails("alu_pipeline", &mut || Box::new(AluBist::new(&alu_small())) as Box<dyn sim::bist::CycleModel>, &hdl::bist::alu_pipeline::cosim_params());
}

#[test]
fn tanh_bist_top_passes_and_fails() {
    block_top_passes_and_fails("tanh_sigmoid", &mut || Box::new(TanhBist::new(&tanh_small())) as Box<dyn sim::bist::CycleModel>, &hdl::bist::tanh_sigmoid::cosim_params());
}

/// The shaped stimulus makes the ALU and the tanh/sigmoid datapath do real work (figures printed
/// for docs/fpga.md; the bounds are loose floors).
#[test]
fn shaped_stimulus_coverage_alu_tanh() {
    let n = hb::DEFAULT_CYCLES;
    let lay = |b: &str| Layout::of(&(sim::bist_models::entry(b).unwrap().dut)("small"));
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;

    let mut a = AluBist::new(&alu_small());
    signature(&lay("alu_pipeline"), &mut a, n, false);
    let m = &a.inner;
    let codes: Vec<u32> = (0..16).filter(|c| m.err_seen >> c & 1 == 1).collect();
    println!(
        "alu_pipeline: {} cycles: {} rows in, {} rows out, {} groups done; {} slots issued, {} live ({:.1}%), {} with a write-back; {} config writes; error codes seen {codes:?}",
        m.cycles, m.rows_in, m.rows_out, m.groups, m.issued, m.live, pct(m.live, m.issued), m.write_slots, m.cfg_writes
    );
    assert!(m.groups >= 50 && m.issued > m.cycles / 4 && m.live > m.issued / 2 && m.live < m.issued && m.write_slots > m.live / 2);

    let mut t = TanhBist::new(&tanh_small());
    signature(&lay("tanh_sigmoid"), &mut t, n, false);
    let m = &t.inner;
    println!(
        "tanh_sigmoid: {} cycles: {} active vectors; op TANH_PRE/SIGMOID/TANH/reserved {:?}, fmt fp32/fp16/bf16/reserved {:?}; interpolated {:.1}%, NaN/inf/zero/subnormal {:.1}% of the legal ones",
        m.cycles,
        m.active,
        m.per_op,
        m.per_fmt,
        pct(m.interpolated, m.active - m.per_op[3].max(m.per_fmt[3])),
        pct(m.specials, m.active - m.per_op[3].max(m.per_fmt[3]))
    );
    assert!(m.active > m.cycles / 2 && m.per_op.iter().all(|&c| c > 0) && m.per_fmt.iter().all(|&c| c > 0));
    assert!(m.interpolated > m.active / 4 && m.specials > m.active / 20);
}

/// The ALU top's shaped stimulus (legal programs, flowing groups) on the plain Verilated ALU
/// (`all` = NUM_ALUS 4, IMEM_DEPTH 32, and `na3_d16`; the shaping is modelled for them too), every output compared
/// with the golden model every cycle: separates an RTL/golden difference under this stimulus from
/// a difference in the top's shaping.
#[test]
fn alu_shaped_stimulus_on_the_plain_verilated_alu() {
    shaped_alu_run("all", hdl::alu_pipeline::Config::default());
    shaped_alu_run("na3_d16", hdl::alu_pipeline::Config { num_alus: 3, imem_depth: 16, ..Default::default() });
}

fn shaped_alu_run(variant: &str, cfg: hdl::alu_pipeline::Config) {
    use sim::bist::CycleModel;
    let mut model = AluBist::new(&cfg);
    let layout = Layout::of(&hdl::bist::alu_pipeline::dut_module(&cfg));
    let mut dut = Dut::new(&format!("alu_pipeline_{variant}/eu_alu_pipeline"));
    let desc = dut.desc();
    let ins: Vec<_> = desc.inputs.iter().filter(|p| p.name != "rst").map(|p| (dut.input(p.name), p.width)).collect();
    let outs: Vec<_> = desc.outputs.iter().map(|p| (dut.output(p.name), p.width)).collect();
    let mut st = sim::bist::Stimulus::new(layout.sw);
    let mut inp = vec![0u32; layout.in_words];
    let mut out = vec![0u32; layout.out_words];
    dut.reset(1);
    model.reset();
    for cyc in 0..hb::DEFAULT_CYCLES {
        for (p, bit, word) in &layout.inputs {
            sim::bist::unpack(&st.s, *bit, p.width, &mut inp[*word..]);
        }
        model.step(&inp, &mut out);
        sim::bist::set_words(&mut dut, &ins, &model.shaped);
        dut.settle();
        let mut e = dut.expected();
        sim::bist::expect_words(&mut e, &outs, &out);
        dut.set_label(format!("(shaped ALU stimulus on {variant}, cycle {cyc})"));
        dut.check(&e);
        dut.tick();
        st.advance();
    }
}
