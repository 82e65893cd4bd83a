//! What the step needs from the request and the thread's lane masks alone, one stage early
//! (issue 17: the re-cut of the step). The op decode ([`Decode`]), the branch targets and their
//! range checks ([`Targets`], three `IPW+2`-bit adders) and the reductions of `E`, `T = pred & E`
//! and FC do not depend on the stacks or the lane counters' codes; with `pipe` ≥ 1 they are
//! computed from the request entering the step's stage and the thread's `E`/LIVE registers
//! ([`super::threads::LaneMaskRegs`]), and registered, so that the step's cycle starts from flops
//! instead of an adder chain and a counter zero-detect. With `pipe` = 0 there is no stage before
//! the step: the same logic is combinational, as in today's unit.
//!
//! Why the registered `E` equals the counters' zero-detect: a thread's `E` register is loaded by
//! every write of the thread's state with `E'` (or `E` when the step fails), and is 0 after reset
//! like the counters (all OFF); a thread cannot be in the stage before the step and in the step
//! in the same cycle (`thr_busy`: such a request is answered E_BUSY and commits nothing, and an
//! error response carries no masks). LIVE changes only with INIT (the only op that turns a lane
//! OFF or on: parking writes a type code, rejoining writes 0).

use super::decode::{Decode, Ops};
use super::targets::Targets;
use crate::prims::RDff;
use rust_hdl::prelude::*;

/// `k_registered` (pipe ≥ 1): every output registered; else combinational. The registers exist in
/// both cases and a constant selects (a block without them would leave `clock` unread, a lint
/// error); with pipe 0 synthesis removes them, since nothing reads them.
#[derive(LogicBlock)]
pub struct StepPre<const N: usize, const IPW: usize, const XW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The request entering the step's stage (pipe ≥ 1) or in it (pipe 0).
    pub op: Signal<In, Bits<5>>,
    pub ip: Signal<In, Bits<IPW>>,
    pub jip: Signal<In, Bits<IPW>>,
    pub uip: Signal<In, Bits<IPW>>,
    pub pred: Signal<In, Bits<N>>,
    /// The thread's `E` and LIVE lanes (its registers, or the counters' decode with one thread
    /// and pipe 0).
    pub e_in: Signal<In, Bits<N>>,
    pub live_in: Signal<In, Bits<N>>,
    /// The decoded op ([`Decode`]).
    pub ops: Signal<Out, Ops>,
    /// [`Targets`]' outputs.
    pub ip_x: Signal<Out, Bits<XW>>,
    pub tgt_n: Signal<Out, Bits<XW>>,
    pub tgt_j: Signal<Out, Bits<XW>>,
    pub tgt_u: Signal<Out, Bits<XW>>,
    pub tgt_u1: Signal<Out, Bits<XW>>,
    pub oor_n: Signal<Out, Bit>,
    pub oor_j: Signal<Out, Bit>,
    pub oor_u: Signal<Out, Bit>,
    pub oor_u1: Signal<Out, Bit>,
    pub lab_n: Signal<Out, Bits<IPW>>,
    pub lab_j: Signal<Out, Bits<IPW>>,
    pub lab_u: Signal<Out, Bits<IPW>>,
    pub jneg: Signal<Out, Bit>,
    pub jzero: Signal<Out, Bit>,
    pub jpos: Signal<Out, Bit>,
    pub upos: Signal<Out, Bit>,
    pub j_le_u: Signal<Out, Bit>,
    /// `E`, `T = pred & E`; FC (`E == LIVE`), `E == 0`, `T == 0`, `T == E`, pred all ones.
    pub e: Signal<Out, Bits<N>>,
    pub t: Signal<Out, Bits<N>>,
    pub fc: Signal<Out, Bit>,
    pub e_none: Signal<Out, Bit>,
    pub t_none: Signal<Out, Bit>,
    pub t_all: Signal<Out, Bit>,
    pub pred_all: Signal<Out, Bit>,
    decode: Decode,
    targets: Targets<IPW, XW>,
    t_c: Signal<Local, Bits<N>>,
    /// The single-bit results in one word for the registers.
    flags_c: Signal<Local, Bits<16>>,
    k_ones: Constant<Bits<N>>,
    r: PreRegs<N, IPW, XW>,
    k_registered: Constant<Bit>,
}

impl<const N: usize, const IPW: usize, const XW: usize> StepPre<N, IPW, XW> {
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            op: Default::default(),
            ip: Default::default(),
            jip: Default::default(),
            uip: Default::default(),
            pred: Default::default(),
            e_in: Default::default(),
            live_in: Default::default(),
            ops: Default::default(),
            ip_x: Default::default(),
            tgt_n: Default::default(),
            tgt_j: Default::default(),
            tgt_u: Default::default(),
            tgt_u1: Default::default(),
            oor_n: Default::default(),
            oor_j: Default::default(),
            oor_u: Default::default(),
            oor_u1: Default::default(),
            lab_n: Default::default(),
            lab_j: Default::default(),
            lab_u: Default::default(),
            jneg: Default::default(),
            jzero: Default::default(),
            jpos: Default::default(),
            upos: Default::default(),
            j_le_u: Default::default(),
            e: Default::default(),
            t: Default::default(),
            fc: Default::default(),
            e_none: Default::default(),
            t_none: Default::default(),
            t_all: Default::default(),
            pred_all: Default::default(),
            decode: Default::default(),
            targets: Default::default(),
            t_c: Default::default(),
            flags_c: Default::default(),
            k_ones: Constant::new(Bits::<N>::from((1u64 << N) - 1)),
            r: Default::default(),
            k_registered: Constant::new(registered),
        }
    }
}

impl<const N: usize, const IPW: usize, const XW: usize> Logic for StepPre<N, IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.decode.op.next = self.op.val();
        self.targets.ip.next = self.ip.val();
        self.targets.jip.next = self.jip.val();
        self.targets.uip.next = self.uip.val();
        self.t_c.next = self.pred.val() & self.e_in.val();
        // combinational (pipe 0) ...
        self.ops.next = self.decode.ops.val();
        self.ip_x.next = self.targets.ip_x.val();
        self.tgt_n.next = self.targets.tgt_n.val();
        self.tgt_j.next = self.targets.tgt_j.val();
        self.tgt_u.next = self.targets.tgt_u.val();
        self.tgt_u1.next = self.targets.tgt_u1.val();
        self.oor_n.next = self.targets.oor_n.val();
        self.oor_j.next = self.targets.oor_j.val();
        self.oor_u.next = self.targets.oor_u.val();
        self.oor_u1.next = self.targets.oor_u1.val();
        self.lab_n.next = self.targets.lab_n.val();
        self.lab_j.next = self.targets.lab_j.val();
        self.lab_u.next = self.targets.lab_u.val();
        self.jneg.next = self.targets.jneg.val();
        self.jzero.next = self.targets.jzero.val();
        self.jpos.next = self.targets.jpos.val();
        self.upos.next = self.targets.upos.val();
        self.j_le_u.next = self.targets.j_le_u.val();
        self.e.next = self.e_in.val();
        self.t.next = self.t_c.val();
        self.fc.next = self.e_in.val() == self.live_in.val();
        self.e_none.next = self.e_in.val() == 0;
        self.t_none.next = self.t_c.val() == 0;
        self.t_all.next = self.t_c.val() == self.e_in.val();
        self.pred_all.next = self.pred.val() == self.k_ones.val();
        self.flags_c.next = 0.into();
        self.flags_c.next = self.flags_c.val().replace_bit(0, self.targets.oor_n.val());
        self.flags_c.next = self.flags_c.val().replace_bit(1, self.targets.oor_j.val());
        self.flags_c.next = self.flags_c.val().replace_bit(2, self.targets.oor_u.val());
        self.flags_c.next = self.flags_c.val().replace_bit(3, self.targets.oor_u1.val());
        self.flags_c.next = self.flags_c.val().replace_bit(4, self.targets.jneg.val());
        self.flags_c.next = self.flags_c.val().replace_bit(5, self.targets.jzero.val());
        self.flags_c.next = self.flags_c.val().replace_bit(6, self.targets.jpos.val());
        self.flags_c.next = self.flags_c.val().replace_bit(7, self.targets.upos.val());
        self.flags_c.next = self.flags_c.val().replace_bit(8, self.targets.j_le_u.val());
        self.flags_c.next = self.flags_c.val().replace_bit(9, self.e_in.val() == self.live_in.val());
        self.flags_c.next = self.flags_c.val().replace_bit(10, self.e_in.val() == 0);
        self.flags_c.next = self.flags_c.val().replace_bit(11, self.t_c.val() == 0);
        self.flags_c.next = self.flags_c.val().replace_bit(12, self.t_c.val() == self.e_in.val());
        self.flags_c.next = self.flags_c.val().replace_bit(13, self.pred.val() == self.k_ones.val());
        // ... or through the registers (pipe ≥ 1)
        clock!(self, clock, r);
        self.r.rst.next = self.rst.val();
        self.r.ops.next = self.decode.ops.val();
        self.r.ip_x.next = self.targets.ip_x.val();
        self.r.tgt_n.next = self.targets.tgt_n.val();
        self.r.tgt_j.next = self.targets.tgt_j.val();
        self.r.tgt_u.next = self.targets.tgt_u.val();
        self.r.tgt_u1.next = self.targets.tgt_u1.val();
        self.r.lab_n.next = self.targets.lab_n.val();
        self.r.lab_j.next = self.targets.lab_j.val();
        self.r.lab_u.next = self.targets.lab_u.val();
        self.r.e.next = self.e_in.val();
        self.r.t.next = self.t_c.val();
        self.r.flags.next = self.flags_c.val();
        if self.k_registered.val() {
            self.ops.next = self.r.o_ops.val();
            self.ip_x.next = self.r.o_ip_x.val();
            self.tgt_n.next = self.r.o_tgt_n.val();
            self.tgt_j.next = self.r.o_tgt_j.val();
            self.tgt_u.next = self.r.o_tgt_u.val();
            self.tgt_u1.next = self.r.o_tgt_u1.val();
            self.lab_n.next = self.r.o_lab_n.val();
            self.lab_j.next = self.r.o_lab_j.val();
            self.lab_u.next = self.r.o_lab_u.val();
            self.e.next = self.r.o_e.val();
            self.t.next = self.r.o_t.val();
            self.oor_n.next = self.r.o_flags.val().get_bit(0);
            self.oor_j.next = self.r.o_flags.val().get_bit(1);
            self.oor_u.next = self.r.o_flags.val().get_bit(2);
            self.oor_u1.next = self.r.o_flags.val().get_bit(3);
            self.jneg.next = self.r.o_flags.val().get_bit(4);
            self.jzero.next = self.r.o_flags.val().get_bit(5);
            self.jpos.next = self.r.o_flags.val().get_bit(6);
            self.upos.next = self.r.o_flags.val().get_bit(7);
            self.j_le_u.next = self.r.o_flags.val().get_bit(8);
            self.fc.next = self.r.o_flags.val().get_bit(9);
            self.e_none.next = self.r.o_flags.val().get_bit(10);
            self.t_none.next = self.r.o_flags.val().get_bit(11);
            self.t_all.next = self.r.o_flags.val().get_bit(12);
            self.pred_all.next = self.r.o_flags.val().get_bit(13);
        }
    }
}

/// The registers of [`StepPre`] with `pipe` ≥ 1 (the single-bit results packed in `flags`).
#[derive(LogicBlock, Default)]
pub struct PreRegs<const N: usize, const IPW: usize, const XW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub ops: Signal<In, Ops>,
    pub ip_x: Signal<In, Bits<XW>>,
    pub tgt_n: Signal<In, Bits<XW>>,
    pub tgt_j: Signal<In, Bits<XW>>,
    pub tgt_u: Signal<In, Bits<XW>>,
    pub tgt_u1: Signal<In, Bits<XW>>,
    pub lab_n: Signal<In, Bits<IPW>>,
    pub lab_j: Signal<In, Bits<IPW>>,
    pub lab_u: Signal<In, Bits<IPW>>,
    pub e: Signal<In, Bits<N>>,
    pub t: Signal<In, Bits<N>>,
    pub flags: Signal<In, Bits<16>>,
    pub o_ops: Signal<Out, Ops>,
    pub o_ip_x: Signal<Out, Bits<XW>>,
    pub o_tgt_n: Signal<Out, Bits<XW>>,
    pub o_tgt_j: Signal<Out, Bits<XW>>,
    pub o_tgt_u: Signal<Out, Bits<XW>>,
    pub o_tgt_u1: Signal<Out, Bits<XW>>,
    pub o_lab_n: Signal<Out, Bits<IPW>>,
    pub o_lab_j: Signal<Out, Bits<IPW>>,
    pub o_lab_u: Signal<Out, Bits<IPW>>,
    pub o_e: Signal<Out, Bits<N>>,
    pub o_t: Signal<Out, Bits<N>>,
    pub o_flags: Signal<Out, Bits<16>>,
    r_ops: RDff<Ops>,
    r_ip_x: RDff<Bits<XW>>,
    r_tgt_n: RDff<Bits<XW>>,
    r_tgt_j: RDff<Bits<XW>>,
    r_tgt_u: RDff<Bits<XW>>,
    r_tgt_u1: RDff<Bits<XW>>,
    r_lab_n: RDff<Bits<IPW>>,
    r_lab_j: RDff<Bits<IPW>>,
    r_lab_u: RDff<Bits<IPW>>,
    r_e: RDff<Bits<N>>,
    r_t: RDff<Bits<N>>,
    r_flags: RDff<Bits<16>>,
}

impl<const N: usize, const IPW: usize, const XW: usize> Logic for PreRegs<N, IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, r_ops, r_ip_x, r_tgt_n, r_tgt_j, r_tgt_u, r_tgt_u1, r_lab_n, r_lab_j, r_lab_u, r_e, r_t, r_flags);
        self.r_ops.rst.next = self.rst.val();
        self.r_ip_x.rst.next = self.rst.val();
        self.r_tgt_n.rst.next = self.rst.val();
        self.r_tgt_j.rst.next = self.rst.val();
        self.r_tgt_u.rst.next = self.rst.val();
        self.r_tgt_u1.rst.next = self.rst.val();
        self.r_lab_n.rst.next = self.rst.val();
        self.r_lab_j.rst.next = self.rst.val();
        self.r_lab_u.rst.next = self.rst.val();
        self.r_e.rst.next = self.rst.val();
        self.r_t.rst.next = self.rst.val();
        self.r_flags.rst.next = self.rst.val();
        self.r_ops.d.next = self.ops.val();
        self.r_ip_x.d.next = self.ip_x.val();
        self.r_tgt_n.d.next = self.tgt_n.val();
        self.r_tgt_j.d.next = self.tgt_j.val();
        self.r_tgt_u.d.next = self.tgt_u.val();
        self.r_tgt_u1.d.next = self.tgt_u1.val();
        self.r_lab_n.d.next = self.lab_n.val();
        self.r_lab_j.d.next = self.lab_j.val();
        self.r_lab_u.d.next = self.lab_u.val();
        self.r_e.d.next = self.e.val();
        self.r_t.d.next = self.t.val();
        self.r_flags.d.next = self.flags.val();
        self.o_ops.next = self.r_ops.q.val();
        self.o_ip_x.next = self.r_ip_x.q.val();
        self.o_tgt_n.next = self.r_tgt_n.q.val();
        self.o_tgt_j.next = self.r_tgt_j.q.val();
        self.o_tgt_u.next = self.r_tgt_u.q.val();
        self.o_tgt_u1.next = self.r_tgt_u1.q.val();
        self.o_lab_n.next = self.r_lab_n.q.val();
        self.o_lab_j.next = self.r_lab_j.q.val();
        self.o_lab_u.next = self.r_lab_u.q.val();
        self.o_e.next = self.r_e.q.val();
        self.o_t.next = self.r_t.q.val();
        self.o_flags.next = self.r_flags.q.val();
    }
}
