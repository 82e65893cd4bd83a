//! The decode → execute registers: the decoded instruction and its slot from S1 to S3 (two
//! stages: S2 is the register file's second read register, docs/eu_core.md), and the branch
//! unit's response from S2 (pipe 0: one cycle after the request) to S3. The operands travel
//! separately, in the register file's twice-registered read data.

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
    /// S1: TANH_PRE, SIGMOID or TANH.
    pub in_is_math: Signal<In, Bit>,
    /// S1: math format.
    pub in_fmt: Signal<In, Bits<2>>,
    /// S1: math flush-to-zero.
    pub in_ftz: Signal<In, Bit>,
    /// S1: SRD of TID.
    pub in_srd_tid: Signal<In, Bit>,
    /// S1: SRD of LANE.
    pub in_srd_lane: Signal<In, Bit>,
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
    /// S3: the slot carries a live thread.
    pub valid: Signal<Out, Bit>,
    /// S3: the slot is the thread's INIT (no instruction).
    pub init: Signal<Out, Bit>,
    /// S3: thread.
    pub tid: Signal<Out, Bits<TW>>,
    /// S3: instruction pointer.
    pub ip: Signal<Out, Bits<16>>,
    /// S3: op code.
    pub op: Signal<Out, Bits<7>>,
    /// S3: condition modifier.
    pub cmod: Signal<Out, Bits<3>>,
    /// S3: CMP.
    pub is_cmp: Signal<Out, Bit>,
    /// S3: control flow (branch unit op).
    pub is_control: Signal<Out, Bit>,
    /// S3: EOT.
    pub is_eot: Signal<Out, Bit>,
    /// S3: writes a destination register.
    pub has_dst: Signal<Out, Bit>,
    /// S3: LD or ST.
    pub is_mem: Signal<Out, Bit>,
    /// S3: ST.
    pub is_st: Signal<Out, Bit>,
    /// S3: TANH_PRE, SIGMOID or TANH.
    pub is_math: Signal<Out, Bit>,
    /// S3: math format.
    pub fmt: Signal<Out, Bits<2>>,
    /// S3: math flush-to-zero.
    pub ftz: Signal<Out, Bit>,
    /// S3: SRD of TID.
    pub srd_tid: Signal<Out, Bit>,
    /// S3: SRD of LANE.
    pub srd_lane: Signal<Out, Bit>,
    /// S3: flag register named.
    pub flag_sel: Signal<Out, Bit>,
    /// S3: its value at decode.
    pub flag_value: Signal<Out, Bits<8>>,
    /// S3: lanes inside the exec size.
    pub exec_lanes: Signal<Out, Bits<8>>,
    /// S3: lanes the predicate lets run.
    pub pred_lanes: Signal<Out, Bits<8>>,
    /// S3: immediate.
    pub imm: Signal<Out, Bits<32>>,
    /// S3: src0 is the immediate.
    pub src0_imm: Signal<Out, Bit>,
    /// S3: src1 is the immediate.
    pub src1_imm: Signal<Out, Bit>,
    /// S3: destination register.
    pub dst_reg: Signal<Out, Bits<7>>,
    /// S3: does not decode.
    pub illegal: Signal<Out, Bit>,
    /// S3: outside this slice.
    pub not_yet: Signal<Out, Bit>,
    /// Decode's `sys` (SRD/SWR special-register access) into S3.
    pub in_sys: Signal<In, Bits<4>>,
    pub sys: Signal<Out, Bits<4>>,
    sys_s2: RDff<Bits<4>>,
    sys_s3: RDff<Bits<4>>,
    valid_s2: RDff<Bit>,
    init_s2: RDff<Bit>,
    tid_s2: RDff<Bits<TW>>,
    ip_s2: RDff<Bits<16>>,
    op_s2: RDff<Bits<7>>,
    cmod_s2: RDff<Bits<3>>,
    is_cmp_s2: RDff<Bit>,
    is_control_s2: RDff<Bit>,
    is_eot_s2: RDff<Bit>,
    has_dst_s2: RDff<Bit>,
    is_mem_s2: RDff<Bit>,
    is_st_s2: RDff<Bit>,
    is_math_s2: RDff<Bit>,
    fmt_s2: RDff<Bits<2>>,
    ftz_s2: RDff<Bit>,
    srd_tid_s2: RDff<Bit>,
    srd_lane_s2: RDff<Bit>,
    flag_sel_s2: RDff<Bit>,
    flag_value_s2: RDff<Bits<8>>,
    exec_lanes_s2: RDff<Bits<8>>,
    pred_lanes_s2: RDff<Bits<8>>,
    imm_s2: RDff<Bits<32>>,
    src0_imm_s2: RDff<Bit>,
    src1_imm_s2: RDff<Bit>,
    dst_reg_s2: RDff<Bits<7>>,
    illegal_s2: RDff<Bit>,
    not_yet_s2: RDff<Bit>,
    valid_s3: RDff<Bit>,
    init_s3: RDff<Bit>,
    tid_s3: RDff<Bits<TW>>,
    ip_s3: RDff<Bits<16>>,
    op_s3: RDff<Bits<7>>,
    cmod_s3: RDff<Bits<3>>,
    is_cmp_s3: RDff<Bit>,
    is_control_s3: RDff<Bit>,
    is_eot_s3: RDff<Bit>,
    has_dst_s3: RDff<Bit>,
    is_mem_s3: RDff<Bit>,
    is_st_s3: RDff<Bit>,
    is_math_s3: RDff<Bit>,
    fmt_s3: RDff<Bits<2>>,
    ftz_s3: RDff<Bit>,
    srd_tid_s3: RDff<Bit>,
    srd_lane_s3: RDff<Bit>,
    flag_sel_s3: RDff<Bit>,
    flag_value_s3: RDff<Bits<8>>,
    exec_lanes_s3: RDff<Bits<8>>,
    pred_lanes_s3: RDff<Bits<8>>,
    imm_s3: RDff<Bits<32>>,
    src0_imm_s3: RDff<Bit>,
    src1_imm_s3: RDff<Bit>,
    dst_reg_s3: RDff<Bits<7>>,
    illegal_s3: RDff<Bit>,
    not_yet_s3: RDff<Bit>,
}

impl<const TW: usize> Logic for Issue<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, valid_s2, init_s2, tid_s2, ip_s2, op_s2, cmod_s2, is_cmp_s2, is_control_s2, is_eot_s2, has_dst_s2, is_mem_s2, is_st_s2, is_math_s2, fmt_s2, ftz_s2, srd_tid_s2, srd_lane_s2, flag_sel_s2, flag_value_s2, exec_lanes_s2, pred_lanes_s2, imm_s2, src0_imm_s2, src1_imm_s2, dst_reg_s2, illegal_s2, not_yet_s2, valid_s3, init_s3, tid_s3, ip_s3, op_s3, cmod_s3, is_cmp_s3, is_control_s3, is_eot_s3, has_dst_s3, is_mem_s3, is_st_s3, is_math_s3, fmt_s3, ftz_s3, srd_tid_s3, srd_lane_s3, flag_sel_s3, flag_value_s3, exec_lanes_s3, pred_lanes_s3, imm_s3, src0_imm_s3, src1_imm_s3, dst_reg_s3, illegal_s3, not_yet_s3, sys_s2, sys_s3);
        self.sys_s2.rst.next = self.rst.val();
        self.sys_s3.rst.next = self.rst.val();
        self.sys_s2.d.next = self.in_sys.val();
        self.sys_s3.d.next = self.sys_s2.q.val();
        self.sys.next = self.sys_s3.q.val();
        self.valid_s2.rst.next = self.rst.val();
        self.valid_s3.rst.next = self.rst.val();
        self.valid_s2.d.next = self.in_valid.val();
        self.valid_s3.d.next = self.valid_s2.q.val();
        self.valid.next = self.valid_s3.q.val();
        self.init_s2.rst.next = self.rst.val();
        self.init_s3.rst.next = self.rst.val();
        self.init_s2.d.next = self.in_init.val();
        self.init_s3.d.next = self.init_s2.q.val();
        self.init.next = self.init_s3.q.val();
        self.tid_s2.rst.next = self.rst.val();
        self.tid_s3.rst.next = self.rst.val();
        self.tid_s2.d.next = self.in_tid.val();
        self.tid_s3.d.next = self.tid_s2.q.val();
        self.tid.next = self.tid_s3.q.val();
        self.ip_s2.rst.next = self.rst.val();
        self.ip_s3.rst.next = self.rst.val();
        self.ip_s2.d.next = self.in_ip.val();
        self.ip_s3.d.next = self.ip_s2.q.val();
        self.ip.next = self.ip_s3.q.val();
        self.op_s2.rst.next = self.rst.val();
        self.op_s3.rst.next = self.rst.val();
        self.op_s2.d.next = self.in_op.val();
        self.op_s3.d.next = self.op_s2.q.val();
        self.op.next = self.op_s3.q.val();
        self.cmod_s2.rst.next = self.rst.val();
        self.cmod_s3.rst.next = self.rst.val();
        self.cmod_s2.d.next = self.in_cmod.val();
        self.cmod_s3.d.next = self.cmod_s2.q.val();
        self.cmod.next = self.cmod_s3.q.val();
        self.is_cmp_s2.rst.next = self.rst.val();
        self.is_cmp_s3.rst.next = self.rst.val();
        self.is_cmp_s2.d.next = self.in_is_cmp.val();
        self.is_cmp_s3.d.next = self.is_cmp_s2.q.val();
        self.is_cmp.next = self.is_cmp_s3.q.val();
        self.is_control_s2.rst.next = self.rst.val();
        self.is_control_s3.rst.next = self.rst.val();
        self.is_control_s2.d.next = self.in_is_control.val();
        self.is_control_s3.d.next = self.is_control_s2.q.val();
        self.is_control.next = self.is_control_s3.q.val();
        self.is_eot_s2.rst.next = self.rst.val();
        self.is_eot_s3.rst.next = self.rst.val();
        self.is_eot_s2.d.next = self.in_is_eot.val();
        self.is_eot_s3.d.next = self.is_eot_s2.q.val();
        self.is_eot.next = self.is_eot_s3.q.val();
        self.has_dst_s2.rst.next = self.rst.val();
        self.has_dst_s3.rst.next = self.rst.val();
        self.has_dst_s2.d.next = self.in_has_dst.val();
        self.has_dst_s3.d.next = self.has_dst_s2.q.val();
        self.has_dst.next = self.has_dst_s3.q.val();
        self.is_mem_s2.rst.next = self.rst.val();
        self.is_mem_s3.rst.next = self.rst.val();
        self.is_mem_s2.d.next = self.in_is_mem.val();
        self.is_mem_s3.d.next = self.is_mem_s2.q.val();
        self.is_mem.next = self.is_mem_s3.q.val();
        self.is_st_s2.rst.next = self.rst.val();
        self.is_st_s3.rst.next = self.rst.val();
        self.is_st_s2.d.next = self.in_is_st.val();
        self.is_st_s3.d.next = self.is_st_s2.q.val();
        self.is_st.next = self.is_st_s3.q.val();
        self.is_math_s2.rst.next = self.rst.val();
        self.is_math_s3.rst.next = self.rst.val();
        self.is_math_s2.d.next = self.in_is_math.val();
        self.is_math_s3.d.next = self.is_math_s2.q.val();
        self.is_math.next = self.is_math_s3.q.val();
        self.fmt_s2.rst.next = self.rst.val();
        self.fmt_s3.rst.next = self.rst.val();
        self.fmt_s2.d.next = self.in_fmt.val();
        self.fmt_s3.d.next = self.fmt_s2.q.val();
        self.fmt.next = self.fmt_s3.q.val();
        self.ftz_s2.rst.next = self.rst.val();
        self.ftz_s3.rst.next = self.rst.val();
        self.ftz_s2.d.next = self.in_ftz.val();
        self.ftz_s3.d.next = self.ftz_s2.q.val();
        self.ftz.next = self.ftz_s3.q.val();
        self.srd_tid_s2.rst.next = self.rst.val();
        self.srd_tid_s3.rst.next = self.rst.val();
        self.srd_tid_s2.d.next = self.in_srd_tid.val();
        self.srd_tid_s3.d.next = self.srd_tid_s2.q.val();
        self.srd_tid.next = self.srd_tid_s3.q.val();
        self.srd_lane_s2.rst.next = self.rst.val();
        self.srd_lane_s3.rst.next = self.rst.val();
        self.srd_lane_s2.d.next = self.in_srd_lane.val();
        self.srd_lane_s3.d.next = self.srd_lane_s2.q.val();
        self.srd_lane.next = self.srd_lane_s3.q.val();
        self.flag_sel_s2.rst.next = self.rst.val();
        self.flag_sel_s3.rst.next = self.rst.val();
        self.flag_sel_s2.d.next = self.in_flag_sel.val();
        self.flag_sel_s3.d.next = self.flag_sel_s2.q.val();
        self.flag_sel.next = self.flag_sel_s3.q.val();
        self.flag_value_s2.rst.next = self.rst.val();
        self.flag_value_s3.rst.next = self.rst.val();
        self.flag_value_s2.d.next = self.in_flag_value.val();
        self.flag_value_s3.d.next = self.flag_value_s2.q.val();
        self.flag_value.next = self.flag_value_s3.q.val();
        self.exec_lanes_s2.rst.next = self.rst.val();
        self.exec_lanes_s3.rst.next = self.rst.val();
        self.exec_lanes_s2.d.next = self.in_exec_lanes.val();
        self.exec_lanes_s3.d.next = self.exec_lanes_s2.q.val();
        self.exec_lanes.next = self.exec_lanes_s3.q.val();
        self.pred_lanes_s2.rst.next = self.rst.val();
        self.pred_lanes_s3.rst.next = self.rst.val();
        self.pred_lanes_s2.d.next = self.in_pred_lanes.val();
        self.pred_lanes_s3.d.next = self.pred_lanes_s2.q.val();
        self.pred_lanes.next = self.pred_lanes_s3.q.val();
        self.imm_s2.rst.next = self.rst.val();
        self.imm_s3.rst.next = self.rst.val();
        self.imm_s2.d.next = self.in_imm.val();
        self.imm_s3.d.next = self.imm_s2.q.val();
        self.imm.next = self.imm_s3.q.val();
        self.src0_imm_s2.rst.next = self.rst.val();
        self.src0_imm_s3.rst.next = self.rst.val();
        self.src0_imm_s2.d.next = self.in_src0_imm.val();
        self.src0_imm_s3.d.next = self.src0_imm_s2.q.val();
        self.src0_imm.next = self.src0_imm_s3.q.val();
        self.src1_imm_s2.rst.next = self.rst.val();
        self.src1_imm_s3.rst.next = self.rst.val();
        self.src1_imm_s2.d.next = self.in_src1_imm.val();
        self.src1_imm_s3.d.next = self.src1_imm_s2.q.val();
        self.src1_imm.next = self.src1_imm_s3.q.val();
        self.dst_reg_s2.rst.next = self.rst.val();
        self.dst_reg_s3.rst.next = self.rst.val();
        self.dst_reg_s2.d.next = self.in_dst_reg.val();
        self.dst_reg_s3.d.next = self.dst_reg_s2.q.val();
        self.dst_reg.next = self.dst_reg_s3.q.val();
        self.illegal_s2.rst.next = self.rst.val();
        self.illegal_s3.rst.next = self.rst.val();
        self.illegal_s2.d.next = self.in_illegal.val();
        self.illegal_s3.d.next = self.illegal_s2.q.val();
        self.illegal.next = self.illegal_s3.q.val();
        self.not_yet_s2.rst.next = self.rst.val();
        self.not_yet_s3.rst.next = self.rst.val();
        self.not_yet_s2.d.next = self.in_not_yet.val();
        self.not_yet_s3.d.next = self.not_yet_s2.q.val();
        self.not_yet.next = self.not_yet_s3.q.val();
    }
}
