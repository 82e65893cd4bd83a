//! The math unit: the ops that take more than a cycle per lane, TANH_PRE, SIGMOID and TANH
//! through one lane of the tanh/sigmoid block and MULH through one `MulhLane` (docs/eu_core.md
//! "Math unit").
//!
//! The block is `tanh_sigmoid::TanhSigmoid` with one lane, the fused tail (op TANH) and
//! CANON_NAN = 0, the ISA model's unit (docs/isa.md: bit exact the unit's golden model with
//! FUSED = 1); its latency is the config's `math_lat`. One lane instead of eight: the eight
//! lanes of an op go through it one per cycle, so the core pays one lane's area (DSPs, ROM) and an
//! op takes 8 + `math_lat` cycles instead of `math_lat`, which the replay hides from the other
//! threads.
//!
//! Protocol with the execute stage, the memory unit's (`mem::DataMemory`): the stage offers a
//! thread's math op (`req`) every time the thread's slot brings it there; the unit
//! - takes it when idle (`accept`): the op, format, flush-to-zero, the thread, src0's eight
//!   words (or the immediate) and the execution mask;
//! - feeds lane `l` to the op's engine (the tanh/sigmoid block, or `MulhLane` with src1's word
//!   as its second operand) `l` cycles later, tagged `l`, with the lane's mask bit as the
//!   engine's mask (a lane that does not run does not clock the block's lane registers);
//! - writes the engine's result for tag `l` into result lane `l` when the engine's mask bit says
//!   the lane ran (the other result lanes keep their value: the execute stage writes only the
//!   lanes that run), and is through when tag 7 has come back;
//! - answers `done` to the thread's next pass, which retires the op (the ALU lanes run a MOV of
//!   `value`, so its condition modifier works as for any result) and frees the unit.
//! Every other pass of the thread, and every pass of another thread's math op while the unit is
//! busy, is replayed by the execute stage.

use super::enc::op;
use super::mulh::MulhLane;
use crate::prims::RDff;
use crate::tanh_sigmoid::rtl::TanhSigmoid;
use rust_hdl::prelude::*;

/// The lane index as the block's tag (3 bits: lanes 0..8).
const TAG_W: usize = 3;

#[derive(LogicBlock)]
pub struct MathUnit<const TW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// S3 (from `Issue`): the slot, its op class and decode faults.
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub is_math: Signal<In, Bit>,
    pub illegal: Signal<In, Bit>,
    pub not_yet: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    /// The op code; its low two bits are the block's `in_op` (docs/isa.md).
    pub op: Signal<In, Bits<7>>,
    /// The instruction's math format and flush-to-zero (the block's `in_fmt`, `in_ftz`).
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    /// Exec-size and predicate lanes (`Issue`), and the branch unit's response.
    pub exec_lanes: Signal<In, Bits<8>>,
    pub pred_lanes: Signal<In, Bits<8>>,
    pub bu_exec_mask: Signal<In, Bits<8>>,
    pub bu_err: Signal<In, Bit>,
    /// src0 from the register file, or the immediate when `src0_imm`.
    pub src0: Signal<In, Bits<256>>,
    pub imm: Signal<In, Bits<32>>,
    pub src0_imm: Signal<In, Bit>,
    /// src1 (MULH's second operand) from the register file, or the immediate when `src1_imm`.
    pub src1: Signal<In, Bits<256>>,
    pub src1_imm: Signal<In, Bit>,
    /// Thread `tid`'s op is through: retire it in this pass (combinational).
    pub done: Signal<Out, Bit>,
    /// Its results, lane l at bits [32l, 32l+32) (lanes that did not run: don't care).
    pub value: Signal<Out, Bits<256>>,
    unit: TanhSigmoid<1, 32, TAG_W>,
    mulh: MulhLane,
    /// An op is held (from accept to its retiring pass).
    busy_r: RDff<Bit>,
    /// Its last lane's result has come back.
    done_r: RDff<Bit>,
    tid_r: RDff<Bits<TW>>,
    op_r: RDff<Bits<2>>,
    /// The held op is MULH (else a tanh/sigmoid op).
    mulh_r: RDff<Bit>,
    fmt_r: RDff<Bits<2>>,
    ftz_r: RDff<Bit>,
    /// The next lane to feed (8: all fed).
    lane_r: RDff<Bits<4>>,
    /// The operands and mask bits of the lanes still to feed, the next one at the bottom.
    data_sh: RDff<Bits<256>>,
    data1_sh: RDff<Bits<256>>,
    mask_sh: RDff<Bits<8>>,
    /// The results, one register per lane, written when the lane's result comes back.
    result: [RDff<Bits<32>>; 8],
    req: Signal<Local, Bit>,
    is_done: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    feed: Signal<Local, Bit>,
    operand: Signal<Local, Bits<256>>,
    operand1: Signal<Local, Bits<256>>,
    ran: Signal<Local, Bit>,
    ran_mulh: Signal<Local, Bit>,
    k_op_mulh: Constant<Bits<7>>,
    collect: Signal<Local, Bits<256>>,
    lane_out: Signal<Local, Bits<32>>,
    k_all_fed: Constant<Bits<4>>,
    k_last_tag: Constant<Bits<TAG_W>>,
    k_tag: [Constant<Bits<TAG_W>>; 8],
    k_top: Constant<Bits<16>>,
}

impl<const TW: usize> MathUnit<TW> {
    /// `lat`: the block's latency (its `lat` config, ≥ 6 with the fused tail).
    pub fn new(lat: usize) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            is_math: Default::default(),
            illegal: Default::default(),
            not_yet: Default::default(),
            tid: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            exec_lanes: Default::default(),
            pred_lanes: Default::default(),
            bu_exec_mask: Default::default(),
            bu_err: Default::default(),
            src0: Default::default(),
            imm: Default::default(),
            src0_imm: Default::default(),
            src1: Default::default(),
            src1_imm: Default::default(),
            done: Default::default(),
            value: Default::default(),
            unit: TanhSigmoid::new(true, false, lat),
            mulh: Default::default(),
            busy_r: Default::default(),
            done_r: Default::default(),
            tid_r: Default::default(),
            op_r: Default::default(),
            mulh_r: Default::default(),
            fmt_r: Default::default(),
            ftz_r: Default::default(),
            lane_r: Default::default(),
            data_sh: Default::default(),
            data1_sh: Default::default(),
            mask_sh: Default::default(),
            result: Default::default(),
            req: Default::default(),
            is_done: Default::default(),
            accept: Default::default(),
            feed: Default::default(),
            operand: Default::default(),
            operand1: Default::default(),
            ran: Default::default(),
            ran_mulh: Default::default(),
            k_op_mulh: Constant::new(op::MULH.into()),
            collect: Default::default(),
            lane_out: Default::default(),
            k_all_fed: Constant::new(8u64.into()),
            k_last_tag: Constant::new(7u64.into()),
            k_tag: std::array::from_fn(|l| Constant::new((l as u64).into())),
            k_top: Constant::new(224u64.into()),
        }
    }
}

impl<const TW: usize> Logic for MathUnit<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, busy_r, done_r, tid_r, op_r, mulh_r, fmt_r, ftz_r, lane_r, data_sh, data1_sh, mask_sh);
        self.busy_r.rst.next = self.rst.val();
        self.done_r.rst.next = self.rst.val();
        self.tid_r.rst.next = self.rst.val();
        self.op_r.rst.next = self.rst.val();
        self.mulh_r.rst.next = self.rst.val();
        self.fmt_r.rst.next = self.rst.val();
        self.ftz_r.rst.next = self.rst.val();
        self.lane_r.rst.next = self.rst.val();
        self.data_sh.rst.next = self.rst.val();
        self.data1_sh.rst.next = self.rst.val();
        self.mask_sh.rst.next = self.rst.val();
        // the offered op and its operand
        self.req.next = self.valid.val() & !self.init.val() & self.is_math.val() & !(self.illegal.val() | self.not_yet.val() | self.bu_err.val());
        self.operand.next = self.src0.val();
        if self.src0_imm.val() {
            for _l in 0..8 {
                self.operand.next = (self.operand.val() >> 32) | (bit_cast::<256, 32>(self.imm.val()) << self.k_top.val());
            }
        }
        self.operand1.next = self.src1.val();
        if self.src1_imm.val() {
            for _l in 0..8 {
                self.operand1.next = (self.operand1.val() >> 32) | (bit_cast::<256, 32>(self.imm.val()) << self.k_top.val());
            }
        }
        self.is_done.next = self.busy_r.q.val() & self.done_r.q.val() & (self.tid_r.q.val() == self.tid.val());
        self.done.next = self.is_done.val();
        self.accept.next = self.req.val() & !self.busy_r.q.val();
        self.feed.next = self.busy_r.q.val() & (self.lane_r.q.val() != self.k_all_fed.val());
        // the held op: accept, feed lane by lane, through at tag 7, released by its retiring pass
        self.busy_r.d.next = self.busy_r.q.val();
        self.done_r.d.next = self.done_r.q.val();
        self.tid_r.d.next = self.tid_r.q.val();
        self.op_r.d.next = self.op_r.q.val();
        self.mulh_r.d.next = self.mulh_r.q.val();
        self.fmt_r.d.next = self.fmt_r.q.val();
        self.ftz_r.d.next = self.ftz_r.q.val();
        self.lane_r.d.next = self.lane_r.q.val();
        self.data_sh.d.next = self.data_sh.q.val();
        self.data1_sh.d.next = self.data1_sh.q.val();
        self.mask_sh.d.next = self.mask_sh.q.val();
        if self.accept.val() {
            self.busy_r.d.next = true;
            self.done_r.d.next = false;
            self.tid_r.d.next = self.tid.val();
            self.op_r.d.next = bit_cast::<2, 7>(self.op.val());
            self.mulh_r.d.next = self.op.val() == self.k_op_mulh.val();
            self.fmt_r.d.next = self.fmt.val();
            self.ftz_r.d.next = self.ftz.val();
            self.lane_r.d.next = 0.into();
            self.data_sh.d.next = self.operand.val();
            self.data1_sh.d.next = self.operand1.val();
            self.mask_sh.d.next = self.bu_exec_mask.val() & self.exec_lanes.val() & self.pred_lanes.val();
        } else if self.req.val() & self.is_done.val() {
            self.busy_r.d.next = false;
            self.done_r.d.next = false;
        } else {
            if self.feed.val() {
                self.lane_r.d.next = self.lane_r.q.val() + 1;
                self.data_sh.d.next = self.data_sh.q.val() >> 32;
                self.data1_sh.d.next = self.data1_sh.q.val() >> 32;
                self.mask_sh.d.next = self.mask_sh.q.val() >> 1;
            }
            if self.busy_r.q.val()
                & ((self.unit.out_valid.val() & (self.unit.out_tag.val() == self.k_last_tag.val()))
                    | (self.mulh.out_valid.val() & (self.mulh.out_tag.val() == self.k_last_tag.val())))
            {
                self.done_r.d.next = true;
            }
        }
        // the engines: one lane per cycle in, the results by tag out
        self.unit.clk.next = self.clk.val();
        self.unit.rst.next = self.rst.val();
        self.unit.in_valid.next = self.feed.val() & !self.mulh_r.q.val();
        self.unit.in_op.next = self.op_r.q.val();
        self.unit.in_fmt.next = self.fmt_r.q.val();
        self.unit.in_ftz.next = self.ftz_r.q.val();
        self.unit.in_mask.next = bit_cast::<1, 8>(self.mask_sh.q.val());
        self.unit.in_data.next = bit_cast::<32, 256>(self.data_sh.q.val());
        self.unit.in_tag.next = bit_cast::<3, 4>(self.lane_r.q.val());
        self.mulh.clk.next = self.clk.val();
        self.mulh.rst.next = self.rst.val();
        self.mulh.in_valid.next = self.feed.val() & self.mulh_r.q.val();
        self.mulh.in_mask.next = bit_cast::<1, 8>(self.mask_sh.q.val());
        self.mulh.in_a.next = bit_cast::<32, 256>(self.data_sh.q.val());
        self.mulh.in_b.next = bit_cast::<32, 256>(self.data1_sh.q.val());
        self.mulh.in_tag.next = bit_cast::<3, 4>(self.lane_r.q.val());
        self.ran.next = self.unit.out_valid.val() & self.unit.out_mask.val().any();
        self.ran_mulh.next = self.mulh.out_valid.val() & self.mulh.out_mask.val().any();
        self.collect.next = 0.into();
        for l in 0..8 {
            self.result[l].clock.next = self.clk.val();
            self.result[l].rst.next = self.rst.val();
            self.result[l].d.next = self.result[l].q.val();
            if self.ran.val() & (self.unit.out_tag.val() == self.k_tag[l].val()) {
                self.result[l].d.next = self.unit.out_data.val();
            }
            if self.ran_mulh.val() & (self.mulh.out_tag.val() == self.k_tag[l].val()) {
                self.result[l].d.next = self.mulh.out_data.val();
            }
            // (hdl_gen does not see a loop index inside bit_cast's argument: through a local)
            self.lane_out.next = self.result[l].q.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<256, 32>(self.lane_out.val()) << self.k_top.val());
        }
        self.value.next = self.collect.val();
    }
}
