//! The bank clocks of B1..B3 (spec §6.4, GATE_STYLE): the unit clock for GATE_STYLE = CE; for
//! ICG the gated clocks of three `CgCell`s, enabled by en1..en3 or `rst` (so that reset still
//! reaches the banks). The banks keep their hold logic, so both styles behave the same.

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
    /// 1 for GATE_STYLE = ICG, 0 for CE
    _icg: usize,
    cg: Vec<CgCell>,
}

impl BankClocks {
    pub fn new(icg: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en_s1: Default::default(),
            en_s2: Default::default(),
            en_s3: Default::default(),
            clock_s1: Default::default(),
            clock_s2: Default::default(),
            clock_s3: Default::default(),
            _icg: icg as usize,
            cg: (0..3 * icg as usize).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for BankClocks {
    #[hdl_gen]
    fn update(&mut self) {
        self.clock_s1.next = self.clk.val();
        self.clock_s2.next = self.clk.val();
        self.clock_s3.next = self.clk.val();
        for g in 0..self._icg {
            self.cg[g].clk.next = self.clk.val();
            self.cg[g].en.next = self.en_s1.val() | self.rst.val();
            self.cg[g].test_en.next = false;
            self.cg[g + 1].clk.next = self.clk.val();
            self.cg[g + 1].en.next = self.en_s2.val() | self.rst.val();
            self.cg[g + 1].test_en.next = false;
            self.cg[g + 2].clk.next = self.clk.val();
            self.cg[g + 2].en.next = self.en_s3.val() | self.rst.val();
            self.cg[g + 2].test_en.next = false;
            self.clock_s1.next = self.cg[g].gclk.val();
            self.clock_s2.next = self.cg[g + 1].gclk.val();
            self.clock_s3.next = self.cg[g + 2].gclk.val();
        }
    }
}
