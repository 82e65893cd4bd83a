//! Random ISA-level programs: the branch unit's random structured program generator
//! ([`prog::Gen::program`]) gives the control-flow skeleton, every NOP slot becomes a random
//! instruction (every non-control op, random regions, predicates and condition modifiers, now
//! and then an illegal region, a TRAP or a TRET outside the handler), and a standard handler
//! steps over resumable exceptions and pauses on a branch fault (the host kills the thread).
//!
//! Termination is by construction, not by chance: every loop has its own counter register
//! (r100 + k, set before DO to 1..4); the first two instructions of the body count it down and
//! BREAK the lanes whose count ran out, so CONT and any WHILE predicate still leave the loop.
//! Recursive calls of the skeleton are dropped (a recursive call would reset its caller's loop
//! counter). Registers r96.. are never random destinations: r96 holds valid word addresses for
//! LD/ST, r100.. the loop counters, r120.. belong to the handler.

use super::asm::{link, Source, Stmt};
use super::{cmod, op, pred, sreg, Config, Host, Inst, Model, Program, Region};
use crate::golden::branch_unit::prog::{self, Node};
use crate::golden::region_addr_gen as rag;
use rand::rngs::StdRng;
use rand::Rng;

/// Register holding one valid, word-aligned data-memory address per lane.
pub const ADDR_REG: u32 = 96;
/// First loop-counter register.
pub const COUNTER_BASE: u32 = 100;
const COUNTERS: u32 = 20;
/// Data memory of a random run.
pub const MEM_BYTES: usize = 4096;

const ALU_OPS: &[u64] = &[
    op::NOP,
    op::MOV,
    op::ADD,
    op::SUB,
    op::MUL,
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
    op::MULH,
    op::FADD,
    op::FSUB,
    op::FMUL,
    op::FMIN,
    op::FMAX,
    op::FCMP,
    op::I2F,
    op::F2I,
    op::LD,
    op::ST,
    op::TANH_PRE,
    op::SIGMOID,
    op::TANH,
    op::SRD,
];

struct G<'a> {
    rng: &'a mut StdRng,
    loops: u32,
    /// Lane-local programs: every operand is lane l of its register (`<8;8,1>:d`, exec 8), no
    /// memory, special registers or traps, so each lane can be run alone as scalar code.
    local: bool,
    /// Restricted programs: only these ops (the control flow of the skeleton always), random
    /// regions that each lie in one register (any type, sub-register offset and strides;
    /// [`one_register`]) (LD/ST address register [`ADDR_REG`] as `r.0<N;N,1>:ud`), no special
    /// registers but TID and LANE, no traps or handler: the subset an RTL slice runs
    /// (`hdl::eu_core::slice_ops`).
    ops: Option<&'a [u64]>,
    /// Of `ops`, those whose regions may span several registers (any legal region, half of the
    /// time; [`program_restricted_multi`]).
    multi: &'a [u64],
}

/// Ops of lane-local programs.
const LOCAL_OPS: &[u64] = &[
    op::MOV,
    op::ADD,
    op::SUB,
    op::MUL,
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
    op::MULH,
    op::FADD,
    op::FMUL,
    op::FCMP,
    op::I2F,
    op::F2I,
    op::TANH,
    op::SIGMOID,
];

fn any_pred(rng: &mut StdRng) -> (u64, u32) {
    match rng.gen_range(0..4) {
        0 => (pred::NONE, 0),
        1 => (pred::F, rng.gen_range(0..2)),
        _ => (pred::NOT_F, rng.gen_range(0..2)),
    }
}

/// A sub-register byte offset for type `ty`: 0 most of the time, else a multiple of the element
/// size, and now and then (2 %) any byte — misaligned, an illegal region (E_ALIGN) the handler
/// sees.
fn sub(r: &mut StdRng, ty: u32) -> u32 {
    let e = 1 << rag::esize_log2(ty).expect("a drawn type is not the reserved one");
    if r.gen_bool(0.7) {
        0
    } else if r.gen_bool(0.02) {
        r.gen_range(0..32)
    } else {
        e * r.gen_range(0..32 / e)
    }
}

impl G<'_> {
    fn src(&mut self, exec_log2: u32) -> Region {
        let r = &mut *self.rng;
        let ty = r.gen_range(0..7);
        let w = r.gen_range(0..=exec_log2);
        Region {
            reg: r.gen_range(0..80),
            sub: sub(r, ty),
            vs: [0, 1, 2, 4, 8, 16][r.gen_range(0..6)],
            width_log2: w,
            hs: [0, 1, 2, 4][r.gen_range(0..4)],
            ty,
        }
    }

    fn dst(&mut self) -> Region {
        let r = &mut *self.rng;
        let ty = r.gen_range(0..7);
        Region { reg: r.gen_range(0..80), sub: sub(r, ty), hs: [1, 1, 2, 4][r.gen_range(0..4)], ty, ..Default::default() }
    }

    fn local_inst(&mut self) -> Inst {
        let o = LOCAL_OPS[self.rng.gen_range(0..LOCAL_OPS.len())];
        let (p, f) = if self.rng.gen_bool(0.3) { any_pred(self.rng) } else { (pred::NONE, self.rng.gen_range(0..2)) };
        let mut i = Inst { op: o, pred: p, flag: f, exec_log2: 3, ..Default::default() };
        let lane = |reg| Region { reg, vs: 8, width_log2: 3, hs: 1, ty: rag::T_D, sub: 0 };
        let opd = super::operands(o);
        if opd.dst {
            i.dst = Region { reg: self.rng.gen_range(0..16), hs: 1, ty: rag::T_D, ..Default::default() };
        }
        if opd.src0 {
            i.src0 = lane(self.rng.gen_range(0..16));
        }
        if opd.src1 {
            if self.rng.gen_bool(0.3) {
                i.imm = Some(self.rng.gen_range(0..40));
            } else {
                i.src1 = lane(self.rng.gen_range(0..16));
            }
        }
        if opd.dst && self.rng.gen_bool(0.3) || matches!(o, op::CMP | op::FCMP) {
            i.cmod = self.rng.gen_range(1..8);
        }
        i
    }

    /// A random source region of [`G::src`] for which `ok` holds ([`one_register`] or
    /// [`legal`]; drawn again until it does; the default region after 64 tries).
    fn src_where(&mut self, exec_log2: u32, ok: fn(&Region, u32, bool) -> bool) -> Region {
        for _ in 0..64 {
            let r = self.src(exec_log2);
            if ok(&r, exec_log2, false) {
                return r;
            }
        }
        Region { reg: self.rng.gen_range(0..80), vs: 1 << exec_log2, width_log2: exec_log2, hs: 1, ty: rag::T_D, sub: 0 }
    }

    /// A random destination region of [`G::dst`] for which `ok` holds.
    fn dst_where(&mut self, exec_log2: u32, ok: fn(&Region, u32, bool) -> bool) -> Region {
        for _ in 0..64 {
            let r = self.dst();
            if ok(&r, exec_log2, true) {
                return r;
            }
        }
        Region { reg: self.rng.gen_range(0..80), hs: 1, ty: rag::T_D, ..Default::default() }
    }

    fn restricted_inst(&mut self, ops: &[u64]) -> Inst {
        let o = ops[self.rng.gen_range(0..ops.len())];
        // any legal region (possibly over several registers) or one in one register
        let region_ok: fn(&Region, u32, bool) -> bool = if self.multi.contains(&o) && self.rng.gen_bool(0.5) { legal } else { one_register };
        let exec_log2 = if self.rng.gen_bool(0.7) { 3 } else { self.rng.gen_range(0..3) };
        let (p, f) = if self.rng.gen_bool(0.25) { any_pred(self.rng) } else { (pred::NONE, self.rng.gen_range(0..2)) };
        let mut i = Inst { op: o, pred: p, flag: f, exec_log2, ..Default::default() };
        let opd = super::operands(o);
        let ty = |r: &mut StdRng| if r.gen_bool(0.5) { rag::T_D } else { rag::T_UD };
        let src = |r: &mut StdRng| Region { reg: r.gen_range(0..80), vs: 1 << exec_log2, width_log2: exec_log2, hs: 1, ty: ty(r), sub: 0 };
        if opd.dst {
            i.dst = self.dst_where(exec_log2, region_ok);
        }
        if opd.src0 {
            i.src0 = self.src_where(exec_log2, region_ok);
        }
        if opd.src1 {
            if self.rng.gen_bool(0.3) {
                i.imm = Some(if self.rng.gen_bool(0.5) { self.rng.gen_range(0..64) } else { self.rng.gen() });
            } else {
                i.src1 = self.src_where(exec_log2, region_ok);
            }
        } else if opd.src0 && self.rng.gen_bool(0.2) {
            // a one-source op takes an immediate in place of src0
            i.imm = Some(self.rng.gen());
            i.src0 = Region::default();
        }
        if opd.dst && self.rng.gen_bool(0.2) || o == op::CMP {
            i.cmod = self.rng.gen_range(1..8);
        }
        if matches!(o, op::TANH | op::TANH_PRE | op::SIGMOID) {
            i.fmt = self.rng.gen_range(0..4);
            i.ftz = self.rng.gen();
        }
        if o == op::SRD {
            // the special registers outside the trap controller
            i.src1.reg = [sreg::TID, sreg::LANE][self.rng.gen_range(0..2)] as u32;
        }
        if matches!(o, op::LD | op::ST) {
            // the valid addresses of ADDR_REG (default region); LD's immediate is an offset
            i.src0 = Region { reg: ADDR_REG, ..src(self.rng) };
            i.src0.ty = rag::T_UD;
            if o == op::LD {
                i.imm = self.rng.gen_bool(0.5).then(|| 4 * self.rng.gen_range(0..8));
            }
        }
        i
    }

    fn inst(&mut self) -> Inst {
        if self.local {
            return self.local_inst();
        }
        if let Some(ops) = self.ops {
            return self.restricted_inst(ops);
        }
        let k = self.rng.gen_range(0..1000);
        if k < 4 {
            return Inst { op: op::TRAP, imm: Some(k), exec_log2: 3, ..Default::default() };
        }
        if k < 6 {
            return Inst { op: op::TRET, exec_log2: 3, ..Default::default() };
        }
        let o = ALU_OPS[self.rng.gen_range(0..ALU_OPS.len())];
        let exec_log2 = if self.rng.gen_bool(0.7) { 3 } else { self.rng.gen_range(0..3) };
        let (p, f) = if self.rng.gen_bool(0.25) { any_pred(self.rng) } else { (pred::NONE, self.rng.gen_range(0..2)) };
        let mut i = Inst { op: o, pred: p, flag: f, exec_log2, ..Default::default() };
        let opd = super::operands(o);
        if opd.dst {
            i.dst = self.dst();
        }
        if opd.src0 {
            i.src0 = self.src(exec_log2);
        }
        if opd.src1 {
            if self.rng.gen_bool(0.3) {
                i.imm = Some(if self.rng.gen_bool(0.5) { self.rng.gen_range(0..64) } else { self.rng.gen() });
            } else {
                i.src1 = self.src(exec_log2);
            }
        }
        if opd.dst && self.rng.gen_bool(0.2) || matches!(o, op::CMP | op::FCMP) {
            i.cmod = self.rng.gen_range(1..8);
        }
        match o {
            op::LD | op::ST => {
                i.src0 = Region { reg: ADDR_REG, vs: 8, width_log2: exec_log2, hs: 1, ty: rag::T_UD, sub: 0 };
                if o == op::LD {
                    i.imm = Some(4 * self.rng.gen_range(0..8));
                }
            }
            op::TANH | op::TANH_PRE | op::SIGMOID => {
                i.fmt = self.rng.gen_range(0..4);
                i.ftz = self.rng.gen();
            }
            op::SRD => i.src1.reg = [sreg::TID, sreg::LANE, sreg::ESR, sreg::TGID][self.rng.gen_range(0..4)] as u32,
            _ => {}
        }
        // now and then a region the RAG rejects: reserved type, register past the file,
        // exec size 16, width above the exec size
        if opd.src0 && self.rng.gen_range(0..300) == 0 {
            match self.rng.gen_range(0..4) {
                0 => i.src0.ty = rag::T_RESERVED,
                1 => i.src0.reg = 128 + self.rng.gen_range(0..128),
                2 => i.exec_log2 = 4,
                _ => i.src0.width_log2 = i.exec_log2 + 1,
            }
        }
        i
    }

    fn block(&mut self, b: &[Node]) -> Vec<Stmt> {
        let mut v = Vec::new();
        for n in b {
            match n {
                Node::Nop => {
                    for _ in 0..self.rng.gen_range(1..3) {
                        v.push(Stmt::Ins(self.inst()));
                    }
                }
                Node::If(t, e) => {
                    let p = any_pred(self.rng);
                    let t = self.block(t);
                    let e = e.as_ref().map(|e| self.block(e));
                    v.push(Stmt::If(p, t, e));
                }
                Node::Loop(b) => {
                    let c = COUNTER_BASE + self.loops % COUNTERS;
                    self.loops += 1;
                    let cr = Region { reg: c, vs: 8, width_log2: 3, hs: 1, ty: rag::T_D, sub: 0 };
                    let n = self.rng.gen_range(1..5);
                    let dst = Region { reg: c, hs: 1, ty: rag::T_D, ..Default::default() };
                    v.push(Stmt::Ins(Inst { op: op::MOV, exec_log2: 3, dst, imm: Some(n), ..Default::default() }));
                    let mut body = vec![
                        Stmt::Ins(Inst {
                            op: op::ADD,
                            cmod: cmod::LE,
                            flag: 1,
                            exec_log2: 3,
                            dst: Region { reg: c, hs: 1, ty: rag::T_D, ..Default::default() },
                            src0: cr,
                            imm: Some(u32::MAX),
                            ..Default::default()
                        }),
                        Stmt::Break((pred::F, 1)),
                    ];
                    body.extend(self.block(b));
                    let p = if self.rng.gen_bool(0.5) { (pred::NONE, 0) } else { any_pred(self.rng) };
                    v.push(Stmt::Loop(body, p));
                }
                Node::Break => v.push(Stmt::Break(any_pred(self.rng))),
                Node::Cont => v.push(Stmt::Cont(any_pred(self.rng))),
                Node::Call { rec: true, .. } => v.push(Stmt::Ins(self.inst())),
                Node::Call { f, rec: false } => v.push(Stmt::Call(*f, any_pred(self.rng))),
                Node::Ret => v.push(Stmt::Ret(any_pred(self.rng))),
                Node::Branch(b, b2) => {
                    let mut body = self.block(b);
                    if let Some(b2) = b2 {
                        body.extend(self.block(b2));
                    }
                    v.push(Stmt::Branch(any_pred(self.rng), body));
                }
                Node::Halt => v.push(Stmt::Halt(any_pred(self.rng))),
            }
        }
        v
    }
}

/// The standard handler of random programs (source text): ESR 0 returns; a branch fault
/// pauses (the host kills the thread); anything else steps over the excepting instruction.
pub const HANDLER: &str = "
    srd r120, esr
    and r121, r120, 15
    cmp.ne.f0 r121, 0
    (f0) if
        cmp.eq.f1 r121, 3
        (f1) if
            tpause
        endif
        srd r122, epc
        add r122, r122, 1
        swr epc, r122
    endif
    tret
";

/// The region lies in one register: no region error, and every channel's element inside the
/// origin register (the ISA model's region address generator decides).
pub fn one_register(r: &Region, exec_log2: u32, dst: bool) -> bool {
    let ro = rag::rag(&super::rag_cfg(), &super::desc(r, exec_log2, dst));
    let reg0 = ro.addr[0] / super::REG_BYTES;
    ro.err == 0 && (0..super::LANES).filter(|&c| ro.ch_valid >> c & 1 == 1).all(|c| ro.addr[c] / super::REG_BYTES == reg0 && ro.straddle >> c & 1 == 0)
}

/// The region is legal (the ISA model's region address generator reports no error); it may span
/// several registers.
pub fn legal(r: &Region, exec_log2: u32, dst: bool) -> bool {
    rag::rag(&super::rag_cfg(), &super::desc(r, exec_log2, dst)).err == 0
}

/// A random program of about `size` skeleton nodes.
pub fn program(rng: &mut StdRng, size: i32) -> Program {
    program_with(rng, size, false, None, &[])
}

/// A random lane-local program (see `G::local`): no handler, registers r0..r15 only.
pub fn program_lane_local(rng: &mut StdRng, size: i32) -> Program {
    program_with(rng, size, true, None, &[])
}

/// A random program restricted to `ops` (see `G::ops`): the skeleton's control flow, every other
/// instruction one of the non-control ops of `ops` on default regions; no handler. For an RTL
/// slice that runs part of the ISA (`hdl::eu_core::slice_ops()`).
pub fn program_restricted(rng: &mut StdRng, size: i32, ops: &[u64]) -> Program {
    let ops: Vec<u64> = ops.iter().copied().filter(|&o| !super::enc::is_control(o)).collect();
    assert!(!ops.is_empty(), "no non-control op to draw from");
    program_with(rng, size, false, Some(&ops), &[])
}

/// [`program_restricted`], where the ops of `multi` (a subset of `ops`) draw any legal region
/// half of the time, so that their sources and destinations may span several registers (the
/// RTL's multi-register passes, `hdl::eu_core::multi_register_ops`).
pub fn program_restricted_multi(rng: &mut StdRng, size: i32, ops: &[u64], multi: &[u64]) -> Program {
    let ops: Vec<u64> = ops.iter().copied().filter(|&o| !super::enc::is_control(o)).collect();
    assert!(!ops.is_empty(), "no non-control op to draw from");
    program_with(rng, size, false, Some(&ops), multi)
}

fn program_with(rng: &mut StdRng, size: i32, local: bool, ops: Option<&[u64]>, multi: &[u64]) -> Program {
    let ast = prog::Gen::program(rng, size, 6);
    let mut g = G { rng, loops: 0, local, ops, multi };
    let main = g.block(&ast.main);
    let funcs = ast.funcs.iter().map(|f| g.block(f)).collect();
    let handler = if local || ops.is_some() {
        None
    } else {
        super::asm::parse(&format!(".handler\n{HANDLER}\n.endhandler\n")).expect("the standard handler").handler
    };
    link(&Source { main, funcs, handler }).expect("a random program fits")
}

/// A model of `p` with random registers (r96 = valid addresses, counters and handler registers
/// zero) and random memory.
pub fn model(rng: &mut StdRng, p: Program, threads: usize) -> Model {
    let cfg = Config { threads, mem_bytes: MEM_BYTES, max_cycles: 200_000, host: Host::Kill };
    let mut m = Model::new(cfg, p);
    for t in 0..threads {
        for b in 0..(ADDR_REG * super::REG_BYTES) as usize {
            m.rf[t][b] = rng.gen();
        }
        for l in 0..super::LANES {
            let a = 4 * rng.gen_range(0..(MEM_BYTES as u32 - 64) / 4);
            m.set_lane(t, ADDR_REG, l, a);
        }
    }
    for b in m.mem.iter_mut() {
        *b = rng.gen();
    }
    m
}
