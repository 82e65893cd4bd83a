//! MULH and MUL for the math unit: one lane, the high 32 bits of the signed 64-bit product (MULH)
//! or its low 32 bits (MUL: the same for signed and unsigned operands), with the tanh/sigmoid
//! block's lane interface (valid, mask, tag in; the same two cycles later out), so the math unit
//! feeds and collects both the same way. MUL came here from the ALU lanes (2026-11-28): one
//! registered multiplier for the core instead of eight combinational ones on its worst path.
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
    /// MUL: the low word of the product (else MULH's high word).
    pub in_low: Signal<In, Bit>,
    /// Its operands, signed.
    pub in_a: Signal<In, Bits<32>>,
    pub in_b: Signal<In, Bits<32>>,
    /// Its tag (passed through to `out_tag`).
    pub in_tag: Signal<In, Bits<TAGW>>,
    /// The lane of `MULH_LAT` cycles ago: valid, mask, its product word, tag.
    pub out_valid: Signal<Out, Bit>,
    pub out_mask: Signal<Out, Bits<1>>,
    pub out_data: Signal<Out, Bits<32>>,
    pub out_tag: Signal<Out, Bits<TAGW>>,
    product: Mul<32, 32, 64>,
    /// (a < 0 ? b : 0) + (b < 0 ? a : 0), beside the product.
    corr_s1: RDff<Bits<32>>,
    low_s1: RDff<Bit>,
    word_s2: RDff<Bits<32>>,
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
            in_low: Default::default(),
            out_valid: Default::default(),
            out_mask: Default::default(),
            out_data: Default::default(),
            out_tag: Default::default(),
            product: Default::default(),
            corr_s1: Default::default(),
            low_s1: Default::default(),
            word_s2: Default::default(),
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
        clock!(self, clk, corr_s1, low_s1, word_s2);
        self.corr_s1.rst.next = self.rst.val();
        self.low_s1.rst.next = self.rst.val();
        self.word_s2.rst.next = self.rst.val();
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
        self.low_s1.d.next = self.in_low.val();
        self.word_s2.d.next = bit_cast::<32, 64>(self.product.p.val() >> 32) - self.corr_s1.q.val();
        if self.low_s1.q.val() {
            self.word_s2.d.next = bit_cast::<32, 64>(self.product.p.val());
        }
        self.out_data.next = self.word_s2.q.val();
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::VecDeque;

    /// docs/isa.md: MULH the high word of the signed 64-bit product, MUL its low word.
    fn want(low: bool, a: u32, b: u32) -> u32 {
        let p = a as i32 as i64 * b as i32 as i64;
        if low {
            p as u32
        } else {
            (p >> 32) as u32
        }
    }

    /// Operand pairs (the ends of the integers, ±1, 0, random words) through the lane back to
    /// back, MUL and MULH alternating, each product word `MULH_LAT` edges later, with its tag.
    #[test]
    fn mul_and_mulh_words_match_the_isa() {
        let mut uut: MulhLane<6> = MulhLane::default();
        uut.connect_all();
        uut.rst.next = true;
        for clk in [false, true] {
            uut.clk.next = Clock { clk };
            assert!(simulate(&mut uut, 100));
        }
        uut.rst.next = false;
        let edges = [0u32, 1, 2, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0x0001_0000, 0xFFFF_0000, 0x1234_5678];
        let mut pairs: Vec<(u32, u32)> = edges.iter().flat_map(|&a| edges.iter().map(move |&b| (a, b))).collect();
        let mut rng = StdRng::seed_from_u64(0x1357_9BDF);
        let mut next = move || rng.gen::<u32>();
        pairs.extend((0..500).map(|_| (next(), next())));
        let mut line: VecDeque<(bool, u32, u32, u64)> = VecDeque::new();
        let mut checked = 0;
        for (k, &(a, b)) in pairs.iter().enumerate() {
            for low in [true, false] {
                let tag = (k as u64 * 2 + low as u64) & 63;
                uut.clk.next = Clock { clk: false };
                uut.in_valid.next = true;
                uut.in_mask.next = 1u64.into();
                uut.in_low.next = low;
                uut.in_a.next = (a as u64).into();
                uut.in_b.next = (b as u64).into();
                uut.in_tag.next = tag.into();
                assert!(simulate(&mut uut, 100));
                uut.clk.next = Clock { clk: true };
                assert!(simulate(&mut uut, 100));
                line.push_back((low, a, b, tag));
                if line.len() == MULH_LAT {
                    let (l, x, y, t) = line.pop_front().unwrap();
                    assert_eq!(uut.out_data.val().index() as u32, want(l, x, y), "{} {x:#x} * {y:#x}", if l { "MUL" } else { "MULH" });
                    assert_eq!(uut.out_tag.val().index() as u64, t);
                    assert!(uut.out_valid.val());
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
