//! The math unit: the ops that take more than a cycle per lane, TANH_PRE, SIGMOID and TANH
//! through one lane of the tanh/sigmoid block, MUL and MULH through one `MulhLane` and I2F/F2I
//! through one `CvtLane` (docs/eu_core.md "Math unit"). `MulhLane` and `CvtLane` have the same
//! latency and one feeder: they form one engine (`aux`), whose result is the one of the op fed.
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
//! - takes it when the thread holds no op here and the feeder is free (`accept`): the op,
//!   format, flush-to-zero, src0's and src1's eight words (or the immediate) and the execution
//!   mask go into the feeder;
//! - feeds lane `l` to the op's engine (the tanh/sigmoid block, or `MulhLane` with src1's word
//!   as its second operand) `l` cycles later, tagged {thread, `l`}, with the lane's mask bit as
//!   the engine's mask (a lane that does not run does not clock the block's lane registers);
//! - writes the engine's result for tag {t, `l`} into lane `l` of thread t's result register when
//!   the engine's mask bit says the lane ran (the other lanes keep their value: the execute stage
//!   writes only the lanes that run); thread t's op is through when its tag {t, 7} has come back;
//! - answers `done` to the thread's next pass, which retires the op (its result is
//!   `value`, so its condition modifier works as for any result) and frees the thread's slot.
//! Every other pass of the thread, and a pass of another thread's op while the feeder is busy,
//! is replayed by the execute stage. Each thread holds at most one op here (it replays until
//! it retires), so one result register per thread is enough, and the engines, which are
//! pipelined, work on several threads' ops at once: the feeder takes a new op every 8 cycles,
//! whatever `math_lat`.

use super::enc::op;
use super::cvt::{CvtLane, CVT_LAT};
use super::mulh::{MulhLane, MULH_LAT};
use crate::prims::{Delay, RDff};
use crate::tanh_sigmoid::rtl::TanhSigmoid;
use super::decode::Decoded;
use rust_hdl::prelude::*;

/// The engines' tag: {thread (3 bits: threads ≤ 8), lane (3 bits)}.
const TAG_W: usize = 6;

#[derive(LogicBlock)]
pub struct MathUnit<const T: usize, const TW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// S3 (from `Issue`): the decoded instruction (its fields are unpacked into Locals of the
    /// same names).
    pub dec: Signal<In, Decoded>,
    /// S3 (from `Issue`): the slot, its op class and decode faults.
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    is_math: Signal<Local, Bit>,
    illegal: Signal<Local, Bit>,
    pub not_yet: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    /// The op code: MUL, MULH, I2F, F2I, or a tanh/sigmoid op whose low two bits are the block's
    /// `in_op` (docs/isa.md).
    op: Signal<Local, Bits<7>>,
    /// The instruction's math format and flush-to-zero (the block's `in_fmt`, `in_ftz`).
    fmt: Signal<Local, Bits<2>>,
    ftz: Signal<Local, Bit>,
    /// Exec-size and predicate lanes (`Issue`), and the branch unit's response.
    exec_lanes: Signal<Local, Bits<8>>,
    pred_lanes: Signal<Local, Bits<8>>,
    pub bu_exec_mask: Signal<In, Bits<8>>,
    pub bu_err: Signal<In, Bit>,
    /// src0 from the register file, or the immediate when `src0_imm`.
    pub src0: Signal<In, Bits<256>>,
    imm: Signal<Local, Bits<32>>,
    src0_imm: Signal<Local, Bit>,
    /// src1 (MULH's second operand) from the register file, or the immediate when `src1_imm`.
    pub src1: Signal<In, Bits<256>>,
    src1_imm: Signal<Local, Bit>,
    /// Thread `tid`'s op is through: retire it in this pass (combinational).
    pub done: Signal<Out, Bit>,
    /// Its results, lane l at bits [32l, 32l+32) (lanes that did not run: don't care).
    pub value: Signal<Out, Bits<256>>,
    unit: TanhSigmoid<1, 32, TAG_W>,
    mulh: MulhLane<TAG_W>,
    cvt: CvtLane,
    /// The aux engine's lane of `MULH_LAT` cycles ago was a conversion (its result is `cvt`'s).
    cvt_d: Delay<Bits<1>>,
    /// Bit t: thread t holds an op here (from accept to its retiring pass, `freed`; not named
    /// `release`, a SystemVerilog keyword).
    held_r: RDff<Bits<T>>,
    /// Bit t: thread t's op has all its lanes back.
    done_r: RDff<Bits<T>>,
    /// The feeder: the op being fed, its thread, the next lane to feed (8: idle).
    feed_tid_r: RDff<Bits<TW>>,
    op_r: RDff<Bits<2>>,
    /// The op being fed is MUL, MULH, I2F or F2I (the aux engine; else a tanh/sigmoid op).
    aux_r: RDff<Bit>,
    /// ... and of those MUL (the product's low word).
    low_r: RDff<Bit>,
    /// ... and of those I2F or F2I (then `op_r` bit 0 is 1 for F2I).
    cvt_r: RDff<Bit>,
    fmt_r: RDff<Bits<2>>,
    ftz_r: RDff<Bit>,
    lane_r: RDff<Bits<4>>,
    /// The operands and mask bits of the lanes still to feed, the next one at the bottom.
    data_sh: RDff<Bits<256>>,
    data1_sh: RDff<Bits<256>>,
    mask_sh: RDff<Bits<8>>,
    /// Per thread: its op's results, written lane by lane as they come back.
    result: Vec<RDff<Bits<256>>>,
    req: Signal<Local, Bit>,
    held: Signal<Local, Bit>,
    is_done: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    freed: Signal<Local, Bit>,
    feed: Signal<Local, Bit>,
    slot_bit: Signal<Local, Bits<T>>,
    operand: Signal<Local, Bits<256>>,
    operand1: Signal<Local, Bits<256>>,
    tag: Signal<Local, Bits<TAG_W>>,
    /// A lane came back from the tanh/sigmoid block and ran: its thread and lane.
    ret: Signal<Local, Bit>,
    ret_tid: Signal<Local, Bits<TW>>,
    ret_lane: Signal<Local, Bits<3>>,
    /// The same from the aux engine.
    mret: Signal<Local, Bit>,
    mret_tid: Signal<Local, Bits<TW>>,
    mret_lane: Signal<Local, Bits<3>>,
    /// Bit t: thread t's last lane came back (whether it ran or not).
    last_bit: Signal<Local, Bits<T>>,
    slot_result: Signal<Local, Bits<256>>,
    aux_data: Signal<Local, Bits<32>>,
    k_op_mulh: Constant<Bits<7>>,
    k_op_mul: Constant<Bits<7>>,
    k_op_i2f: Constant<Bits<7>>,
    k_op_f2i: Constant<Bits<7>>,
    k_all_fed: Constant<Bits<4>>,
    k_last_lane: Constant<Bits<3>>,
    k_one: Constant<Bits<T>>,
    k_tid: Vec<Constant<Bits<TW>>>,
    k_lane: [Constant<Bits<3>>; 8],
    /// All ones but lane l.
    k_keep: [Constant<Bits<256>>; 8],
    k_shift: [Constant<Bits<16>>; 8],
    k_top: Constant<Bits<16>>,
    _threads: usize,
}

impl<const T: usize, const TW: usize> MathUnit<T, TW> {
    /// `lat`: the tanh/sigmoid block's latency (its `lat` config, ≥ 6 with the fused tail).
    pub fn new(lat: usize) -> Self {
        assert!(T == 1 << TW && TW <= 3, "the tag holds 3 thread bits");
        assert_eq!(MULH_LAT, CVT_LAT, "MULH and I2F/F2I share the aux engine's write port");
        assert!(op::I2F & 1 == 0 && op::F2I & 1 == 1, "op bit 0 tells F2I from I2F");
        let keep = |l: usize| {
            let mut b = Bits::<256>::from(0u64);
            for i in 0..256 {
                b = b.replace_bit(i, i / 32 != l);
            }
            Constant::new(b)
        };
        Self {
            clk: Default::default(),
            rst: Default::default(),
            dec: Default::default(),
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
            cvt: Default::default(),
            cvt_d: Delay::new(CVT_LAT),
            held_r: Default::default(),
            done_r: Default::default(),
            feed_tid_r: Default::default(),
            op_r: Default::default(),
            aux_r: Default::default(),
            low_r: Default::default(),
            cvt_r: Default::default(),
            fmt_r: Default::default(),
            ftz_r: Default::default(),
            lane_r: RDff::with_reset(8u64.into()),
            data_sh: Default::default(),
            data1_sh: Default::default(),
            mask_sh: Default::default(),
            result: (0..T).map(|_| RDff::default()).collect(),
            req: Default::default(),
            held: Default::default(),
            is_done: Default::default(),
            accept: Default::default(),
            freed: Default::default(),
            feed: Default::default(),
            slot_bit: Default::default(),
            operand: Default::default(),
            operand1: Default::default(),
            tag: Default::default(),
            ret: Default::default(),
            ret_tid: Default::default(),
            ret_lane: Default::default(),
            mret: Default::default(),
            mret_tid: Default::default(),
            mret_lane: Default::default(),
            last_bit: Default::default(),
            slot_result: Default::default(),
            aux_data: Default::default(),
            k_op_mulh: Constant::new(op::MULH.into()),
            k_op_mul: Constant::new(op::MUL.into()),
            k_op_i2f: Constant::new(op::I2F.into()),
            k_op_f2i: Constant::new(op::F2I.into()),
            k_all_fed: Constant::new(8u64.into()),
            k_last_lane: Constant::new(7u64.into()),
            k_one: Constant::new(1u64.into()),
            k_tid: (0..T).map(|t| Constant::new((t as u64).into())).collect(),
            k_lane: std::array::from_fn(|l| Constant::new((l as u64).into())),
            k_keep: std::array::from_fn(keep),
            k_shift: std::array::from_fn(|l| Constant::new((32 * l as u64).into())),
            k_top: Constant::new(224u64.into()),
            _threads: T,
        }
    }
}

impl<const T: usize, const TW: usize> Logic for MathUnit<T, TW> {
    #[hdl_gen]
    fn update(&mut self) {
        // the decoded instruction's fields
        self.is_math.next = self.dec.val().is_math;
        self.illegal.next = self.dec.val().illegal;
        self.op.next = self.dec.val().op;
        self.fmt.next = self.dec.val().fmt;
        self.ftz.next = self.dec.val().ftz;
        self.exec_lanes.next = self.dec.val().exec_lanes;
        self.pred_lanes.next = self.dec.val().pred_lanes;
        self.imm.next = self.dec.val().imm;
        self.src0_imm.next = self.dec.val().src0_imm;
        self.src1_imm.next = self.dec.val().src1_imm;
        clock!(self, clk, held_r, done_r, feed_tid_r, op_r, aux_r, low_r, cvt_r, fmt_r, ftz_r, lane_r, data_sh, data1_sh, mask_sh);
        self.held_r.rst.next = self.rst.val();
        self.done_r.rst.next = self.rst.val();
        self.feed_tid_r.rst.next = self.rst.val();
        self.op_r.rst.next = self.rst.val();
        self.aux_r.rst.next = self.rst.val();
        self.low_r.rst.next = self.rst.val();
        self.cvt_r.rst.next = self.rst.val();
        self.fmt_r.rst.next = self.rst.val();
        self.ftz_r.rst.next = self.rst.val();
        self.lane_r.rst.next = self.rst.val();
        self.data_sh.rst.next = self.rst.val();
        self.data1_sh.rst.next = self.rst.val();
        self.mask_sh.rst.next = self.rst.val();
        // the offered op, its thread's state here, its operands
        self.req.next = self.valid.val() & !self.init.val() & self.is_math.val() & !(self.illegal.val() | self.not_yet.val() | self.bu_err.val());
        self.slot_bit.next = self.k_one.val() << self.tid.val();
        self.held.next = (self.held_r.q.val() & self.slot_bit.val()).any();
        self.is_done.next = self.held.val() & (self.done_r.q.val() & self.slot_bit.val()).any();
        self.done.next = self.is_done.val();
        self.feed.next = self.lane_r.q.val() != self.k_all_fed.val();
        self.accept.next = self.req.val() & !self.held.val() & !self.feed.val();
        self.freed.next = self.req.val() & self.is_done.val();
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
        // the feeder: takes an accepted op, feeds a lane per cycle
        self.feed_tid_r.d.next = self.feed_tid_r.q.val();
        self.op_r.d.next = self.op_r.q.val();
        self.aux_r.d.next = self.aux_r.q.val();
        self.low_r.d.next = self.low_r.q.val();
        self.cvt_r.d.next = self.cvt_r.q.val();
        self.fmt_r.d.next = self.fmt_r.q.val();
        self.ftz_r.d.next = self.ftz_r.q.val();
        self.lane_r.d.next = self.lane_r.q.val();
        self.data_sh.d.next = self.data_sh.q.val();
        self.data1_sh.d.next = self.data1_sh.q.val();
        self.mask_sh.d.next = self.mask_sh.q.val();
        if self.accept.val() {
            self.feed_tid_r.d.next = self.tid.val();
            self.op_r.d.next = bit_cast::<2, 7>(self.op.val());
            self.cvt_r.d.next = (self.op.val() == self.k_op_i2f.val()) | (self.op.val() == self.k_op_f2i.val());
            self.low_r.d.next = self.op.val() == self.k_op_mul.val();
            self.aux_r.d.next = (self.op.val() == self.k_op_mul.val())
                | (self.op.val() == self.k_op_mulh.val())
                | (self.op.val() == self.k_op_i2f.val())
                | (self.op.val() == self.k_op_f2i.val());
            self.fmt_r.d.next = self.fmt.val();
            self.ftz_r.d.next = self.ftz.val();
            self.lane_r.d.next = 0.into();
            self.data_sh.d.next = self.operand.val();
            self.data1_sh.d.next = self.operand1.val();
            self.mask_sh.d.next = self.bu_exec_mask.val() & self.exec_lanes.val() & self.pred_lanes.val();
        } else if self.feed.val() {
            self.lane_r.d.next = self.lane_r.q.val() + 1;
            self.data_sh.d.next = self.data_sh.q.val() >> 32;
            self.data1_sh.d.next = self.data1_sh.q.val() >> 32;
            self.mask_sh.d.next = self.mask_sh.q.val() >> 1;
        }
        // the engines: one lane per cycle in, tagged {thread, lane}
        self.tag.next = (bit_cast::<TAG_W, TW>(self.feed_tid_r.q.val()) << 3) | bit_cast::<TAG_W, 4>(self.lane_r.q.val() & 7);
        self.unit.clk.next = self.clk.val();
        self.unit.rst.next = self.rst.val();
        self.unit.in_valid.next = self.feed.val() & !self.aux_r.q.val();
        self.unit.in_op.next = self.op_r.q.val();
        self.unit.in_fmt.next = self.fmt_r.q.val();
        self.unit.in_ftz.next = self.ftz_r.q.val();
        self.unit.in_mask.next = bit_cast::<1, 8>(self.mask_sh.q.val());
        self.unit.in_data.next = bit_cast::<32, 256>(self.data_sh.q.val());
        self.unit.in_tag.next = self.tag.val();
        self.mulh.clk.next = self.clk.val();
        self.mulh.rst.next = self.rst.val();
        self.mulh.in_valid.next = self.feed.val() & self.aux_r.q.val();
        self.mulh.in_mask.next = bit_cast::<1, 8>(self.mask_sh.q.val());
        self.mulh.in_a.next = bit_cast::<32, 256>(self.data_sh.q.val());
        self.mulh.in_b.next = bit_cast::<32, 256>(self.data1_sh.q.val());
        self.mulh.in_tag.next = self.tag.val();
        self.mulh.in_low.next = self.low_r.q.val();
        self.cvt.clk.next = self.clk.val();
        self.cvt.rst.next = self.rst.val();
        self.cvt.in_f2i.next = self.op_r.q.val().get_bit(0);
        self.cvt.in_a.next = bit_cast::<32, 256>(self.data_sh.q.val());
        self.cvt_d.clock.next = self.clk.val();
        self.cvt_d.rst.next = self.rst.val();
        self.cvt_d.d.next = bit_cast::<1, 1>(self.cvt_r.q.val().into());
        // I2F's condition modifier compares its result with 0 as a float (docs/isa.md); the
        // execute stage compares it as a signed integer, which agrees on every I2F result (never
        // NaN or -0: the sign bit is the sign, and only +0 is zero)
        self.aux_data.next = self.mulh.out_data.val();
        if self.cvt_d.q.val().any() {
            self.aux_data.next = self.cvt.out_data.val();
        }
        // ... and out, each engine to its own write port: two threads' lanes can come back in one
        // cycle (a MULH op fed after a tanh/sigmoid op overtakes its last lanes), never two of
        // one thread (a thread holds one op)
        self.ret_tid.next = bit_cast::<TW, TAG_W>(self.unit.out_tag.val() >> 3);
        self.ret_lane.next = bit_cast::<3, TAG_W>(self.unit.out_tag.val());
        self.ret.next = self.unit.out_valid.val() & self.unit.out_mask.val().any();
        self.mret_tid.next = bit_cast::<TW, TAG_W>(self.mulh.out_tag.val() >> 3);
        self.mret_lane.next = bit_cast::<3, TAG_W>(self.mulh.out_tag.val());
        self.mret.next = self.mulh.out_valid.val() & self.mulh.out_mask.val().any();
        self.last_bit.next = 0.into();
        if self.unit.out_valid.val() & (self.ret_lane.val() == self.k_last_lane.val()) {
            self.last_bit.next = self.k_one.val() << self.ret_tid.val();
        }
        if self.mulh.out_valid.val() & (self.mret_lane.val() == self.k_last_lane.val()) {
            self.last_bit.next = self.last_bit.val() | (self.k_one.val() << self.mret_tid.val());
        }
        // per thread: held from accept to release, done when its last lane is back
        self.held_r.d.next = self.held_r.q.val();
        self.done_r.d.next = self.done_r.q.val() | self.last_bit.val();
        if self.accept.val() {
            self.held_r.d.next = self.held_r.q.val() | self.slot_bit.val();
        }
        if self.freed.val() {
            self.held_r.d.next = self.held_r.q.val() & !self.slot_bit.val();
            self.done_r.d.next = (self.done_r.q.val() | self.last_bit.val()) & !self.slot_bit.val();
        }
        self.slot_result.next = 0.into();
        for t in 0..self._threads {
            self.result[t].clock.next = self.clk.val();
            self.result[t].rst.next = self.rst.val();
            self.result[t].d.next = self.result[t].q.val();
            for l in 0..8 {
                if self.ret.val() & (self.ret_tid.val() == self.k_tid[t].val()) & (self.ret_lane.val() == self.k_lane[l].val()) {
                    self.result[t].d.next = (self.result[t].q.val() & self.k_keep[l].val()) | (bit_cast::<256, 32>(self.unit.out_data.val()) << self.k_shift[l].val());
                }
                if self.mret.val() & (self.mret_tid.val() == self.k_tid[t].val()) & (self.mret_lane.val() == self.k_lane[l].val()) {
                    self.result[t].d.next = (self.result[t].q.val() & self.k_keep[l].val()) | (bit_cast::<256, 32>(self.aux_data.val()) << self.k_shift[l].val());
                }
            }
            if self.tid.val() == self.k_tid[t].val() {
                self.slot_result.next = self.result[t].q.val();
            }
        }
        self.value.next = self.slot_result.val();
    }
}
