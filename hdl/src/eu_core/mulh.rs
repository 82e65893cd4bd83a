//! MULH for the math unit: one lane, the high 32 bits of the signed 64-bit product, with the
//! tanh/sigmoid block's lane interface (valid, mask, tag in; the same two cycles later out), so
//! the math unit feeds and collects both the same way.
//!
//! The product is `prims::Mul<32, 32, 64>` (unsigned, registered: one DSP product per lane and
//! cycle). The signed high word is the unsigned one minus `b` if `a` < 0 and minus `a` if
//! `b` < 0 (mod 2^32: a·b signed = a·b unsigned − 2^32 (a31·b + b31·a)); that correction is
//! formed beside the multiplier in the first cycle and subtracted in the second, into the output
//! register.

use crate::prims::{Delay, Mul, RDff};
use rust_hdl::prelude::*;

/// Latency in cycles from `in_*` to `out_*`.
pub const MULH_LAT: usize = 2;

#[derive(LogicBlock)]
pub struct MulhLane<const TAGW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// A lane comes in.
    pub in_valid: Signal<In, Bit>,
    /// It runs (passed through to `out_mask`).
    pub in_mask: Signal<In, Bits<1>>,
    /// Its operands, signed.
    pub in_a: Signal<In, Bits<32>>,
    pub in_b: Signal<In, Bits<32>>,
    /// Its tag (passed through to `out_tag`).
    pub in_tag: Signal<In, Bits<TAGW>>,
    /// The lane of `MULH_LAT` cycles ago: valid, mask, high product word, tag.
    pub out_valid: Signal<Out, Bit>,
    pub out_mask: Signal<Out, Bits<1>>,
    pub out_data: Signal<Out, Bits<32>>,
    pub out_tag: Signal<Out, Bits<TAGW>>,
    product: Mul<32, 32, 64>,
    /// (a < 0 ? b : 0) + (b < 0 ? a : 0), beside the product.
    corr_s1: RDff<Bits<32>>,
    high_s2: RDff<Bits<32>>,
    dvalid: Delay<Bits<1>>,
    dmask: Delay<Bits<1>>,
    dtag: Delay<Bits<TAGW>>,
    corr: Signal<Local, Bits<32>>,
}

impl<const TAGW: usize> Default for MulhLane<TAGW> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_mask: Default::default(),
            in_a: Default::default(),
            in_b: Default::default(),
            in_tag: Default::default(),
            out_valid: Default::default(),
            out_mask: Default::default(),
            out_data: Default::default(),
            out_tag: Default::default(),
            product: Default::default(),
            corr_s1: Default::default(),
            high_s2: Default::default(),
            dvalid: Delay::new(MULH_LAT),
            dmask: Delay::new(MULH_LAT),
            dtag: Delay::new(MULH_LAT),
            corr: Default::default(),
        }
    }
}

impl<const TAGW: usize> Logic for MulhLane<TAGW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, corr_s1, high_s2);
        self.corr_s1.rst.next = self.rst.val();
        self.high_s2.rst.next = self.rst.val();
        self.product.clock.next = self.clk.val();
        self.product.rst.next = self.rst.val();
        self.product.a.next = self.in_a.val();
        self.product.b.next = self.in_b.val();
        self.corr.next = 0.into();
        if self.in_a.val().get_bit(31) {
            self.corr.next = self.in_b.val();
        }
        if self.in_b.val().get_bit(31) {
            self.corr.next = self.corr.val() + self.in_a.val();
        }
        self.corr_s1.d.next = self.corr.val();
        self.high_s2.d.next = bit_cast::<32, 64>(self.product.p.val() >> 32) - self.corr_s1.q.val();
        self.out_data.next = self.high_s2.q.val();
        self.dvalid.clock.next = self.clk.val();
        self.dmask.clock.next = self.clk.val();
        self.dtag.clock.next = self.clk.val();
        self.dvalid.rst.next = self.rst.val();
        self.dmask.rst.next = self.rst.val();
        self.dtag.rst.next = self.rst.val();
        self.dvalid.d.next = bit_cast::<1, 1>(self.in_valid.val().into());
        self.dmask.d.next = self.in_mask.val();
        self.dtag.d.next = self.in_tag.val();
        self.out_valid.next = self.dvalid.q.val().any();
        self.out_mask.next = self.dmask.q.val();
        self.out_tag.next = self.dtag.q.val();
    }
}
