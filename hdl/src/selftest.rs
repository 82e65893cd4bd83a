//! A tiny design used only to test the co-simulation harness itself (port packing for 1..=64 and
//! wide ports, clocking, reset, waveform dump on mismatch). Not emitted by `eu-gen`.

use crate::emit::{emit_module, EmitError, EmittedModule};
use rust_hdl::prelude::*;

/// `sum <= a + b` (33 bits) and `wide_q <= wide_d ^ {3{a}}` one cycle after `ce`; `rst` clears both.
#[derive(LogicBlock, Default)]
pub struct SelfTest {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub ce: Signal<In, Bit>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub wide_d: Signal<In, Bits<96>>,
    pub sum: Signal<Out, Bits<33>>,
    pub wide_q: Signal<Out, Bits<96>>,
    pub nibble: Signal<Out, Bits<4>>,
    sum_r: DFF<Bits<33>>,
    wide_r: DFF<Bits<96>>,
}

impl Logic for SelfTest {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, sum_r, wide_r);
        if self.ce.val() {
            self.sum_r.d.next = bit_cast::<33, 32>(self.a.val()) + bit_cast::<33, 32>(self.b.val());
            self.wide_r.d.next = self.wide_d.val()
                ^ (bit_cast::<96, 32>(self.a.val())
                    | (bit_cast::<96, 32>(self.a.val()) << 32)
                    | (bit_cast::<96, 32>(self.a.val()) << 64));
        }
        if self.rst.val() {
            self.sum_r.d.next = 0.into();
            self.wide_r.d.next = 0.into();
        }
        self.sum.next = self.sum_r.q.val();
        self.wide_q.next = self.wide_r.q.val();
        self.nibble.next = self.a.val().get_bits::<4>(0);
    }
}

pub fn emit() -> Result<EmittedModule, EmitError> {
    emit_module(SelfTest::default(), "eu_selftest", "selftest", vec![])
}
