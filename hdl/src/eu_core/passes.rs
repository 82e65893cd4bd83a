//! Multi-register operand regions (docs/eu_core.md "Multi-register regions"; spec
//! region-address-generator.md §6.5–6.6): an ALU op whose source or destination region touches
//! more than one register runs over several passes of its thread's slots, through the replay
//! protocol the memory and math units use (a pass that is not the last keeps the thread's IP).
//!
//! The predecode (`regions::Predecode`) stored per operand the distinct registers its channels
//! touch (a list, entry 0 the register field) and each channel's index into that list. With
//! `S` = the longest used source list and `D` = the destination list (1 without one):
//! - passes 0..S-1 read entry p of each source list in S1; in S2 the read ports take the
//!   channels of earlier passes from their collect registers (`keep`), the others from the
//!   gather; each pass's merged operands go into the collect registers in S3 (`capture`);
//! - pass S-1 executes: the lanes see every channel; it retires the destination's entry-0
//!   register (the channels whose index is 0) and the flags, and holds the execution mask and
//!   the flag value it ran with;
//! - passes S..S+D-2 write destination entries 1..D-1, one register each: the lanes compute the
//!   same result again from the collect registers (every channel kept) under the held mask and
//!   flag value (the op's own flag write must not change a later pass's predicate or SEL), and
//!   each pass retires one record; all records but the last carry `more` (the retire port's
//!   `retire_more`: the co-simulation joins them into the ISA model's one retired instruction).
//!
//! One owner thread at a time (the collect registers are the unit's, as the memory unit's state
//! is): a pass of another thread's multi-register op while the unit is busy replays and does
//! nothing; the owner's passes are its consecutive slots, and a replaying thread is issued even
//! while the trap controller halts it (`fetch`'s `rep`), so a sequence is never cut. A fault of
//! the owner's pass (possible only in pass 0) frees the unit. Ops that do not run in the lanes
//! (LD/ST, the math unit's, SRD/SWR, control flow) with a multi-register region are still "not
//! yet" (`not_yet`).
//!
//! The decision (`RegionPasses`) is in S3, from registered state and the slot's S3 signals only;
//! the owner's state (`PassOwner`) is updated at the end of S3 from that decision, the slot's
//! fault and its execution mask — a block of its own, so that nothing computed from `Execute`'s
//! outputs is in the same `always` block as what feeds `Execute` (Verilator would see a
//! combinational loop). S1 reads the state for the pass number of the owner's next slot: a
//! thread's slots are T >= 4 cycles apart, so the update of pass p (end of its S3) is there for
//! pass p + 1's S1.

use super::decode::Decoded;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RegionPasses<const TW: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: no owner.
    pub rst: Signal<In, Bit>,
    /// S1: the slot carries a live thread, and its thread.
    pub s1_valid: Signal<In, Bit>,
    pub s1_tid: Signal<In, Bits<TW>>,
    /// S1: the slot's pass (the owner's next pass; 0 for every other slot).
    pub pass_s1: Signal<Out, Bits<4>>,
    /// S2: the slot's pass.
    pub pass_s2: Signal<Out, Bits<4>>,
    /// S3: the slot (from `Issue`).
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub dec: Signal<In, Decoded>,
    /// S3: an operand the op uses touches more than one register (`Regions::multi`).
    pub multi: Signal<In, Bit>,
    /// S3: the plan (`Regions`): the execute pass, the writeback passes after it, the
    /// destination channels' list indices and the destination list's entries 1..=7.
    pub src_count_m1: Signal<In, Bits<3>>,
    pub dst_count_m1: Signal<In, Bits<3>>,
    pub dst_idx: Signal<In, Bits<24>>,
    pub dst_list: Signal<In, Bits<49>>,
    /// The owner's state (`PassOwner`).
    pub busy: Signal<In, Bit>,
    pub owner: Signal<In, Bits<TW>>,
    pub pass: Signal<In, Bits<4>>,
    /// S3, to `PassOwner`: a pass of a multi-register op in the lanes; the unit takes it; it is
    /// the owner's; its pass number; it is the last pass; it is the execute pass; the flag value
    /// it runs with.
    pub act: Signal<Out, Bit>,
    pub taken: Signal<Out, Bit>,
    pub mine: Signal<Out, Bit>,
    pub p: Signal<Out, Bits<4>>,
    pub last: Signal<Out, Bit>,
    pub at_exec: Signal<Out, Bit>,
    pub flag_value: Signal<Out, Bits<8>>,
    /// S3: a multi-register region on an op that does not run in the lanes: "not yet".
    pub not_yet: Signal<Out, Bit>,
    /// S3: the pass keeps the thread's IP (a pass before the last, or one the unit did not take).
    pub replay: Signal<Out, Bit>,
    /// S3: the pass retires a record (every slot but a multi-register op's reading passes).
    pub record: Signal<Out, Bit>,
    /// S3: the record is not the instruction's last.
    pub more: Signal<Out, Bit>,
    /// S3: a writeback pass after the execute pass: run under the owner's held mask and flag
    /// value, write no flags.
    pub dst_pass: Signal<Out, Bit>,
    /// S3: the destination channels this pass writes (all for a one-register destination) and
    /// its register.
    pub dst_lanes: Signal<Out, Bits<8>>,
    pub dst_reg: Signal<Out, Bits<7>>,
    /// S3: the unit takes the pass: the read ports' collect registers take its operands.
    pub capture: Signal<Out, Bit>,
    pass_s2_r: RDff<Bits<4>>,
    pass_s3_r: RDff<Bits<4>>,
    /// The op runs in the lanes (not LD/ST, the math unit, SRD/SWR or control flow).
    in_lanes: Signal<Local, Bit>,
    op: Signal<Local, Bits<7>>,
    k_op_swr: Constant<Bits<7>>,
    k_op_srd: Constant<Bits<7>>,
    is_mem: Signal<Local, Bit>,
    is_math: Signal<Local, Bit>,
    is_control: Signal<Local, Bit>,
    dec_dst_reg: Signal<Local, Bits<7>>,
    exec_p: Signal<Local, Bits<4>>,
    last_p: Signal<Local, Bits<4>>,
    j: Signal<Local, Bits<3>>,
    idx_i: Signal<Local, Bits<3>>,
    /// The destination list shifted to entry k.
    entry: Signal<Local, Bits<49>>,
    /// List entry k + 1: its number and its field in the destination list (bit 7k).
    k_entry: [Constant<Bits<3>>; 7],
    k_list_at: [Constant<Bits<8>>; 7],
    k_bit: [Constant<Bits<8>>; 8],
}

impl<const TW: usize> Default for RegionPasses<TW> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            s1_valid: Default::default(),
            s1_tid: Default::default(),
            pass_s1: Default::default(),
            pass_s2: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            tid: Default::default(),
            dec: Default::default(),
            multi: Default::default(),
            src_count_m1: Default::default(),
            dst_count_m1: Default::default(),
            dst_idx: Default::default(),
            dst_list: Default::default(),
            busy: Default::default(),
            owner: Default::default(),
            pass: Default::default(),
            last: Default::default(),
            at_exec: Default::default(),
            not_yet: Default::default(),
            replay: Default::default(),
            record: Default::default(),
            more: Default::default(),
            dst_pass: Default::default(),
            dst_lanes: Default::default(),
            dst_reg: Default::default(),
            capture: Default::default(),
            pass_s2_r: Default::default(),
            pass_s3_r: Default::default(),
            in_lanes: Default::default(),
            op: Default::default(),
            k_op_swr: Constant::new(super::enc::op::SWR.into()),
            k_op_srd: Constant::new(super::enc::op::SRD.into()),
            is_mem: Default::default(),
            is_math: Default::default(),
            is_control: Default::default(),
            dec_dst_reg: Default::default(),
            flag_value: Default::default(),
            act: Default::default(),
            mine: Default::default(),
            taken: Default::default(),
            p: Default::default(),
            exec_p: Default::default(),
            last_p: Default::default(),
            j: Default::default(),
            idx_i: Default::default(),
            entry: Default::default(),
            k_entry: std::array::from_fn(|k| Constant::new((k as u64 + 1).into())),
            k_list_at: std::array::from_fn(|k| Constant::new((7 * k as u64).into())),
            k_bit: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
        }
    }
}

impl<const TW: usize> Logic for RegionPasses<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, pass_s2_r, pass_s3_r);
        self.pass_s2_r.rst.next = self.rst.val();
        self.pass_s3_r.rst.next = self.rst.val();
        // S1 → S2 → S3: the slot's pass
        self.pass_s1.next = 0.into();
        if self.s1_valid.val() & self.busy.val() & (self.owner.val() == self.s1_tid.val()) {
            self.pass_s1.next = self.pass.val();
        }
        self.pass_s2_r.d.next = self.pass_s1.val();
        self.pass_s3_r.d.next = self.pass_s2_r.q.val();
        self.pass_s2.next = self.pass_s2_r.q.val();
        // S3: the pass
        self.is_mem.next = self.dec.val().is_mem;
        self.is_math.next = self.dec.val().is_math;
        self.is_control.next = self.dec.val().is_control;
        self.dec_dst_reg.next = self.dec.val().dst_reg;
        self.flag_value.next = self.dec.val().flag_value;
        self.op.next = self.dec.val().op;
        // SRD and SWR by their op codes (`sys` carries a register field for every op)
        self.in_lanes.next = !(self.is_mem.val()
            | self.is_math.val()
            | self.is_control.val()
            | (self.op.val() == self.k_op_srd.val())
            | (self.op.val() == self.k_op_swr.val()));
        self.not_yet.next = self.multi.val() & !self.in_lanes.val();
        self.act.next = self.valid.val() & !self.init.val() & self.multi.val() & self.in_lanes.val();
        self.mine.next = self.busy.val() & (self.owner.val() == self.tid.val());
        self.p.next = self.pass_s3_r.q.val();
        self.taken.next = self.act.val() & (self.mine.val() | (!self.busy.val() & !self.p.val().any()));
        self.exec_p.next = bit_cast::<4, 3>(self.src_count_m1.val());
        self.last_p.next = bit_cast::<4, 3>(self.src_count_m1.val()) + bit_cast::<4, 3>(self.dst_count_m1.val());
        self.j.next = bit_cast::<3, 4>(self.p.val() - self.exec_p.val());
        self.replay.next = self.act.val() & (!self.taken.val() | (self.p.val() != self.last_p.val()));
        self.record.next = !self.act.val() | (self.taken.val() & (self.p.val() >= self.exec_p.val()));
        self.more.next = self.taken.val() & (self.p.val() >= self.exec_p.val()) & (self.p.val() != self.last_p.val());
        self.dst_pass.next = self.taken.val() & (self.p.val() > self.exec_p.val());
        self.capture.next = self.taken.val();
        // the destination channels of list entry j, and that entry's register
        self.entry.next = 0.into();
        self.idx_i.next = 0.into();
        self.dst_lanes.next = 0xFF.into();
        self.dst_reg.next = self.dec_dst_reg.val();
        if self.act.val() {
            self.dst_lanes.next = 0.into();
            for i in 0..8 {
                self.idx_i.next = self.dst_idx.val().get_bits::<3>(3 * i);
                if self.idx_i.val() == self.j.val() {
                    self.dst_lanes.next = self.dst_lanes.val() | self.k_bit[i].val();
                }
            }
            for k in 0..7 {
                if self.j.val() == self.k_entry[k].val() {
                    self.entry.next = self.dst_list.val() >> self.k_list_at[k].val();
                    self.dst_reg.next = bit_cast::<7, 49>(self.entry.val());
                }
            }
        }
        self.last.next = self.p.val() == self.last_p.val();
        self.at_exec.next = self.p.val() == self.exec_p.val();
    }
}

/// The owner of the multi-register passes: whether the unit is busy, its thread, its next pass,
/// and the execution mask and flag value its execute pass ran with. Updated at the end of S3 from
/// `RegionPasses`'s decision, the slot's fault and its mask.
#[derive(LogicBlock)]
pub struct PassOwner<const TW: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: no owner.
    pub rst: Signal<In, Bit>,
    /// `start` while idle: no owner.
    pub clear: Signal<In, Bit>,
    /// S3: `RegionPasses`'s decision (`act`, `taken`, `mine`, `p`, `last`, `at_exec`), the slot's
    /// thread, flag value, fault and execution mask.
    pub act: Signal<In, Bit>,
    pub taken: Signal<In, Bit>,
    pub mine: Signal<In, Bit>,
    pub p: Signal<In, Bits<4>>,
    pub last: Signal<In, Bit>,
    pub at_exec: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub flag_value: Signal<In, Bits<8>>,
    pub fault: Signal<In, Bit>,
    pub mask: Signal<In, Bits<8>>,
    /// The state.
    pub busy: Signal<Out, Bit>,
    pub owner: Signal<Out, Bits<TW>>,
    pub pass: Signal<Out, Bits<4>>,
    pub mask_h: Signal<Out, Bits<8>>,
    pub flags_h: Signal<Out, Bits<8>>,
    busy_r: RDff<Bit>,
    owner_r: RDff<Bits<TW>>,
    pass_r: RDff<Bits<4>>,
    mask_r: RDff<Bits<8>>,
    flags_r: RDff<Bits<8>>,
}

impl<const TW: usize> Default for PassOwner<TW> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            clear: Default::default(),
            act: Default::default(),
            taken: Default::default(),
            mine: Default::default(),
            p: Default::default(),
            last: Default::default(),
            at_exec: Default::default(),
            tid: Default::default(),
            flag_value: Default::default(),
            fault: Default::default(),
            mask: Default::default(),
            busy: Default::default(),
            owner: Default::default(),
            pass: Default::default(),
            mask_h: Default::default(),
            flags_h: Default::default(),
            busy_r: Default::default(),
            owner_r: Default::default(),
            pass_r: Default::default(),
            mask_r: Default::default(),
            flags_r: Default::default(),
        }
    }
}

impl<const TW: usize> Logic for PassOwner<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, busy_r, owner_r, pass_r, mask_r, flags_r);
        self.busy_r.rst.next = self.rst.val();
        self.owner_r.rst.next = self.rst.val();
        self.pass_r.rst.next = self.rst.val();
        self.mask_r.rst.next = self.rst.val();
        self.flags_r.rst.next = self.rst.val();
        // taken, advanced, freed after its last pass or a fault (which only pass 0 can have)
        self.busy_r.d.next = self.busy_r.q.val();
        self.owner_r.d.next = self.owner_r.q.val();
        self.pass_r.d.next = self.pass_r.q.val();
        self.mask_r.d.next = self.mask_r.q.val();
        self.flags_r.d.next = self.flags_r.q.val();
        if self.clear.val() {
            self.busy_r.d.next = false;
        } else if self.act.val() & self.fault.val() & self.mine.val() {
            self.busy_r.d.next = false;
        } else if self.taken.val() & !self.fault.val() {
            self.busy_r.d.next = !self.last.val();
            self.owner_r.d.next = self.tid.val();
            self.pass_r.d.next = self.p.val() + 1;
            if self.at_exec.val() {
                self.mask_r.d.next = self.mask.val();
                self.flags_r.d.next = self.flag_value.val();
            }
        }
        self.busy.next = self.busy_r.q.val();
        self.owner.next = self.owner_r.q.val();
        self.pass.next = self.pass_r.q.val();
        self.mask_h.next = self.mask_r.q.val();
        self.flags_h.next = self.flags_r.q.val();
    }
}

/// The multi-register pass unit as the core wires it: the decision (`RegionPasses`) and the
/// owner's state (`PassOwner`), joined here so that the core's top wires the S1/S3 slot in and
/// the pass plan out. `update()` is only wiring (a block of logic here would put `fault`, which
/// depends on `replay`, in the same `always` block as `replay`: Verilator UNOPTFLAT).
#[derive(LogicBlock, Default)]
pub struct Passes<const TW: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: no owner.
    pub rst: Signal<In, Bit>,
    /// `start` while idle: no owner.
    pub clear: Signal<In, Bit>,
    /// S1: the slot carries a live thread, and its thread.
    pub s1_valid: Signal<In, Bit>,
    pub s1_tid: Signal<In, Bits<TW>>,
    /// S1 and S2: the slot's pass (the owner's next pass; 0 for every other slot).
    pub pass_s1: Signal<Out, Bits<4>>,
    pub pass_s2: Signal<Out, Bits<4>>,
    /// S3: the slot (from `Issue`).
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub dec: Signal<In, Decoded>,
    /// S3: the operand plan (`Regions`): an operand spans registers, the execute pass, the
    /// writeback passes after it, the destination channels' list indices and list entries 1..=7.
    pub multi: Signal<In, Bit>,
    pub src_count_m1: Signal<In, Bits<3>>,
    pub dst_count_m1: Signal<In, Bits<3>>,
    pub dst_idx: Signal<In, Bits<24>>,
    pub dst_list: Signal<In, Bits<49>>,
    /// S3: the slot faults (`Execute`), and the lanes it runs on.
    pub fault: Signal<In, Bit>,
    pub mask: Signal<In, Bits<8>>,
    /// S3: a multi-register region on an op that does not run in the lanes: "not yet".
    pub not_yet: Signal<Out, Bit>,
    /// S3: the pass keeps the thread's IP; it retires a record; the record is not the last.
    pub replay: Signal<Out, Bit>,
    pub record: Signal<Out, Bit>,
    pub more: Signal<Out, Bit>,
    /// S3: a writeback pass after the execute pass, run under the execute pass's mask and flag
    /// value (`held_mask`, `held_flags`), writing no flags.
    pub dst_pass: Signal<Out, Bit>,
    pub held_mask: Signal<Out, Bits<8>>,
    pub held_flags: Signal<Out, Bits<8>>,
    /// S3: the destination channels the pass writes, and their register.
    pub dst_lanes: Signal<Out, Bits<8>>,
    pub dst_reg: Signal<Out, Bits<7>>,
    /// S3: the read ports' collect registers take the pass's operands.
    pub capture: Signal<Out, Bit>,
    decide: RegionPasses<TW>,
    held: PassOwner<TW>,
}

impl<const TW: usize> Logic for Passes<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.decide.clk.next = self.clk.val();
        self.held.clk.next = self.clk.val();
        self.decide.rst.next = self.rst.val();
        self.held.rst.next = self.rst.val();
        // the decision, from the slot and the owner's state
        self.decide.busy.next = self.held.busy.val();
        self.decide.owner.next = self.held.owner.val();
        self.decide.pass.next = self.held.pass.val();
        self.decide.s1_valid.next = self.s1_valid.val();
        self.decide.s1_tid.next = self.s1_tid.val();
        self.decide.valid.next = self.valid.val();
        self.decide.init.next = self.init.val();
        self.decide.tid.next = self.tid.val();
        self.decide.dec.next = self.dec.val();
        self.decide.multi.next = self.multi.val();
        self.decide.src_count_m1.next = self.src_count_m1.val();
        self.decide.dst_count_m1.next = self.dst_count_m1.val();
        self.decide.dst_idx.next = self.dst_idx.val();
        self.decide.dst_list.next = self.dst_list.val();
        // the owner's update, from the decision, the fault and the mask
        self.held.clear.next = self.clear.val();
        self.held.act.next = self.decide.act.val();
        self.held.taken.next = self.decide.taken.val();
        self.held.mine.next = self.decide.mine.val();
        self.held.p.next = self.decide.p.val();
        self.held.last.next = self.decide.last.val();
        self.held.at_exec.next = self.decide.at_exec.val();
        self.held.tid.next = self.tid.val();
        self.held.flag_value.next = self.decide.flag_value.val();
        self.held.fault.next = self.fault.val();
        self.held.mask.next = self.mask.val();
        // the plan out
        self.pass_s1.next = self.decide.pass_s1.val();
        self.pass_s2.next = self.decide.pass_s2.val();
        self.not_yet.next = self.decide.not_yet.val();
        self.replay.next = self.decide.replay.val();
        self.record.next = self.decide.record.val();
        self.more.next = self.decide.more.val();
        self.dst_pass.next = self.decide.dst_pass.val();
        self.held_mask.next = self.held.mask_h.val();
        self.held_flags.next = self.held.flags_h.val();
        self.dst_lanes.next = self.decide.dst_lanes.val();
        self.dst_reg.next = self.decide.dst_reg.val();
        self.capture.next = self.decide.capture.val();
    }
}
