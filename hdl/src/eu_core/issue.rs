//! The S1 slot's issue: its branch-unit request (`BranchRequest`, in S1) and the decode →
//! execute registers, the slot (live, INIT, thread, IP) and the decoded instruction
//! (`decode::Decoded`, one bundle) from S1 to S3, two stages (S2 is the register file's second
//! read register, docs/eu_core.md). The operands travel separately, in the register file's
//! twice-registered read data; the branch unit's response comes out of its own response register.

use super::decode::Decoded;
use crate::branch_unit::enc::op as bu_op;
use crate::prims::Delay;
use rust_hdl::prelude::*;

/// S1: the slot's request to the branch unit. The thread's own context is branch thread `tid`,
/// its handler context `tid + T` (the top branch-thread bit, `TB` = TW + 1); an INIT slot sends
/// INIT on all lanes; a word that does not decode steps nothing (the ISA model does not step the
/// branch unit for it: its NOP, whatever its op field says); only control flow is predicated.
#[derive(LogicBlock)]
pub struct BranchRequest<const TW: usize, const TB: usize> {
    /// S1: the slot carries a live thread; it is the thread's INIT; it runs in the thread's
    /// handler context; its thread and IP.
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub hnd: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub ip: Signal<In, Bits<16>>,
    /// S1: the decoded instruction, its branch-unit op and targets (`Decode`).
    pub dec: Signal<In, Decoded>,
    pub op: Signal<In, Bits<5>>,
    pub jip: Signal<In, Bits<16>>,
    pub uip: Signal<In, Bits<16>>,
    /// The request (the branch unit's `req_*` ports).
    pub req_valid: Signal<Out, Bit>,
    pub req_tid: Signal<Out, Bits<TB>>,
    pub req_ip: Signal<Out, Bits<16>>,
    pub req_op: Signal<Out, Bits<5>>,
    pub req_jip: Signal<Out, Bits<16>>,
    pub req_uip: Signal<Out, Bits<16>>,
    pub req_pred: Signal<Out, Bits<8>>,
    k_hnd_tid: Constant<Bits<TB>>,
    k_op_init: Constant<Bits<5>>,
    k_op_nop: Constant<Bits<5>>,
    k_all_lanes: Constant<Bits<8>>,
}

impl<const TW: usize, const TB: usize> Default for BranchRequest<TW, TB> {
    fn default() -> Self {
        assert!(TB == TW + 1);
        Self {
            valid: Default::default(),
            init: Default::default(),
            hnd: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            dec: Default::default(),
            op: Default::default(),
            jip: Default::default(),
            uip: Default::default(),
            req_valid: Default::default(),
            req_tid: Default::default(),
            req_ip: Default::default(),
            req_op: Default::default(),
            req_jip: Default::default(),
            req_uip: Default::default(),
            req_pred: Default::default(),
            k_hnd_tid: Constant::new((1u64 << TW).into()),
            k_op_init: Constant::new(bu_op::INIT.into()),
            k_op_nop: Constant::new(bu_op::NOP.into()),
            k_all_lanes: Constant::new(0xFFu64.into()),
        }
    }
}

impl<const TW: usize, const TB: usize> Logic for BranchRequest<TW, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.req_valid.next = self.valid.val();
        self.req_tid.next = bit_cast::<TB, TW>(self.tid.val());
        if self.hnd.val() {
            self.req_tid.next = bit_cast::<TB, TW>(self.tid.val()) | self.k_hnd_tid.val();
        }
        self.req_ip.next = self.ip.val();
        self.req_op.next = self.op.val();
        self.req_jip.next = self.jip.val();
        self.req_uip.next = self.uip.val();
        self.req_pred.next = self.k_all_lanes.val();
        if self.dec.val().is_control {
            self.req_pred.next = self.dec.val().pred_lanes;
        }
        if self.dec.val().illegal {
            self.req_op.next = self.k_op_nop.val();
        }
        if self.init.val() {
            self.req_op.next = self.k_op_init.val();
            self.req_jip.next = 0.into();
            self.req_uip.next = 0.into();
            self.req_pred.next = self.k_all_lanes.val();
        }
    }
}

/// The S1 slot's issue: the branch-unit request now, the slot and its decoded instruction in S3.
#[derive(LogicBlock)]
pub struct Issue<const TW: usize, const TB: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// S1: the slot carries a live thread.
    pub in_valid: Signal<In, Bit>,
    /// S1: the slot is the thread's INIT (no instruction).
    pub in_init: Signal<In, Bit>,
    /// S1: thread.
    pub in_tid: Signal<In, Bits<TW>>,
    /// S1: instruction pointer.
    pub in_ip: Signal<In, Bits<16>>,
    /// S1: the decoded instruction.
    pub in_dec: Signal<In, Decoded>,
    /// S1: the slot runs in its thread's handler context; its branch-unit op and targets.
    pub in_hnd: Signal<In, Bit>,
    pub in_bu_op: Signal<In, Bits<5>>,
    pub in_jip: Signal<In, Bits<16>>,
    pub in_uip: Signal<In, Bits<16>>,
    /// S1: the branch-unit request (`BranchRequest`).
    pub req_valid: Signal<Out, Bit>,
    pub req_tid: Signal<Out, Bits<TB>>,
    pub req_ip: Signal<Out, Bits<16>>,
    pub req_op: Signal<Out, Bits<5>>,
    pub req_jip: Signal<Out, Bits<16>>,
    pub req_uip: Signal<Out, Bits<16>>,
    pub req_pred: Signal<Out, Bits<8>>,
    /// S3: the slot carries a live thread.
    pub valid: Signal<Out, Bit>,
    /// S3: the slot is the thread's INIT (no instruction).
    pub init: Signal<Out, Bit>,
    /// S3: thread.
    pub tid: Signal<Out, Bits<TW>>,
    /// S3: instruction pointer.
    pub ip: Signal<Out, Bits<16>>,
    /// S3: the decoded instruction.
    pub dec: Signal<Out, Decoded>,
    valid_s3: Delay<Bit>,
    init_s3: Delay<Bit>,
    tid_s3: Delay<Bits<TW>>,
    ip_s3: Delay<Bits<16>>,
    dec_s3: Delay<Decoded>,
    request: BranchRequest<TW, TB>,
}

impl<const TW: usize, const TB: usize> Default for Issue<TW, TB> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_init: Default::default(),
            in_tid: Default::default(),
            in_ip: Default::default(),
            in_dec: Default::default(),
            in_hnd: Default::default(),
            in_bu_op: Default::default(),
            in_jip: Default::default(),
            in_uip: Default::default(),
            req_valid: Default::default(),
            req_tid: Default::default(),
            req_ip: Default::default(),
            req_op: Default::default(),
            req_jip: Default::default(),
            req_uip: Default::default(),
            req_pred: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            dec: Default::default(),
            valid_s3: Delay::new(2),
            init_s3: Delay::new(2),
            tid_s3: Delay::new(2),
            ip_s3: Delay::new(2),
            dec_s3: Delay::new(2),
            request: Default::default(),
        }
    }
}

impl<const TW: usize, const TB: usize> Logic for Issue<TW, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.valid_s3.clock.next = self.clk.val();
        self.init_s3.clock.next = self.clk.val();
        self.tid_s3.clock.next = self.clk.val();
        self.ip_s3.clock.next = self.clk.val();
        self.dec_s3.clock.next = self.clk.val();
        self.valid_s3.rst.next = self.rst.val();
        self.init_s3.rst.next = self.rst.val();
        self.tid_s3.rst.next = self.rst.val();
        self.ip_s3.rst.next = self.rst.val();
        self.dec_s3.rst.next = self.rst.val();
        self.valid_s3.d.next = self.in_valid.val();
        self.init_s3.d.next = self.in_init.val();
        self.tid_s3.d.next = self.in_tid.val();
        self.ip_s3.d.next = self.in_ip.val();
        self.dec_s3.d.next = self.in_dec.val();
        self.valid.next = self.valid_s3.q.val();
        self.init.next = self.init_s3.q.val();
        self.tid.next = self.tid_s3.q.val();
        self.ip.next = self.ip_s3.q.val();
        self.dec.next = self.dec_s3.q.val();
        self.request.valid.next = self.in_valid.val();
        self.request.init.next = self.in_init.val();
        self.request.hnd.next = self.in_hnd.val();
        self.request.tid.next = self.in_tid.val();
        self.request.ip.next = self.in_ip.val();
        self.request.dec.next = self.in_dec.val();
        self.request.op.next = self.in_bu_op.val();
        self.request.jip.next = self.in_jip.val();
        self.request.uip.next = self.in_uip.val();
        self.req_valid.next = self.request.req_valid.val();
        self.req_tid.next = self.request.req_tid.val();
        self.req_ip.next = self.request.req_ip.val();
        self.req_op.next = self.request.req_op.val();
        self.req_jip.next = self.request.req_jip.val();
        self.req_uip.next = self.request.req_uip.val();
        self.req_pred.next = self.request.req_pred.val();
    }
}
