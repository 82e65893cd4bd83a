//! alu_pipeline: the quad × rows SIMD ALU stage with conditional-execute (CE) bits
//! (spec: shared/spec/alu-pipeline.md). Deserializer → three rotating group buffers → one slot
//! per clock through a 4-stage pipe of NUM_ALUS lanes (read, multiply, combine, write back) →
//! serializer. A dead slot (CE = 0) keeps its cycle but, per GATE_SCOPE, its bank registers get
//! no enable (`if en { bank.d = .. }` → clock-enable flops), it writes nothing and sets no CE bit.
//!
//! `enc` holds the codes (§6.2/§6.3 ops and operands, §8 errors, §2.3 states, §6.5 scopes);
//! `isa` adds sizes, field positions and instruction builders for the golden model and tests.
//!
//! Files: `rtl.rs` the top (`AluPipe`, wiring only), `sequencer.rs` (buffer states, pointers),
//! `buffers.rs` (the group buffers behind RAM-like ports), `shadow.rs` (shadow pipe, bank
//! enables), `config.rs` (IMEM/G/K and the config bus), `decode.rs` (S1 decode and checks),
//! `operands.rs` (S1 operand read), `lane.rs` (one lane's banks B1..B3), `control_bank.rs`
//! (cx1..cx3), `writeback.rs` (S4 cxw and write counts), `fill_check.rs` (§8 fill checks),
//! `counters.rs` (§6.6), `errors.rs` (§8 error log). docs/alu_pipeline.md has the block table.

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};

pub mod enc;
mod bank_clocks;
mod buffers;
mod config;
mod control_bank;
mod counters;
mod decode;
mod errors;
mod fill_check;
mod issue_select;
mod lane;
mod line_next;
mod operands;
mod rtl;
mod sequencer;
mod shadow;
mod writeback;
pub use rtl::AluPipe;

/// Sizes, instruction field positions and helpers for the golden model and the tests; the
/// codes are `enc`'s (re-exported here under their historical `OP_*`/`ERR_*` names).
pub mod isa {
    use super::enc;
    pub const W: usize = 32;
    pub const NPIX: usize = 4;
    pub const NBUF: usize = 3;
    pub const MAX_ROWS: usize = 4;
    pub const NG: usize = 8;
    pub const NK: usize = 8;

    // opcodes (§6.2)
    pub const OP_NOP: u32 = enc::op::NOP as u32;
    pub const OP_ADD: u32 = enc::op::ADD as u32;
    pub const OP_SUB: u32 = enc::op::SUB as u32;
    pub const OP_MIN: u32 = enc::op::MIN as u32;
    pub const OP_MAX: u32 = enc::op::MAX as u32;
    pub const OP_AND: u32 = enc::op::AND as u32;
    pub const OP_OR: u32 = enc::op::OR as u32;
    pub const OP_XOR: u32 = enc::op::XOR as u32;
    pub const OP_SHR: u32 = enc::op::SHR as u32;
    pub const OP_SAR: u32 = enc::op::SAR as u32;
    pub const OP_SEQ: u32 = enc::op::SEQ as u32;
    pub const OP_SNE: u32 = enc::op::SNE as u32;
    pub const OP_SLT: u32 = enc::op::SLT as u32;
    pub const OP_SGE: u32 = enc::op::SGE as u32;
    pub const OP_SLTU: u32 = enc::op::SLTU as u32;
    pub const OP_ILLEGAL: u32 = enc::op::ILLEGAL as u32;

    // lane word fields (lsb, width)
    pub const F_OP: (u32, u32) = (0, 4);
    pub const F_SRC: [(u32, u32); 4] = [(4, 5), (9, 5), (14, 5), (19, 5)];
    pub const F_DST: (u32, u32) = (24, 5);
    pub const F_LANE_RSV: (u32, u32) = (29, 3);
    // control word fields
    pub const F_CXW_EN: (u32, u32) = (0, 1);
    pub const F_CXW_SRC: (u32, u32) = (1, 2);
    pub const F_CXW_FN: (u32, u32) = (3, 2);
    pub const F_MASK_T: (u32, u32) = (5, 4);
    pub const F_MASK_F: (u32, u32) = (9, 4);
    pub const F_CTRL_RSV: (u32, u32) = (13, 19);

    pub const FN_SET: u32 = enc::cxw_fn::SET as u32;
    pub const FN_AND: u32 = enc::cxw_fn::AND as u32;
    pub const FN_OR: u32 = enc::cxw_fn::OR as u32;

    /// Source codes: 0–15 rN, 16–23 gN, 24–31 kN. Destination 31 = none.
    pub const SRC_G: u32 = enc::src::G0 as u32;
    pub const SRC_K: u32 = enc::src::K0 as u32;
    pub const DST_NONE: u32 = enc::src::DST_NONE as u32;

    // §8 error codes
    pub const ERR_OPCODE: u32 = enc::err::OPCODE as u32;
    pub const ERR_DST: u32 = enc::err::DST as u32;
    pub const ERR_DST_CONFLICT: u32 = enc::err::DST_CONFLICT as u32;
    pub const ERR_CXW_FN: u32 = enc::err::CXW_FN as u32;
    pub const ERR_CXW_SRC: u32 = enc::err::CXW_SRC as u32;
    pub const ERR_CXW_MASK: u32 = enc::err::CXW_MASK as u32;
    pub const ERR_RSV: u32 = enc::err::RSV as u32;
    pub const ERR_ORDER: u32 = enc::err::ORDER as u32;
    pub const ERR_NROWS: u32 = enc::err::NROWS as u32;
    pub const ERR_SIMD: u32 = enc::err::SIMD as u32;
    pub const ERR_IPTR: u32 = enc::err::IPTR as u32;
    pub const ERR_CFG_BUSY: u32 = enc::err::CFG_BUSY as u32;
    pub const ERR_CFG_ADDR: u32 = enc::err::CFG_ADDR as u32;

    // config map (§7.2)
    pub const CFG_G: u32 = 0x100;
    pub const CFG_K: u32 = 0x108;
    pub const CFG_CTRL: u32 = 0x110;
    pub const fn cfg_imem(entry: u32, word: u32) -> u32 {
        8 * entry + word
    }

    /// Reset value of K (A19).
    pub const K_RESET: [u32; 8] = [0, 1, 0xFFFF_FFFF, 0, 0, 0, 0, 0];

    // buffer states (§2.3)
    pub const ST_EMPTY: u32 = enc::state::EMPTY as u32;
    pub const ST_FILL: u32 = enc::state::FILL as u32;
    pub const ST_FULL: u32 = enc::state::FULL as u32;
    pub const ST_RUN: u32 = enc::state::RUN as u32;
    pub const ST_DONE: u32 = enc::state::DONE as u32;
    pub const ST_DRAIN: u32 = enc::state::DRAIN as u32;

    /// GATE_SCOPE codes as the RTL constant holds them.
    pub const SCOPE_ALL: u32 = enc::scope::ALL as u32;
    pub const SCOPE_FIRST: u32 = enc::scope::FIRST as u32;
    pub const SCOPE_NONE: u32 = enc::scope::NONE as u32;

    pub const fn field(w: u32, f: (u32, u32)) -> u32 {
        (w >> f.0) & ((1u64 << f.1) - 1) as u32
    }

    /// Lane word `dst = op(a*b, c*d)`.
    pub const fn lane(op: u32, a: u32, b: u32, c: u32, d: u32, dst: u32) -> u32 {
        op | a << 4 | b << 9 | c << 14 | d << 19 | dst << 24
    }
    /// Control word with a cxw descriptor.
    pub const fn cxw(src: u32, func: u32, mask_t: u32, mask_f: u32) -> u32 {
        1 | src << 1 | func << 3 | mask_t << 5 | mask_f << 9
    }
    pub const fn r(n: u32) -> u32 {
        n
    }
    pub const fn g(n: u32) -> u32 {
        SRC_G + n
    }
    pub const fn k(n: u32) -> u32 {
        SRC_K + n
    }

    /// R = combine(op, P, Q) for a legal op (op 0 and 15 give 0).
    pub fn combine(op: u32, p: u32, q: u32) -> u32 {
        let (ps, qs) = (p as i32, q as i32);
        match op {
            OP_ADD => p.wrapping_add(q),
            OP_SUB => p.wrapping_sub(q),
            OP_MIN => ps.min(qs) as u32,
            OP_MAX => ps.max(qs) as u32,
            OP_AND => p & q,
            OP_OR => p | q,
            OP_XOR => p ^ q,
            OP_SHR => p >> (q & 31),
            OP_SAR => (ps >> (q & 31)) as u32,
            OP_SEQ => (p == q) as u32,
            OP_SNE => (p != q) as u32,
            OP_SLT => (ps < qs) as u32,
            OP_SGE => (ps >= qs) as u32,
            OP_SLTU => (p < q) as u32,
            _ => 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// NUM_ALUS: lanes per slot, 1..=4.
    pub num_alus: u32,
    /// IMEM_DEPTH: instruction entries, 1..=32.
    pub imem_depth: u32,
    /// GATE_SCOPE: "ALL" | "FIRST" | "NONE".
    pub gate_scope: String,
    /// GATE_STYLE: "CE" (enable flops, default, FPGA sign-off) | "ICG" (bank clocks through `CgCell`).
    pub gate_style: String,
    /// TOGGLE_CNT: 0 (tog_s* ports are constant 0, no hardware) | 1 (bank data toggle counters, §6.6).
    pub toggle_cnt: u32,
    /// OPISO: 0 only (not built in v1).
    pub opiso: u32,
    /// TAG_W: 8 only.
    pub tag_w: u32,
    /// CNT_W: 32 only.
    pub cnt_w: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            num_alus: 4,
            imem_depth: 32,
            gate_scope: "ALL".into(),
            gate_style: "CE".into(),
            toggle_cnt: 0,
            opiso: 0,
            tag_w: 8,
            cnt_w: 32,
        }
    }
}

impl Config {
    pub fn scope_code(&self) -> u32 {
        match self.gate_scope.as_str() {
            "FIRST" => isa::SCOPE_FIRST,
            "NONE" => isa::SCOPE_NONE,
            _ => isa::SCOPE_ALL,
        }
    }
}

pub(crate) const SEC: &str = "alu_pipeline";

pub struct Block;

fn emit_na<const NA: usize>(cfg: &Config) -> Result<EmittedModule, EmitError> {
    emit_module(
        AluPipe::<NA>::new(cfg.imem_depth as usize, cfg.scope_code(), cfg.gate_style == "ICG", cfg.toggle_cnt == 1),
        "eu_alu_pipeline",
        SEC,
        crate::params!(
            "NUM_ALUS" => cfg.num_alus,
            "IMEM_DEPTH" => cfg.imem_depth,
            "GATE_SCOPE" => cfg.gate_scope,
            "GATE_STYLE" => cfg.gate_style,
            "TOGGLE_CNT" => cfg.toggle_cnt,
            "OPISO" => cfg.opiso,
            "TAG_W" => cfg.tag_w,
            "CNT_W" => cfg.cnt_w,
        ),
    )
}

impl BlockGen for Block {
    const NAME: &'static str = SEC;
    const ENCODINGS: &'static [&'static crate::enc::Table] = enc::TABLES;
    type Config = Config;
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_range(SEC, "num_alus", cfg.num_alus as u64, 1, 4)?;
        check_range(SEC, "imem_depth", cfg.imem_depth as u64, 1, 32)?;
        check_one_of(SEC, "gate_scope", cfg.gate_scope.as_str(), &["ALL", "FIRST", "NONE"])?;
        check_one_of(SEC, "gate_style", cfg.gate_style.as_str(), &["CE", "ICG"])?;
        check_one_of(SEC, "toggle_cnt", cfg.toggle_cnt, &[0, 1])?;
        check_one_of(SEC, "opiso", cfg.opiso, &[0])?;
        check_one_of(SEC, "tag_w", cfg.tag_w, &[8])?;
        check_one_of(SEC, "cnt_w", cfg.cnt_w, &[32])?;
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let m = match cfg.num_alus {
            1 => emit_na::<1>(cfg)?,
            2 => emit_na::<2>(cfg)?,
            3 => emit_na::<3>(cfg)?,
            _ => emit_na::<4>(cfg)?,
        };
        Ok(vec![m])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        let scope = |s: &str| Config { gate_scope: s.into(), ..Config::default() };
        vec![
            ("all", scope("ALL")),
            ("first", scope("FIRST")),
            ("none", scope("NONE")),
            // §8 ERR_CXW_SRC / ERR_RSV (lane >= NUM_ALUS) and ERR_IPTR (iptr >= IMEM_DEPTH) need these
            ("na3_d16", Config { num_alus: 3, imem_depth: 16, ..Config::default() }),
            // GATE_STYLE = ICG: same cycle behaviour and counters as CE (§6.4)
            ("all_icg", Config { gate_style: "ICG".into(), ..Config::default() }),
            // TOGGLE_CNT = 1: tog_s1..3 against the golden model; ALL (banks hold on dead slots)
            // and NONE (the baseline they are compared with). FIRST's toggles lie between the two
            // and are checked on the golden model only, to keep the number of models down
            ("all_tog", Config { toggle_cnt: 1, ..scope("ALL") }),
            ("none_tog", Config { toggle_cnt: 1, ..scope("NONE") }),
            // the config matrix's corner (docs "Config matrix"): one ALU and a one-word IMEM
            ("na1_d1", Config { num_alus: 1, imem_depth: 1, ..Config::default() }),
        ]
    }
    fn config_matrix() -> crate::ConfigMatrix {
        crate::ConfigMatrix::default()
            .key("num_alus", &["1", "3", "4"], "1..=4: the extremes, and 3 (lanes >= NUM_ALUS are ERR_CXW_SRC / ERR_RSV)")
            .key("imem_depth", &["1", "16", "32"], "1..=32: the extremes, and 16 (ERR_IPTR below the 5-bit range)")
            .key("gate_scope", &["\"ALL\"", "\"FIRST\"", "\"NONE\""], "every value")
            .key("gate_style", &["\"CE\"", "\"ICG\""], "every value")
            .key("toggle_cnt", &["0", "1"], "every value")
            .key("opiso", &["0"], "only 0 is built")
            .key("tag_w", &["8"], "only 8 is built")
            .key("cnt_w", &["32"], "only 32 is built")
            .pair(("toggle_cnt", "1"), ("gate_scope", "\"ALL\""))
            .pair(("toggle_cnt", "1"), ("gate_scope", "\"NONE\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_key_and_allowed_values() {
        assert!(Block::validate(&Config::default()).is_ok());
        let bad = |c: Config| Block::validate(&c).unwrap_err();
        let e = bad(Config { num_alus: 5, ..Config::default() });
        assert_eq!(e.key, "alu_pipeline.num_alus");
        assert!(e.msg.contains("1..=4"));
        let e = bad(Config { imem_depth: 0, ..Config::default() });
        assert_eq!(e.key, "alu_pipeline.imem_depth");
        let e = bad(Config { gate_scope: "SOME".into(), ..Config::default() });
        assert_eq!(e.key, "alu_pipeline.gate_scope");
        assert!(e.msg.contains("ALL, FIRST, NONE"));
        assert_eq!(bad(Config { gate_style: "LATCH".into(), ..Config::default() }).key, "alu_pipeline.gate_style");
        assert!(Block::validate(&Config { toggle_cnt: 1, ..Config::default() }).is_ok());
        let e = bad(Config { toggle_cnt: 2, ..Config::default() });
        assert_eq!(e.key, "alu_pipeline.toggle_cnt");
        assert_eq!(bad(Config { opiso: 1, ..Config::default() }).key, "alu_pipeline.opiso");
        assert_eq!(bad(Config { tag_w: 4, ..Config::default() }).key, "alu_pipeline.tag_w");
        assert_eq!(bad(Config { cnt_w: 16, ..Config::default() }).key, "alu_pipeline.cnt_w");
        let parsed: Config = toml::from_str("gate_scope = \"NONE\"\nnum_alus = 2").unwrap();
        assert_eq!((parsed.num_alus, parsed.scope_code()), (2, isa::SCOPE_NONE));
        assert!(toml::from_str::<Config>("gate_scop = \"NONE\"").is_err(), "unknown keys are errors");
    }
}
