//! The twins of the co-simulation models: one small config per block ([`TWIN_VARIANTS`]) built a
//! second (and third, fourth) time by another recipe, with the same ports, so the same `Dut`,
//! drivers and golden models run on it (`sim::cosim::Twin`). Two kinds:
//!
//! - **X-initialisation** (issue 18 item 3, sim/tests/xinit.rs): the Verilog verilated again with
//!   `--x-initial unique --x-assign unique`, so that every variable (and every explicit X) starts
//!   from a random value that the C shim seeds before the model is constructed (`randReset(2)`,
//!   `randSeed(seed)`). rust-hdl writes an `initial` block per register with its init value
//!   (`initial begin q = 0; end`); Verilator honours them, so they would hide the random state.
//!   An ASIC has no initial values, and `rst` alone must bring the state to what the spec says:
//!   the twin is built from the block's Verilog with those blocks removed ([`strip_initial`];
//!   nothing else is changed).
//! - **Gate level** (issue 18 item 4, sim/tests/gate_level.rs): the Verilog through yosys
//!   (`synth_ice40 -dsp`, or `synth_ecp5`) and `write_verilog -noattr`, verilated together with
//!   the vendor cell models that ship with yosys (`<datdir>/ice40/cells_sim.v`,
//!   `<datdir>/ecp5/cells_sim.v`). This is the netlist a board would get, simulated: it catches
//!   synthesis/simulation mismatches that RTL simulation cannot. ECP5 twins only for blocks whose
//!   netlist has no `DP16KD` or `MULT18X18D`: yosys 0.23 has no behaviour for those two cells
//!   ([`GATE_VARIANTS`]; the build refuses a netlist that has them). Built without `--trace`
//!   ([`gate_shim`]).
//!
//! This recipe lives beside `build_model.rs`, not in it, because that file's text is part of
//! every regular model's cache stamp: editing it would re-verilate all of them (tens of CPU
//! minutes). A twin's stamp hashes its source Verilog, its shim, this file (so the flags below are
//! part of the key), the Verilator version and, for a gate-level twin, the yosys version and the
//! cell library's text; not `build_model.rs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::build_model::{hash_of, shim, Model};

/// `<block>_<variant>` of the co-sim builds that get an X-initialisation twin: each block's small
/// (or default) config.
pub const TWIN_VARIANTS: [&str; 5] =
    ["alu_pipeline_na3_d16", "branch_unit_n4", "region_addr_gen_cfg_a", "tanh_sigmoid_lanes1", "trap_controller_w4"];

/// The gate-level twins: `<block>_<variant>` and the families whose netlist it gets. Each block's
/// smallest co-sim config (the ALU's `na1_d1`: one ALU, 9 k SB_LUT4 against `na3_d16`'s 21 k).
/// ECP5 only where the `synth_ecp5` netlist has no `DP16KD` (EBR) and no `MULT18X18D` (DSP),
/// the two cells yosys 0.23 does not simulate: the ALU (multipliers, buffers in EBR) and the
/// tanh unit (multipliers, ROMs in EBR) have both, and their iCE40 twins exercise the
/// `SB_MAC16` / `SB_RAM40_4K` mapping instead.
pub const GATE_VARIANTS: [(&str, &[Kind]); 5] = [
    ("alu_pipeline_na1_d1", &[Kind::Ice40]),
    ("branch_unit_n4", &[Kind::Ice40, Kind::Ecp5]),
    ("region_addr_gen_cfg_a", &[Kind::Ice40, Kind::Ecp5]),
    ("tanh_sigmoid_lanes1", &[Kind::Ice40]),
    ("trap_controller_w4", &[Kind::Ice40, Kind::Ecp5]),
];

/// The kinds of twin; the model id gets `+<suffix>`, the C symbols `__<suffix>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Xinit,
    Ice40,
    Ecp5,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Xinit, Kind::Ice40, Kind::Ecp5];

    pub fn suffix(self) -> &'static str {
        match self {
            Kind::Xinit => "xinit",
            Kind::Ice40 => "ice40",
            Kind::Ecp5 => "ecp5",
        }
    }

    /// Whether `module` of `variant` gets a twin of this kind. Only the module the random tests
    /// drive (the RAG build also holds the register-file gather and scatter blocks).
    pub fn wants(self, variant: &str, module: &str) -> bool {
        let driven = variant != "region_addr_gen_cfg_a" || module == "eu_region_addr_gen";
        driven
            && match self {
                Kind::Xinit => TWIN_VARIANTS.contains(&variant),
                _ => GATE_VARIANTS.iter().any(|(v, kinds)| *v == variant && kinds.contains(&self)),
            }
    }

    /// The yosys synthesis command of a gate-level twin.
    fn synth(self, top: &str) -> Option<String> {
        match self {
            Kind::Xinit => None,
            // -dsp: multipliers become SB_MAC16, so the DSP cell model is exercised too.
            Kind::Ice40 => Some(format!("synth_ice40 -dsp -top {top}")),
            Kind::Ecp5 => Some(format!("synth_ecp5 -top {top}")),
        }
    }

    /// The cell library of a gate-level twin, relative to the yosys data folder.
    fn cells(self) -> Option<&'static str> {
        match self {
            Kind::Xinit => None,
            Kind::Ice40 => Some("ice40"),
            Kind::Ecp5 => Some("ecp5"),
        }
    }
}

/// yosys, found once per build: its version line and its data folder (the cell libraries).
pub struct Yosys {
    pub version: String,
    pub datdir: PathBuf,
}

const YOSYS_HINT: &str = "install it with `sudo apt-get install -y yosys` (Debian/Ubuntu), \
or run scripts/setup.sh, which installs what the tests need";

/// Finds yosys and its data folder (`yosys-config --datdir`, else `<prefix>/share/yosys` beside
/// `<prefix>/bin/yosys`; Debian ships `yosys-config` only in yosys-dev). Panics with the install
/// command when yosys is missing: the gate-level twins are part of every build.
pub fn find_yosys() -> Yosys {
    let out = Command::new("yosys").arg("-V").output();
    let version = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => panic!("\n\nEU-RTL gate-level co-simulation needs yosys (>= 0.23) on PATH, and it was not found.\n{YOSYS_HINT}\n\n"),
    };
    let from_config = Command::new("yosys-config")
        .arg("--datdir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let beside_binary = || {
        let path = std::env::var_os("PATH")?;
        let bin = std::env::split_paths(&path).map(|d| d.join("yosys")).find(|p| p.is_file())?;
        let bin = fs::canonicalize(bin).ok()?;
        Some(bin.parent()?.parent()?.join("share/yosys"))
    };
    let datdir = from_config
        .filter(|d| d.join("ice40/cells_sim.v").is_file())
        .or_else(|| beside_binary().filter(|d| d.join("ice40/cells_sim.v").is_file()))
        .unwrap_or_else(|| {
            panic!("\n\n{version} is on PATH, but its cell libraries (<datdir>/ice40/cells_sim.v) were not found \
                    (tried `yosys-config --datdir` and <prefix>/share/yosys).\n{YOSYS_HINT}\n\n")
        });
    Yosys { version, datdir }
}

/// `verilog` without its `initial begin <reg> = <constant>; end` blocks. Panics on an initial
/// block of another form (e.g. memory contents), which must not be removed blindly.
pub fn strip_initial(verilog: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    let mut lines = verilog.lines();
    while let Some(l) = lines.next() {
        if l.trim() != "initial begin" {
            out.push_str(l);
            out.push('\n');
            continue;
        }
        for body in lines.by_ref() {
            let b = body.trim();
            if b == "end" {
                break;
            }
            let simple = b.split_once(" = ").is_some_and(|(lhs, rhs)| {
                lhs.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && rhs.strip_suffix(';').is_some_and(|v| v.chars().all(|c| c.is_ascii_hexdigit() || c == '\'' || c == 'h' || c == 'b' || c == 'd'))
            });
            assert!(simple, "build_twins: an initial block holds `{b}`, not a register's init value");
        }
    }
    out
}

/// Verilator's X handling of the X-initialisation twins (the regular models use `fast` for both).
pub const XINIT_FLAGS: [&str; 4] = ["--x-assign", "unique", "--x-initial", "unique"];

/// Verilator flags of the gate-level twins. `NO_ICE40_DEFAULT_ASSIGNMENTS`: Verilator rejects the
/// default port assignments of the iCE40 RAM models without it. The cell libraries drive some
/// nets from several processes and use blocking assignments in clocked blocks (MULTIDRIVEN,
/// COMBDLY): harmless for this simulation. UNOPTFLAT is not waived: see [`GATE_SYNTH_TAIL`].
pub const GATE_FLAGS: [&str; 7] =
    ["--x-assign", "fast", "--x-initial", "fast", "-DNO_ICE40_DEFAULT_ASSIGNMENTS", "-Wno-MULTIDRIVEN", "-Wno-COMBDLY"];

/// What runs between synthesis and `write_verilog`. `splitnets` makes every internal net one bit
/// wide. Without it a netlist keeps vectors whose bits feed each other through cells (a carry
/// chain's `CO` into the next `CI`, LUT outputs into LUTs of the same vector), which Verilator
/// sees as circular logic (UNOPTFLAT) and Verilator 5.006 then evaluated in the wrong order: the
/// RAG's iCE40 netlist gave `out_err` 4 for 0x14 at cycle 6 of the random run while Icarus
/// Verilog, and the same Verilated netlist after `splitnets`, give 0x14 (2026-11-27; an earlier
/// session took it for a V3Gate bug because `-fno-gate` moved the first mismatch). With every net
/// one bit wide no UNOPTFLAT is left, and the build fails if one appears ([`build_twin`]).
pub const GATE_SYNTH_TAIL: &str = "splitnets";

/// The gate-level twins' C shim: the regular shim without waveform support. Their trace code
/// was 40 % of their C++ (the build time CI pays); a mismatch on a twin replays its inputs into
/// the RTL model of the same variant for the waveform instead (`Dut::dump_trace`), so the
/// twin's `<sym>_trace_open` always answers 0.
pub fn gate_shim(m: &Model) -> String {
    let base = shim(m);
    let parts = [
        ("#include \"verilated_vcd_c.h\"\n", "struct VerilatedVcdC { void dump(uint64_t) {} void open(const char*) {} void close() {} bool isOpen() const { return false; } };\n"),
        ("if (trace) { s->tfp = new VerilatedVcdC; s->m->trace(s->tfp, 99); }", "(void)trace;   // built without --trace"),
    ];
    let mut out = base;
    for (from, to) in parts {
        assert!(out.contains(from), "the shim of build_model.rs changed: update build_twins.rs gate_shim");
        out = out.replacen(from, to, 1);
    }
    // the stub class needs uint64_t before it: move it below the standard includes
    out.replacen("#include <cstdint>\n", "", 1).replacen("struct VerilatedVcdC", "#include <cstdint>\nstruct VerilatedVcdC", 1)
}

/// The X-initialisation twin's C shim: the regular shim with the seeded random reset before
/// construction, and `<sym>_xinit_seed(seed)` to set the seed (per thread) of the next `<sym>_new`.
pub fn xinit_shim(m: &Model) -> String {
    let s = &m.sym;
    let base = shim(m);
    let new_fn = format!("void* {s}_new(int trace) {{");
    let reset = "s->ctx.randReset(0);";
    assert!(base.contains(&new_fn) && base.contains(reset), "the shim of build_model.rs changed: update build_twins.rs");
    base.replace(
        &new_fn,
        &format!("static thread_local int xinit_seed = 1;\nvoid {s}_xinit_seed(int seed) {{ xinit_seed = seed; }}\n{new_fn}"),
    )
    .replace(reset, "s->ctx.randReset(2); s->ctx.randSeed(xinit_seed);   // random initial state, seeded")
}

/// `m` as a twin of `kind`: its own id and symbols, and for an X-init twin its Verilog without
/// the initial blocks, written to `vdir`. A gate-level twin's `vfile` is where [`build_twin`]
/// puts the netlist; its `module.verilog` stays the RTL (the netlist's source, in the stamp).
pub fn twin_of(m: &Model, kind: Kind, vdir: &Path) -> Model {
    let sym = format!("{}__{}", m.sym, kind.suffix());
    let vfile = vdir.join(format!("{sym}.v"));
    let mut module = m.module.clone();
    if kind == Kind::Xinit {
        module.verilog = strip_initial(&m.module.verilog);
        if fs::read_to_string(&vfile).ok().as_deref() != Some(module.verilog.as_str()) {
            fs::write(&vfile, &module.verilog).unwrap();
        }
    }
    Model { id: format!("{}+{}", m.id, kind.suffix()), sym, vfile, module }
}

/// Builds (or finds in `cache`) a twin's static library and tells cargo to link it; `m` comes
/// from [`twin_of`]. The twin's cache folder also keeps the netlist (gate level) and
/// `build_seconds`, the yosys / Verilator / C++ times of its cold build.
pub fn build_twin(m: &Model, kind: Kind, yosys: &Yosys, root: &Path, cache: &Path, tool_stamp: &str) {
    let shim_src = if kind == Kind::Xinit { xinit_shim(m) } else { gate_shim(m) };
    let cells = kind.cells().map(|c| yosys.datdir.join(c).join("cells_sim.v"));
    let gate_stamp = match &cells {
        Some(c) => format!("{}\n{}", yosys.version, fs::read_to_string(c).unwrap_or_else(|e| panic!("{}: {e}", c.display()))),
        None => String::new(),
    };
    let stamp = hash_of(&[&m.module.verilog, &shim_src, TWIN_RECIPE, tool_stamp, kind.suffix(), &gate_stamp]);
    let final_dir = cache.join(format!("{}-{stamp}", m.sym));
    let lib = format!("eumodel_{}", m.sym);
    let link = |dir: &Path| {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static={lib}");
        // the netlist beside the other Verilog of the build, for `ModelDesc::verilog`
        let netlist = dir.join("netlist.v");
        if cells.is_some() && fs::read(&netlist).ok() != fs::read(&m.vfile).ok() {
            fs::copy(&netlist, &m.vfile).unwrap_or_else(|e| panic!("copy {} to {}: {e}", netlist.display(), m.vfile.display()));
        }
    };
    if final_dir.join(format!("lib{lib}.a")).exists() {
        let _ = fs::write(final_dir.join("used"), "");
        link(&final_dir);
        return;
    }
    let dir = cache.join(format!(".tmp-{}-{stamp}-{}", m.sym, std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let t0 = Instant::now();
    let top = &m.module.name;
    let sources: Vec<PathBuf> = match (kind.synth(top), &cells) {
        (Some(synth), Some(cells)) => {
            let rtl = dir.join("rtl.v");
            fs::write(&rtl, &m.module.verilog).unwrap();
            let netlist = dir.join("netlist.v");
            let script =
                format!("read_verilog {}; {synth}; {GATE_SYNTH_TAIL}; write_verilog -noattr {}; stat", rtl.display(), netlist.display());
            let st = Command::new("yosys")
                .args(["-q", "-l"])
                .arg(dir.join("yosys.log"))
                .arg("-p")
                .arg(&script)
                .output()
                .expect("run yosys");
            if !st.status.success() {
                panic!("yosys failed on {} (`{script}`):\n{}", m.id, String::from_utf8_lossy(&st.stderr));
            }
            if kind == Kind::Ecp5 {
                let text = fs::read_to_string(&netlist).unwrap();
                for cell in ["DP16KD", "MULT18X18D"] {
                    assert!(
                        !text.contains(&format!("  {cell} ")),
                        "{}: the ECP5 netlist has {cell}, which yosys's ecp5/cells_sim.v does not simulate; \
                         take Ecp5 out of its GATE_VARIANTS row (sim/build_twins.rs)",
                        m.id
                    );
                }
            }
            vec![netlist, cells.clone()]
        }
        _ => vec![m.vfile.clone()],
    };
    let t_yosys = t0.elapsed().as_secs_f64();
    let mut cmd = Command::new("verilator");
    cmd.args(["--cc", "--no-timing", "-O3"]);
    match &cells {
        None => cmd.arg("--trace").args(XINIT_FLAGS),
        Some(c) => cmd.args(GATE_FLAGS).arg(format!("-I{}", c.parent().unwrap().display())),
    };
    let st = cmd
        .args(["-Wno-fatal", "-Wno-lint", "-Wno-style"])
        .arg("--top-module")
        .arg(top)
        .arg("--prefix")
        .arg(format!("V{}", m.sym))
        .arg("-Mdir")
        .arg(&dir)
        .args(&sources)
        .output()
        .expect("run verilator");
    if !st.status.success() {
        panic!("verilator failed on {} ({:?}):\n{}", m.id, sources, String::from_utf8_lossy(&st.stderr));
    }
    let warnings = String::from_utf8_lossy(&st.stderr);
    if cells.is_some() && warnings.contains("UNOPTFLAT") {
        panic!(
            "verilator sees circular logic (UNOPTFLAT) in the gate-level netlist of {}, which Verilator 5.006 can \
             simulate wrongly (GATE_SYNTH_TAIL in sim/build_twins.rs):\n{warnings}",
            m.id
        );
    }
    let t_verilator = t0.elapsed().as_secs_f64() - t_yosys;
    let shim_file = dir.join("shim.cpp");
    fs::write(&shim_file, shim_src).unwrap();
    // As build_model: construction and trace code at -O0, the per-cycle code at -O2; a gate-level
    // twin's per-cycle code at -O1 (its flat netlist compiles about a third faster, and a twin
    // runs 1e5 cycles, not millions).
    let inc = root.join("include");
    let base = |opt: u32| {
        let mut b = cc::Build::new();
        b.cpp(true)
            .std("c++17")
            .opt_level(opt)
            .debug(false)
            .warnings(false)
            .flag_if_supported("-faligned-new")
            .flag_if_supported("-fcf-protection=none")
            .include(&inc)
            .include(inc.join("vltstd"))
            .include(&dir)
            .out_dir(&dir);
        b
    };
    let (mut fast, mut slow) = (base(if cells.is_some() { 1 } else { 2 }), base(0));
    fast.file(&shim_file);
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cpp") && p != shim_file {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains("__Slow") || name.contains("__Trace") {
                slow.file(p);
            } else {
                fast.file(p);
            }
        }
    }
    fast.objects(slow.compile_intermediates());
    fast.cargo_metadata(false).compile(&lib);
    let t_cxx = t0.elapsed().as_secs_f64() - t_yosys - t_verilator;
    fs::write(dir.join("build_seconds"), format!("yosys {t_yosys:.1}\nverilator {t_verilator:.1}\ncxx {t_cxx:.1}\n")).unwrap();
    fs::write(dir.join("used"), "").unwrap();
    if fs::rename(&dir, &final_dir).is_err() {
        let _ = fs::remove_dir_all(&dir);
    }
    link(&final_dir);
}

const TWIN_RECIPE: &str = include_str!("build_twins.rs");
