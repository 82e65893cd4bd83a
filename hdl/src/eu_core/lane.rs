//! One integer ALU lane (combinational, in the execute stage): the slice's ops on 32 bits and
//! CMP's flag bit (the flags of a condition modifier on a result: `wb_flags`, in writeback). MUL
//! is not here since 2026-11-28: its three 16 x 16 products (4 DSPs per lane, used without their
//! registers) were the core's worst path on the ECP5 (the operand select → the DSP → the
//! product's adders → the result select → `execute.data_s4`, 23.3 ns); it goes to the math unit's
//! multiplier with MULH, like the other long ops, through the replay path (docs/isa.md "Operations", "Execution mask, predication and
//! flags").
//!
//! The lane shares its wide parts between ops (2026-11-28; it was 1 350 LUT4, 8 of them most of
//! the execute stage's 10 160): one adder (`AddSub`) for ADD, SUB and the compares of MIN, MAX
//! and CMP (signed and unsigned less from its carry), and one right shifter (`Shifter`) for SHR,
//! ASR and SHL (bit-reversed in and out) instead of three shifters and two separate compares.
//!
//! FMIN, FMAX and FCMP (fp32, docs/isa.md "Operations") use the same adder on the magnitudes
//! (the sign bits masked off): sign-magnitude order from |a| < |b| and the signs, −0 below +0
//! for FMIN/FMAX (IEEE 754-2019 minimumNumber/maximumNumber; a NaN operand gives the other,
//! two give the canonical NaN) and equal to +0 for FCMP, whose NaN operands are unordered.

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
    /// CMP's flag bit: the condition of src0 against src1 if the lane runs, else `flag_in`
    /// (valid for CMP only: the compares come from the adder, which other ops use as they need). (A
    /// condition modifier on a result is evaluated from the registered result in writeback,
    /// `wb_flags`, so that no compare follows the ALU in this stage.)
    pub flag_out: Signal<Out, Bit>,
    /// ADD, SUB and the compares.
    add_sub: AddSub,
    /// SHL, SHR, ASR.
    shifter: Shifter,
    eq: Signal<Local, Bit>,
    lt: Signal<Local, Bit>,
    ult: Signal<Local, Bit>,
    /// FMIN, FMAX or FCMP: the adder compares the magnitudes.
    fp: Signal<Local, Bit>,
    /// fp32: the magnitudes are equal; a and b are NaNs; both are zeros (of either sign).
    mag_eq: Signal<Local, Bit>,
    nan0: Signal<Local, Bit>,
    nan1: Signal<Local, Bit>,
    both_zero: Signal<Local, Bit>,
    /// fp32 order of non-NaN a and b with −0 below +0: a < b.
    order_lt: Signal<Local, Bit>,
    k_op_fmin: Constant<Bits<7>>,
    k_op_fmax: Constant<Bits<7>>,
    k_op_fcmp: Constant<Bits<7>>,
    k_magnitude: Constant<Bits<32>>,
    k_exp_ones: Constant<Bits<8>>,
    /// The ISA's canonical quiet NaN (docs/isa.md).
    k_canonical_nan: Constant<Bits<32>>,
    /// CMP's condition from eq / lt / ult.
    condition: Condition,
    k_op_mov: Constant<Bits<7>>,
    k_op_add: Constant<Bits<7>>,
    k_op_sub: Constant<Bits<7>>,
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
            add_sub: Default::default(),
            shifter: Default::default(),
            eq: Default::default(),
            lt: Default::default(),
            ult: Default::default(),
            fp: Default::default(),
            mag_eq: Default::default(),
            nan0: Default::default(),
            nan1: Default::default(),
            both_zero: Default::default(),
            order_lt: Default::default(),
            k_op_fmin: k7(op::FMIN),
            k_op_fmax: k7(op::FMAX),
            k_op_fcmp: k7(op::FCMP),
            k_magnitude: Constant::new(0x7FFF_FFFFu64.into()),
            k_exp_ones: Constant::new(0xFFu64.into()),
            k_canonical_nan: Constant::new(0x7FC0_0000u64.into()),
            condition: Default::default(),
            k_op_mov: k7(op::MOV),
            k_op_add: k7(op::ADD),
            k_op_sub: k7(op::SUB),
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
        // one adder: a + b for ADD, a - b for every other op (SUB, and the compares of MIN, MAX
        // and CMP from its carry; of FMIN, FMAX and FCMP on the magnitudes)
        // (the adder's inputs straight from the ports, no Local between: Verilator splits this
        // block's assignments only so, and the block also reads the adder's outputs)
        self.add_sub.a.next = self.src0.val();
        self.add_sub.b.next = self.src1.val();
        self.add_sub.subtract.next = self.op.val() != self.k_op_add.val();
        self.add_sub.magnitudes.next = (self.op.val() == self.k_op_fmin.val()) | (self.op.val() == self.k_op_fmax.val()) | (self.op.val() == self.k_op_fcmp.val());
        self.fp.next = (self.op.val() == self.k_op_fmin.val()) | (self.op.val() == self.k_op_fmax.val()) | (self.op.val() == self.k_op_fcmp.val());
        // one shifter: src0 by src1 & 31, left for SHL, sign-filling for ASR
        self.shifter.value.next = self.src0.val();
        self.shifter.amount.next = self.src1.val().get_bits::<5>(0);
        self.shifter.left.next = self.op.val() == self.k_op_shl.val();
        self.shifter.arithmetic.next = self.op.val() == self.k_op_asr.val();
        // a < b: unsigned, there is no carry out of a - b; signed, the same when the signs agree,
        // else a is the negative one
        self.ult.next = !self.add_sub.carry.val();
        self.lt.next = self.ult.val();
        if self.src0.val().get_bit(31) != self.src1.val().get_bit(31) {
            self.lt.next = self.src0.val().get_bit(31);
        }
        self.eq.next = self.src0.val() == self.src1.val();
        // fp32: the order of sign and magnitude (both negative: the larger magnitude is less)
        self.mag_eq.next = (self.src0.val() & self.k_magnitude.val()) == (self.src1.val() & self.k_magnitude.val());
        self.nan0.next = (self.src0.val().get_bits::<8>(23) == self.k_exp_ones.val()) & self.src0.val().get_bits::<23>(0).any();
        self.nan1.next = (self.src1.val().get_bits::<8>(23) == self.k_exp_ones.val()) & self.src1.val().get_bits::<23>(0).any();
        self.both_zero.next = !((self.src0.val() | self.src1.val()) & self.k_magnitude.val()).any();
        self.order_lt.next = (self.src0.val().get_bit(31) & !self.src1.val().get_bit(31))
            | (!self.src0.val().get_bit(31) & !self.src1.val().get_bit(31) & self.ult.val())
            | (self.src0.val().get_bit(31) & self.src1.val().get_bit(31) & !self.ult.val() & !self.mag_eq.val());
        self.result.next = 0.into();
        if self.op.val() == self.k_op_mov.val() {
            self.result.next = self.src0.val();
        }
        if (self.op.val() == self.k_op_add.val()) | (self.op.val() == self.k_op_sub.val()) {
            self.result.next = self.add_sub.sum.val();
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
        if (self.op.val() == self.k_op_shl.val()) | (self.op.val() == self.k_op_shr.val()) | (self.op.val() == self.k_op_asr.val()) {
            self.result.next = self.shifter.q.val();
        }
        if self.op.val() == self.k_op_min.val() {
            self.result.next = self.src1.val();
            if self.lt.val() {
                self.result.next = self.src0.val();
            }
        }
        if self.op.val() == self.k_op_max.val() {
            self.result.next = self.src0.val();
            if self.lt.val() {
                self.result.next = self.src1.val();
            }
        }
        if self.op.val() == self.k_op_fmin.val() {
            self.result.next = self.src1.val();
            if self.order_lt.val() {
                self.result.next = self.src0.val();
            }
        }
        if self.op.val() == self.k_op_fmax.val() {
            self.result.next = self.src0.val();
            if self.order_lt.val() {
                self.result.next = self.src1.val();
            }
        }
        // a NaN operand gives the other one, two give the canonical NaN
        if (self.op.val() == self.k_op_fmin.val()) | (self.op.val() == self.k_op_fmax.val()) {
            if self.nan0.val() {
                self.result.next = self.src1.val();
            }
            if self.nan1.val() {
                self.result.next = self.src0.val();
            }
            if self.nan0.val() & self.nan1.val() {
                self.result.next = self.k_canonical_nan.val();
            }
        }
        if self.op.val() == self.k_op_sel.val() {
            self.result.next = self.src1.val();
            if self.flag_in.val() {
                self.result.next = self.src0.val();
            }
        }
        // CMP's condition: src0 against src1 (signed; ULT unsigned); FCMP's as fp32 (−0 = +0,
        // ULT: unordered)
        self.condition.cmod.next = self.cmod.val();
        self.condition.eq.next = self.eq.val();
        self.condition.lt.next = self.lt.val();
        self.condition.ult.next = self.ult.val();
        self.condition.unordered.next = false;
        if self.fp.val() {
            self.condition.eq.next = self.eq.val() | self.both_zero.val();
            self.condition.lt.next = self.order_lt.val() & !self.both_zero.val();
            self.condition.ult.next = self.nan0.val() | self.nan1.val();
            self.condition.unordered.next = self.nan0.val() | self.nan1.val();
        }
        self.flag_out.next = self.flag_in.val();
        if self.run.val() {
            self.flag_out.next = self.condition.holds.val();
        }
    }
}

/// `a + b`, or `a - b` as `a + !b + 1`, on one carry chain: the operands go in one bit wider
/// with the carry-in as their low bit (so yosys sees one adder, not an adder and an increment).
#[derive(LogicBlock)]
pub struct AddSub {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// Subtract: `sum` = a - b.
    pub subtract: Signal<In, Bit>,
    /// Take a and b without their sign bits (fp32 magnitudes: `carry` then says |a| >= |b|).
    pub magnitudes: Signal<In, Bit>,
    /// a + b or a - b, modulo 2^32.
    pub sum: Signal<Out, Bits<32>>,
    /// The carry out of bit 31 (subtracting: a >= b unsigned).
    pub carry: Signal<Out, Bit>,
    wide_a: Signal<Local, Bits<34>>,
    wide_b: Signal<Local, Bits<34>>,
    a_in: Signal<Local, Bits<32>>,
    b_in: Signal<Local, Bits<32>>,
    b_inverted: Signal<Local, Bits<32>>,
    k_magnitude: Constant<Bits<32>>,
    wide_sum: Signal<Local, Bits<34>>,
    k_carry_in: Constant<Bits<34>>,
}

impl Default for AddSub {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            subtract: Default::default(),
            magnitudes: Default::default(),
            a_in: Default::default(),
            b_in: Default::default(),
            k_magnitude: Constant::new(0x7FFF_FFFFu64.into()),
            sum: Default::default(),
            carry: Default::default(),
            wide_a: Default::default(),
            wide_b: Default::default(),
            b_inverted: Default::default(),
            wide_sum: Default::default(),
            k_carry_in: Constant::new(1u64.into()),
        }
    }
}

impl Logic for AddSub {
    #[hdl_gen]
    fn update(&mut self) {
        // inverted at 32 bits first: inside the widening, Verilog would invert the two zero bits
        // the widening adds as well
        self.a_in.next = self.a.val();
        self.b_in.next = self.b.val();
        if self.magnitudes.val() {
            self.a_in.next = self.a.val() & self.k_magnitude.val();
            self.b_in.next = self.b.val() & self.k_magnitude.val();
        }
        self.b_inverted.next = !self.b_in.val();
        self.wide_a.next = bit_cast::<34, 32>(self.a_in.val()) << 1;
        self.wide_b.next = bit_cast::<34, 32>(self.b_in.val()) << 1;
        if self.subtract.val() {
            self.wide_a.next = (bit_cast::<34, 32>(self.a_in.val()) << 1) | self.k_carry_in.val();
            self.wide_b.next = (bit_cast::<34, 32>(self.b_inverted.val()) << 1) | self.k_carry_in.val();
        }
        self.wide_sum.next = self.wide_a.val() + self.wide_b.val();
        self.sum.next = self.wide_sum.val().get_bits::<32>(1);
        self.carry.next = self.wide_sum.val().get_bit(33);
    }
}

/// `value` shifted by `amount`: right (zero- or sign-filling) or left, with one right shifter —
/// a left shift is the right shift of the bit-reversed value, reversed back.
#[derive(LogicBlock)]
pub struct Shifter {
    /// The value shifted.
    pub value: Signal<In, Bits<32>>,
    /// Bits shifted (0..31).
    pub amount: Signal<In, Bits<5>>,
    /// Shift left (else right).
    pub left: Signal<In, Bit>,
    /// Right shift filling with the sign bit (ignored for a left shift).
    pub arithmetic: Signal<In, Bit>,
    /// The shifted value.
    pub q: Signal<Out, Bits<32>>,
    one_bit: Signal<Local, Bits<1>>,
    reversed: Signal<Local, Bits<32>>,
    operand: Signal<Local, Bits<64>>,
    shifted: Signal<Local, Bits<32>>,
    reversed_back: Signal<Local, Bits<32>>,
    k_sign_fill: Constant<Bits<64>>,
}

impl Default for Shifter {
    fn default() -> Self {
        Self {
            value: Default::default(),
            amount: Default::default(),
            left: Default::default(),
            arithmetic: Default::default(),
            q: Default::default(),
            one_bit: Default::default(),
            reversed: Default::default(),
            operand: Default::default(),
            shifted: Default::default(),
            reversed_back: Default::default(),
            k_sign_fill: Constant::new(0xFFFF_FFFF_0000_0000u64.into()),
        }
    }
}

impl Logic for Shifter {
    #[hdl_gen]
    fn update(&mut self) {
        // bit k of value to bit 31 - k, shifted in from the bottom
        self.reversed.next = 0.into();
        for k in 0..32 {
            self.one_bit.next = self.value.val().get_bits::<1>(k);
            self.reversed.next = (self.reversed.val() << 1) | bit_cast::<32, 1>(self.one_bit.val());
        }
        // the operand with its fill above it: 32 sign bits for ASR, zeros otherwise
        self.operand.next = bit_cast::<64, 32>(self.value.val());
        if self.left.val() {
            self.operand.next = bit_cast::<64, 32>(self.reversed.val());
        }
        if self.arithmetic.val() & !self.left.val() & self.value.val().get_bit(31) {
            self.operand.next = bit_cast::<64, 32>(self.value.val()) | self.k_sign_fill.val();
        }
        self.shifted.next = bit_cast::<32, 64>(self.operand.val() >> self.amount.val());
        self.reversed_back.next = 0.into();
        for k in 0..32 {
            self.one_bit.next = self.shifted.val().get_bits::<1>(k);
            self.reversed_back.next = (self.reversed_back.val() << 1) | bit_cast::<32, 1>(self.one_bit.val());
        }
        self.q.next = self.shifted.val();
        if self.left.val() {
            self.q.next = self.reversed_back.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use crate::eu_core::enc::cmod;

    /// docs/isa.md's integer ops on 32 bits.
    fn reference(o: u64, a: u32, b: u32, flag: bool) -> u32 {
        let (sa, sb) = (a as i32, b as i32);
        match o {
            op::MOV => a,
            op::ADD => a.wrapping_add(b),
            op::SUB => a.wrapping_sub(b),
            op::AND => a & b,
            op::OR => a | b,
            op::XOR => a ^ b,
            op::NOT => !a,
            op::SHL => a << (b & 31),
            op::SHR => a >> (b & 31),
            op::ASR => (sa >> (b & 31)) as u32,
            op::MIN => sa.min(sb) as u32,
            op::MAX => sa.max(sb) as u32,
            op::SEL => if flag { a } else { b },
            _ => unreachable!(),
        }
    }

    /// docs/isa.md's condition of a against b.
    fn condition(c: u64, a: u32, b: u32) -> bool {
        let (sa, sb) = (a as i32, b as i32);
        match c {
            cmod::EQ => a == b,
            cmod::NE => a != b,
            cmod::LT => sa < sb,
            cmod::LE => sa <= sb,
            cmod::GT => sa > sb,
            cmod::GE => sa >= sb,
            cmod::ULT => a < b,
            _ => false,
        }
    }

    #[test]
    fn lane_ops_and_compares_match_the_isa() {
        let ops = [
            op::MOV, op::ADD, op::SUB, op::AND, op::OR, op::XOR, op::NOT, op::SHL, op::SHR, op::ASR, op::MIN,
            op::MAX, op::SEL,
        ];
        let edges = [0u32, 1, 2, 31, 32, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1234_5678];
        let mut lane = AluLane::default();
        lane.connect_all();
        let mut rng = StdRng::seed_from_u64(0x2545_f491);
        let mut next = move || rng.gen::<u32>();
        let mut pairs: Vec<(u32, u32)> = edges.iter().flat_map(|&a| edges.iter().map(move |&b| (a, b))).collect();
        pairs.extend((0..400).map(|_| (next(), next())));
        pairs.extend((0..100).map(|_| (next(), next() & 31)));
        for (k, &(a, b)) in pairs.iter().enumerate() {
            let flag = k % 3 == 0;
            let c = (k % 8) as u64;
            for &o in ops.iter().chain([op::CMP].iter()) {
                lane.op.next = o.into();
                lane.cmod.next = c.into();
                lane.run.next = k % 5 != 0;
                lane.flag_in.next = flag;
                lane.src0.next = (a as u64).into();
                lane.src1.next = (b as u64).into();
                assert!(simulate(&mut lane, 100));
                if o == op::CMP {
                    let want = if k % 5 != 0 { condition(c, a, b) } else { flag };
                    assert_eq!(lane.flag_out.val(), want, "CMP cmod {c} a {a:#x} b {b:#x} run {}", k % 5 != 0);
                } else {
                    assert_eq!(lane.result.val().index() as u32, reference(o, a, b, flag), "op {o:#x} a {a:#x} b {b:#x}");
                }
            }
        }
    }
}

#[cfg(test)]
mod fp_tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use crate::eu_core::enc::cmod;
    use std::cmp::Ordering;

    /// docs/isa.md "Operations", written directly: FMIN/FMAX are minimumNumber/maximumNumber
    /// (`f32::total_cmp` is IEEE 754's total order, which puts −0 below +0; a NaN operand gives the
    /// other, two give 0x7FC00000); FCMP compares as IEEE 754 does (−0 = +0, a NaN unordered).
    fn want_min_max(a: u32, b: u32, max: bool) -> u32 {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        match (x.is_nan(), y.is_nan()) {
            (true, true) => 0x7FC0_0000,
            (true, false) => b,
            (false, true) => a,
            _ => match (x.total_cmp(&y), max) {
                (Ordering::Less, false) | (Ordering::Greater, true) => a,
                _ => b,
            },
        }
    }

    fn want_fcmp(c: u64, a: u32, b: u32) -> bool {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        match c {
            cmod::EQ => x == y,
            cmod::NE => x != y,
            cmod::LT => x < y,
            cmod::LE => x <= y,
            cmod::GT => x > y,
            cmod::GE => x >= y,
            cmod::ULT => x.is_nan() || y.is_nan(),
            _ => false,
        }
    }

    /// Zeros, ones, subnormals, the normal and finite ends, infinities and quiet / signalling
    /// NaNs of both signs, then xorshift-random words and random pairs of one exponent.
    fn operand_pairs() -> Vec<(u32, u32)> {
        let mut special = vec![0, 1, 0x007F_FFFF, 0x0080_0000, 0x3F80_0000, 0x3F80_0001, 0x4000_0000, 0x7F7F_FFFF, 0x7F80_0000, 0x7FC0_0000, 0x7F80_0001, 0x7FFF_FFFF];
        special.extend(special.clone().iter().map(|s| s | 0x8000_0000));
        let mut v: Vec<(u32, u32)> = special.iter().flat_map(|&a| special.iter().map(move |&b| (a, b))).collect();
        let mut rng = StdRng::seed_from_u64(0x2545_F491);
        let mut next = || rng.gen::<u32>();
        for _ in 0..3000 {
            let (a, b) = (next(), next());
            v.push((a, b));
            v.push((a, (a & 0xFF80_0000) | (b & 0x007F_FFFF)));
            v.push((a, a ^ 0x8000_0000));
        }
        v
    }

    #[test]
    fn lane_fp_min_max_and_compare_match_the_isa_definitions() {
        let mut uut = AluLane::default();
        uut.connect_all();
        uut.run.next = true;
        uut.flag_in.next = false;
        let (mut checked, mut nan_pairs, mut zero_pairs) = (0, 0, 0);
        for (a, b) in operand_pairs() {
            uut.src0.next = (a as u64).to_bits();
            uut.src1.next = (b as u64).to_bits();
            for (o, max) in [(op::FMIN, false), (op::FMAX, true)] {
                uut.op.next = o.to_bits();
                uut.cmod.next = cmod::NONE.to_bits();
                assert!(simulate(&mut uut, 100));
                let got = uut.result.val().index() as u32;
                assert_eq!(got, want_min_max(a, b, max), "{} of {a:#010x}, {b:#010x}", if max { "FMAX" } else { "FMIN" });
                checked += 1;
            }
            uut.op.next = op::FCMP.to_bits();
            for c in [cmod::EQ, cmod::NE, cmod::LT, cmod::LE, cmod::GT, cmod::GE, cmod::ULT] {
                uut.cmod.next = c.to_bits();
                assert!(simulate(&mut uut, 100));
                assert_eq!(uut.flag_out.val(), want_fcmp(c, a, b), "FCMP cmod {c} of {a:#010x}, {b:#010x}");
                checked += 1;
            }
            nan_pairs += (f32::from_bits(a).is_nan() || f32::from_bits(b).is_nan()) as u32;
            zero_pairs += (a << 1 == 0 && b << 1 == 0) as u32;
        }
        assert!(checked > 80_000 && nan_pairs > 200 && zero_pairs >= 4, "{checked} checks, {nan_pairs} NaN pairs, {zero_pairs} zero pairs");
    }
}
