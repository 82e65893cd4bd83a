//! One integer ALU lane (combinational, in the execute stage): the slice's ops on 32 bits and
//! CMP's flag bit (the flags of a condition modifier on a result: `wb_flags`, in writeback). MUL is combinational here (three 16 x 16 products, DSPs on ECP5); the
//! pipelined long-op path (MULH, fp, math) is the next slice (docs/isa.md "Operations", "Execution mask, predication and flags").

use super::condition::Condition;
use super::enc::op;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AluLane {
    pub op: Signal<In, Bits<7>>,
    pub cmod: Signal<In, Bits<3>>,
    /// The lane runs (execution mask, exec size, predicate): else its flag bit is kept.
    pub run: Signal<In, Bit>,
    pub src0: Signal<In, Bits<32>>,
    pub src1: Signal<In, Bits<32>>,
    /// The lane's bit of the named flag register (SEL reads it; kept when the lane does not run).
    pub flag_in: Signal<In, Bit>,
    pub result: Signal<Out, Bits<32>>,
    /// CMP's flag bit: the condition of src0 against src1 if the lane runs, else `flag_in`. (A
    /// condition modifier on a result is evaluated from the registered result in writeback,
    /// `wb_flags`, so that no compare follows the ALU in this stage.)
    pub flag_out: Signal<Out, Bit>,
    shamt: Signal<Local, Bits<32>>,
    /// MUL's low 32 bits from three 16 x 16 products: lo*lo + ((lo*hi + hi*lo) << 16).
    product_ll: Signal<Local, Bits<32>>,
    product_cross: Signal<Local, Bits<32>>,
    less_ab: Signal<Local, Bit>,
    eq: Signal<Local, Bit>,
    lt: Signal<Local, Bit>,
    ult: Signal<Local, Bit>,
    /// CMP's condition from eq / lt / ult.
    condition: Condition,
    k_sign: Constant<Bits<32>>,
    k_ones: Constant<Bits<32>>,
    k_shift_mask: Constant<Bits<32>>,
    k_op_mov: Constant<Bits<7>>,
    k_op_add: Constant<Bits<7>>,
    k_op_sub: Constant<Bits<7>>,
    k_op_mul: Constant<Bits<7>>,
    k_op_and: Constant<Bits<7>>,
    k_op_or: Constant<Bits<7>>,
    k_op_xor: Constant<Bits<7>>,
    k_op_not: Constant<Bits<7>>,
    k_op_shl: Constant<Bits<7>>,
    k_op_shr: Constant<Bits<7>>,
    k_op_asr: Constant<Bits<7>>,
    k_op_min: Constant<Bits<7>>,
    k_op_max: Constant<Bits<7>>,
    k_op_sel: Constant<Bits<7>>,
}

impl Default for AluLane {
    fn default() -> Self {
        let k7 = |v: u64| Constant::new(v.into());
        Self {
            op: Default::default(),
            cmod: Default::default(),
            run: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            flag_in: Default::default(),
            result: Default::default(),
            flag_out: Default::default(),
            shamt: Default::default(),
            product_ll: Default::default(),
            product_cross: Default::default(),
            less_ab: Default::default(),
            eq: Default::default(),
            lt: Default::default(),
            ult: Default::default(),
            condition: Default::default(),
            k_sign: Constant::new(0x8000_0000u64.into()),
            k_ones: Constant::new(0xFFFF_FFFFu64.into()),
            k_shift_mask: Constant::new(31u64.into()),
            k_op_mov: k7(op::MOV),
            k_op_add: k7(op::ADD),
            k_op_sub: k7(op::SUB),
            k_op_mul: k7(op::MUL),
            k_op_and: k7(op::AND),
            k_op_or: k7(op::OR),
            k_op_xor: k7(op::XOR),
            k_op_not: k7(op::NOT),
            k_op_shl: k7(op::SHL),
            k_op_shr: k7(op::SHR),
            k_op_asr: k7(op::ASR),
            k_op_min: k7(op::MIN),
            k_op_max: k7(op::MAX),
            k_op_sel: k7(op::SEL),
        }
    }
}

impl Logic for AluLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.shamt.next = self.src1.val() & self.k_shift_mask.val();
        // signed a < b: unsigned compare with the sign bits flipped
        self.less_ab.next = (self.src0.val() ^ self.k_sign.val()) < (self.src1.val() ^ self.k_sign.val());
        self.result.next = 0.into();
        if self.op.val() == self.k_op_mov.val() {
            self.result.next = self.src0.val();
        }
        if self.op.val() == self.k_op_add.val() {
            self.result.next = self.src0.val() + self.src1.val();
        }
        if self.op.val() == self.k_op_sub.val() {
            self.result.next = self.src0.val() - self.src1.val();
        }
        self.product_ll.next = self.src0.val().get_bits::<16>(0) * self.src1.val().get_bits::<16>(0);
        self.product_cross.next = (self.src0.val().get_bits::<16>(0) * self.src1.val().get_bits::<16>(16))
            + (self.src0.val().get_bits::<16>(16) * self.src1.val().get_bits::<16>(0));
        if self.op.val() == self.k_op_mul.val() {
            self.result.next = self.product_ll.val() + (self.product_cross.val() << 16);
        }
        if self.op.val() == self.k_op_and.val() {
            self.result.next = self.src0.val() & self.src1.val();
        }
        if self.op.val() == self.k_op_or.val() {
            self.result.next = self.src0.val() | self.src1.val();
        }
        if self.op.val() == self.k_op_xor.val() {
            self.result.next = self.src0.val() ^ self.src1.val();
        }
        if self.op.val() == self.k_op_not.val() {
            self.result.next = !self.src0.val();
        }
        if self.op.val() == self.k_op_shl.val() {
            self.result.next = self.src0.val() << self.shamt.val();
        }
        if self.op.val() == self.k_op_shr.val() {
            self.result.next = self.src0.val() >> self.shamt.val();
        }
        if self.op.val() == self.k_op_asr.val() {
            self.result.next = self.src0.val() >> self.shamt.val();
            if self.src0.val().get_bit(31) {
                self.result.next = (self.src0.val() >> self.shamt.val()) | !(self.k_ones.val() >> self.shamt.val());
            }
        }
        if self.op.val() == self.k_op_min.val() {
            self.result.next = self.src1.val();
            if self.less_ab.val() {
                self.result.next = self.src0.val();
            }
        }
        if self.op.val() == self.k_op_max.val() {
            self.result.next = self.src0.val();
            if self.less_ab.val() {
                self.result.next = self.src1.val();
            }
        }
        if self.op.val() == self.k_op_sel.val() {
            self.result.next = self.src1.val();
            if self.flag_in.val() {
                self.result.next = self.src0.val();
            }
        }
        // CMP's condition: src0 against src1 (signed; ULT unsigned)
        self.eq.next = self.src0.val() == self.src1.val();
        self.ult.next = self.src0.val() < self.src1.val();
        self.lt.next = self.less_ab.val();
        self.condition.cmod.next = self.cmod.val();
        self.condition.eq.next = self.eq.val();
        self.condition.lt.next = self.lt.val();
        self.condition.ult.next = self.ult.val();
        self.flag_out.next = self.flag_in.val();
        if self.run.val() {
            self.flag_out.next = self.condition.holds.val();
        }
    }
}
