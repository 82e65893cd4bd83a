//! region_addr_gen: the region address generator (RAG) of
//! ../shared/spec/region-address-generator.md (§2.2, §6.2–§6.4), with its gather (RFG, §6.5)
//! and scatter (RFS, §6.6) units.
//!
//! Files: `enc` (the §6.4 error/warning bits and the §4.2 type codes, by spec name), `rtl` (the
//! RAG top `eu_region_addr_gen`: one registered stage with valid/ready), `gather` and `scatter`
//! (the RFG/RFS). This file holds the config, its checks and the emission.
//!
//! Widths: RN_W = ceil(log2 NR), RB_W = log2 RB, A_W = RN_W + RB_W, N_MAX channels, HS_W = 7,
//! VS_W = 8, TAG_W = 4. Internally every address-sized quantity is 16 bits (`RAW_W` = 16 for every
//! legal config: the largest `raw + E` is 64*256-1 + 4*31*255 + 4 = 48007 < 2^16, and
//! `RF + origin` <= 32767), so no overflow is possible; `raw_w_is_enough` checks it.

mod carry;
mod channels;
mod decode;
pub mod enc;
mod handshake;
mod range;
pub mod rtl;
mod stride;
mod table;

pub use rtl::Rag;

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::params;
use crate::BlockGen;
use serde::{Deserialize, Serialize};

const SECTION: &str = "region_addr_gen";
/// Internal width of raw addresses and all intermediate sums.
pub const RAW_W: usize = 16;
pub const HS_W: usize = 7;
pub const VS_W: usize = 8;
pub const TAG_W: usize = 4;
/// Width of `out_err` (§6.4).
pub const ERR_W: usize = enc::err::WIDTH;
/// Width of `out_warn` (§6.4).
pub const WARN_W: usize = enc::warn::WIDTH;

/// `[region_addr_gen]` (spec §4.2; defaults are the spec's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Bytes per register (RB): 8, 16, 32, 64.
    pub reg_bytes: u32,
    /// Number of registers (NR): 2..=256.
    pub num_regs: u32,
    /// Channels (N_MAX): 4, 8, 16, 32.
    pub n_max: u32,
    /// Raw horizontal stride width (only 7 is built).
    pub hs_w: u32,
    /// Raw vertical stride width (only 8 is built).
    pub vs_w: u32,
    /// Tag width (only 4 is built).
    pub tag_w: u32,
    /// true: wrap modulo RF (W_WRAP); false: E_OOB.
    pub wrap_rf: bool,
    /// true: a misaligned origin is E_ALIGN.
    pub align_strict: bool,
    /// "full" or "restricted" (§5.5).
    pub dst_profile: String,
    /// Enables `in_colmajor`.
    pub colmajor_en: bool,
    /// RFG read ports: 1..=4.
    pub rd_ports: u32,
    /// RFS write ports: 1..=2.
    pub wr_ports: u32,
    /// RF read latency: 1..=3.
    pub l_rf: u32,
    /// E_SPAN when an operand needs more than one pass.
    pub span_limit_1pass: bool,
    /// Pipeline registers inside the RAG, 0..=6 (timing-closure §3.1's 0..4 plus a [P] 5 and 6): latency 1 + pipe cycles
    /// from accept to `out_valid`; 0 is the single registered stage of §6.3.
    pub pipe: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            reg_bytes: 32,
            num_regs: 128,
            n_max: 16,
            hs_w: 7,
            vs_w: 8,
            tag_w: 4,
            wrap_rf: true,
            align_strict: false,
            dst_profile: "full".into(),
            colmajor_en: false,
            rd_ports: 2,
            wr_ports: 1,
            l_rf: 1,
            span_limit_1pass: false,
            pipe: 0,
        }
    }
}

impl Config {
    /// Spec §2.5 test configurations.
    pub fn cfg(rb: u32, nr: u32) -> Self {
        Config { reg_bytes: rb, num_regs: nr, ..Default::default() }
    }
    pub fn rn_w(&self) -> usize {
        (ceil_log2(self.num_regs) as usize).max(1)
    }
    pub fn rb_w(&self) -> usize {
        ceil_log2(self.reg_bytes) as usize
    }
    pub fn a_w(&self) -> usize {
        self.rn_w() + self.rb_w()
    }
    pub fn rf_bytes(&self) -> u32 {
        self.reg_bytes * self.num_regs
    }
    /// Largest `raw + E` (§4.2 RAW_W formula plus the element) and `RF + origin` fit in RAW_W.
    pub fn raw_w_is_enough(&self) -> bool {
        let rf = self.rf_bytes() as u64;
        let max_stride = ((1u64 << self.hs_w) - 1).max((1u64 << self.vs_w) - 1);
        let max_raw = rf - 1 + 4 * (self.n_max as u64 - 1) * max_stride + 4;
        max_raw < (1 << RAW_W) && 2 * rf <= (1 << RAW_W)
    }
}

pub const fn ceil_log2(x: u32) -> u32 {
    if x <= 1 {
        0
    } else {
        32 - (x - 1).leading_zeros()
    }
}

// ------------------------------------------------------------------------------------------
// Config validation, emission, co-sim variants.
// ------------------------------------------------------------------------------------------

fn cfg_params(cfg: &Config) -> Vec<(String, String)> {
    params!(
        "REG_BYTES" => cfg.reg_bytes, "NUM_REGS" => cfg.num_regs, "N_MAX" => cfg.n_max,
        "RN_W" => cfg.rn_w(), "RB_W" => cfg.rb_w(), "A_W" => cfg.a_w(), "RAW_W" => RAW_W,
        "HS_W" => cfg.hs_w, "VS_W" => cfg.vs_w, "TAG_W" => cfg.tag_w,
        "WRAP_RF" => cfg.wrap_rf as u32, "ALIGN_STRICT" => cfg.align_strict as u32,
        "DST_PROFILE" => cfg.dst_profile.to_uppercase(), "COLMAJOR_EN" => cfg.colmajor_en as u32,
        "RD_PORTS" => cfg.rd_ports, "WR_PORTS" => cfg.wr_ports, "L_RF" => cfg.l_rf,
        "SPAN_LIMIT_1PASS" => cfg.span_limit_1pass as u32, "PIPE" => cfg.pipe,
    )
}

fn emit_rag<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize>(
    cfg: &Config,
) -> Result<EmittedModule, EmitError> {
    emit_module(Rag::<NMAX, RNW, RBW, AW, ADDRW>::new(cfg), "eu_region_addr_gen", SECTION, cfg_params(cfg))
}

/// The (N_MAX, RN_W, RB_W) combinations that are monomorphised. Every instantiation costs
/// minutes of optimised build time (rust-hdl generates the simulation and the HDL builder per
/// type), so only these are built: the spec's Cfg A/B/C (N_MAX 16; RB 8/16/32 with NR 5..8),
/// and RB=32 with NR 65..128 for N_MAX 4/8/16/32 (Cfg D and its N_MAX variants). Adding a
/// combination is one tuple here; `validate` rejects the others by name.
pub const INSTANCES: &[(u32, usize, usize)] =
    &[(16, 3, 3), (16, 3, 4), (16, 3, 5), (16, 7, 5), (4, 7, 5), (8, 7, 5), (32, 7, 5)];

/// Dispatches a validated config onto the monomorphised RAG.
macro_rules! rag_dispatch {
    ($cfg:expr, $n:expr, $rnw:expr, $rbw:expr; INSTANCES) => {
        rag_dispatch!($cfg, $n, $rnw, $rbw; (16, 3, 3), (16, 3, 4), (16, 3, 5), (16, 7, 5), (4, 7, 5), (8, 7, 5), (32, 7, 5))
    };
    ($cfg:expr, $n:expr, $rnw:expr, $rbw:expr; $( ($N:literal, $RN:literal, $RB:literal) ),* $(,)?) => {{
        $( if $n == $N && $rnw == $RN && $rbw == $RB {
            return emit_rag::<$N, $RN, $RB, { $RN + $RB }, { $N * ($RN + $RB) }>($cfg);
        } )*
        unreachable!("validated config has no RAG instantiation: n_max={} rn_w={} rb_w={}", $n, $rnw, $rbw)
    }};
}

fn emit_rag_any(cfg: &Config) -> Result<EmittedModule, EmitError> {
    let (n, rnw, rbw) = (cfg.n_max as usize, cfg.rn_w(), cfg.rb_w());
    rag_dispatch!(cfg, n, rnw, rbw; INSTANCES)
}

pub mod gather;

/// (N_MAX, RN_W, RB_W, RD_PORTS) combinations for which the RFG `eu_region_gather` is built:
/// the seed's register files 8 B x 5 (Cfg A), 16 B x 8 (Cfg B), 32 B x 8 (Cfg C) and the default
/// 32 B x 128, each with N_MAX 16 and 2 read ports. Each costs optimised build time (one
/// monomorphised type); adding one is a tuple here and in `rfg_dispatch!`. Other configs emit
/// the RAG (and the RFS where built) alone.
pub const RFG_INSTANCES: &[(u32, usize, usize, u32)] = &[(16, 3, 3, 2), (16, 3, 4, 2), (16, 3, 5, 2), (16, 7, 5, 2)];

pub fn rfg_built(cfg: &Config) -> bool {
    RFG_INSTANCES.contains(&(cfg.n_max, cfg.rn_w(), cfg.rb_w(), cfg.rd_ports))
}

/// Width of `opnd_passes`: ceil(log2(2·N_MAX/RD_PORTS + 1)).
const fn passes_w(n: usize, rdp: usize) -> usize {
    ceil_log2((2 * n / rdp + 1) as u32) as usize
}

macro_rules! rfg_dispatch {
    ($cfg:expr; $( ($N:literal, $RN:literal, $RB:literal, $P:literal) ),* $(,)?) => {{
        let key = ($cfg.n_max, $cfg.rn_w(), $cfg.rb_w(), $cfg.rd_ports);
        $( if key == ($N, $RN, $RB, $P) {
            return emit_module(
                gather::Rfg::<$N, $RN, $RB, { $RN + $RB }, { $N * ($RN + $RB) }, $P, { $P * $RN },
                    { $P * 8 * (1 << $RB) }, { $N * 32 }, { passes_w($N, $P) }>::new($cfg),
                "eu_region_gather",
                SECTION,
                cfg_params($cfg),
            )
            .map(Some);
        } )*
        Ok(None)
    }};
}

fn emit_rfg(cfg: &Config) -> Result<Option<EmittedModule>, EmitError> {
    rfg_dispatch!(cfg; (16, 3, 3, 2), (16, 3, 4, 2), (16, 3, 5, 2), (16, 7, 5, 2))
}

pub mod scatter;

/// (N_MAX, RN_W, RB_W, WR_PORTS) combinations for which the RFS `eu_region_scatter` is built:
/// the same four register files as the RFG, one write port.
pub const RFS_INSTANCES: &[(u32, usize, usize, u32)] = &[(16, 3, 3, 1), (16, 3, 4, 1), (16, 3, 5, 1), (16, 7, 5, 1)];

pub fn rfs_built(cfg: &Config) -> bool {
    RFS_INSTANCES.contains(&(cfg.n_max, cfg.rn_w(), cfg.rb_w(), cfg.wr_ports))
}

macro_rules! rfs_dispatch {
    ($cfg:expr; $( ($N:literal, $RN:literal, $RB:literal, $Q:literal) ),* $(,)?) => {{
        let key = ($cfg.n_max, $cfg.rn_w(), $cfg.rb_w(), $cfg.wr_ports);
        $( if key == ($N, $RN, $RB, $Q) {
            return emit_module(
                scatter::Rfs::<$N, $RN, $RB, { $RN + $RB }, { $N * ($RN + $RB) }, $Q, { $Q * $RN },
                    { $Q * (1 << $RB) }, { $Q * 8 * (1 << $RB) }, { $N * 32 }>::new($cfg),
                "eu_region_scatter",
                SECTION,
                cfg_params($cfg),
            )
            .map(Some);
        } )*
        Ok(None)
    }};
}

fn emit_rfs(cfg: &Config) -> Result<Option<EmittedModule>, EmitError> {
    rfs_dispatch!(cfg; (16, 3, 3, 1), (16, 3, 4, 1), (16, 3, 5, 1), (16, 7, 5, 1))
}

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = SECTION;
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] = &[&enc::err::TABLE, &enc::warn::TABLE, &enc::type_code::TABLE];

    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of(SECTION, "reg_bytes", cfg.reg_bytes, &[8, 16, 32, 64])?;
        check_range(SECTION, "num_regs", cfg.num_regs as u64, 2, 256)?;
        check_one_of(SECTION, "n_max", cfg.n_max, &[4, 8, 16, 32])?;
        check_one_of(SECTION, "hs_w", cfg.hs_w, &[HS_W as u32])?;
        check_one_of(SECTION, "vs_w", cfg.vs_w, &[VS_W as u32])?;
        check_one_of(SECTION, "tag_w", cfg.tag_w, &[TAG_W as u32])?;
        check_one_of(SECTION, "dst_profile", cfg.dst_profile.as_str(), &["full", "restricted"])?;
        check_range(SECTION, "rd_ports", cfg.rd_ports as u64, 1, 4)?;
        check_range(SECTION, "wr_ports", cfg.wr_ports as u64, 1, 2)?;
        check_range(SECTION, "l_rf", cfg.l_rf as u64, 1, 3)?;
        check_range(SECTION, "pipe", cfg.pipe as u64, 0, handshake::LEVELS_OF_PIPE.len() as u64 - 1)?;
        // wrap_rf, align_strict, colmajor_en, span_limit_1pass are booleans: serde checks them.
        let (n, rnw, rbw) = (cfg.n_max, cfg.rn_w(), cfg.rb_w());
        if !INSTANCES.contains(&(n, rnw, rbw)) {
            let allowed: Vec<String> = INSTANCES
                .iter()
                .map(|&(n, rn, rb)| {
                    format!("n_max={n} reg_bytes={} num_regs={}..={}", 1 << rb, (1u32 << (rn - 1)) + 1, 1u32 << rn)
                })
                .collect();
            return Err(ConfigError::new(
                format!("{SECTION}.num_regs"),
                format!(
                    "the (n_max, reg_bytes, num_regs) combination ({n}, {}, {}) is not among the built \
                     instantiations {{{}}}",
                    cfg.reg_bytes,
                    cfg.num_regs,
                    allowed.join("; ")
                ),
            ));
        }
        debug_assert!(cfg.raw_w_is_enough());
        Ok(())
    }

    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let mut v = vec![emit_rag_any(cfg)?];
        if let Some(m) = emit_rfg(cfg)? {
            v.push(m);
        }
        if let Some(m) = emit_rfs(cfg)? {
            v.push(m);
        }
        Ok(v)
    }

    fn cosim_configs() -> Vec<(&'static str, Config)> {
        let d = Config::default();
        let base = vec![
            ("cfg_a", Config::cfg(8, 5)),
            ("cfg_b", Config::cfg(16, 8)),
            ("cfg_c", Config::cfg(32, 8)),
            ("default", d.clone()),
            ("n4", Config { n_max: 4, ..d.clone() }),
            ("n8", Config { n_max: 8, ..d.clone() }),
            ("n32", Config { n_max: 32, ..d.clone() }),
            // §2.8 option vectors: TVE1 (WRAP_RF=0), TVE9 (RESTRICTED), TVC1 (COLMAJOR_EN=1) on Cfg A;
            // TVE10 (ALIGN_STRICT=1) on Cfg B; TVD4n (WRAP_RF=0) on Cfg D.
            (
                "cfg_a_opt",
                Config {
                    wrap_rf: false,
                    dst_profile: "restricted".into(),
                    colmajor_en: true,
                    ..Config::cfg(8, 5)
                },
            ),
            ("cfg_b_strict", Config { align_strict: true, ..Config::cfg(16, 8) }),
            ("nowrap", Config { wrap_rf: false, rd_ports: 1, ..d.clone() }),
            // the config matrix (docs "Config matrix"): the RFG/RFS at their deepest RF latency
            // with the one-pass limit (Cfg C); the smallest register count of the 7-bit class
            // with the most ports (no RFG/RFS is built for it: the RAG alone)
            ("cfg_c_lrf3", Config { l_rf: 3, span_limit_1pass: true, ..Config::cfg(32, 8) }),
            ("rf65_ports", Config { rd_ports: 4, wr_ports: 2, ..Config::cfg(32, 65) }),
        ];
        // timing-closure §3.1: every RAG test also runs at the deepest pipeline ("<variant>_p",
        // pipe = 6), and the random runs at the depths between (cfg_a_p1..p5)
        const TWINS: [&str; 10] =
            ["cfg_a_p", "cfg_b_p", "cfg_c_p", "default_p", "n4_p", "n8_p", "n32_p", "cfg_a_opt_p", "cfg_b_strict_p", "nowrap_p"];
        let twins: Vec<(&'static str, Config)> = base
            .iter()
            .zip(TWINS)
            .map(|((n, c), t)| {
                debug_assert_eq!(format!("{n}_p"), t);
                (t, Config { pipe: 6, ..c.clone() })
            })
            .chain(
                [1, 2, 3, 4, 5]
                    .into_iter()
                    .zip(["cfg_a_p1", "cfg_a_p2", "cfg_a_p3", "cfg_a_p4", "cfg_a_p5"])
                    .map(|(p, n)| (n, Config { pipe: p, ..Config::cfg(8, 5) })),
            )
            .collect();
        base.into_iter().chain(twins).collect()
    }
    /// The option variants (`cfg_a_opt`, `cfg_b_strict`, `nowrap`) test the RAG alone; the
    /// RFG/RFS are co-simulated on the four register-file configs only.
    fn cosim_keeps(variant: &str, module: &str) -> bool {
        module == "eu_region_addr_gen" || matches!(variant, "cfg_a" | "cfg_b" | "cfg_c" | "default" | "cfg_c_lrf3")
    }
    fn config_matrix() -> crate::ConfigMatrix {
        crate::ConfigMatrix::default()
            .key("reg_bytes", &["8", "16", "32"], "8, 16, 32 (64 has no built instance: rejected)")
            .key("num_regs", &["5", "8", "65", "128"], "each register-number width's ends: 5..=8 (3 bits), 65..=128 (7 bits); no other is built (rejected)")
            .key("n_max", &["4", "8", "16", "32"], "every value")
            .key("hs_w", &["7"], "only 7 is built")
            .key("vs_w", &["8"], "only 8 is built")
            .key("tag_w", &["4"], "only 4 is built")
            .key("wrap_rf", &["true", "false"], "every value")
            .key("align_strict", &["false", "true"], "every value")
            .key("dst_profile", &["\"full\"", "\"restricted\""], "every value")
            .key("colmajor_en", &["false", "true"], "every value")
            .key("rd_ports", &["1", "2", "4"], "1..=4: both ends and the default (the RFG is built for 2; the RAG alone otherwise)")
            .key("wr_ports", &["1", "2"], "every value (the RFS is built for 1; the RAG alone otherwise)")
            .key("l_rf", &["1", "3"], "1..=3: both ends (the RFG's read-latency registers)")
            .key("span_limit_1pass", &["false", "true"], "every value (E_SPAN in the RFG/RFS)")
            .key("pipe", &["0", "1", "2", "3", "4", "5", "6"], "every value")
            .pair(("pipe", "6"), ("n_max", "32"))
            .pair(("pipe", "6"), ("n_max", "4"))
            .pair(("dst_profile", "\"restricted\""), ("colmajor_en", "true"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(cfg: Config) -> String {
        Block::validate(&cfg).expect_err("must be rejected").key
    }

    #[test]
    fn bad_configs_name_the_key_and_the_allowed_values() {
        let e = Block::validate(&Config { reg_bytes: 12, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.reg_bytes");
        assert!(e.msg.contains("8, 16, 32, 64") && e.msg.contains("12"), "{e}");
        let e = Block::validate(&Config { num_regs: 0, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.num_regs");
        assert!(e.msg.contains("2..=256"), "{e}");
        assert_eq!(key_of(Config { num_regs: 257, ..Default::default() }), "region_addr_gen.num_regs");
        assert_eq!(key_of(Config { n_max: 12, ..Default::default() }), "region_addr_gen.n_max");
        assert_eq!(key_of(Config { n_max: 64, ..Default::default() }), "region_addr_gen.n_max");
        assert_eq!(key_of(Config { hs_w: 9, ..Default::default() }), "region_addr_gen.hs_w");
        assert_eq!(key_of(Config { vs_w: 7, ..Default::default() }), "region_addr_gen.vs_w");
        assert_eq!(key_of(Config { tag_w: 0, ..Default::default() }), "region_addr_gen.tag_w");
        assert_eq!(key_of(Config { dst_profile: "fulll".into(), ..Default::default() }), "region_addr_gen.dst_profile");
        assert_eq!(key_of(Config { rd_ports: 0, ..Default::default() }), "region_addr_gen.rd_ports");
        assert_eq!(key_of(Config { wr_ports: 3, ..Default::default() }), "region_addr_gen.wr_ports");
        assert_eq!(key_of(Config { l_rf: 4, ..Default::default() }), "region_addr_gen.l_rf");
        let e = Block::validate(&Config { pipe: 7, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.pipe");
        assert!(e.msg.contains("0..=6"), "{e}");
        let e = Block::validate(&Config { num_regs: 40, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.num_regs");
        assert!(e.msg.contains("num_regs=65..=128"), "{e}");
    }

    #[test]
    fn unknown_keys_are_rejected_by_the_toml_parser() {
        let r: Result<Config, _> = toml::from_str("reg_bytes = 32\nregbytes = 3\n");
        assert!(r.is_err());
        let c: Config = toml::from_str("reg_bytes = 8\nnum_regs = 5\n").unwrap();
        assert_eq!((c.reg_bytes, c.num_regs, c.n_max), (8, 5, 16));
    }

    /// Emits every co-sim variant (catches generate-time panics without a Verilator build);
    /// with EU_DUMP_VERILOG=<dir> the files are written there for lint/yosys.
    #[test]
    fn every_cosim_variant_emits() {
        for (v, c) in Block::cosim_configs() {
            Block::validate(&c).unwrap();
            let ms = Block::emit(&c).unwrap();
            let has = |n: &str| ms.iter().any(|m| m.name == n);
            assert_eq!((has("eu_region_gather"), has("eu_region_scatter")), (rfg_built(&c), rfs_built(&c)), "{v}");
            for m in ms {
                assert!(m.verilog.contains(&format!("module {}", m.name)), "{v}");
                if let Some(dir) = std::env::var_os("EU_DUMP_VERILOG") {
                    std::fs::write(std::path::Path::new(&dir).join(format!("{v}__{}.v", m.name)), &m.verilog).unwrap();
                }
            }
        }
    }

    #[test]
    fn raw_width_suffices_for_every_legal_config() {
        for rb in [8, 16, 32, 64] {
            for nr in [2, 5, 8, 128, 255, 256] {
                for n_max in [4, 8, 16, 32] {
                    let c = Config { reg_bytes: rb, num_regs: nr, n_max, ..Default::default() };
                    assert!(c.raw_w_is_enough(), "{c:?}");
                }
            }
        }
    }
}
