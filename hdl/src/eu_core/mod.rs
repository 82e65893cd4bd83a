//! eu_core: the execution unit (issue 19), first RTL slice. docs/eu_core.md has the pipeline.
//!
//! The ISA ([`enc`], docs/isa.md) is complete; the RTL runs a subset of it: `threads` hardware
//! threads issued round-robin through a five-stage barrel pipeline (fetch, decode + register
//! read address, operand (the register file's output register), execute, writeback), the branch unit as a sub-block for all control flow and the execution
//! mask, integer ALU lanes (MOV, ADD, SUB, logic, shifts, MIN/MAX, CMP, SEL, FMIN/FMAX/FCMP, condition
//! modifiers, immediates), LD/ST, the math unit (TANH/TANH_PRE/SIGMOID, MUL, MULH, I2F/F2I),
//! predication and operand regions (over several registers on the ALU ops), and traps through the project's trap
//! controller (TRAP, TRET, TPAUSE, SRD/SWR of its special registers, every ISA exception into the
//! handler; `trap_port`, docs/eu_core.md "Traps"). Anything else stops the thread with a "not
//! yet" fault ([`rtl::EuCore`] ports `fault_*`); the random co-simulation programs are
//! restricted to the slice ([`slice_ops`]: no trap ops, no handler).
//!
//! Files: [`rtl`] the top (wiring), `fetch` (thread rotation, IPs, thread states, instruction
//! memory), `decode` (fields, op classes, slice checks), `issue` (the S1 slot's branch-unit
//! request and the decode→execute registers, two stages), `regfile` (the register file: two RAM copies × 8 lanes), `lane` (one ALU lane),
//! `execute` (the lanes, the masks and the execute→writeback registers), `regions` (the
//! predecoded operand regions), `gather` (the read ports' gathers and the write port's scatter),
//! `passes` (multi-register regions: the passes of one owner thread's op), `math` (the math unit:
//! the tanh/sigmoid lane, `mulh` and `cvt` (I2F/F2I) engines), `wb_flags` (a result's
//! condition-modifier flags in writeback), `flags` (the per-thread flag registers), `fault`
//! (the sticky fault report) and `trap_port` (the S3 slot's side of the trap controller).

mod condition;
mod cvt;
mod decode;
pub mod enc;
mod execute;
mod fault;
mod fetch;
mod flags;
mod gather;
mod issue;
mod lane;
mod math;
mod mem;
mod mulh;
mod passes;
mod regfile;
mod regions;
mod trap_port;
mod traps;
mod wb_flags;
pub mod rtl;

pub use rtl::EuCore;

use crate::check::{check_one_of, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use enc::op;
use serde::{Deserialize, Serialize};

/// `[eu_core]` section of the eu-gen TOML config.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Hardware threads, issued round-robin one instruction per cycle. At least 4: the barrel
    /// pipeline has no forwarding and no scoreboard, so a thread's next instruction must be
    /// fetched no earlier than its previous one has left execute (S3) and decoded no earlier than
    /// it has written back (S4); at T = 4 both hold with no cycle to spare (5 stages,
    /// docs/eu_core.md "Hazards at T = 4").
    pub threads: usize,
    /// SIMD lanes: fixed at 8 (one 256-bit register of 32-bit lanes, docs/isa.md).
    pub simd: usize,
    /// Registers per thread: fixed at 128 by the ISA's register field (docs/isa.md).
    pub regs: usize,
    /// Instruction memory depth in 128-bit instructions.
    pub imem_depth: usize,
    /// Data memory bytes (LD/ST): 8 banks of `dmem_bytes / 32` words (EBR).
    pub dmem_bytes: usize,
    /// Latency of the math unit's tanh/sigmoid lane (its `lat`, docs/tanh_sigmoid.md): 6 is the
    /// spec's LAT with the fused tail; each cycle above adds a pipeline cut (16: all ten, the
    /// block's fastest build). Results do not depend on it; an op takes 8 + `math_lat` cycles.
    pub math_lat: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self { threads: 4, simd: 8, regs: 128, imem_depth: 1024, dmem_bytes: 16 * 1024, math_lat: 16 }
    }
}

pub const THREADS_ALLOWED: [usize; 2] = [4, 8];
pub const IMEM_DEPTH_ALLOWED: [usize; 3] = [256, 1024, 4096];
pub const DMEM_BYTES_ALLOWED: [usize; 3] = [4096, 16384, 65536];
/// The tanh/sigmoid block's `lat` range with the fused tail, LAT 6 .. LAT + 10 (cuts A-J): the
/// tanh block's cuts K (lat 17, 2026-11-27) and L (lat 18, 2026-11-28) are not offered here yet
/// (the eu_core config matrix and its co-simulated `math_lat` extremes stay 6 and 16).
pub const MATH_LAT_MIN: usize = 6;
pub const MATH_LAT_MAX: usize = 16;
const _: () = assert!(MATH_LAT_MAX <= 6 + crate::tanh_sigmoid::MAX_EXTRA_LAT);

/// The ops this slice executes: every control-flow op (through the branch unit), NOP, the
/// integer ALU ops, FMIN/FMAX/FCMP (in the lanes), LD/ST, the math ops, MULH (in the math unit) and SRD of TID and LANE. The co-simulation's random programs use exactly these.
pub fn slice_ops() -> Vec<u64> {
    let mut v: Vec<u64> = op::TABLE.codes.iter().map(|c| c.value).filter(|&o| enc::is_control(o)).collect();
    v.extend([
        op::NOP,
        op::MOV,
        op::ADD,
        op::SUB,
        op::MUL,
        op::MULH,
        op::AND,
        op::OR,
        op::XOR,
        op::NOT,
        op::SHL,
        op::SHR,
        op::ASR,
        op::MIN,
        op::MAX,
        op::CMP,
        op::SEL,
        op::FMIN,
        op::FMAX,
        op::FCMP,
        op::LD,
        op::ST,
        op::TANH_PRE,
        op::SIGMOID,
        op::TANH,
        op::I2F,
        op::F2I,
        // of TID and LANE only (the other special registers are the trap controller's)
        op::SRD,
    ]);
    v
}

/// The ops of [`slice_ops`] whose operand regions may span several registers (docs/eu_core.md
/// "Multi-register regions"): the ones the ALU lanes compute. LD/ST, the math unit's ops and SRD
/// with such a region stop the thread as "not yet".
pub fn multi_register_ops() -> Vec<u64> {
    vec![op::MOV, op::ADD, op::SUB, op::AND, op::OR, op::XOR, op::NOT, op::SHL, op::SHR, op::ASR, op::MIN, op::MAX, op::CMP, op::SEL, op::FMIN, op::FMAX, op::FCMP]
}

/// The trap ops the core runs beside [`slice_ops`] (docs/isa.md "Traps"): TRAP, TRET, TPAUSE
/// and SWR, through the trap controller (`trap_port`, `rtl`); SRD of ESR/EPC/EMASK/TGID is SRD's
/// (in `slice_ops`). Not in `slice_ops`, so the random programs, which have no handler, do not
/// raise them.
pub fn trap_ops() -> Vec<u64> {
    vec![op::TRAP, op::TRET, op::TPAUSE, op::SWR]
}

/// Ops with a destination register, a src0 and a src1 operand (docs/isa.md "Operations").
pub fn ops_with_dst() -> Vec<u64> {
    use op::*;
    vec![MOV, ADD, SUB, MUL, MULH, AND, OR, XOR, NOT, SHL, SHR, ASR, MIN, MAX, SEL, FADD, FSUB, FMUL, FMIN, FMAX, I2F, F2I, LD, TANH, TANH_PRE, SIGMOID, SRD]
}
/// Ops that read src1 (or an immediate in its place).
pub fn ops_with_src1() -> Vec<u64> {
    use op::*;
    vec![ADD, SUB, MUL, MULH, AND, OR, XOR, SHL, SHR, ASR, MIN, MAX, SEL, FADD, FSUB, FMUL, FMIN, FMAX, CMP, FCMP, ST]
}

/// A 128-bit map with bit `o` set for every op of `ops` (the RTL's op-class lookups).
pub fn op_map(ops: &[u64]) -> u128 {
    ops.iter().fold(0u128, |m, &o| m | 1u128 << o)
}

impl Config {
    /// `TID_W = log2 threads`.
    pub fn tid_w(&self) -> usize {
        self.threads.trailing_zeros() as usize
    }
    pub fn imem_aw(&self) -> usize {
        self.imem_depth.trailing_zeros() as usize
    }
    /// Data-memory row address bits: log2(dmem_bytes / 32) (rows of 8 words, one per bank).
    pub fn dmem_rw(&self) -> usize {
        self.dmem_bytes.trailing_zeros() as usize - 5
    }
}

/// Never inlined into `emit_any`: each of its instances holds a whole core (see `EMIT_STACK`) in
/// its frame, and inlined they would all share one frame.
#[inline(never)]
fn emit_one<const T: usize, const TW: usize, const RA: usize, const IA: usize, const LM: usize, const W16: usize, const DR: usize, const W4: usize, const T2: usize, const TB: usize>(
    math_lat: usize,
    params: Vec<(String, String)>,
) -> Result<EmittedModule, EmitError> {
    emit_module(EuCore::<T, TW, RA, IA, LM, W16, DR, W4, T2, TB>::new(math_lat), "eu_eu_core", "eu_core", params)
}

macro_rules! emit_for {
    ($cfg:expr, $params:expr; $(($t:literal, $tw:literal)),*; $ias:tt) => {
        $( emit_for!(@ia $cfg, $params, $t, $tw; $ias); )*
    };
    (@ia $cfg:expr, $params:expr, $t:literal, $tw:literal; [$($ia:literal),*]) => {
        $( emit_for!(@dr $cfg, $params, $t, $tw, $ia; [7, 9, 11]); )*
    };
    (@dr $cfg:expr, $params:expr, $t:literal, $tw:literal, $ia:literal; [$($dr:literal),*]) => {
        $(
            if ($cfg.threads, $cfg.imem_aw(), $cfg.dmem_rw()) == ($t, $ia, $dr) {
                return emit_one::<$t, $tw, { $tw + 7 }, $ia, { 8 * $t }, { 16 * $t }, $dr, { 4 * $t }, { 2 * $t }, { $tw + 1 }>($cfg.math_lat, $params);
            }
        )*
    };
}

fn emit_any(cfg: &Config, params: Vec<(String, String)>) -> Result<EmittedModule, EmitError> {
    emit_for!(cfg, params.clone(); (4, 2), (8, 3); [8, 10, 12]);
    unreachable!("validated config: threads {}, imem_depth {}", cfg.threads, cfg.imem_depth)
}

/// Stack of the thread that builds and emits the core (virtual memory: only what the build
/// touches is used).
const EMIT_STACK: usize = 256 << 20;

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = "eu_core";
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] = enc::TABLES;
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of("eu_core", "threads", cfg.threads, &THREADS_ALLOWED)?;
        check_one_of("eu_core", "simd", cfg.simd, &[enc::LANES])?;
        check_one_of("eu_core", "regs", cfg.regs, &[enc::NUM_REGS as usize])?;
        check_one_of("eu_core", "imem_depth", cfg.imem_depth, &IMEM_DEPTH_ALLOWED)?;
        check_one_of("eu_core", "dmem_bytes", cfg.dmem_bytes, &DMEM_BYTES_ALLOWED)?;
        crate::check::check_range("eu_core", "math_lat", cfg.math_lat as u64, MATH_LAT_MIN as u64, MATH_LAT_MAX as u64)?;
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let params = crate::params!(
            "threads" => cfg.threads, "simd" => cfg.simd, "regs" => cfg.regs, "imem_depth" => cfg.imem_depth,
            "dmem_bytes" => cfg.dmem_bytes, "math_lat" => cfg.math_lat, "tid_w" => cfg.tid_w(), "stages" => 5
        );
        // The core's Rust value (every signal of every sub-block, each with its value and next
        // value) is several MiB: it is built and emitted on a thread of its own with a stack to
        // match, so that a caller on a 2 MiB test-harness thread works too.
        let module = std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("eu_core emit".into())
                .stack_size(EMIT_STACK)
                .spawn_scoped(s, || emit_any(cfg, params))
                .expect("spawn the eu_core emit thread")
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        })?;
        Ok(vec![module])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        vec![
            ("default", Config::default()),
            // the config matrix's corner (docs "Config matrix"): eight threads, the smallest
            // instruction memory and the largest data memory
            ("t8_i256_d64k", Config { threads: 8, imem_depth: 256, dmem_bytes: 65536, ..Config::default() }),
            // ... with the math unit at the spec's LAT (no cuts)
            ("i4k_d4k_lat6", Config { imem_depth: 4096, dmem_bytes: 4096, math_lat: 6, ..Config::default() }),
            // the default core with a data memory that holds kernel 1 (activation: 4 096 inputs
            // and two 4 096-word results, 48 KiB)
            ("d64k", Config { dmem_bytes: 65536, ..Config::default() }),
        ]
    }
    fn config_matrix() -> crate::ConfigMatrix {
        crate::ConfigMatrix::default()
            .key("threads", &["4", "8"], "every value")
            .key("simd", &["8"], "only 8 is built")
            .key("regs", &["128"], "only 128 is built")
            .key("imem_depth", &["256", "1024", "4096"], "every value")
            .key("dmem_bytes", &["4096", "16384", "65536"], "every value")
            .key("math_lat", &["6", "16"], "the extremes (results do not depend on it; the tanh block covers every lat)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eu_core_config_errors_name_the_key() {
        let bad = |c: Config, key: &str| {
            let e = Block::validate(&c).unwrap_err();
            assert_eq!(e.key, format!("eu_core.{key}"), "{e}");
        };
        bad(Config { threads: 2, ..Default::default() }, "threads");
        bad(Config { threads: 16, ..Default::default() }, "threads");
        bad(Config { simd: 16, ..Default::default() }, "simd");
        bad(Config { regs: 64, ..Default::default() }, "regs");
        bad(Config { imem_depth: 1000, ..Default::default() }, "imem_depth");
        bad(Config { dmem_bytes: 100, ..Default::default() }, "dmem_bytes");
        bad(Config { math_lat: 5, ..Default::default() }, "math_lat");
        bad(Config { math_lat: 17, ..Default::default() }, "math_lat");
        Block::validate(&Config::default()).unwrap();
    }

    /// Every (threads, imem_depth, dmem_bytes) is its own instance of the core's const generics,
    /// so all 18 are emitted; on all cores (about 3 CPU s each at the hdl crate's opt-level 0).
    #[test]
    fn eu_core_every_allowed_config_emits() {
        let mut configs = Vec::new();
        for t in THREADS_ALLOWED {
            for d in IMEM_DEPTH_ALLOWED {
                for m in DMEM_BYTES_ALLOWED {
                    configs.push(Config { threads: t, imem_depth: d, dmem_bytes: m, ..Default::default() });
                }
            }
        }
        let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
        for chunk in configs.chunks(jobs) {
            std::thread::scope(|s| {
                for c in chunk {
                    s.spawn(move || {
                        Block::validate(c).unwrap();
                        let e = Block::emit(c).unwrap();
                        assert_eq!(e[0].name, "eu_eu_core");
                        let w = |n: &str| e[0].ports.iter().find(|p| p.name == n).unwrap_or_else(|| panic!("port {n}")).width;
                        assert_eq!((w("dmem_addr"), w("dmem_raddr")), (c.dmem_rw(), c.dmem_rw()), "{c:?}");
                    });
                }
            });
        }
    }

    #[test]
    fn eu_core_slice_ops_are_isa_ops() {
        for o in slice_ops() {
            assert!(op::TABLE.name_of(o).is_some(), "{o:#x}");
        }
    }
}
