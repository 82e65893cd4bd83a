//! A condition modifier's condition (docs/isa.md "Execution mask, predication and flags") from
//! the three comparisons it can name: equal, signed less, unsigned less. One block for the two
//! places that evaluate it: CMP in each lane (src0 against src1, `lane.rs`) and a result's flags
//! in writeback (the result against 0, `wb_flags.rs`, where unsigned less never holds).

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
    /// a < b, unsigned.
    pub ult: Signal<In, Bit>,
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
            self.holds.next = self.eq.val();
        }
        if self.cmod.val() == self.k_cmod_ne.val() {
            self.holds.next = !self.eq.val();
        }
        if self.cmod.val() == self.k_cmod_lt.val() {
            self.holds.next = self.lt.val();
        }
        if self.cmod.val() == self.k_cmod_le.val() {
            self.holds.next = self.lt.val() | self.eq.val();
        }
        if self.cmod.val() == self.k_cmod_gt.val() {
            self.holds.next = !(self.lt.val() | self.eq.val());
        }
        if self.cmod.val() == self.k_cmod_ge.val() {
            self.holds.next = !self.lt.val();
        }
        if self.cmod.val() == self.k_cmod_ult.val() {
            self.holds.next = self.ult.val();
        }
    }
}
