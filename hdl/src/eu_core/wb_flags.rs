//! Stage S4, writeback: the condition-modifier flags of a result, computed from the registered
//! result (docs/isa.md "Execution mask, predication and flags": any ALU op with a cmod compares
//! its result with 0). Comparing with 0 needs no subtractor: equal is "all bits zero", signed
//! less is the sign bit, unsigned less never holds; an fp32 result (`fp`) is equal to 0 when its
//! magnitude bits are zero (−0 = +0), less when its sign is set on a non-zero non-NaN value, and
//! unordered (ULT) when it is a NaN. CMP's flags (src0 against src1) come from the
//! lanes in S3, which compare the operands and not the result, so that the execute stage's path
//! ends at the result register instead of running on through a compare into the flags.

use super::condition::Condition;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WbFlags {
    /// S4: the registered result, lane l at bits [32l, 32l+32).
    pub data: Signal<In, Bits<256>>,
    /// S4: the condition modifier.
    pub cmod: Signal<In, Bits<3>>,
    /// S4: the result is fp32 (`Decoded::is_fp`): compare it with 0 as fp32.
    pub fp: Signal<In, Bit>,
    /// S4: the op is CMP or FCMP: `cmp_flags` is the new flag value.
    pub is_cmp: Signal<In, Bit>,
    /// S4: CMP's new flag value from the lanes (S3).
    pub cmp_flags: Signal<In, Bits<8>>,
    /// S4: the named flag register as decode read it (lanes that do not run keep their bit).
    pub old_flags: Signal<In, Bits<8>>,
    /// S4: the lanes that ran (the execution mask).
    pub mask: Signal<In, Bits<8>>,
    /// The flag register's new value.
    pub flags: Signal<Out, Bits<8>>,
    word: Signal<Local, Bits<32>>,
    zero: Signal<Local, Bit>,
    neg: Signal<Local, Bit>,
    /// fp32: the magnitude is zero; the value is a NaN.
    zero_mag: Signal<Local, Bit>,
    nan: Signal<Local, Bit>,
    k_magnitude: Constant<Bits<32>>,
    k_exp_ones: Constant<Bits<8>>,
    /// Each lane's condition (its result against 0).
    conditions: [Condition; 8],
}

impl Default for WbFlags {
    fn default() -> Self {
        Self {
            data: Default::default(),
            cmod: Default::default(),
            is_cmp: Default::default(),
            cmp_flags: Default::default(),
            old_flags: Default::default(),
            mask: Default::default(),
            flags: Default::default(),
            word: Default::default(),
            zero: Default::default(),
            neg: Default::default(),
            fp: Default::default(),
            zero_mag: Default::default(),
            nan: Default::default(),
            k_magnitude: Constant::new(0x7FFF_FFFFu64.into()),
            k_exp_ones: Constant::new(0xFFu64.into()),
            conditions: Default::default(),
        }
    }
}

impl Logic for WbFlags {
    #[hdl_gen]
    fn update(&mut self) {
        self.flags.next = self.old_flags.val();
        for l in 0..8 {
            self.word.next = self.data.val().get_bits::<32>(32 * l);
            self.zero.next = !self.word.val().any();
            self.neg.next = self.word.val().get_bit(31);
            // against 0: equal is "all bits zero", less is the sign bit, unsigned less never holds
            self.conditions[l].cmod.next = self.cmod.val();
            self.conditions[l].eq.next = self.zero.val();
            self.conditions[l].lt.next = self.neg.val();
            self.conditions[l].ult.next = false;
            self.conditions[l].unordered.next = false;
            // fp32: −0 equals 0, a NaN is unordered
            self.zero_mag.next = !(self.word.val() & self.k_magnitude.val()).any();
            self.nan.next = (self.word.val().get_bits::<8>(23) == self.k_exp_ones.val()) & self.word.val().get_bits::<23>(0).any();
            if self.fp.val() {
                self.conditions[l].eq.next = self.zero_mag.val();
                self.conditions[l].lt.next = self.neg.val() & !self.zero_mag.val() & !self.nan.val();
                self.conditions[l].ult.next = self.nan.val();
                self.conditions[l].unordered.next = self.nan.val();
            }
            if self.mask.val().get_bit(l) {
                self.flags.next = self.flags.val().replace_bit(l, self.conditions[l].holds.val());
            }
        }
        if self.is_cmp.val() {
            self.flags.next = self.cmp_flags.val();
        }
    }
}
