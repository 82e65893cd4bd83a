//! Stage S4, writeback: the condition-modifier flags of a result, computed from the registered
//! result (docs/isa.md "Execution mask, predication and flags": any ALU op with a cmod compares
//! its result with 0). Comparing with 0 needs no subtractor: equal is "all bits zero", signed
//! less is the sign bit, unsigned less never holds. CMP's flags (src0 against src1) come from the
//! lanes in S3, which compare the operands and not the result, so that the execute stage's path
//! ends at the result register instead of running on through a compare into the flags.

use super::enc::cmod;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WbFlags {
    /// S4: the registered result, lane l at bits [32l, 32l+32).
    pub data: Signal<In, Bits<256>>,
    /// S4: the condition modifier.
    pub cmod: Signal<In, Bits<3>>,
    /// S4: the op is CMP: `cmp_flags` is the new flag value.
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
    cond: Signal<Local, Bit>,
    k_cmod_eq: Constant<Bits<3>>,
    k_cmod_ne: Constant<Bits<3>>,
    k_cmod_lt: Constant<Bits<3>>,
    k_cmod_le: Constant<Bits<3>>,
    k_cmod_gt: Constant<Bits<3>>,
    k_cmod_ge: Constant<Bits<3>>,
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
            cond: Default::default(),
            k_cmod_eq: Constant::new(cmod::EQ.into()),
            k_cmod_ne: Constant::new(cmod::NE.into()),
            k_cmod_lt: Constant::new(cmod::LT.into()),
            k_cmod_le: Constant::new(cmod::LE.into()),
            k_cmod_gt: Constant::new(cmod::GT.into()),
            k_cmod_ge: Constant::new(cmod::GE.into()),
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
            // ULT against 0 never holds: cond stays 0
            self.cond.next = false;
            if self.cmod.val() == self.k_cmod_eq.val() {
                self.cond.next = self.zero.val();
            }
            if self.cmod.val() == self.k_cmod_ne.val() {
                self.cond.next = !self.zero.val();
            }
            if self.cmod.val() == self.k_cmod_lt.val() {
                self.cond.next = self.neg.val();
            }
            if self.cmod.val() == self.k_cmod_le.val() {
                self.cond.next = self.neg.val() | self.zero.val();
            }
            if self.cmod.val() == self.k_cmod_gt.val() {
                self.cond.next = !(self.neg.val() | self.zero.val());
            }
            if self.cmod.val() == self.k_cmod_ge.val() {
                self.cond.next = !self.neg.val();
            }
            if self.mask.val().get_bit(l) {
                self.flags.next = self.flags.val().replace_bit(l, self.cond.val());
            }
        }
        if self.is_cmp.val() {
            self.flags.next = self.cmp_flags.val();
        }
    }
}
