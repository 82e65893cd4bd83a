//! `Accumulate`: the combinational sum of the coefficient products, the tanh clamp and the
//! sigmoid reflection (stage 4 of a lane).

use rust_hdl::prelude::*;

/// Accumulator and range handling (combinational): S = c0 + floor(c1*D/2^19) + floor(c2*SQ/2^12);
/// tanh: G = min(S, 2^32); sigmoid x < 0: S * 2^-(32+k); sigmoid x > 0: 2^32 - floor(S / 2^k).
/// The result is `n` * m * 2^(`exb` - 256) with m = 2^23 (the fused tail replaces m by the
/// significand of min(|x|, 1) and adjusts `exb`).
#[derive(LogicBlock, Default)]
pub struct Accumulate {
    pub c0: Signal<In, Bits<34>>,
    pub p1: Signal<In, Bits<64>>,
    pub p2: Signal<In, Bits<64>>,
    pub c1neg: Signal<In, Bit>,
    pub c2neg: Signal<In, Bit>,
    pub d: Signal<In, Bits<23>>,
    pub sq: Signal<In, Bits<16>>,
    pub k: Signal<In, Bits<6>>,
    pub isig: Signal<In, Bit>,
    /// sign of x
    pub neg: Signal<In, Bit>,
    pub n: Signal<Out, Bits<34>>,
    pub exb: Signal<Out, Bits<10>>,
    /// sign of the result
    pub s: Signal<Out, Bit>,
    sp1: Signal<Local, Bits<64>>,
    sp2: Signal<Local, Bits<64>>,
    t1: Signal<Local, Bits<33>>,
    t2: Signal<Local, Bits<29>>,
    t1x: Signal<Local, Bits<36>>,
    t2x: Signal<Local, Bits<36>>,
    sum: Signal<Local, Bits<36>>,
    refl: Signal<Local, Bits<36>>,
}

impl Logic for Accumulate {
    #[hdl_gen]
    fn update(&mut self) {
        // signed products: unsigned product minus the sign weight (c*d = u(c)*d - 2^W*d when c < 0),
        // then floor shifts (two's complement truncation) to the accumulator LSB
        self.sp1.next = self.p1.val();
        if self.c1neg.val() {
            self.sp1.next = self.p1.val() - (bit_cast::<64, 23>(self.d.val()) << 28);
        }
        self.sp2.next = self.p2.val();
        if self.c2neg.val() {
            self.sp2.next = self.p2.val() - (bit_cast::<64, 16>(self.sq.val()) << 24);
        }
        self.t1.next = self.sp1.val().get_bits::<33>(19);
        self.t2.next = self.sp2.val().get_bits::<29>(12);
        self.t1x.next = bit_cast::<36, 33>(self.t1.val());
        if self.t1.val().get_bit(32) {
            self.t1x.next = bit_cast::<36, 33>(self.t1.val()) | 0xE_0000_0000_u64;
        }
        self.t2x.next = bit_cast::<36, 29>(self.t2.val());
        if self.t2.val().get_bit(28) {
            self.t2x.next = bit_cast::<36, 29>(self.t2.val()) | 0xF_E000_0000_u64;
        }
        self.sum.next = bit_cast::<36, 34>(self.c0.val()) + self.t1x.val() + self.t2x.val();
        self.refl.next = 0x1_0000_0000_u64 - (self.sum.val() >> self.k.val());
        // n * 2^23 * 2^(exb - 256) with exb = 256 - 55 is n * 2^-32, the accumulator's LSB
        self.n.next = self.sum.val().get_bits::<34>(0);
        self.exb.next = 201.into();
        self.s.next = self.neg.val();
        if self.isig.val() {
            self.s.next = false;
            if self.neg.val() {
                self.exb.next = 201 - bit_cast::<10, 6>(self.k.val());
            } else {
                self.n.next = self.refl.val().get_bits::<34>(0);
            }
        } else if self.sum.val().get_bits::<4>(32) != 0 {
            // tanh: G <= 1
            self.n.next = 0x1_0000_0000_u64.into();
        }
    }
}
