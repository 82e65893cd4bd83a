//! The control word's banks cx1..cx3 (spec §2.5: "+ cxw" of B1..B3): loaded with the lanes'
//! banks, on the same bank clocks and enables, so the control word reaches S4 with its slot.

use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ControlBank {
    /// Bank clocks of B1, B2, B3 (the same `clk` unless GATE_STYLE = ICG).
    pub clock_s1: Signal<In, Clock>,
    pub clock_s2: Signal<In, Clock>,
    pub clock_s3: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Stage enables en1..en3.
    pub en_s1: Signal<In, Bit>,
    pub en_s2: Signal<In, Bit>,
    pub en_s3: Signal<In, Bit>,
    /// The decoded control word of the issuing slot.
    pub word: Signal<In, Bits<13>>,
    /// The control word of the slot in S4.
    pub word_s3: Signal<Out, Bits<13>>,
    cx1: RDff<Bits<13>>,
    cx2: RDff<Bits<13>>,
    cx3: RDff<Bits<13>>,
}

impl Logic for ControlBank {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock_s1, cx1);
        clock!(self, clock_s2, cx2);
        clock!(self, clock_s3, cx3);
        self.cx1.rst.next = self.rst.val();
        self.cx2.rst.next = self.rst.val();
        self.cx3.rst.next = self.rst.val();
        self.cx1.d.next = self.cx1.q.val();
        self.cx2.d.next = self.cx2.q.val();
        self.cx3.d.next = self.cx3.q.val();
        if self.en_s1.val() {
            self.cx1.d.next = self.word.val();
        }
        if self.en_s2.val() {
            self.cx2.d.next = self.cx1.q.val();
        }
        if self.en_s3.val() {
            self.cx3.d.next = self.cx2.q.val();
        }
        self.word_s3.next = self.cx3.q.val();
    }
}
