//! A condition modifier's condition (docs/isa.md "Execution mask, predication and flags") from
//! the comparisons it can name: equal, less (signed or fp32), unsigned less (FCMP: unordered),
//! and whether the operands are unordered (an fp32 NaN: then only NE and ULT hold, as IEEE 754
//! says of every compare with a NaN). One block for the two places that evaluate it: CMP and
//! FCMP in each lane (src0 against src1, `lane.rs`) and a result's flags in writeback (the result
//! against 0, `wb_flags.rs`). Integer compares are never unordered: `unordered` = 0 gives the
//! integer conditions.

use super::enc::cmod;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Condition {
    /// The condition modifier (`enc::cmod`); NONE and reserved codes give 0.
    pub cmod: Signal<In, Bits<3>>,
    /// a == b.
    pub eq: Signal<In, Bit>,
    /// a < b, signed.
    pub lt: Signal<In, Bit>,
    /// a < b, unsigned (FCMP: unordered).
    pub ult: Signal<In, Bit>,
    /// a or b is an fp32 NaN: EQ, LT, LE, GT and GE do not hold, NE does.
    pub unordered: Signal<In, Bit>,
    /// The condition holds.
    pub holds: Signal<Out, Bit>,
    k_cmod_eq: Constant<Bits<3>>,
    k_cmod_ne: Constant<Bits<3>>,
    k_cmod_lt: Constant<Bits<3>>,
    k_cmod_le: Constant<Bits<3>>,
    k_cmod_gt: Constant<Bits<3>>,
    k_cmod_ge: Constant<Bits<3>>,
    k_cmod_ult: Constant<Bits<3>>,
}

impl Default for Condition {
    fn default() -> Self {
        Self {
            cmod: Default::default(),
            eq: Default::default(),
            lt: Default::default(),
            ult: Default::default(),
            unordered: Default::default(),
            holds: Default::default(),
            k_cmod_eq: Constant::new(cmod::EQ.into()),
            k_cmod_ne: Constant::new(cmod::NE.into()),
            k_cmod_lt: Constant::new(cmod::LT.into()),
            k_cmod_le: Constant::new(cmod::LE.into()),
            k_cmod_gt: Constant::new(cmod::GT.into()),
            k_cmod_ge: Constant::new(cmod::GE.into()),
            k_cmod_ult: Constant::new(cmod::ULT.into()),
        }
    }
}

impl Logic for Condition {
    #[hdl_gen]
    fn update(&mut self) {
        self.holds.next = false;
        if self.cmod.val() == self.k_cmod_eq.val() {
            self.holds.next = self.eq.val() & !self.unordered.val();
        }
        if self.cmod.val() == self.k_cmod_ne.val() {
            self.holds.next = !self.eq.val() | self.unordered.val();
        }
        if self.cmod.val() == self.k_cmod_lt.val() {
            self.holds.next = self.lt.val() & !self.unordered.val();
        }
        if self.cmod.val() == self.k_cmod_le.val() {
            self.holds.next = (self.lt.val() | self.eq.val()) & !self.unordered.val();
        }
        if self.cmod.val() == self.k_cmod_gt.val() {
            self.holds.next = !(self.lt.val() | self.eq.val() | self.unordered.val());
        }
        if self.cmod.val() == self.k_cmod_ge.val() {
            self.holds.next = !(self.lt.val() | self.unordered.val());
        }
        if self.cmod.val() == self.k_cmod_ult.val() {
            self.holds.next = self.ult.val();
        }
    }
}
