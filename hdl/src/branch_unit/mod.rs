//! branch_unit: the SIMD structured branch unit (SBU) of spec branch-unit.md.
//!
//! One request per cycle, latency 1: the §2.4 step is one combinational function of the state
//! registers and the request, and the state and the response register on the same edge.
//!
//! State (§2.1): per-lane counters `cnt[n]` (`{type[2:0], depth[DW-1:0]}`), five CICs, per-type
//! convergence stacks, `loop_nest`, `fault`. The RTL ([`rtl::BranchUnit`]) is built from the
//! stages of §6.1, one file each: `decode` and `targets` (the request), `lanes` (the
//! lane-counter bank), `stack` (one shift stack per branch type), `levels` (label match, counter
//! codes, rejoin controls), `body` (the §2.4 bodies: state changes and response), `errors`
//! (§7 priority, beside the counter update) and `regs` (`loop_nest`, `fault`, the response
//! register, the debug view). Codes come from [`enc`], never literals.
//!
//! Widths fixed by the config are const generics (lanes, DW and the widths derived from them);
//! the stack depths are run-time lengths of `Vec`s of registers. Constants that depend on DW
//! (type codes, shift amounts, depth limits) are `Constant`s computed from the config.

mod body;
mod cut;
mod step_y;
mod decode;
pub mod enc;
mod errors;
mod lanes;
mod levels;
mod pre;
mod regs;
pub mod rtl;
mod stack;
mod targets;
mod thread_reg;
mod threads;

pub use enc::{err, op, ty};
pub use rtl::BranchUnit;

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};

/// `[branch_unit]` section of the eu-gen TOML config (spec §3.2).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `N`: SIMD lanes, one of {1, 4, 8, 16, 32}.
    pub lanes: usize,
    /// `MAXD`: depth of the IF, LOOP and BR stacks; 0 means "= lanes" (the spec default, R8).
    pub maxd: usize,
    /// `MAXD_CALL`: call/recursion depth.
    pub maxd_call: usize,
    /// `IPW`: IP width; `jip`/`uip` are signed `IPW`-bit values, `IMEM_DEPTH = 2^IPW`.
    pub ipw: usize,
    /// `THREADS` (timing-closure §3.2): hardware threads, each with its own §2 state, one of
    /// {1, 2, 4, 8, 16}. More than one needs IPW 16 (see [`THREADS_IPW`]).
    pub threads: usize,
    /// Pipeline depth: LAT = 1 + pipe cycles from request to response, 0..=[`PIPE_MAX`].
    pub pipe: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self { lanes: 16, maxd: 0, maxd_call: 8, ipw: 16, threads: 1, pipe: 0 }
    }
}

pub const THREADS_ALLOWED: [usize; 5] = [1, 2, 4, 8, 16];
/// `pipe` range [P]: 0 (today's unit, LAT 1) to 2 (request registered twice before the step).
pub const PIPE_MAX: usize = 2;
/// The IP width built for THREADS > 1: each thread count is its own monomorphised top, so they
/// are built for the default IPW only (every lane count and depth width).
pub const THREADS_IPW: usize = 16;

pub const LANES_ALLOWED: [usize; 5] = [1, 4, 8, 16, 32];
/// IP widths built. The spec gives only the default (16, §3.2 [P]) and no range; 12 (4 Ki
/// instructions, small FPGA instruction memories), 24 and 32 are the practical alternatives.
pub const IPW_ALLOWED: [usize; 4] = [12, 16, 24, 32];
/// Every depth width the config keys allow: `maxd` 1..=32 (0 = lanes) and `maxd_call` 1..=32
/// give DW = clog2(max+1) in 1..=6.
pub const DW_ALLOWED: [usize; 6] = [1, 2, 3, 4, 5, 6];

/// DW at the default depths (MAXD = N, MAXD_CALL = 8).
pub fn default_dw(lanes: usize) -> usize {
    Config::with(lanes, 0, 8).dw()
}

/// Whether (lanes, DW, IPW) is monomorphised: the full product, 5 lane counts x 6 depth widths
/// x 4 IP widths = 120 types (docs/branch_unit.md has the compile time this costs).
pub fn supported(lanes: usize, dw: usize, ipw: usize) -> bool {
    LANES_ALLOWED.contains(&lanes) && DW_ALLOWED.contains(&dw) && IPW_ALLOWED.contains(&ipw)
}

impl Config {
    pub fn with(lanes: usize, maxd: usize, maxd_call: usize) -> Self {
        Self { lanes, maxd, maxd_call, ipw: 16, threads: 1, pipe: 0 }
    }
    /// `TID_W = max(1, log2 THREADS)`.
    pub fn tid_w(&self) -> usize {
        self.threads.max(2).trailing_zeros() as usize
    }
    /// Resolved MAXD (0 = lanes).
    pub fn maxd_r(&self) -> usize {
        if self.maxd == 0 {
            self.lanes
        } else {
            self.maxd
        }
    }
    /// `DW = clog2(max(MAXD, MAXD_CALL) + 1)`.
    pub fn dw(&self) -> usize {
        let m = self.maxd_r().max(self.maxd_call) + 1;
        let mut w = 0;
        while (1usize << w) < m {
            w += 1;
        }
        w
    }
    pub fn cw(&self) -> usize {
        3 + self.dw()
    }
}

/// Builds and emits one monomorphised `BranchUnit`. Its own frame, never inlined: `hdl` is built
/// at opt-level 0, where a function gets a stack slot for every local of every branch, so
/// building the 120 types inline in `emit_any` made its frame larger than a test thread's 2 MiB
/// stack (stack overflow in `fpga_bist`'s BIST model, which emits in the test thread).
#[inline(never)]
fn emit_one<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize, const NCW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const T: usize, const TW: usize, const LM: usize, const SW: usize, const STKW: usize>(
    cfg: &Config,
    params: Vec<(String, String)>,
) -> Result<EmittedModule, EmitError> {
    let m = emit_module(
        BranchUnit::<N, DW, CW, IPW, XW, NCW, CICW, EW, TOSW, T, TW, LM, SW, STKW>::new(cfg.maxd_r(), cfg.maxd_call, cfg.threads, cfg.pipe),
        "eu_branch_unit",
        "branch_unit",
        params,
    )?;
    Ok(if T > 1 { rename_top_port(m, "lane_mask", "thr_lane_mask") } else { m })
}

/// Renames a port of the top module (its declaration and every use inside the top module;
/// submodule signals carry a `$` and are left alone). rust-hdl names a port after its field, and
/// timing-closure §3.2 names the lane-mask port `thr_lane_mask` when THREADS > 1.
fn rename_top_port(mut m: EmittedModule, from: &str, to: &str) -> EmittedModule {
    let start = m.verilog.find(&format!("module {}(", m.name)).expect("top module");
    let (head, top) = m.verilog.split_at(start);
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(top.len() + 64);
    let mut rest = top;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().last();
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(is_id) || after.is_some_and(is_id) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    m.verilog = format!("{head}{out}");
    for p in m.ports.iter_mut().filter(|p| p.name == from) {
        p.name = to.to_string();
    }
    m
}

/// One monomorphised `BranchUnit` for (lanes, DW, IPW); returns from the enclosing fn on a match.
macro_rules! emit_leaf {
    ($cfg:expr, $params:expr, $n:literal, $dw:literal, $ipw:literal) => {
        if ($cfg.lanes, $cfg.dw(), $cfg.ipw, $cfg.threads) == ($n, $dw, $ipw, 1) {
            return emit_one::<$n, $dw, { $dw + 3 }, $ipw, { $ipw + 2 }, { $n * ($dw + 3) }, { 5 * $dw }, { $ipw + $dw }, { 5 * ($ipw + $dw) }, 1, 1, $n, { ((1 << $dw) - 1) * ($ipw + $dw) }, { (4 * ((1 << $dw) - 1) + 1) * ($ipw + $dw) }>(
                $cfg, $params,
            );
        }
        if $ipw == THREADS_IPW {
            emit_threads!($cfg, $params, $n, $dw, $ipw; [(2, 1), (4, 2), (8, 3), (16, 4)]);
        }
    };
}

/// The THREADS > 1 tops of one (lanes, DW, IPW): (THREADS, TID_W) pairs.
macro_rules! emit_threads {
    ($cfg:expr, $params:expr, $n:literal, $dw:literal, $ipw:literal; [$(($t:literal, $tw:literal)),*]) => {
        $(
            if ($cfg.lanes, $cfg.dw(), $cfg.ipw, $cfg.threads) == ($n, $dw, $ipw, $t) {
                return emit_one::<$n, $dw, { $dw + 3 }, $ipw, { $ipw + 2 }, { $n * ($dw + 3) }, { 5 * $dw }, { $ipw + $dw }, { 5 * ($ipw + $dw) }, $t, $tw, { $t * $n }, { ((1 << $dw) - 1) * ($ipw + $dw) }, { (4 * ((1 << $dw) - 1) + 1) * ($ipw + $dw) }>(
                    $cfg, $params,
                );
            }
        )*
    };
}

/// Every IPW for one (lanes, DW).
macro_rules! emit_ipws {
    ($cfg:expr, $params:expr, $n:literal, $dw:literal; [$($ipw:literal),*]) => {
        $( emit_leaf!($cfg, $params, $n, $dw, $ipw); )*
    };
}

/// Every DW x IPW for one lane count.
macro_rules! emit_dws {
    ($cfg:expr, $params:expr, $n:literal; [$($dw:literal),*]; $ipws:tt) => {
        $( emit_ipws!($cfg, $params, $n, $dw; $ipws); )*
    };
}

/// The product lanes x DW x IPW of the given lists (`supported` must agree; the unit test
/// `every_supported_combination_emits_and_lints` checks it).
macro_rules! emit_all {
    ($cfg:expr, $params:expr; [$($n:literal),*]; $dws:tt; $ipws:tt) => {{
        $( emit_dws!($cfg, $params, $n; $dws; $ipws); )*
    }};
}

fn emit_any(cfg: &Config, params: Vec<(String, String)>) -> Result<EmittedModule, EmitError> {
    emit_all!(cfg, params.clone(); [1, 4, 8, 16, 32]; [1, 2, 3, 4, 5, 6]; [12, 16, 24, 32]);
    unreachable!("validated config has lanes {}, DW {}, IPW {}", cfg.lanes, cfg.dw(), cfg.ipw)
}

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = "branch_unit";
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] =
        &[&enc::op::TABLE, &enc::ty::TABLE, &enc::err::TABLE, &enc::warn::TABLE, &enc::ev::TABLE];
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of("branch_unit", "lanes", cfg.lanes, &LANES_ALLOWED)?;
        check_range("branch_unit", "maxd", cfg.maxd as u64, 0, 32)?;
        check_range("branch_unit", "maxd_call", cfg.maxd_call as u64, 1, 32)?;
        check_one_of("branch_unit", "ipw", cfg.ipw, &IPW_ALLOWED)?;
        check_one_of("branch_unit", "threads", cfg.threads, &THREADS_ALLOWED)?;
        check_range("branch_unit", "pipe", cfg.pipe as u64, 0, PIPE_MAX as u64)?;
        if cfg.threads > 1 && cfg.ipw != THREADS_IPW {
            return Err(ConfigError::new(
                "branch_unit.ipw",
                format!("must be {THREADS_IPW} with threads > 1 (the multi-thread tops are built for it), got {}", cfg.ipw),
            ));
        }
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let params = crate::params!(
            "lanes" => cfg.lanes, "maxd" => cfg.maxd_r(), "maxd_call" => cfg.maxd_call, "ipw" => cfg.ipw,
            "dw" => cfg.dw(), "cw" => cfg.cw(), "threads" => cfg.threads, "pipe" => cfg.pipe,
            "tid_w" => cfg.tid_w(), "lat" => 1 + cfg.pipe
        );
        Ok(vec![emit_any(cfg, params)?])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        vec![
            ("n1", Config::with(1, 0, 8)),
            ("n4", Config::with(4, 0, 8)),
            ("n8", Config::with(8, 0, 8)),
            ("n16", Config::with(16, 0, 8)),
            ("n32", Config::with(32, 0, 8)),
            ("n4_d2", Config::with(4, 2, 2)),
            // non-default IP widths: the narrowest (IPs and targets at the top of a 12-bit
            // range) and the widest (IPW+2 = 34-bit target arithmetic), at default depths
            ("n8_ipw12", Config { ipw: 12, ..Config::with(8, 0, 8) }),
            ("n4_ipw32", Config { ipw: 32, ..Config::with(4, 0, 8) }),
            // timing-closure §3.2: state in RAM (registered read) with one thread; several
            // threads with LUT-RAM at pipe 0; with RAM at pipe 1 (small lanes) and pipe 2
            // (default lanes)
            ("t1_p1", Config { pipe: 1, ..Config::with(4, 0, 8) }),
            ("t2_p0", Config { threads: 2, ..Config::with(4, 0, 8) }),
            ("t4_p1", Config { threads: 4, pipe: 1, ..Config::with(4, 0, 8) }),
            // the FPGA config (configs/branch_unit-small.toml, the BIST top): the step over two
            // cycles on four threads
            ("t4_p2", Config { threads: 4, pipe: 2, ..Config::with(4, 0, 8) }),
            ("t8_p2", Config { threads: 8, pipe: 2, ..Config::with(16, 0, 8) }),
            // the config matrix (docs "Config matrix"): the spec's E-2 config (N 4, MAXD_CALL 2,
            // DW 3); the depth extremes (MAXD 32 on one lane, MAXD_CALL 1; MAXD 1, MAXD_CALL 32
            // at IPW 24); sixteen threads at the deepest pipe
            ("n4_e2", Config::with(4, 0, 2)),
            ("n1_d32_c1", Config::with(1, 32, 1)),
            ("n8_d1_c32_ipw24", Config { ipw: 24, ..Config::with(8, 1, 32) }),
            ("t16_p2", Config { threads: 16, pipe: 2, ..Config::with(4, 0, 8) }),
        ]
    }
    fn config_matrix() -> crate::ConfigMatrix {
        crate::ConfigMatrix::default()
            .key("lanes", &["1", "4", "8", "16", "32"], "every value")
            .key("maxd", &["0", "1", "32"], "0 (MAXD = N, the default) and both ends of 1..=32")
            .key("maxd_call", &["1", "2", "8", "32"], "1..=32: both ends, the default and the spec's E-2 (2)")
            .key("ipw", &["12", "16", "24", "32"], "every value")
            .key("threads", &["1", "2", "4", "8", "16"], "every value")
            .key("pipe", &["0", "1", "2"], "every value")
            .pair(("lanes", "4"), ("maxd_call", "2"))
            .pair(("threads", "2"), ("pipe", "0"))
            .pair(("threads", "16"), ("pipe", "2"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_errors_name_the_key() {
        let bad = |c: Config, key: &str| {
            let e = Block::validate(&c).unwrap_err();
            assert_eq!(e.key, format!("branch_unit.{key}"), "{e}");
        };
        bad(Config { lanes: 3, ..Default::default() }, "lanes");
        bad(Config { maxd: 33, ..Default::default() }, "maxd");
        bad(Config { maxd_call: 0, ..Default::default() }, "maxd_call");
        bad(Config { ipw: 20, ..Default::default() }, "ipw");
        bad(Config { threads: 3, ..Default::default() }, "threads");
        bad(Config { threads: 32, ..Default::default() }, "threads");
        bad(Config { pipe: PIPE_MAX + 1, ..Default::default() }, "pipe");
        bad(Config { threads: 4, ipw: 12, ..Default::default() }, "ipw");
        for t in THREADS_ALLOWED {
            for pipe in 0..=PIPE_MAX {
                Block::validate(&Config { threads: t, pipe, ..Default::default() }).unwrap();
            }
        }
        Block::validate(&Config { lanes: 16, maxd: 2, maxd_call: 2, ipw: 12, ..Default::default() }).unwrap();
        Block::validate(&Config { lanes: 16, maxd: 2, maxd_call: 2, ipw: 16, ..Default::default() }).unwrap();
        Block::validate(&Config { lanes: 1, maxd: 1, maxd_call: 1, ipw: 16, ..Default::default() }).unwrap();
        Block::validate(&Config { lanes: 32, maxd: 0, maxd_call: 8, ipw: 32, ..Default::default() }).unwrap();
        Block::validate(&Config::default()).unwrap();
        let c: crate::EuConfig = toml::from_str("[branch_unit]\nlanes = 8\nmaxd_call = 4\n").unwrap();
        assert_eq!(c.branch_unit.unwrap(), Config::with(8, 0, 4));
        assert!(toml::from_str::<crate::EuConfig>("[branch_unit]\nlane = 8\n").is_err());
        let c: crate::EuConfig = toml::from_str("[branch_unit]\nthreads = 8\npipe = 2\n").unwrap();
        assert_eq!((c.branch_unit.as_ref().unwrap().threads, c.branch_unit.unwrap().pipe), (8, 2));
    }

    #[test]
    fn widths_follow_the_spec() {
        // §3.2: DW = clog2(max(MAXD, MAXD_CALL)+1): 5 at defaults, 4 for the §4 vectors (N<=8).
        assert_eq!(Config::default().dw(), 5);
        assert_eq!(Config::with(8, 0, 8).dw(), 4);
        assert_eq!(Config::with(4, 0, 2).dw(), 3); // E-2 config
        assert_eq!(Config::with(32, 0, 8).dw(), 6);
    }

    /// Emits every co-sim variant and runs the project lint gate
    /// (verilator -Wall with the generator waivers) and the yosys latch check on it.
    #[test]
    fn emitted_verilog_passes_lint_and_yosys() {
        let dir = std::env::temp_dir().join(format!("eu_branch_unit_lint_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (v, cfg) in Block::cosim_configs() {
            let m = Block::emit(&cfg).unwrap().remove(0);
            let f = dir.join(format!("{v}.v"));
            std::fs::write(&f, &m.verilog).unwrap();
            let o = std::process::Command::new("verilator")
                .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-WIDTH", "-Wno-UNUSEDSIGNAL", "-Wno-UNUSEDPARAM"])
                .args(["--top-module", "eu_branch_unit"])
                .arg(&f)
                .output()
                .expect("verilator not found: run scripts/setup.sh (apt-get install -y verilator)");
            assert!(o.status.success(), "{v}: verilator lint:\n{}", String::from_utf8_lossy(&o.stderr));
            if v == "n4" || v == "n4_d2" {
                let script = format!(
                    "read_verilog {}; hierarchy -check -top eu_branch_unit; proc; check -assert; synth -top eu_branch_unit; select -assert-none t:$dlatch t:$_DLATCH_*",
                    f.display()
                );
                let o = std::process::Command::new("yosys")
                    .args(["-q", "-p", &script])
                    .output()
                    .expect("yosys not found: run scripts/setup.sh (apt-get install -y yosys)");
                assert!(o.status.success(), "{v}: yosys:\n{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            }
        }
    }

    /// Every (lanes, DW, IPW) combination (`validate` accepts them all) emits and has the spec's
    /// port widths, and every (lanes, DW) passes the Verilator lint gate with one IPW, rotating
    /// (generate-time panics and width slips at DW = 1 or IPW = 32 would show here; only the
    /// co-sim variants are verilated for simulation).
    /// In two halves by lane count (1..=4 and 8..=32 lanes), which the test harness runs on two
    /// threads: the sweep is the longest test of the crate (≈ 150 types emitted at opt-level 0).
    #[test]
    fn every_supported_combination_emits_and_lints_up_to_4_lanes() {
        every_supported_combination_emits_and_lints(|lanes| lanes <= 4);
    }
    #[test]
    fn every_supported_combination_emits_and_lints_8_lanes_and_more() {
        every_supported_combination_emits_and_lints(|lanes| lanes > 4);
    }

    fn every_supported_combination_emits_and_lints(part: fn(usize) -> bool) {
        type HCfg = Config;
        let dir = std::env::temp_dir().join(format!("eu_branch_unit_all_{}_{}", std::process::id(), part(1)));
        std::fs::create_dir_all(&dir).unwrap();
        let (mut n, mut linted) = (0, 0);
        for (li, &lanes) in LANES_ALLOWED.iter().enumerate().filter(|(_, &l)| part(l)) {
            for &ipw in &IPW_ALLOWED {
                for &dw in &DW_ALLOWED {
                    // the smallest depth with this DW: clog2(2^(dw-1) + 1) = dw
                    let d = 1usize << (dw - 1);
                    let cfg = if dw == default_dw(lanes) { HCfg { ipw, ..HCfg::with(lanes, 0, 8) } } else { HCfg { lanes, maxd: d, maxd_call: d, ipw, ..Default::default() } };
                    assert_eq!(cfg.dw(), dw);
                    let ok = Block::validate(&cfg);
                    assert_eq!(ok.is_ok(), supported(lanes, dw, ipw), "{cfg:?}");
                    if ok.is_err() {
                        assert_eq!(ok.unwrap_err().key, "branch_unit.ipw");
                        continue;
                    }
                    let m = Block::emit(&cfg).unwrap().remove(0);
                    let w = |name: &str| m.ports.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("{name}")).width;
                    assert_eq!((w("req_ip"), w("req_jip"), w("rsp_next_ip")), (ipw, ipw, ipw), "{cfg:?}");
                    assert_eq!((w("req_pred"), w("dbg_cnt"), w("dbg_cic")), (lanes, lanes * (dw + 3), 5 * dw), "{cfg:?}");
                    assert_eq!((w("dbg_loop_nest"), w("dbg_tos")), (dw, 5 * (ipw + dw)), "{cfg:?}");
                    assert_eq!(w("dbg_stk"), (4 * ((1 << dw) - 1) + 1) * (ipw + dw), "{cfg:?}");
                    n += 1;
                    // Every combination is emitted and its port widths checked (each is its own
                    // instance of the const generics); the lint, which costs more than the
                    // emission, runs once per (lanes, DW) with the IPW rotating, so that every
                    // value of every parameter is linted with several others.
                    if ipw != IPW_ALLOWED[(li + dw) % IPW_ALLOWED.len()] {
                        continue;
                    }
                    linted += 1;
                    let f = dir.join(format!("n{lanes}_dw{dw}_ipw{ipw}.v"));
                    std::fs::write(&f, &m.verilog).unwrap();
                    let o = std::process::Command::new("verilator")
                        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-WIDTH", "-Wno-UNUSEDSIGNAL", "-Wno-UNUSEDPARAM"])
                        .args(["--top-module", "eu_branch_unit"])
                        .arg(&f)
                        .output()
                        .expect("verilator not found: run scripts/setup.sh (apt-get install -y verilator)");
                    assert!(o.status.success(), "{cfg:?}: verilator lint:\n{}", String::from_utf8_lossy(&o.stderr));
                }
            }
        }
        println!("{n} (lanes, DW, IPW) combinations emitted, {linted} linted");
        // THREADS > 1 (IPW 16): every (lanes, DW) once, thread count and pipe depth rotating
        let mut k = 0;
        for &lanes in &LANES_ALLOWED {
            for &dw in &DW_ALLOWED {
                let d = 1usize << (dw - 1);
                let base = if dw == default_dw(lanes) { HCfg::with(lanes, 0, 8) } else { HCfg { lanes, maxd: d, maxd_call: d, ..Default::default() } };
                let cfg = HCfg { threads: THREADS_ALLOWED[1 + k % 4], pipe: k % (PIPE_MAX + 1), ..base };
                k += 1;
                if !part(lanes) {
                    continue;
                }
                Block::validate(&cfg).unwrap();
                let m = Block::emit(&cfg).unwrap().remove(0);
                let w = |name: &str| m.ports.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("{name}")).width;
                assert_eq!((w("req_tid"), w("rsp_tid"), w("thr_busy")), (cfg.tid_w(), cfg.tid_w(), cfg.threads), "{cfg:?}");
                assert_eq!(w("thr_lane_mask"), cfg.threads * lanes, "{cfg:?}");
                assert!(m.ports.iter().all(|p| p.name != "lane_mask"), "{cfg:?}: lane_mask is replaced");
                let f = dir.join(format!("n{lanes}_dw{dw}_t{}_p{}.v", cfg.threads, cfg.pipe));
                std::fs::write(&f, &m.verilog).unwrap();
                let o = std::process::Command::new("verilator")
                    .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-WIDTH", "-Wno-UNUSEDSIGNAL", "-Wno-UNUSEDPARAM"])
                    .args(["--top-module", "eu_branch_unit"])
                    .arg(&f)
                    .output()
                    .expect("verilator not found: run scripts/setup.sh (apt-get install -y verilator)");
                assert!(o.status.success(), "{cfg:?}: verilator lint:\n{}", String::from_utf8_lossy(&o.stderr));
            }
        }
        assert_eq!(n, LANES_ALLOWED.iter().filter(|&&l| part(l)).count() * DW_ALLOWED.len() * IPW_ALLOWED.len());
        assert!(linted >= LANES_ALLOWED.iter().filter(|&&l| part(l)).count() * (DW_ALLOWED.len() - 2), "{linted} linted");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
