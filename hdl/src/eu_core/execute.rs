//! Stage S3, execute: the execution mask, the operands (the register file's twice-registered read
//! data), the eight ALU lanes, the thread's update for fetch (next IP from the branch unit's
//! registered response, stop at EOT or a fault) and the execute → writeback registers (S4), which
//! drive the register-file write, the flag write and the retire port.
//!
//! Execution mask (docs/isa.md): a control-flow op runs under the branch unit's `exec_mask` (E
//! before the step); any other op under E ∩ exec size ∩ predicate. An instruction that raises an
//! exception (`exc`, from `trap_port::TrapPort`) does not retire and keeps its IP: the trap
//! controller halts the thread and takes it to the handler (or parks it); one that the handler's
//! HMASK drops (`skip`) does not retire and goes on at the branch unit's next IP; one outside
//! this slice (`stop`) does not retire and stops its thread.
//!
//! LD/ST (`mem::DataMemory`): the op is offered to the memory unit in every pass of its thread
//! through this stage; until the unit answers `done` the pass does not retire and leaves the IP
//! where it is (the thread's next slot fetches the same instruction again: a replay). In the
//! `done` pass the op's result is the unit's `value`, taken into the S4 result register in place
//! of the lanes' results (LD: the loaded words, written and flagged like any result; ST: the
//! stored words, shown on the retire port with their addresses). TANH_PRE, SIGMOID, TANH and MULH
//! go to the math unit (`math::MathUnit`) the same way; SRD of TID/LANE's result is the thread's
//! or the lane's index. These values are selected after the lanes, not fed into their src0, so
//! the operand path into the ALU is register file or immediate only (the ECP5's worst path ran
//! from the op class through that src0 select into a lane's adder, docs/eu_core.md "Measured").

use super::lane::AluLane;
use super::wb_flags::WbFlags;
use crate::prims::RDff;
use super::decode::Decoded;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Execute<const TW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// S3 (from `Issue`): the decoded instruction (its fields are unpacked into Locals of the
    /// same names).
    pub dec: Signal<In, Decoded>,
    // the decoded instruction (S3, from `Issue`)
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub ip: Signal<In, Bits<16>>,
    op: Signal<Local, Bits<7>>,
    cmod: Signal<Local, Bits<3>>,
    is_cmp: Signal<Local, Bit>,
    is_control: Signal<Local, Bit>,
    is_eot: Signal<Local, Bit>,
    has_dst: Signal<Local, Bit>,
    flag_sel: Signal<Local, Bit>,
    flag_value: Signal<Local, Bits<8>>,
    exec_lanes: Signal<Local, Bits<8>>,
    pred_lanes: Signal<Local, Bits<8>>,
    imm: Signal<Local, Bits<32>>,
    src0_imm: Signal<Local, Bit>,
    src1_imm: Signal<Local, Bit>,
    /// From `TrapPort`: an ISA exception, a slice limit (stop the thread), a dropped exception
    /// (go on at the next IP).
    pub exc: Signal<In, Bit>,
    pub stop: Signal<In, Bit>,
    pub skip: Signal<In, Bit>,
    /// SRD of a trap-controller register: the result is `sr_value` in every lane.
    pub srd_sr: Signal<In, Bit>,
    pub sr_value: Signal<In, Bits<32>>,
    /// LD or ST.
    is_mem: Signal<Local, Bit>,
    /// ST.
    is_st: Signal<Local, Bit>,
    /// TANH_PRE, SIGMOID or TANH.
    is_math: Signal<Local, Bit>,
    /// SRD of TID, SRD of LANE: a MOV of the thread's index, of the lane's index.
    srd_tid: Signal<Local, Bit>,
    srd_lane: Signal<Local, Bit>,
    /// From the memory unit: the op is through, its lane values and this pass's byte addresses
    /// (its bad-address fault goes to `TrapPort`).
    pub mem_done: Signal<In, Bit>,
    pub mem_value: Signal<In, Bits<256>>,
    pub mem_addr: Signal<In, Bits<256>>,
    /// From the math unit: the op is through, its lane values.
    pub math_done: Signal<In, Bit>,
    pub math_value: Signal<In, Bits<256>>,
    /// Register-file read data (src0, src1 registers), S3.
    pub rf_data0: Signal<In, Bits<256>>,
    pub rf_data1: Signal<In, Bits<256>>,
    /// The branch unit's response to this slot's request (registered in `Issue`).
    pub bu_exec_mask: Signal<In, Bits<8>>,
    pub bu_next_ip: Signal<In, Bits<16>>,
    /// To fetch: the slot's thread update.
    pub upd_valid: Signal<Out, Bit>,
    pub upd_ip: Signal<Out, Bits<16>>,
    pub upd_stop: Signal<Out, Bit>,
    /// The slot's instruction faults (an exception or a slice limit: it does not retire).
    pub fault: Signal<Out, Bit>,
    /// The slot's memory or math op is not through, or its multi-register op has passes to go:
    /// the thread's next slot replays it.
    pub upd_replay: Signal<Out, Bit>,
    /// From `passes::Passes` (multi-register regions): the pass keeps the IP; it retires
    /// a record; not the last one; a writeback pass (run under the held mask and flag value,
    /// no flag write); the destination channels and register of this pass.
    pub rgn_replay: Signal<In, Bit>,
    pub rgn_record: Signal<In, Bit>,
    pub rgn_more: Signal<In, Bit>,
    pub rgn_dst_pass: Signal<In, Bit>,
    pub rgn_mask: Signal<In, Bits<8>>,
    pub rgn_flags: Signal<In, Bits<8>>,
    pub rgn_dst_lanes: Signal<In, Bits<8>>,
    pub rgn_dst_reg: Signal<In, Bits<7>>,
    /// S3: the slot's execution mask (for `Passes` to hold at the execute pass).
    pub exec_mask: Signal<Out, Bits<8>>,
    // S4: the retired instruction
    pub wb_valid: Signal<Out, Bit>,
    pub wb_tid: Signal<Out, Bits<TW>>,
    pub wb_ip: Signal<Out, Bits<16>>,
    pub wb_mask: Signal<Out, Bits<8>>,
    pub wb_dst_we: Signal<Out, Bit>,
    pub wb_dst_reg: Signal<Out, Bits<7>>,
    pub wb_data: Signal<Out, Bits<256>>,
    pub wb_flag_we: Signal<Out, Bit>,
    pub wb_flag_sel: Signal<Out, Bit>,
    pub wb_flag_value: Signal<Out, Bits<8>>,
    /// The record is not the instruction's last (a multi-register destination's next register
    /// follows).
    pub wb_more: Signal<Out, Bit>,
    /// The destination lanes written this record (the scatter's lanes).
    pub wb_dst_mask: Signal<Out, Bits<8>>,
    /// The lanes a retired ST wrote to memory, and their byte addresses.
    pub wb_mem_we: Signal<Out, Bits<8>>,
    pub wb_mem_addr: Signal<Out, Bits<256>>,
    lanes: [AluLane; 8],
    wb_flags: WbFlags,
    mask: Signal<Local, Bits<8>>,
    /// The flag value the lanes see (SEL): decode's, or the held one in a writeback pass.
    lane_flags: Signal<Local, Bits<8>>,
    /// A memory or math op not through yet.
    unit_replay: Signal<Local, Bit>,
    retire: Signal<Local, Bit>,
    /// A memory or math op not through yet: replay.
    replay: Signal<Local, Bit>,
    /// The op retires with another value than the lanes': the memory or math unit's, SRD's.
    via_unit: Signal<Local, Bit>,
    /// Lane l's index in lane l (SRD of LANE).
    k_lane_ids: Constant<Bits<256>>,
    unit_value: Signal<Local, Bits<256>>,
    collect: Signal<Local, Bits<256>>,
    lane_out: Signal<Local, Bits<32>>,
    flags: Signal<Local, Bits<8>>,
    k_top: Constant<Bits<16>>,
    valid_s4: RDff<Bit>,
    tid_s4: RDff<Bits<TW>>,
    ip_s4: RDff<Bits<16>>,
    mask_s4: RDff<Bits<8>>,
    dst_we_s4: RDff<Bit>,
    dst_reg_s4: RDff<Bits<7>>,
    data_s4: RDff<Bits<256>>,
    flag_we_s4: RDff<Bit>,
    flag_sel_s4: RDff<Bit>,
    old_flags_s4: RDff<Bits<8>>,
    /// What `wb_flags` needs: the cmod, CMP, the flags as decode read them, CMP's lane flags.
    cmod_s4: RDff<Bits<3>>,
    is_cmp_s4: RDff<Bit>,
    /// The result is fp32 (`Decoded::is_fp`: the cmod compares it as fp32).
    is_fp_s4: RDff<Bit>,
    cmp_flags_s4: RDff<Bits<8>>,
    mem_we_s4: RDff<Bits<8>>,
    mem_addr_s4: RDff<Bits<256>>,
    more_s4: RDff<Bit>,
    dst_mask_s4: RDff<Bits<8>>,
}

impl<const TW: usize> Default for Execute<TW> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            dec: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            op: Default::default(),
            cmod: Default::default(),
            is_cmp: Default::default(),
            is_control: Default::default(),
            is_eot: Default::default(),
            has_dst: Default::default(),
            flag_sel: Default::default(),
            flag_value: Default::default(),
            exec_lanes: Default::default(),
            pred_lanes: Default::default(),
            imm: Default::default(),
            src0_imm: Default::default(),
            src1_imm: Default::default(),
            exc: Default::default(),
            stop: Default::default(),
            skip: Default::default(),
            srd_sr: Default::default(),
            sr_value: Default::default(),
            is_mem: Default::default(),
            is_st: Default::default(),
            is_math: Default::default(),
            srd_tid: Default::default(),
            srd_lane: Default::default(),
            mem_done: Default::default(),
            mem_value: Default::default(),
            mem_addr: Default::default(),
            math_done: Default::default(),
            math_value: Default::default(),
            rf_data0: Default::default(),
            rf_data1: Default::default(),
            bu_exec_mask: Default::default(),
            bu_next_ip: Default::default(),
            upd_valid: Default::default(),
            upd_ip: Default::default(),
            upd_stop: Default::default(),
            fault: Default::default(),
            upd_replay: Default::default(),
            wb_valid: Default::default(),
            wb_tid: Default::default(),
            wb_ip: Default::default(),
            wb_mask: Default::default(),
            wb_dst_we: Default::default(),
            wb_dst_reg: Default::default(),
            wb_data: Default::default(),
            wb_flag_we: Default::default(),
            wb_flag_sel: Default::default(),
            wb_flag_value: Default::default(),
            wb_mem_we: Default::default(),
            wb_mem_addr: Default::default(),
            lanes: Default::default(),
            wb_flags: Default::default(),
            mask: Default::default(),
            retire: Default::default(),
            replay: Default::default(),
            via_unit: Default::default(),
            k_lane_ids: Constant::new({
                let mut b = Bits::<256>::from(0u64);
                for l in 0..8 {
                    b = b | (bit_cast::<256, 32>(Bits::<32>::from(l as u64)) << (32 * l));
                }
                b
            }),
            unit_value: Default::default(),
            collect: Default::default(),
            lane_out: Default::default(),
            flags: Default::default(),
            k_top: Constant::new(224u64.into()),
            valid_s4: Default::default(),
            tid_s4: Default::default(),
            ip_s4: Default::default(),
            mask_s4: Default::default(),
            dst_we_s4: Default::default(),
            dst_reg_s4: Default::default(),
            data_s4: Default::default(),
            flag_we_s4: Default::default(),
            flag_sel_s4: Default::default(),
            old_flags_s4: Default::default(),
            cmod_s4: Default::default(),
            is_cmp_s4: Default::default(),
            is_fp_s4: Default::default(),
            cmp_flags_s4: Default::default(),
            mem_we_s4: Default::default(),
            mem_addr_s4: Default::default(),
            more_s4: Default::default(),
            dst_mask_s4: Default::default(),
            rgn_replay: Default::default(),
            rgn_record: Default::default(),
            rgn_more: Default::default(),
            rgn_dst_pass: Default::default(),
            rgn_mask: Default::default(),
            rgn_flags: Default::default(),
            rgn_dst_lanes: Default::default(),
            rgn_dst_reg: Default::default(),
            exec_mask: Default::default(),
            wb_more: Default::default(),
            wb_dst_mask: Default::default(),
            lane_flags: Default::default(),
            unit_replay: Default::default(),
        }
    }
}

impl<const TW: usize> Logic for Execute<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        // the decoded instruction's fields
        self.op.next = self.dec.val().op;
        self.cmod.next = self.dec.val().cmod;
        self.is_cmp.next = self.dec.val().is_cmp;
        self.is_control.next = self.dec.val().is_control;
        self.is_eot.next = self.dec.val().is_eot;
        self.has_dst.next = self.dec.val().has_dst;
        self.flag_sel.next = self.dec.val().flag_sel;
        self.flag_value.next = self.dec.val().flag_value;
        self.exec_lanes.next = self.dec.val().exec_lanes;
        self.pred_lanes.next = self.dec.val().pred_lanes;
        self.imm.next = self.dec.val().imm;
        self.src0_imm.next = self.dec.val().src0_imm;
        self.src1_imm.next = self.dec.val().src1_imm;
        self.is_mem.next = self.dec.val().is_mem;
        self.is_st.next = self.dec.val().is_st;
        self.is_math.next = self.dec.val().is_math;
        self.srd_tid.next = self.dec.val().srd_tid;
        self.srd_lane.next = self.dec.val().srd_lane;
        clock!(self, clk, valid_s4, tid_s4, ip_s4, mask_s4, dst_we_s4, dst_reg_s4, data_s4, flag_we_s4, flag_sel_s4, old_flags_s4, cmod_s4, is_cmp_s4, is_fp_s4, cmp_flags_s4, mem_we_s4, mem_addr_s4, more_s4, dst_mask_s4);
        self.more_s4.rst.next = self.rst.val();
        self.dst_mask_s4.rst.next = self.rst.val();
        self.valid_s4.rst.next = self.rst.val();
        self.tid_s4.rst.next = self.rst.val();
        self.ip_s4.rst.next = self.rst.val();
        self.mask_s4.rst.next = self.rst.val();
        self.dst_we_s4.rst.next = self.rst.val();
        self.dst_reg_s4.rst.next = self.rst.val();
        self.data_s4.rst.next = self.rst.val();
        self.flag_we_s4.rst.next = self.rst.val();
        self.flag_sel_s4.rst.next = self.rst.val();
        self.old_flags_s4.rst.next = self.rst.val();
        self.cmod_s4.rst.next = self.rst.val();
        self.is_cmp_s4.rst.next = self.rst.val();
        self.is_fp_s4.rst.next = self.rst.val();
        self.cmp_flags_s4.rst.next = self.rst.val();
        self.mem_we_s4.rst.next = self.rst.val();
        self.mem_addr_s4.rst.next = self.rst.val();
        // the execution mask (a multi-register op's writeback pass: the one its execute pass
        // ran with, since its own flag write may have changed the predicate)
        self.exec_mask.next = self.bu_exec_mask.val();
        if !self.is_control.val() {
            self.exec_mask.next = self.bu_exec_mask.val() & self.exec_lanes.val() & self.pred_lanes.val();
        }
        self.mask.next = self.exec_mask.val();
        self.lane_flags.next = self.flag_value.val();
        if self.rgn_dst_pass.val() {
            self.mask.next = self.rgn_mask.val();
            self.lane_flags.next = self.rgn_flags.val();
        }
        self.fault.next = self.valid.val() & !self.init.val() & (self.exc.val() | self.stop.val());
        self.unit_replay.next = (self.is_mem.val() & !self.mem_done.val()) | (self.is_math.val() & !self.math_done.val());
        self.replay.next = self.valid.val() & !self.init.val() & !self.fault.val() & (self.unit_replay.val() | self.rgn_replay.val());
        self.upd_replay.next = self.replay.val();
        self.via_unit.next = self.is_mem.val() | self.is_math.val() | self.srd_tid.val() | self.srd_lane.val() | self.srd_sr.val();
        // a multi-register op retires one record per destination register (`rgn_record`); its
        // passes before the last keep the IP like a replay
        self.retire.next = self.valid.val() & !self.init.val() & !self.fault.val() & !self.unit_replay.val() & self.rgn_record.val();
        // the thread's update: next IP; stop at EOT or a fault; INIT done
        self.upd_valid.next = self.valid.val();
        self.upd_ip.next = self.bu_next_ip.val();
        // a fault keeps the IP (the faulting instruction); INIT keeps IP 0 (the thread starts
        // there); a memory op not through yet is fetched again
        // (an exception the handler's HMASK drops goes on at the next IP: the ISA model's skip)
        if (self.fault.val() & !self.skip.val()) | self.init.val() | self.replay.val() {
            self.upd_ip.next = self.ip.val();
        }
        self.upd_stop.next = (self.valid.val() & !self.init.val() & self.stop.val()) | (self.retire.val() & self.is_eot.val());
        // the lanes
        self.collect.next = 0.into();
        self.flags.next = 0.into();
        for l in 0..8 {
            self.lanes[l].op.next = self.op.val();
            self.lanes[l].cmod.next = self.cmod.val();
            self.lanes[l].run.next = self.mask.val().get_bit(l);
            self.lanes[l].flag_in.next = self.lane_flags.val().get_bit(l);
            self.lanes[l].src0.next = self.rf_data0.val().get_bits::<32>(32 * l);
            if self.src0_imm.val() {
                self.lanes[l].src0.next = self.imm.val();
            }
            self.lanes[l].src1.next = self.rf_data1.val().get_bits::<32>(32 * l);
            if self.src1_imm.val() {
                self.lanes[l].src1.next = self.imm.val();
            }
            self.lane_out.next = self.lanes[l].result.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<256, 32>(self.lane_out.val()) << self.k_top.val());
            self.flags.next = self.flags.val().replace_bit(l, self.lanes[l].flag_out.val());
        }
        // the value of an op whose result is not the lanes' (a unit's, SRD's): selected
        // after the lanes, not into their src0, so that the operand path into the ALU stays
        // register file / immediate only
        self.unit_value.next = self.mem_value.val();
        if self.is_math.val() {
            self.unit_value.next = self.math_value.val();
        }
        if self.srd_tid.val() {
            for _l in 0..8 {
                self.unit_value.next = (self.unit_value.val() >> 32) | (bit_cast::<256, TW>(self.tid.val()) << self.k_top.val());
            }
        }
        if self.srd_lane.val() {
            self.unit_value.next = self.k_lane_ids.val();
        }
        if self.srd_sr.val() {
            for _l in 0..8 {
                self.unit_value.next = (self.unit_value.val() >> 32) | (bit_cast::<256, 32>(self.sr_value.val()) << self.k_top.val());
            }
        }
        // S4
        self.valid_s4.d.next = self.retire.val();
        self.tid_s4.d.next = self.tid.val();
        self.ip_s4.d.next = self.ip.val();
        self.mask_s4.d.next = self.mask.val();
        self.dst_we_s4.d.next = self.retire.val() & self.has_dst.val() & (self.mask.val() & self.rgn_dst_lanes.val()).any();
        self.dst_reg_s4.d.next = self.rgn_dst_reg.val();
        self.dst_mask_s4.d.next = self.mask.val() & self.rgn_dst_lanes.val();
        self.more_s4.d.next = self.retire.val() & self.rgn_more.val();
        self.data_s4.d.next = self.collect.val();
        if self.via_unit.val() {
            self.data_s4.d.next = self.unit_value.val();
        }
        self.flag_we_s4.d.next = self.retire.val() & !self.rgn_dst_pass.val() & (self.is_cmp.val() | (self.has_dst.val() & self.cmod.val().any()));
        self.flag_sel_s4.d.next = self.flag_sel.val();
        self.old_flags_s4.d.next = self.flag_value.val();
        self.cmod_s4.d.next = self.cmod.val();
        self.is_cmp_s4.d.next = self.is_cmp.val();
        self.is_fp_s4.d.next = self.dec.val().is_fp;
        self.cmp_flags_s4.d.next = self.flags.val();
        self.mem_we_s4.d.next = 0.into();
        if self.retire.val() & self.is_st.val() {
            self.mem_we_s4.d.next = self.mask.val();
        }
        self.mem_addr_s4.d.next = self.mem_addr.val();
        self.wb_valid.next = self.valid_s4.q.val();
        self.wb_tid.next = self.tid_s4.q.val();
        self.wb_ip.next = self.ip_s4.q.val();
        self.wb_mask.next = self.mask_s4.q.val();
        self.wb_dst_we.next = self.dst_we_s4.q.val();
        self.wb_dst_reg.next = self.dst_reg_s4.q.val();
        self.wb_data.next = self.data_s4.q.val();
        self.wb_flag_we.next = self.flag_we_s4.q.val();
        self.wb_flag_sel.next = self.flag_sel_s4.q.val();
        // the flags: a result's condition modifier from the registered result, CMP's from S3
        self.wb_flags.data.next = self.data_s4.q.val();
        self.wb_flags.cmod.next = self.cmod_s4.q.val();
        self.wb_flags.is_cmp.next = self.is_cmp_s4.q.val();
        self.wb_flags.fp.next = self.is_fp_s4.q.val();
        self.wb_flags.cmp_flags.next = self.cmp_flags_s4.q.val();
        self.wb_flags.old_flags.next = self.old_flags_s4.q.val();
        self.wb_flags.mask.next = self.mask_s4.q.val();
        self.wb_flag_value.next = self.wb_flags.flags.val();
        self.wb_more.next = self.more_s4.q.val();
        self.wb_dst_mask.next = self.dst_mask_s4.q.val();
        self.wb_mem_we.next = self.mem_we_s4.q.val();
        self.wb_mem_addr.next = self.mem_addr_s4.q.val();
    }
}
