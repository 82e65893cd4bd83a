//! ISA-level model of the execution unit (docs/isa.md): the golden model the `eu_core` RTL will
//! be checked against. It runs one program on `threads` hardware threads, one instruction per
//! cycle from the next thread that may issue (round-robin), and returns the retired-instruction
//! trace (thread, IP, exec mask, destination writes) and the final registers, flags and memory.
//!
//! It is built from the blocks' own golden models, so the RTL core composed of those blocks is
//! checked against the same semantics:
//! * every instruction goes through the branch unit's golden model ([`bu::step`]): control-flow
//!   ops as themselves, every other op as its NOP; its `exec_mask` is the instruction's execution
//!   mask, its `next_ip` the thread's next IP, its errors the BRANCH_FAULT trap;
//! * every register operand is a region of the region address generator's golden model
//!   ([`rag::rag`], [`rag::gather`], [`rag::scatter`]); any `out_err` bit is an ILLEGAL_REGION
//!   trap;
//! * TANH, TANH_PRE and SIGMOID are the tanh/sigmoid golden model ([`ts::Pipeline::compute`]);
//! * traps run through the trap controller's golden model ([`tc::step`]), one controller step per
//!   cycle: exceptions, RETURN (TRET), PAUSE (TPAUSE), the handler's special registers, the
//!   redirects into and out of the handler and the host's KILL/RESUME.

pub mod asm;
pub mod gen;
pub mod kernels;

use crate::golden::branch_unit as bu;
use crate::golden::region_addr_gen as rag;
use crate::golden::tanh_sigmoid as ts;
use crate::golden::trap_controller as tc;
pub use hdl::eu_core::enc::{self, cause, cmod, field, op, pred, sreg, LANES, NUM_REGS, REG_BYTES};

/// A register operand: the region address generator's request fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Region {
    pub reg: u32,
    pub sub: u32,
    pub vs: u32,
    pub width_log2: u32,
    pub hs: u32,
    pub ty: u32,
}

/// A decoded instruction (every field; the ones an op does not use are zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inst {
    pub op: u64,
    pub cmod: u64,
    pub pred: u64,
    pub flag: u32,
    pub exec_log2: u32,
    /// `Some`: src1 is this immediate.
    pub imm: Option<u32>,
    pub fmt: u32,
    pub ftz: bool,
    /// Destination: `reg`, `sub`, `hs`, `ty` (its width is the exec size, `vs` unused).
    pub dst: Region,
    pub src0: Region,
    pub src1: Region,
    pub jip: i64,
    pub uip: i64,
}

/// Which operands an op has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operands {
    pub dst: bool,
    pub src0: bool,
    pub src1: bool,
}

/// The operands of `o`; `None` for an op with no register operands or an unknown op.
pub fn operands(o: u64) -> Operands {
    let (dst, src0, src1) = match o {
        op::ADD | op::SUB | op::MUL | op::MULH | op::AND | op::OR | op::XOR | op::SHL | op::SHR | op::ASR | op::MIN
        | op::MAX | op::SEL | op::FADD | op::FSUB | op::FMUL | op::FMIN | op::FMAX => (true, true, true),
        op::MOV | op::NOT | op::I2F | op::F2I | op::TANH | op::TANH_PRE | op::SIGMOID => (true, true, false),
        // LD: src1 is an optional immediate offset
        op::LD => (true, true, false),
        op::CMP | op::FCMP | op::ST => (false, true, true),
        op::SRD => (true, false, false),
        op::SWR => (false, true, false),
        _ => (false, false, false),
    };
    Operands { dst, src0, src1 }
}

fn region_get(w: u128, f: [enc::Field; 6]) -> Region {
    Region {
        reg: f[0].get(w) as u32,
        sub: f[1].get(w) as u32,
        vs: f[2].get(w) as u32,
        width_log2: f[3].get(w) as u32,
        hs: f[4].get(w) as u32,
        ty: f[5].get(w) as u32,
    }
}

fn region_set(mut w: u128, f: [enc::Field; 6], r: &Region) -> u128 {
    for (fd, v) in f.iter().zip([r.reg, r.sub, r.vs, r.width_log2, r.hs, r.ty]) {
        w = fd.set(w, v as u64);
    }
    w
}

const SRC0: [enc::Field; 6] =
    [field::SRC0_REG, field::SRC0_SUB, field::SRC0_VS, field::SRC0_WIDTH, field::SRC0_HS, field::SRC0_TYPE];
const SRC1: [enc::Field; 6] =
    [field::SRC1_REG, field::SRC1_SUB, field::SRC1_VS, field::SRC1_WIDTH, field::SRC1_HS, field::SRC1_TYPE];

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

impl Inst {
    /// The 128-bit instruction word.
    pub fn encode(&self) -> u128 {
        let mut w = 0u128;
        w = field::OP.set(w, self.op);
        w = field::CMOD.set(w, self.cmod);
        w = field::PRED.set(w, self.pred);
        w = field::FLAG.set(w, self.flag as u64);
        w = field::EXEC.set(w, self.exec_log2 as u64);
        w = field::FMT.set(w, self.fmt as u64);
        w = field::FTZ.set(w, self.ftz as u64);
        w = field::DST_REG.set(w, self.dst.reg as u64);
        w = field::DST_SUB.set(w, self.dst.sub as u64);
        w = field::DST_HS.set(w, self.dst.hs as u64);
        w = field::DST_TYPE.set(w, self.dst.ty as u64);
        if enc::is_control(self.op) {
            w = field::JIP.set(w, self.jip as u64);
            w = field::UIP.set(w, self.uip as u64);
        } else {
            w = region_set(w, SRC0, &self.src0);
        }
        if let Some(i) = self.imm {
            w = field::SRC1_IMM.set(w, 1);
            w = field::IMM.set(w, i as u64);
        } else {
            w = region_set(w, SRC1, &self.src1);
        }
        w
    }

    /// Decodes a word; `Err` for an illegal instruction (unknown op, reserved predicate mode or
    /// nonzero reserved bits). Region fields are not checked here: the region address generator
    /// rejects a bad region when the instruction executes (ILLEGAL_REGION).
    pub fn decode(w: u128) -> Result<Inst, String> {
        let o = field::OP.get(w);
        if op::TABLE.name_of(o).is_none() {
            return Err(format!("reserved op code {o:#x}"));
        }
        if w & enc::RESERVED_MASK != 0 {
            return Err("nonzero reserved bits".into());
        }
        let p = field::PRED.get(w);
        if pred::TABLE.name_of(p).is_none() {
            return Err(format!("reserved predicate mode {p}"));
        }
        let imm = field::SRC1_IMM.get(w) == 1;
        let mut i = Inst {
            op: o,
            cmod: field::CMOD.get(w),
            pred: p,
            flag: field::FLAG.get(w) as u32,
            exec_log2: field::EXEC.get(w) as u32,
            imm: if imm { Some(field::IMM.get(w) as u32) } else { None },
            fmt: field::FMT.get(w) as u32,
            ftz: field::FTZ.get(w) == 1,
            dst: Region {
                reg: field::DST_REG.get(w) as u32,
                sub: field::DST_SUB.get(w) as u32,
                hs: field::DST_HS.get(w) as u32,
                ty: field::DST_TYPE.get(w) as u32,
                ..Default::default()
            },
            ..Default::default()
        };
        if imm && w >> (field::IMM.lsb + field::IMM.width) & ((1u128 << (field::SRC1_TYPE.lsb + 3 - 114)) - 1) != 0 {
            return Err("nonzero bits above the immediate".into());
        }
        if enc::is_control(o) {
            i.jip = sext(field::JIP.get(w), field::JIP.width);
            i.uip = sext(field::UIP.get(w), field::UIP.width);
        } else {
            i.src0 = region_get(w, SRC0);
        }
        if !imm {
            i.src1 = region_get(w, SRC1);
        }
        Ok(i)
    }
}

/// The region address generator as the EU instantiates it: 128 registers of 32 bytes per
/// thread, N_MAX 8, no wrap-around, origins aligned to the element size (`ALIGN_STRICT`: a
/// misaligned origin is E_ALIGN, an illegal region — docs/isa.md says why), any destination
/// profile, row-major.
pub fn rag_cfg() -> rag::Cfg {
    rag::Cfg {
        rb: REG_BYTES,
        nr: NUM_REGS,
        n_max: LANES as u32,
        wrap_rf: false,
        align_strict: true,
        dst_restricted: false,
        colmajor_en: false,
        rd_ports: 2,
        wr_ports: 2,
        l_rf: 1,
        span_limit_1pass: false,
    }
}

/// The branch unit as the EU instantiates it: 8 lanes, MAXD 8, MAXD_CALL 8, 16-bit IPs.
pub fn bu_cfg() -> bu::Cfg {
    bu::Cfg::new(LANES)
}

/// What the host does when `host_irq` rises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// KILL every PAUSED/PARKED thread, then acknowledge (GSTATUS write-1-to-clear).
    Kill,
    /// RESUME every PAUSED/PARKED thread, then acknowledge.
    Resume,
    /// Nothing: the run stops when no thread can issue (`End::Stuck`).
    Ignore,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub threads: usize,
    /// Data memory bytes (shared by the threads).
    pub mem_bytes: usize,
    /// The run stops with `End::Limit` after this many cycles.
    pub max_cycles: u64,
    pub host: Host,
}

impl Default for Config {
    fn default() -> Self {
        Config { threads: 4, mem_bytes: 16 * 1024, max_cycles: 2_000_000, host: Host::Kill }
    }
}

/// An assembled program: instruction memory from IP 0, threads start at 0; the trap handler
/// (if any) starts at `handler`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub code: Vec<u128>,
    pub handler: Option<u64>,
}

/// One destination write of a retired instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Register `reg` after the write, and which bytes were written.
    Reg { reg: u32, be: u32, data: [u8; 32] },
    /// Flag register `f` after the write.
    Flag { f: u32, value: u8 },
    /// Data memory word at byte address `addr` after the write.
    Mem { addr: u32, value: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retired {
    pub cycle: u64,
    pub thread: usize,
    pub ip: u64,
    /// The lanes the instruction ran on (the branch unit's mask, cut to the exec size and the
    /// predicate for non-control ops; the branch unit's `exec_mask` for control ops).
    pub exec_mask: u8,
    pub writes: Vec<Write>,
}

/// An exception raised by an instruction (it does not retire).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exception {
    pub cycle: u64,
    pub thread: usize,
    pub ip: u64,
    pub cause: u64,
    /// Why, for messages (the RAG `out_err` bits, the branch unit's error code, ...).
    pub detail: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every thread ended (END) or was killed.
    Done,
    /// No thread can issue and the host does nothing.
    Stuck,
    /// `max_cycles` reached.
    Limit,
}

#[derive(Clone, Debug)]
pub struct Run {
    pub end: End,
    pub cycles: u64,
    pub trace: Vec<Retired>,
    pub exceptions: Vec<Exception>,
    /// Per thread: the register file (128 x 32 bytes).
    pub rf: Vec<Vec<u8>>,
    pub flags: Vec<[u8; 2]>,
    pub mem: Vec<u8>,
    /// Threads the host killed.
    pub killed: u32,
    /// Cycles in which `host_irq` was high.
    pub irq_cycles: u64,
    /// The trap controller's sticky bits ever set.
    pub sticky: u16,
}

impl Run {
    /// Lane `lane` of register `reg` of thread `t` as a 32-bit value.
    pub fn lane(&self, t: usize, reg: u32, lane: usize) -> u32 {
        let a = (reg * REG_BYTES) as usize + 4 * lane;
        u32::from_le_bytes(self.rf[t][a..a + 4].try_into().unwrap())
    }
    pub fn word(&self, addr: usize) -> u32 {
        u32::from_le_bytes(self.mem[addr..addr + 4].try_into().unwrap())
    }
    /// Retired instructions per thread.
    pub fn retired(&self, t: usize) -> usize {
        self.trace.iter().filter(|r| r.thread == t).count()
    }
}

struct Thread {
    ip: u64,
    bu: bu::State,
    /// The thread's own control state while it runs the handler.
    saved: Option<bu::State>,
    done: bool,
    killed: bool,
    flags: [u8; 2],
    rf: Vec<u8>,
}

/// What an issued instruction tells the trap controller.
#[derive(Default)]
struct Side {
    exc: Option<(u64, String)>,
    ret: bool,
    pause: bool,
}

/// The model: set registers and memory, then [`Model::run`].
pub struct Model {
    pub cfg: Config,
    pub prog: Program,
    /// Per thread register files (128 x 32 bytes), initialised to zero.
    pub rf: Vec<Vec<u8>>,
    pub mem: Vec<u8>,
}

fn esize(ty: u32) -> u32 {
    1 << rag::esize_log2(ty).unwrap_or(2)
}

fn extend(v: u32, ty: u32) -> u32 {
    match ty {
        rag::T_B => v as u8 as i8 as i32 as u32,
        rag::T_W => v as u16 as i16 as i32 as u32,
        rag::T_UB => v & 0xFF,
        rag::T_UW => v & 0xFFFF,
        _ => v,
    }
}

fn cond(c: u64, a: u32, b: u32) -> bool {
    let (x, y) = (a as i32, b as i32);
    match c {
        cmod::EQ => a == b,
        cmod::NE => a != b,
        cmod::LT => x < y,
        cmod::LE => x <= y,
        cmod::GT => x > y,
        cmod::GE => x >= y,
        cmod::ULT => a < b,
        _ => false,
    }
}

fn fcond(c: u64, a: u32, b: u32) -> bool {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match c {
        cmod::EQ => x == y,
        cmod::NE => x != y,
        cmod::LT => x < y,
        cmod::LE => x <= y,
        cmod::GT => x > y,
        cmod::GE => x >= y,
        cmod::ULT => x.is_nan() || y.is_nan(),
        _ => false,
    }
}

/// The ISA's quiet NaN for results that are a NaN not taken from an operand (docs/isa.md).
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;

/// FMIN (`max` false) / FMAX of fp32 `a` and `b` (docs/isa.md "Operations": IEEE 754-2019
/// minimumNumber / maximumNumber): a NaN operand gives the other operand, two NaNs give
/// [`CANONICAL_NAN`], and −0 is below +0 (Rust's `f32::min` leaves the sign of a zero result and
/// the NaN it returns open, so the ISA does not use it).
pub fn min_max_number(a: u32, b: u32, max: bool) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        // IEEE 754's total order (`total_cmp`) is the numeric order with −0 below +0; equal
        // values have equal bits
        (false, false) => match (x.total_cmp(&y), max) {
            (std::cmp::Ordering::Greater, false) | (std::cmp::Ordering::Less, true) => b,
            _ => a,
        },
    }
}

fn is_float_op(o: u64) -> bool {
    matches!(o, op::FADD | op::FSUB | op::FMUL | op::FMIN | op::FMAX | op::I2F)
}

impl Model {
    pub fn new(cfg: Config, prog: Program) -> Self {
        assert!((1..=tc::MAXW).contains(&cfg.threads));
        let rf = vec![vec![0u8; (NUM_REGS * REG_BYTES) as usize]; cfg.threads];
        let mem = vec![0u8; cfg.mem_bytes];
        Model { cfg, prog, rf, mem }
    }

    /// Sets lane `lane` of register `reg` of thread `t`.
    pub fn set_lane(&mut self, t: usize, reg: u32, lane: usize, v: u32) {
        let a = (reg * REG_BYTES) as usize + 4 * lane;
        self.rf[t][a..a + 4].copy_from_slice(&v.to_le_bytes());
    }
    pub fn set_word(&mut self, addr: usize, v: u32) {
        self.mem[addr..addr + 4].copy_from_slice(&v.to_le_bytes());
    }

    pub fn run(self) -> Run {
        let Model { cfg, prog, rf, mut mem } = self;
        let bcfg = bu_cfg();
        let rcfg = rag_cfg();
        let mut p = tc::Params::new(cfg.threads);
        p.pc_w = 16;
        p.t = LANES;
        p.has_sstep = false;
        p.haddr_reset = prog.handler.unwrap_or(0) as u32;
        let mut ts_ = tc::reset_state(&p);
        let mut th: Vec<Thread> = rf
            .into_iter()
            .map(|rf| {
                let (s, _) = bu::step(&bcfg, &bu::State::reset(&bcfg), &bu::Instr::new(bu::op::INIT, 0, 0, 0), bcfg.nmask());
                Thread { ip: 0, bu: s, saved: None, done: false, killed: false, flags: [0; 2], rf }
            })
            .collect();
        let mut run = Run {
            end: End::Limit,
            cycles: 0,
            trace: Vec::new(),
            exceptions: Vec::new(),
            rf: Vec::new(),
            flags: Vec::new(),
            mem: Vec::new(),
            killed: 0,
            irq_cycles: 0,
            sticky: 0,
        };
        let mut rr = cfg.threads - 1;
        let mut idle = 0u32;
        let mut host_step = 0u8;
        for cycle in 0..cfg.max_cycles {
            run.cycles = cycle;
            let mut i = tc::Inputs { quiesced: true, ..Default::default() };
            for (w, t) in th.iter().enumerate() {
                if !t.done && !t.killed {
                    i.warp_valid |= 1 << w;
                }
                i.warp_pc[w] = t.ip as u32;
                i.warp_mask[w] = t.bu.e() as u32;
            }
            if i.warp_valid == 0 {
                run.end = End::Done;
                break;
            }
            let o = tc::outputs(&p, &ts_, &i);
            for (w, t) in th.iter_mut().enumerate() {
                if o.warp_kill >> w & 1 == 1 && !t.killed {
                    t.killed = true;
                    run.killed |= 1 << w;
                }
                if o.redir_valid >> w & 1 == 1 {
                    t.ip = o.redir_pc[w] as u64;
                    if ts_.ws[w] == tc::TRAP {
                        // into the handler: a fresh control context on all lanes
                        let own = std::mem::replace(&mut t.bu, bu::State::reset(&bcfg));
                        t.saved.get_or_insert(own);
                        let init = bu::Instr::new(bu::op::INIT, t.ip, 0, 0);
                        t.bu = bu::step(&bcfg, &t.bu, &init, bcfg.nmask()).0;
                    } else if let Some(s) = t.saved.take() {
                        // back to the thread's own code at EPC
                        t.bu = s;
                    }
                }
            }
            // issue: the next thread after the last one that may
            let mut side = Side::default();
            let mut issued = None;
            for k in 1..=cfg.threads {
                let w = (rr + k) % cfg.threads;
                if i.warp_valid >> w & 1 == 1 && o.warp_halt >> w & 1 == 0 && !th[w].killed {
                    issued = Some(w);
                    break;
                }
            }
            if let Some(w) = issued {
                rr = w;
                idle = 0;
                i.issue_valid = true;
                i.issue_wid = w as u32;
                let in_handler = ts_.ws[w] == tc::TRAP;
                side = execute(&bcfg, &rcfg, &p, &ts_, &mut i, w, &mut th[w], &mut mem, cycle, &mut run, in_handler, &prog.code);
                if let Some((c, d)) = side.exc.take() {
                    let t = &th[w];
                    run.exceptions.push(Exception { cycle, thread: w, ip: t.ip, cause: c, detail: d });
                    i.exc_valid |= 1 << w;
                    i.exc_cause[w] = c as u8;
                    i.exc_pc[w] = t.ip as u32;
                    i.exc_mask[w] = t.bu.e() as u32;
                    // the controller drops a cause the handler masks (HMASK, SUPPR): the
                    // instruction is skipped (the branch unit's NOP: IP + 1, mask kept)
                    if in_handler && ts_.hmask >> c & 1 == 1 {
                        th[w].ip += 1;
                    }
                }
                if side.ret {
                    i.ret_valid |= 1 << w;
                }
                if side.pause {
                    i.pause_valid |= 1 << w;
                }
            } else {
                idle += 1;
            }
            // the host answers the interrupt: KILL or RESUME the waiting threads, then acknowledge
            if o.host_irq {
                run.irq_cycles += 1;
                let waiting = (0..cfg.threads)
                    .filter(|&w| ts_.ws[w] == tc::PAUSED || ts_.ws[w] == tc::PARKED)
                    .fold(0u32, |m, w| m | 1 << w);
                let csr = match (cfg.host, host_step) {
                    (Host::Ignore, _) => None,
                    (h, 0) if waiting != 0 => Some((if h == Host::Kill { hdl::trap_controller::enc::csr::KILL } else { hdl::trap_controller::enc::csr::RESUME }, waiting)),
                    _ => Some((hdl::trap_controller::enc::csr::GSTATUS, tc::STICKY_MASK as u32)),
                };
                if let Some((a, d)) = csr {
                    i.csr_valid = true;
                    i.csr_we = true;
                    i.csr_addr = a as u8;
                    i.csr_wdata = d;
                    host_step = if a == hdl::trap_controller::enc::csr::GSTATUS { 0 } else { 1 };
                }
            } else {
                host_step = 0;
            }
            let _ = side;
            let (n, _) = tc::step(&p, &ts_, &i);
            run.sticky |= n.sticky;
            ts_ = n;
            if idle > 64 && ts_.mode == tc::NORM || idle > 10_000 {
                run.end = End::Stuck;
                break;
            }
        }
        run.rf = th.iter().map(|t| t.rf.clone()).collect();
        run.flags = th.iter().map(|t| t.flags).collect();
        run.mem = mem;
        run
    }
}

fn lanes_of(exec_log2: u32) -> u8 {
    if exec_log2 >= 3 {
        0xFF
    } else {
        ((1u32 << (1 << exec_log2)) - 1) as u8
    }
}

fn desc(r: &Region, exec_log2: u32, dst: bool) -> rag::Desc {
    rag::Desc {
        reg: r.reg,
        sub: r.sub,
        ty: r.ty,
        exec_log2,
        width_log2: if dst { exec_log2 } else { r.width_log2 },
        hs: r.hs,
        vs: if dst { 0 } else { r.vs },
        is_dst: dst,
        ..Default::default()
    }
}

/// Executes the instruction at `t.ip` of thread `w`; commits it (trace, writes, next IP) unless
/// it raises an exception, which it returns instead.
#[allow(clippy::too_many_arguments)]
fn execute(
    bcfg: &bu::Cfg,
    rcfg: &rag::Cfg,
    p: &tc::Params,
    ts_: &tc::State,
    i: &mut tc::Inputs,
    w: usize,
    t: &mut Thread,
    mem: &mut [u8],
    cycle: u64,
    run: &mut Run,
    in_handler: bool,
    code: &[u128],
) -> Side {
    let mut side = Side::default();
    let exc = |c: u64, d: String| Side { exc: Some((c, d)), ..Default::default() };
    let Some(&wd) = code.get(t.ip as usize) else {
        return exc(cause::ILLEGAL_INSTR, format!("IP {} outside the program", t.ip));
    };
    let ins = match Inst::decode(wd) {
        Ok(x) => x,
        Err(e) => return exc(cause::ILLEGAL_INSTR, e),
    };
    let flagv = t.flags[ins.flag as usize];
    let pmask: u8 = match ins.pred {
        pred::F => flagv,
        pred::NOT_F => !flagv,
        _ => 0xFF,
    };
    if enc::is_control(ins.op) {
        let bi = bu::Instr::new(ins.op, t.ip, ins.jip, ins.uip);
        let (s2, out) = bu::step(bcfg, &t.bu, &bi, pmask as u64);
        if out.err {
            let n = bu::err::TABLE.name_of(out.err_code).unwrap_or("?");
            return exc(cause::BRANCH_FAULT, format!("branch unit error {n}"));
        }
        run.trace.push(Retired { cycle, thread: w, ip: t.ip, exec_mask: out.exec_mask as u8, writes: vec![] });
        t.bu = s2;
        if ins.op == op::EOT {
            t.done = true;
        } else {
            t.ip = out.next_ip;
        }
        return side;
    }
    // every other op: the branch unit's NOP gives the mask and the next IP
    let (s2, out) = bu::step(bcfg, &t.bu, &bu::Instr::new(bu::op::NOP, t.ip, 0, 0), bcfg.nmask());
    if out.err {
        let n = bu::err::TABLE.name_of(out.err_code).unwrap_or("?");
        return exc(cause::BRANCH_FAULT, format!("branch unit error {n}"));
    }
    let mask = out.exec_mask as u8 & lanes_of(ins.exec_log2) & pmask;
    let opd = operands(ins.op);
    // regions first: any RAG error stops the instruction before it writes anything
    let fetch = |r: &Region, name: &str| -> Result<[u32; LANES], Side> {
        let ro = rag::rag(rcfg, &desc(r, ins.exec_log2, false));
        if ro.err != 0 {
            return Err(exc(cause::ILLEGAL_REGION, format!("{name}: RAG error bits {:#05x}", ro.err)));
        }
        let g = rag::gather(rcfg, &t.rf, &ro);
        let mut v = [0u32; LANES];
        for (l, x) in v.iter_mut().enumerate() {
            *x = extend(g.data[l], r.ty);
        }
        Ok(v)
    };
    // an op with one source takes an immediate in its place (LD's immediate is its offset)
    let imm_src0 = opd.src0 && !opd.src1 && ins.op != op::LD;
    let s0 = if let (true, Some(imm)) = (imm_src0, ins.imm) {
        [imm; LANES]
    } else if opd.src0 {
        match fetch(&ins.src0, "src0") {
            Ok(v) => v,
            Err(s) => return s,
        }
    } else {
        [0; LANES]
    };
    let s1 = if let (false, Some(imm)) = (imm_src0, ins.imm) {
        [imm; LANES]
    } else if opd.src1 {
        match fetch(&ins.src1, "src1") {
            Ok(v) => v,
            Err(s) => return s,
        }
    } else {
        [0; LANES]
    };
    let dst_ro = if opd.dst {
        let ro = rag::rag(rcfg, &desc(&ins.dst, ins.exec_log2, true));
        if ro.err != 0 {
            return exc(cause::ILLEGAL_REGION, format!("dst: RAG error bits {:#05x}", ro.err));
        }
        Some(ro)
    } else {
        None
    };
    let mut res = [0u32; LANES];
    let mut writes = Vec::new();
    let mut flag_write: Option<u8> = None;
    let lanes = (0..LANES).filter(|l| mask >> l & 1 == 1);
    match ins.op {
        // the thread-level ops act only if some lane runs them (a predicated-off TRAP, TRET,
        // TPAUSE or SWR does nothing)
        op::NOP | op::TRET | op::TPAUSE => {
            if ins.op != op::NOP && !in_handler {
                return exc(cause::ILLEGAL_INSTR, "TRET/TPAUSE outside the handler".into());
            }
            side.ret = ins.op == op::TRET && mask != 0;
            side.pause = ins.op == op::TPAUSE && mask != 0;
        }
        op::TRAP if mask != 0 => return exc(cause::TRAP, format!("TRAP {}", ins.imm.unwrap_or(0))),
        op::TRAP => {}
        op::CMP | op::FCMP => {
            let mut f = flagv;
            for l in lanes {
                let b = if ins.op == op::CMP { cond(ins.cmod, s0[l], s1[l]) } else { fcond(ins.cmod, s0[l], s1[l]) };
                f = (f & !(1 << l)) | (b as u8) << l;
            }
            flag_write = Some(f);
        }
        op::LD | op::ST => {
            let off = if ins.op == op::LD { ins.imm.unwrap_or(0) } else { 0 };
            for l in lanes.clone() {
                let a = s0[l].wrapping_add(off) as usize;
                if a % 4 != 0 || a + 4 > mem.len() {
                    return exc(cause::MEM_FAULT, format!("lane {l} address {a:#x}"));
                }
            }
            for l in lanes {
                let a = s0[l].wrapping_add(off) as usize;
                if ins.op == op::LD {
                    res[l] = u32::from_le_bytes(mem[a..a + 4].try_into().unwrap());
                } else {
                    mem[a..a + 4].copy_from_slice(&s1[l].to_le_bytes());
                    writes.push(Write::Mem { addr: a as u32, value: s1[l] });
                }
            }
        }
        op::TANH | op::TANH_PRE | op::SIGMOID => {
            let vi = ts::VecIn {
                valid: true,
                op: (ins.op & 3) as u8,
                fmt: ins.fmt as u8,
                ftz: ins.ftz,
                mask: mask as u32,
                tag: 0,
                data: s0.to_vec(),
            };
            let vo = ts::Pipeline::new(LANES).compute(&vi);
            res.copy_from_slice(&vo.data);
        }
        op::SRD => {
            let sel = ins.src1.reg as u64;
            let v = match sel {
                sreg::TID => Some(w as u32),
                sreg::LANE => None,
                sreg::ESR | sreg::EPC | sreg::EMASK | sreg::TGID => {
                    let mut q = *i;
                    q.sr_valid = true;
                    q.sr_wid = w as u32;
                    q.sr_sel = sel as u8;
                    i.sr_valid = true;
                    i.sr_wid = w as u32;
                    i.sr_sel = sel as u8;
                    Some(tc::outputs(p, ts_, &q).sr_rdata)
                }
                _ => return exc(cause::ILLEGAL_INSTR, format!("SRD of reserved special register {sel}")),
            };
            for (l, r) in res.iter_mut().enumerate() {
                *r = v.unwrap_or(l as u32);
            }
        }
        op::SWR => {
            let sel = ins.dst.reg as u64;
            if !matches!(sel, sreg::ESR | sreg::EPC | sreg::EMASK) {
                return exc(cause::ILLEGAL_INSTR, format!("SWR of read-only special register {sel}"));
            }
            if let Some(l) = lanes.clone().next() {
                i.sr_valid = true;
                i.sr_we = true;
                i.sr_wid = w as u32;
                i.sr_sel = sel as u8;
                i.sr_wdata = s0[l];
            }
        }
        o => {
            for l in lanes {
                let (a, b) = (s0[l], s1[l]);
                let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
                res[l] = match o {
                    op::MOV => a,
                    op::ADD => a.wrapping_add(b),
                    op::SUB => a.wrapping_sub(b),
                    op::MUL => a.wrapping_mul(b),
                    op::MULH => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
                    op::AND => a & b,
                    op::OR => a | b,
                    op::XOR => a ^ b,
                    op::NOT => !a,
                    op::SHL => a << (b & 31),
                    op::SHR => a >> (b & 31),
                    op::ASR => ((a as i32) >> (b & 31)) as u32,
                    op::MIN => (a as i32).min(b as i32) as u32,
                    op::MAX => (a as i32).max(b as i32) as u32,
                    op::SEL => {
                        if flagv >> l & 1 == 1 {
                            a
                        } else {
                            b
                        }
                    }
                    op::FADD => (fa + fb).to_bits(),
                    op::FSUB => (fa - fb).to_bits(),
                    op::FMUL => (fa * fb).to_bits(),
                    op::FMIN => min_max_number(a, b, false),
                    op::FMAX => min_max_number(a, b, true),
                    op::I2F => (a as i32 as f32).to_bits(),
                    op::F2I => (fa as i32) as u32,
                    _ => unreachable!("op {o:#x} has a case above"),
                };
            }
        }
    }
    // cmod on a result-writing op: flag = cmod(result, 0)
    if opd.dst && ins.cmod != cmod::NONE {
        let mut f = flagv;
        for l in (0..LANES).filter(|l| mask >> l & 1 == 1) {
            let b = if is_float_op(ins.op) { fcond(ins.cmod, res[l], 0) } else { cond(ins.cmod, res[l], 0) };
            f = (f & !(1 << l)) | (b as u8) << l;
        }
        flag_write = Some(f);
    }
    if let Some(ro) = dst_ro {
        let s = rag::scatter(rcfg, &mut t.rf, &ro, &res, mask as u32);
        assert_eq!(s.err, 0, "a checked destination region");
        let e = esize(ins.dst.ty);
        let mut regs: Vec<(u32, u32)> = Vec::new();
        for l in (0..LANES).filter(|l| mask >> l & 1 == 1) {
            for k in 0..e {
                let a = ro.addr[l] + k;
                let (r, b) = (a / REG_BYTES, a % REG_BYTES);
                match regs.iter_mut().find(|x| x.0 == r) {
                    Some(x) => x.1 |= 1 << b,
                    None => regs.push((r, 1 << b)),
                }
            }
        }
        regs.sort();
        for (r, be) in regs {
            let a = (r * REG_BYTES) as usize;
            writes.push(Write::Reg { reg: r, be, data: t.rf[a..a + 32].try_into().unwrap() });
        }
    }
    if let Some(f) = flag_write {
        t.flags[ins.flag as usize] = f;
        writes.push(Write::Flag { f: ins.flag, value: f });
    }
    run.trace.push(Retired { cycle, thread: w, ip: t.ip, exec_mask: mask, writes });
    t.bu = s2;
    t.ip = out.next_ip;
    side
}
