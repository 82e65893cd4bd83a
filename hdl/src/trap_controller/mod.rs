//! trap_controller: the SM trap handler controller of spec trap-controller.md (§2.4, §7).
//!
//! One module, `eu_trap_controller`. All warps of the SM trap together and return together: the
//! global mode (NORM, DRAIN, ENTER, HANDLER) and the per-warp states (IDLE, RUN, TRAP, RETW,
//! PAUSED, PARKED, RSTR, KILLED) follow the step function of §7.4.
//!
//! - `enc`: every code the spec names (modes, warp states, causes, sticky bits, CSR addresses,
//!   SR selectors, ...), from which the RTL's `k_*` constants, the golden model's names, the
//!   Verilog header and the docs' tables come;
//! - `rtl`: the top `TrapCtl` (ports of §7.1, wiring);
//! - one file per function of §7.4's step, each owning its registers: `csr` (CSR file, step 1,
//!   reads), `global` (step 2), `warp` (one FSM per warp: outputs, steps 3 and 4, its part of
//!   SAVE and the exit), `episode` (step 5, TGID/HLAT at SAVE), `mode` (step 6), `save_exit`
//!   (step 6's SAVE and exit, apart from `mode` so no block feeds its own inputs), `status`
//!   (step 7, STICKY, `host_irq`), `view` and `sr` (the host window and the SR read).

pub mod buses;
pub mod csr;
pub mod enc;
pub mod episode;
pub mod global;
pub mod input_stage;
pub mod mode;
pub mod rtl;
pub mod save_exit;
pub mod sr;
pub mod status;
pub mod view;
pub mod warp;
pub mod warp_step;

pub use rtl::TrapCtl;

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};

/// `[trap_controller]` section. Defaults are the spec's (§4) except `warps`, whose co-sim
/// default is the spec's W=8.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// W: warps per SM, one of {1, 2, 4, 8, 16, 32}.
    pub warps: usize,
    /// T: threads per warp (active-mask width). Only 32 is built (see docs/trap_controller.md).
    pub threads: usize,
    /// PC_W: PC / address width. Only 32 is built (see docs/trap_controller.md).
    pub pc_width: usize,
    /// HADDR_RESET: reset value of HADDR/HLAT (must fit PC_W bits).
    pub haddr_reset: u64,
    /// HAS_SSTEP: single-step hardware present.
    pub has_sstep: bool,
    /// Pipeline depth of timing-closure §3.3, 0 or 1: with 1 every input is registered once
    /// before the §7.4 step (and so the SR/CSR read data come one cycle after the request);
    /// every reaction is one cycle later. 0 is the spec's timing.
    pub pipe: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self { warps: 8, threads: 32, pc_width: 32, haddr_reset: 0, has_sstep: true, pipe: 0 }
    }
}

impl Config {
    pub fn with_warps(warps: usize) -> Self {
        Self { warps, ..Default::default() }
    }
    /// WID_W = max(1, ceil(log2 W)).
    pub fn wid_w(&self) -> usize {
        let mut b = 0;
        while (1usize << b) < self.warps {
            b += 1;
        }
        b.max(1)
    }
}

pub struct Block;

const SECTION: &str = "trap_controller";

fn build<
    const W: usize,
    const WIDW: usize,
    const WC: usize,
    const WT: usize,
    const WPC: usize,
    const T: usize,
    const PCW: usize,
>(
    cfg: &Config,
) -> Result<EmittedModule, EmitError> {
    let mut m = emit_module(
        TrapCtl::<W, WIDW, WC, WT, WPC, T, PCW>::new(cfg),
        "eu_trap_controller",
        SECTION,
        crate::params!(
            "W" => W, "T" => T, "PC_W" => PCW, "WID_W" => WIDW,
            "HADDR_RESET" => format!("{:#x}", cfg.haddr_reset), "HAS_SSTEP" => cfg.has_sstep as u8,
            "PIPE" => cfg.pipe
        ),
    )?;
    if W == 1 {
        m.verilog = strip_scalar_selects(&m.verilog);
    }
    Ok(m)
}

/// rust-hdl declares a `Bits<1>` without a range but still emits `x[0]` for `get_bit(0)`, which
/// is illegal on a scalar. For W = 1 every per-warp mask is such a scalar: in each module, rewrite
/// `x[0]` to `x` for the scalars that module declares.
fn strip_scalar_selects(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while !rest.is_empty() {
        let end = rest.find("endmodule").map_or(rest.len(), |e| e + "endmodule".len());
        out.push_str(&strip_module(&rest[..end]));
        rest = &rest[end..];
    }
    out
}

fn strip_module(v: &str) -> String {
    let mut scalars: Vec<String> = Vec::new();
    for line in v.lines() {
        let t = line.trim();
        if !t.ends_with(';') || t.contains('[') || t.contains('=') {
            continue;
        }
        let kind: Vec<&str> = t.trim_end_matches(';').split_whitespace().collect();
        if kind.len() >= 2 && ["input", "output", "reg", "wire"].contains(&kind[0]) {
            scalars.push(kind[kind.len() - 1].to_string());
        }
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(pos) = rest.find("[0]") {
        let head = &rest[..pos];
        let start = head.rfind(|c: char| !is_ident(c)).map_or(0, |p| p + 1);
        let name = &head[start..];
        out.push_str(head);
        if !scalars.iter().any(|s| s == name) {
            out.push_str("[0]");
        }
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out
}

impl BlockGen for Block {
    const NAME: &'static str = SECTION;
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] = enc::TABLES;
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of(SECTION, "warps", cfg.warps, &[1, 2, 4, 8, 16, 32])?;
        check_one_of(SECTION, "threads", cfg.threads, &[32])?;
        check_one_of(SECTION, "pc_width", cfg.pc_width, &[32])?;
        check_range(SECTION, "haddr_reset", cfg.haddr_reset, 0, (1u64 << cfg.pc_width) - 1)?;
        check_one_of(SECTION, "pipe", cfg.pipe, &[0, 1])?;
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let m = match cfg.warps {
            1 => build::<1, 1, 4, 32, 32, 32, 32>(cfg)?,
            2 => build::<2, 1, 8, 64, 64, 32, 32>(cfg)?,
            4 => build::<4, 2, 16, 128, 128, 32, 32>(cfg)?,
            8 => build::<8, 3, 32, 256, 256, 32, 32>(cfg)?,
            16 => build::<16, 4, 64, 512, 512, 32, 32>(cfg)?,
            32 => build::<32, 5, 128, 1024, 1024, 32, 32>(cfg)?,
            w => unreachable!("validate rejects warps = {w}"),
        };
        Ok(vec![m])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        // W = 8 is the spec's and eu-gen's default; "<variant>_p" twins run every test at pipe = 1
        // (timing-closure §3.3): W = 4 (the E1-E9 examples, the FPGA config) and W = 8
        let p1 = |w| Config { pipe: 1, ..Config::with_warps(w) };
        vec![
            ("w1", Config::with_warps(1)),
            ("w4", Config::with_warps(4)),
            ("w8", Config::with_warps(8)),
            ("w16", Config::with_warps(16)),
            ("w32", Config::with_warps(32)),
            ("w4_p", p1(4)),
            ("w8_p", p1(8)),
            // the config matrix's corner (docs "Config matrix"): the W no other variant has, no
            // single-step hardware (CTRL.SSTEP_EN reads 0, PARAMS bit 18 clear) and HADDR's reset
            // value at the top of the PC range, at pipe 1
            ("w2_nosstep_p", Config { haddr_reset: 0xFFFF_FFFF, has_sstep: false, ..p1(2) }),
        ]
    }
    fn config_matrix() -> crate::ConfigMatrix {
        crate::ConfigMatrix::default()
            .key("warps", &["1", "2", "8", "32"], "1..=32 (powers of 2): the extremes, the default and 2 (the one-bit warp id with two warps)")
            .key("threads", &["32"], "only 32 is built")
            .key("pc_width", &["32"], "only 32 is built")
            .key("haddr_reset", &["0", "4294967295"], "0..=2^PC_W-1: both ends")
            .key("has_sstep", &["true", "false"], "single-step hardware or none")
            .key("pipe", &["0", "1"], "the input stage (timing-closure §3.3)")
            .pair(("pipe", "1"), ("warps", "8"))
            .pair(("pipe", "1"), ("has_sstep", "false"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pipe` is 0 or 1 (timing-closure §3.3): anything else names the key and the values.
    #[test]
    fn pipe_is_zero_or_one() {
        for pipe in [0, 1] {
            Block::validate(&Config { pipe, ..Default::default() }).unwrap();
        }
        let e = Block::validate(&Config { pipe: 2, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "trap_controller.pipe");
        assert!(e.msg.contains('0') && e.msg.contains('1') && e.msg.contains('2'), "{e}");
        let c: Config = toml::from_str("warps = 4\npipe = 1\n").unwrap();
        assert_eq!((c.warps, c.pipe), (4, 1));
    }

    /// pipe = 1 adds exactly one register per input port (the input stage); pipe = 0 has the
    /// same stage as wires.
    #[test]
    fn pipe1_registers_every_input_once() {
        for w in [1, 4] {
            let v0 = Block::emit(&Config::with_warps(w)).unwrap().remove(0).verilog;
            let v1 = Block::emit(&Config { pipe: 1, ..Config::with_warps(w) }).unwrap().remove(0).verilog;
            // the StageRegs' `localparam k_registered = 1'?0|1;`, by value
            let stage = |v: &str, registered: char| {
                v.lines()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|l| l.starts_with("localparam k_registered =") && l.trim_end_matches(';').ends_with(registered))
                    .count()
            };
            // 26 input ports besides clk and rst
            assert_eq!((stage(&v0, '0'), stage(&v0, '1')), (26, 0), "W={w} pipe 0");
            assert_eq!((stage(&v1, '0'), stage(&v1, '1')), (0, 26), "W={w} pipe 1");
        }
    }

    #[test]
    fn scalar_selects_are_stripped_per_module() {
        let v = "module a(x);\n input wire x;\n reg [3:0] y;\n always @(*) y = x[0] | y[0];\nendmodule\n\
                 module b(x);\n input wire [1:0] x;\n reg y;\n always @(*) y = x[0] | y[0];\nendmodule\n";
        let s = strip_scalar_selects(v);
        assert!(s.contains("y = x | y[0];"), "{s}");
        assert!(s.contains("y = x[0] | y;"), "{s}");
    }

    /// Every register is an `RDff` (reset inside its clocked block), so no logic reads `rst`:
    /// in the emitted Verilog `rst` appears only in port lists, port connections and the
    /// registers' `if (rst)`.
    #[test]
    fn no_logic_reads_rst() {
        let m = Block::emit(&Config::with_warps(4)).unwrap().remove(0);
        for line in m.verilog.lines().map(str::trim) {
            let reads_rst = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).any(|w| w == "rst" || w.ends_with("$rst"));
            if !reads_rst {
                continue;
            }
            let ok = line.starts_with("module ")
                || line.starts_with('.')
                || line.starts_with("input ")
                || line.starts_with("wire ")
                || line.starts_with("reg ")
                || line.starts_with("if (rst)")
                || line.ends_with("= rst;");
            assert!(ok, "`rst` read by logic: {line}");
        }
    }
}
