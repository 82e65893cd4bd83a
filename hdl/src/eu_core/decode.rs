//! Stage S1, decode: the instruction's fields, its op class, its predicate and what this slice
//! cannot run. Combinational; the `issue` registers take its outputs into the execute stage.
//!
//! Op classes are 128-bit maps computed in Rust from the named op codes (`super::op_map`), one
//! bit per op code: the RTL indexes them with the op field, so no op code is a literal here.
//! Operand regions are `regions::Regions`'s (the region address generators); decode says which
//! operands the op reads and writes as registers. An op outside [`super::slice_ops`] is
//! `not_yet`: the execute stage stops the thread with a fault. The trap ops (TRAP, TRET, TPAUSE,
//! SRD/SWR of the trap controller's special registers, [`super::trap_ops`]) decode here; what
//! they do is `trap_port::TrapPort`'s, in S3, from `sys`.

use super::enc::{field, op, pred, sreg, Field, RESERVED_MASK};
use super::{op_map, ops_with_dst, ops_with_src1, slice_ops, trap_ops};
use rust_hdl::prelude::*;

/// The decoded instruction as it travels from S1 to the execute stage (`issue::Issue`'s two
/// registers) and to the S3 units (`Execute`, `DataMemory`, `MathUnit`, `Traps`): one packed port,
/// declared once. The S1-only fields (register numbers, JIP/UIP, the branch unit's op) are
/// `Decode`'s own outputs.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Decoded {
    pub op: Bits<7>,
    /// Condition modifier.
    pub cmod: Bits<3>,
    /// The flag register the predicate reads and the condition modifier writes, and its value
    /// at decode.
    pub flag_sel: Bit,
    pub flag_value: Bits<8>,
    /// Lanes inside the exec size; lanes the predicate lets run.
    pub exec_lanes: Bits<8>,
    pub pred_lanes: Bits<8>,
    pub imm: Bits<32>,
    /// src0 / src1 is the immediate.
    pub src0_imm: Bit,
    pub src1_imm: Bit,
    pub dst_reg: Bits<7>,
    /// Op classes: control flow, EOT, CMP or FCMP (the flags come from the lanes' compare),
    /// writes a register, LD/ST, ST, the math unit's.
    pub is_control: Bit,
    pub is_eot: Bit,
    pub is_cmp: Bit,
    pub has_dst: Bit,
    pub is_mem: Bit,
    pub is_st: Bit,
    pub is_math: Bit,
    /// The math format and flush-to-zero fields.
    pub fmt: Bits<2>,
    pub ftz: Bit,
    /// SRD of TID, SRD of LANE.
    pub srd_tid: Bit,
    pub srd_lane: Bit,
    /// Does not decode (ILLEGAL_INSTR); legal but outside this slice.
    pub illegal: Bit,
    pub not_yet: Bit,
    /// The result is fp32: a condition modifier compares it with 0 as fp32 (docs/isa.md
    /// "Flags": FADD, FSUB, FMUL, FMIN, FMAX, I2F).
    pub is_fp: Bit,
    /// The special-register access of SRD/SWR (`Decode::sys`).
    pub sys: Bits<4>,
}

#[derive(LogicBlock)]
pub struct Decode {
    /// The instruction word (S1, from the instruction memory).
    pub instr: Signal<In, Bits<128>>,
    /// The thread's flag registers, f0 in bits 7:0, f1 in 15:8.
    pub flags: Signal<In, Bits<16>>,
    op: Signal<Local, Bits<7>>,
    cmod: Signal<Local, Bits<3>>,
    /// The flag register the predicate reads and the condition modifier writes.
    flag_sel: Signal<Local, Bit>,
    /// That flag register's value.
    flag_value: Signal<Local, Bits<8>>,
    /// Lanes inside the exec size.
    exec_lanes: Signal<Local, Bits<8>>,
    /// Lanes the predicate lets run (all ones without a predicate); the branch unit's `req_pred`.
    pred_lanes: Signal<Local, Bits<8>>,
    imm: Signal<Local, Bits<32>>,
    /// src1 is the immediate.
    src1_imm: Signal<Local, Bit>,
    /// src0 is the immediate (an op with one source and an immediate).
    src0_imm: Signal<Local, Bit>,
    dst_reg: Signal<Local, Bits<7>>,
    pub src0_reg: Signal<Out, Bits<7>>,
    pub src1_reg: Signal<Out, Bits<7>>,
    pub jip: Signal<Out, Bits<16>>,
    pub uip: Signal<Out, Bits<16>>,
    /// The branch unit's op: the op itself for control flow, its NOP otherwise.
    pub bu_op: Signal<Out, Bits<5>>,
    is_control: Signal<Local, Bit>,
    is_eot: Signal<Local, Bit>,
    is_cmp: Signal<Local, Bit>,
    is_fp: Signal<Local, Bit>,
    has_dst: Signal<Local, Bit>,
    /// LD or ST (the memory unit).
    is_mem: Signal<Local, Bit>,
    /// ST.
    is_st: Signal<Local, Bit>,
    /// TANH_PRE, SIGMOID, TANH, MUL, MULH, I2F or F2I (the math unit).
    is_math: Signal<Local, Bit>,
    /// The math format and flush-to-zero fields.
    fmt: Signal<Local, Bits<2>>,
    ftz: Signal<Local, Bit>,
    /// SRD of TID (the thread's index in every lane) or of LANE (the lane's index); the slice
    /// has no other special register (those are the trap controller's).
    srd_tid: Signal<Local, Bit>,
    srd_lane: Signal<Local, Bit>,
    /// The instruction does not decode (ISA: ILLEGAL_INSTR).
    illegal: Signal<Local, Bit>,
    /// Legal, but an op outside this slice (trap cause ILLEGAL_INSTR, like `illegal`).
    not_yet: Signal<Local, Bit>,
    /// The special-register access of SRD/SWR for `trap_port::TrapPort`: bit 0 SRD of a trap
    /// controller register (ESR, EPC, EMASK, TGID: its result is the controller's `sr_rdata`),
    /// bit 1 a reserved special register (SRD of 6, 7; SWR of anything but ESR, EPC, EMASK:
    /// ILLEGAL_INSTR when it executes, after the region checks, as in the ISA model), bits 3:2
    /// the controller's `sr_sel` (SRD: the src1 register field, SWR: the dst register field).
    sys: Signal<Local, Bits<4>>,
    /// src0 is read from a register (the op has src0 and it is not the immediate).
    pub use_src0: Signal<Out, Bit>,
    /// src1 is read from a register.
    pub use_src1: Signal<Out, Bit>,
    /// The decoded instruction for S3.
    pub dec: Signal<Out, Decoded>,
    exec_log2: Signal<Local, Bits<3>>,
    pred_mode: Signal<Local, Bits<2>>,
    op_ok: Signal<Local, Bit>,
    has_src0: Signal<Local, Bit>,
    has_src1: Signal<Local, Bit>,
    k_at: [Constant<Bits<8>>; 11],
    k_map_known: Constant<Bits<128>>,
    k_map_slice: Constant<Bits<128>>,
    k_map_dst: Constant<Bits<128>>,
    k_map_src0: Constant<Bits<128>>,
    k_map_src1: Constant<Bits<128>>,
    k_map_math: Constant<Bits<128>>,
    k_map_fp: Constant<Bits<128>>,
    k_at_fmt: Constant<Bits<8>>,
    k_at_ftz: Constant<Bits<8>>,
    k_op_srd: Constant<Bits<7>>,
    k_sreg_tid: Constant<Bits<7>>,
    k_sreg_lane: Constant<Bits<7>>,
    is_srd: Signal<Local, Bit>,
    is_swr: Signal<Local, Bit>,
    sreg_sel: Signal<Local, Bits<7>>,
    k_op_swr: Constant<Bits<7>>,
    /// The last special register SRD reads from the trap controller (TGID), SWR writes (EMASK),
    /// and the last one there is (LANE).
    k_sreg_tgid: Constant<Bits<7>>,
    k_sreg_emask: Constant<Bits<7>>,
    /// `sys` bit 0 (SRD of a controller register) and bit 1 (a reserved special register).
    k_sys_srd: Constant<Bits<4>>,
    k_sys_bad: Constant<Bits<4>>,
    k_reserved: Constant<Bits<128>>,
    k_above_imm: Constant<Bits<128>>,
    k_op_eot: Constant<Bits<7>>,
    k_exec: [Constant<Bits<3>>; 3],
    k_op_cmp: Constant<Bits<7>>,
    k_op_fcmp: Constant<Bits<7>>,
    k_op_nop: Constant<Bits<7>>,
    k_op_ld: Constant<Bits<7>>,
    k_op_st: Constant<Bits<7>>,
    k_op_control_end: Constant<Bits<7>>,
    k_pred_f: Constant<Bits<2>>,
    k_pred_not_f: Constant<Bits<2>>,
    k_pred_reserved: Constant<Bits<2>>,
}

/// Index into `k_at` of each field's lsb.
const FIELDS: [Field; 11] = [
    field::OP,
    field::CMOD,
    field::PRED,
    field::FLAG,
    field::EXEC,
    field::SRC1_IMM,
    field::DST_REG,
    field::SRC0_REG,
    field::SRC1_REG,
    field::IMM,
    field::JIP,
];

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

fn k128(v: u128) -> Constant<Bits<128>> {
    let mut b = Bits::<128>::from(0u64);
    for i in 0..128 {
        b = b.replace_bit(i, v >> i & 1 == 1);
    }
    Constant::new(b)
}

impl Default for Decode {
    fn default() -> Self {
        let known: Vec<u64> = op::TABLE.codes.iter().map(|c| c.value).collect();
        let src1 = ops_with_src1();
        let mut src0 = ops_with_dst();
        src0.retain(|&o| o != op::SRD);
        src0.extend([op::CMP, op::FCMP, op::ST, op::SWR]);
        // the reserved bits above a 32-bit immediate, up to the top of the src1 region
        let above_imm = ((1u128 << (field::SRC1_TYPE.lsb + field::SRC1_TYPE.width)) - 1) & !((1u128 << (field::IMM.lsb + field::IMM.width)) - 1);
        Self {
            instr: Default::default(),
            flags: Default::default(),
            op: Default::default(),
            cmod: Default::default(),
            flag_sel: Default::default(),
            flag_value: Default::default(),
            exec_lanes: Default::default(),
            pred_lanes: Default::default(),
            imm: Default::default(),
            src1_imm: Default::default(),
            src0_imm: Default::default(),
            dst_reg: Default::default(),
            src0_reg: Default::default(),
            src1_reg: Default::default(),
            jip: Default::default(),
            uip: Default::default(),
            bu_op: Default::default(),
            is_control: Default::default(),
            is_eot: Default::default(),
            is_cmp: Default::default(),
            is_fp: Default::default(),
            has_dst: Default::default(),
            is_mem: Default::default(),
            is_st: Default::default(),
            is_math: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            srd_tid: Default::default(),
            srd_lane: Default::default(),
            is_srd: Default::default(),
            is_swr: Default::default(),
            sreg_sel: Default::default(),
            sys: Default::default(),
            k_op_swr: k(op::SWR),
            k_sreg_tgid: k(sreg::TGID),
            k_sreg_emask: k(sreg::EMASK),
            k_sys_srd: k(1),
            k_sys_bad: k(2),
            illegal: Default::default(),
            not_yet: Default::default(),
            use_src0: Default::default(),
            use_src1: Default::default(),
            dec: Default::default(),
            exec_log2: Default::default(),
            pred_mode: Default::default(),
            op_ok: Default::default(),
            has_src0: Default::default(),
            has_src1: Default::default(),
            k_at: std::array::from_fn(|i| k(FIELDS[i].lsb as u64)),
            k_map_known: k128(op_map(&known)),
            k_map_slice: k128(op_map(&[slice_ops(), trap_ops()].concat())),
            k_map_dst: k128(op_map(&ops_with_dst())),
            k_map_src0: k128(op_map(&src0)),
            k_map_src1: k128(op_map(&src1)),
            k_map_math: k128(op_map(&[op::TANH_PRE, op::SIGMOID, op::TANH, op::MUL, op::MULH, op::I2F, op::F2I])),
            k_map_fp: k128(op_map(&[op::FADD, op::FSUB, op::FMUL, op::FMIN, op::FMAX, op::I2F])),
            k_at_fmt: k(field::FMT.lsb as u64),
            k_at_ftz: k(field::FTZ.lsb as u64),
            k_op_srd: k(op::SRD),
            k_sreg_tid: k(sreg::TID),
            k_sreg_lane: k(sreg::LANE),
            k_reserved: k128(RESERVED_MASK),
            k_above_imm: k128(above_imm),
            k_op_eot: k(op::EOT),
            k_exec: std::array::from_fn(|i| k(i as u64)),
            k_op_cmp: k(op::CMP),
            k_op_fcmp: k(op::FCMP),
            k_op_nop: k(op::NOP),
            k_op_ld: k(op::LD),
            k_op_st: k(op::ST),
            // control flow is op < MOV (and not NOP): the ISA's op ranges
            k_op_control_end: k(op::MOV),
            k_pred_f: k(pred::F),
            k_pred_not_f: k(pred::NOT_F),
            k_pred_reserved: k(pred::NOT_F + 1),
        }
    }
}

impl Logic for Decode {
    #[hdl_gen]
    fn update(&mut self) {
        // k_at order: OP CMOD PRED FLAG EXEC SRC1_IMM DST_REG SRC0_REG SRC1_REG IMM JIP (UIP =
        // JIP + 16)
        self.op.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[0].val());
        self.cmod.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[1].val());
        self.pred_mode.next = bit_cast::<2, 128>(self.instr.val() >> self.k_at[2].val());
        self.flag_sel.next = bit_cast::<1, 128>(self.instr.val() >> self.k_at[3].val()).any();
        self.exec_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[4].val());
        self.src1_imm.next = bit_cast::<1, 128>(self.instr.val() >> self.k_at[5].val()).any();
        self.dst_reg.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[6].val());
        self.src0_reg.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[7].val());
        self.src1_reg.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[8].val());
        self.imm.next = bit_cast::<32, 128>(self.instr.val() >> self.k_at[9].val());
        self.jip.next = bit_cast::<16, 128>(self.instr.val() >> self.k_at[10].val());
        self.uip.next = bit_cast::<16, 128>(self.instr.val() >> self.k_at[10].val() >> 16);
        // op classes
        self.is_control.next = (self.op.val() < self.k_op_control_end.val()) & (self.op.val() != self.k_op_nop.val());
        self.is_eot.next = self.op.val() == self.k_op_eot.val();
        self.is_cmp.next = (self.op.val() == self.k_op_cmp.val()) | (self.op.val() == self.k_op_fcmp.val());
        self.is_fp.next = bit_cast::<1, 128>(self.k_map_fp.val() >> bit_cast::<8, 7>(self.op.val())).any();
        self.has_dst.next = bit_cast::<1, 128>(self.k_map_dst.val() >> bit_cast::<8, 7>(self.op.val())).any();
        self.has_src0.next = bit_cast::<1, 128>(self.k_map_src0.val() >> bit_cast::<8, 7>(self.op.val())).any();
        self.has_src1.next = bit_cast::<1, 128>(self.k_map_src1.val() >> bit_cast::<8, 7>(self.op.val())).any();
        self.is_st.next = self.op.val() == self.k_op_st.val();
        self.is_mem.next = (self.op.val() == self.k_op_ld.val()) | self.is_st.val();
        self.is_math.next = bit_cast::<1, 128>(self.k_map_math.val() >> bit_cast::<8, 7>(self.op.val())).any();
        self.fmt.next = bit_cast::<2, 128>(self.instr.val() >> self.k_at_fmt.val());
        self.ftz.next = bit_cast::<1, 128>(self.instr.val() >> self.k_at_ftz.val()).any();
        // an op with one source takes the immediate in its place, except LD (its address offset)
        self.src0_imm.next = self.src1_imm.val() & self.has_src0.val() & !self.has_src1.val() & (self.op.val() != self.k_op_ld.val());
        // SRD names its special register in the src1 register field
        self.is_srd.next = self.op.val() == self.k_op_srd.val();
        self.srd_tid.next = self.is_srd.val() & (self.src1_reg.val() == self.k_sreg_tid.val());
        self.srd_lane.next = self.is_srd.val() & (self.src1_reg.val() == self.k_sreg_lane.val());
        self.op_ok.next = bit_cast::<1, 128>(self.k_map_slice.val() >> bit_cast::<8, 7>(self.op.val())).any();
        // SRD/SWR of the trap controller's registers (sreg 0-3 = its sr_sel), or a reserved one
        self.is_swr.next = self.op.val() == self.k_op_swr.val();
        self.sreg_sel.next = self.dst_reg.val();
        if self.is_srd.val() {
            self.sreg_sel.next = self.src1_reg.val();
        }
        self.sys.next = bit_cast::<4, 7>(self.sreg_sel.val()) << 2;
        if self.is_srd.val() & (self.sreg_sel.val() <= self.k_sreg_tgid.val()) {
            self.sys.next = (bit_cast::<4, 7>(self.sreg_sel.val()) << 2) | self.k_sys_srd.val();
        }
        if (self.is_srd.val() & (self.sreg_sel.val() > self.k_sreg_lane.val())) | (self.is_swr.val() & (self.sreg_sel.val() > self.k_sreg_emask.val())) {
            self.sys.next = (bit_cast::<4, 7>(self.sreg_sel.val()) << 2) | self.k_sys_bad.val();
        }
        self.bu_op.next = 0.into();
        if self.is_control.val() {
            self.bu_op.next = bit_cast::<5, 7>(self.op.val());
        }
        // exec size and predicate
        self.exec_lanes.next = 0xFF.into();
        if self.exec_log2.val() == self.k_exec[0].val() {
            self.exec_lanes.next = 0x01.into();
        }
        if self.exec_log2.val() == self.k_exec[1].val() {
            self.exec_lanes.next = 0x03.into();
        }
        if self.exec_log2.val() == self.k_exec[2].val() {
            self.exec_lanes.next = 0x0F.into();
        }
        self.flag_value.next = bit_cast::<8, 16>(self.flags.val());
        if self.flag_sel.val() {
            self.flag_value.next = bit_cast::<8, 16>(self.flags.val() >> 8);
        }
        self.pred_lanes.next = 0xFF.into();
        if self.pred_mode.val() == self.k_pred_f.val() {
            self.pred_lanes.next = self.flag_value.val();
        }
        if self.pred_mode.val() == self.k_pred_not_f.val() {
            self.pred_lanes.next = !self.flag_value.val();
        }
        // ISA decode errors: unknown op, nonzero reserved bits, reserved predicate mode
        self.illegal.next = !bit_cast::<1, 128>(self.k_map_known.val() >> bit_cast::<8, 7>(self.op.val())).any()
            | (self.instr.val() & self.k_reserved.val()).any()
            | (self.pred_mode.val() == self.k_pred_reserved.val())
            | (self.src1_imm.val() & (self.instr.val() & self.k_above_imm.val()).any());
        self.use_src0.next = self.has_src0.val() & !self.src0_imm.val();
        self.use_src1.next = self.has_src1.val() & !self.src1_imm.val();
        self.not_yet.next = !self.illegal.val() & !self.op_ok.val();
        // the S3 bundle
        self.dec.next.op = self.op.val();
        self.dec.next.cmod = self.cmod.val();
        self.dec.next.flag_sel = self.flag_sel.val();
        self.dec.next.flag_value = self.flag_value.val();
        self.dec.next.exec_lanes = self.exec_lanes.val();
        self.dec.next.pred_lanes = self.pred_lanes.val();
        self.dec.next.imm = self.imm.val();
        self.dec.next.src0_imm = self.src0_imm.val();
        self.dec.next.src1_imm = self.src1_imm.val();
        self.dec.next.dst_reg = self.dst_reg.val();
        self.dec.next.is_control = self.is_control.val();
        self.dec.next.is_eot = self.is_eot.val();
        self.dec.next.is_cmp = self.is_cmp.val();
        self.dec.next.has_dst = self.has_dst.val();
        self.dec.next.is_mem = self.is_mem.val();
        self.dec.next.is_st = self.is_st.val();
        self.dec.next.is_math = self.is_math.val();
        self.dec.next.fmt = self.fmt.val();
        self.dec.next.ftz = self.ftz.val();
        self.dec.next.srd_tid = self.srd_tid.val();
        self.dec.next.srd_lane = self.srd_lane.val();
        self.dec.next.illegal = self.illegal.val();
        self.dec.next.not_yet = self.not_yet.val();
        self.dec.next.sys = self.sys.val();
        self.dec.next.is_fp = self.is_fp.val();
    }
}
