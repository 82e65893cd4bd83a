//! The decode → execute registers (S1 → S2): the decoded instruction and its slot. The
//! operands travel separately, in the register file's registered read data.

use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Issue<const TW: usize> {
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
    /// S1: op code.
    pub in_op: Signal<In, Bits<7>>,
    /// S1: condition modifier.
    pub in_cmod: Signal<In, Bits<3>>,
    /// S1: CMP.
    pub in_is_cmp: Signal<In, Bit>,
    /// S1: control flow (branch unit op).
    pub in_is_control: Signal<In, Bit>,
    /// S1: EOT.
    pub in_is_eot: Signal<In, Bit>,
    /// S1: writes a destination register.
    pub in_has_dst: Signal<In, Bit>,
    /// S1: LD or ST.
    pub in_is_mem: Signal<In, Bit>,
    /// S1: ST.
    pub in_is_st: Signal<In, Bit>,
    /// S1: flag register named.
    pub in_flag_sel: Signal<In, Bit>,
    /// S1: its value at decode.
    pub in_flag_value: Signal<In, Bits<8>>,
    /// S1: lanes inside the exec size.
    pub in_exec_lanes: Signal<In, Bits<8>>,
    /// S1: lanes the predicate lets run.
    pub in_pred_lanes: Signal<In, Bits<8>>,
    /// S1: immediate.
    pub in_imm: Signal<In, Bits<32>>,
    /// S1: src0 is the immediate.
    pub in_src0_imm: Signal<In, Bit>,
    /// S1: src1 is the immediate.
    pub in_src1_imm: Signal<In, Bit>,
    /// S1: destination register.
    pub in_dst_reg: Signal<In, Bits<7>>,
    /// S1: does not decode.
    pub in_illegal: Signal<In, Bit>,
    /// S1: outside this slice.
    pub in_not_yet: Signal<In, Bit>,
    /// S1: trap cause of illegal / not_yet.
    pub in_trap_cause: Signal<In, Bits<4>>,
    /// S2: the slot carries a live thread.
    pub valid: Signal<Out, Bit>,
    /// S2: the slot is the thread's INIT (no instruction).
    pub init: Signal<Out, Bit>,
    /// S2: thread.
    pub tid: Signal<Out, Bits<TW>>,
    /// S2: instruction pointer.
    pub ip: Signal<Out, Bits<16>>,
    /// S2: op code.
    pub op: Signal<Out, Bits<7>>,
    /// S2: condition modifier.
    pub cmod: Signal<Out, Bits<3>>,
    /// S2: CMP.
    pub is_cmp: Signal<Out, Bit>,
    /// S2: control flow (branch unit op).
    pub is_control: Signal<Out, Bit>,
    /// S2: EOT.
    pub is_eot: Signal<Out, Bit>,
    /// S2: writes a destination register.
    pub has_dst: Signal<Out, Bit>,
    /// S2: LD or ST.
    pub is_mem: Signal<Out, Bit>,
    /// S2: ST.
    pub is_st: Signal<Out, Bit>,
    /// S2: flag register named.
    pub flag_sel: Signal<Out, Bit>,
    /// S2: its value at decode.
    pub flag_value: Signal<Out, Bits<8>>,
    /// S2: lanes inside the exec size.
    pub exec_lanes: Signal<Out, Bits<8>>,
    /// S2: lanes the predicate lets run.
    pub pred_lanes: Signal<Out, Bits<8>>,
    /// S2: immediate.
    pub imm: Signal<Out, Bits<32>>,
    /// S2: src0 is the immediate.
    pub src0_imm: Signal<Out, Bit>,
    /// S2: src1 is the immediate.
    pub src1_imm: Signal<Out, Bit>,
    /// S2: destination register.
    pub dst_reg: Signal<Out, Bits<7>>,
    /// S2: does not decode.
    pub illegal: Signal<Out, Bit>,
    /// S2: outside this slice.
    pub not_yet: Signal<Out, Bit>,
    /// S2: trap cause of illegal / not_yet.
    pub trap_cause: Signal<Out, Bits<4>>,
    r_valid: RDff<Bit>,
    r_init: RDff<Bit>,
    r_tid: RDff<Bits<TW>>,
    r_ip: RDff<Bits<16>>,
    r_op: RDff<Bits<7>>,
    r_cmod: RDff<Bits<3>>,
    r_is_cmp: RDff<Bit>,
    r_is_control: RDff<Bit>,
    r_is_eot: RDff<Bit>,
    r_has_dst: RDff<Bit>,
    r_is_mem: RDff<Bit>,
    r_is_st: RDff<Bit>,
    r_flag_sel: RDff<Bit>,
    r_flag_value: RDff<Bits<8>>,
    r_exec_lanes: RDff<Bits<8>>,
    r_pred_lanes: RDff<Bits<8>>,
    r_imm: RDff<Bits<32>>,
    r_src0_imm: RDff<Bit>,
    r_src1_imm: RDff<Bit>,
    r_dst_reg: RDff<Bits<7>>,
    r_illegal: RDff<Bit>,
    r_not_yet: RDff<Bit>,
    r_trap_cause: RDff<Bits<4>>,
}

impl<const TW: usize> Logic for Issue<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, r_valid, r_init, r_tid, r_ip, r_op, r_cmod, r_is_cmp, r_is_control, r_is_eot, r_has_dst, r_is_mem, r_is_st, r_flag_sel, r_flag_value, r_exec_lanes, r_pred_lanes, r_imm, r_src0_imm, r_src1_imm, r_dst_reg, r_illegal, r_not_yet, r_trap_cause);
        self.r_valid.rst.next = self.rst.val();
        self.r_valid.d.next = self.in_valid.val();
        self.valid.next = self.r_valid.q.val();
        self.r_init.rst.next = self.rst.val();
        self.r_init.d.next = self.in_init.val();
        self.init.next = self.r_init.q.val();
        self.r_tid.rst.next = self.rst.val();
        self.r_tid.d.next = self.in_tid.val();
        self.tid.next = self.r_tid.q.val();
        self.r_ip.rst.next = self.rst.val();
        self.r_ip.d.next = self.in_ip.val();
        self.ip.next = self.r_ip.q.val();
        self.r_op.rst.next = self.rst.val();
        self.r_op.d.next = self.in_op.val();
        self.op.next = self.r_op.q.val();
        self.r_cmod.rst.next = self.rst.val();
        self.r_cmod.d.next = self.in_cmod.val();
        self.cmod.next = self.r_cmod.q.val();
        self.r_is_cmp.rst.next = self.rst.val();
        self.r_is_cmp.d.next = self.in_is_cmp.val();
        self.is_cmp.next = self.r_is_cmp.q.val();
        self.r_is_control.rst.next = self.rst.val();
        self.r_is_control.d.next = self.in_is_control.val();
        self.is_control.next = self.r_is_control.q.val();
        self.r_is_eot.rst.next = self.rst.val();
        self.r_is_eot.d.next = self.in_is_eot.val();
        self.is_eot.next = self.r_is_eot.q.val();
        self.r_has_dst.rst.next = self.rst.val();
        self.r_has_dst.d.next = self.in_has_dst.val();
        self.has_dst.next = self.r_has_dst.q.val();
        self.r_is_mem.rst.next = self.rst.val();
        self.r_is_mem.d.next = self.in_is_mem.val();
        self.is_mem.next = self.r_is_mem.q.val();
        self.r_is_st.rst.next = self.rst.val();
        self.r_is_st.d.next = self.in_is_st.val();
        self.is_st.next = self.r_is_st.q.val();
        self.r_flag_sel.rst.next = self.rst.val();
        self.r_flag_sel.d.next = self.in_flag_sel.val();
        self.flag_sel.next = self.r_flag_sel.q.val();
        self.r_flag_value.rst.next = self.rst.val();
        self.r_flag_value.d.next = self.in_flag_value.val();
        self.flag_value.next = self.r_flag_value.q.val();
        self.r_exec_lanes.rst.next = self.rst.val();
        self.r_exec_lanes.d.next = self.in_exec_lanes.val();
        self.exec_lanes.next = self.r_exec_lanes.q.val();
        self.r_pred_lanes.rst.next = self.rst.val();
        self.r_pred_lanes.d.next = self.in_pred_lanes.val();
        self.pred_lanes.next = self.r_pred_lanes.q.val();
        self.r_imm.rst.next = self.rst.val();
        self.r_imm.d.next = self.in_imm.val();
        self.imm.next = self.r_imm.q.val();
        self.r_src0_imm.rst.next = self.rst.val();
        self.r_src0_imm.d.next = self.in_src0_imm.val();
        self.src0_imm.next = self.r_src0_imm.q.val();
        self.r_src1_imm.rst.next = self.rst.val();
        self.r_src1_imm.d.next = self.in_src1_imm.val();
        self.src1_imm.next = self.r_src1_imm.q.val();
        self.r_dst_reg.rst.next = self.rst.val();
        self.r_dst_reg.d.next = self.in_dst_reg.val();
        self.dst_reg.next = self.r_dst_reg.q.val();
        self.r_illegal.rst.next = self.rst.val();
        self.r_illegal.d.next = self.in_illegal.val();
        self.illegal.next = self.r_illegal.q.val();
        self.r_not_yet.rst.next = self.rst.val();
        self.r_not_yet.d.next = self.in_not_yet.val();
        self.not_yet.next = self.r_not_yet.q.val();
        self.r_trap_cause.rst.next = self.rst.val();
        self.r_trap_cause.d.next = self.in_trap_cause.val();
        self.trap_cause.next = self.r_trap_cause.q.val();
    }
}
