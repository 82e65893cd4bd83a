//! The gated bank clocks of B1..B3 for GATE_STYLE = ICG (spec §6.4): three `CgCell`s, enabled by
//! en1..en3 or `rst` (so that reset still reaches the banks). The top instantiates it only for
//! ICG (a `Vec` of length 0 or 1: with CE its enable inputs would be unused ports) and clocks the
//! banks with the unit clock otherwise. The banks keep their hold logic, so both styles behave
//! the same.

use crate::prims::CgCell;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BankClocks {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Stage enables en1..en3 for the coming edge.
    pub en_s1: Signal<In, Bit>,
    pub en_s2: Signal<In, Bit>,
    pub en_s3: Signal<In, Bit>,
    /// Clocks of banks B1, B2, B3 (the lanes' and the control word's).
    pub clock_s1: Signal<Out, Clock>,
    pub clock_s2: Signal<Out, Clock>,
    pub clock_s3: Signal<Out, Clock>,
    cg: Vec<CgCell>,
}

impl Default for BankClocks {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en_s1: Default::default(),
            en_s2: Default::default(),
            en_s3: Default::default(),
            clock_s1: Default::default(),
            clock_s2: Default::default(),
            clock_s3: Default::default(),
            cg: (0..3).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for BankClocks {
    #[hdl_gen]
    fn update(&mut self) {
        for g in 0..3 {
            self.cg[g].clk.next = self.clk.val();
            self.cg[g].test_en.next = false;
        }
        self.cg[0].en.next = self.en_s1.val() | self.rst.val();
        self.cg[1].en.next = self.en_s2.val() | self.rst.val();
        self.cg[2].en.next = self.en_s3.val() | self.rst.val();
        self.clock_s1.next = self.cg[0].gclk.val();
        self.clock_s2.next = self.cg[1].gclk.val();
        self.clock_s3.next = self.cg[2].gclk.val();
    }
}
