//! `Accumulate`: the combinational sum of the coefficient products, the tanh clamp and the
//! sigmoid reflection (stage 4 of a lane); `AccumulateCut`: the same over two cycles (cut H), or
//! three (cut K).

use crate::prims::{RDff, StageReg};
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

/// [`Accumulate`] over two cycles, for cut H of `lat` (`Cuts::accum_reg`, the fused lane at
/// LAT + 8): at most one wide carry chain between registers. In `Accumulate` the two sign
/// corrections and the 3-input sum are several 36-64-bit carry chains in series (the worst path
/// at LAT + 7 on the ECP5).
///
/// First half (from the stage-3 registers): S mod 2^36 as five terms, c0, the two unsigned
/// product slices P1 = floor(p1/2^19), P2 = floor(p2/2^12) and the two corrections
/// −c1neg·Δ·2^9, −c2neg·SQ·2^12 (each as its complement, the +1 entering a carry vector's free
/// LSB), three carry-save 3:2 levels (no carry chain) and one 36-bit add into `sum_h`. The same
/// S as `Accumulate`'s: the corrections' weights 2^28 and 2^24 are multiples of the floor
/// shifts 2^19 and 2^12, and the products are u28·u23 < 2^51 and u24·u16 < 2^40, so both signed
/// terms lie in (−2^32, 2^32) and (−2^28, 2^28), inside `Accumulate`'s 33- and 29-bit slices.
///
/// Second half (from `sum_h`, `k_h`): the tanh clamp, the sigmoid reflection (one 36-bit
/// subtract behind the shift) and `n`/`exb`/`s` exactly as in `Accumulate`; `isig` and `neg`
/// arrive already one cycle later (the `Front`'s side signals with cut H). `Accumulate` keeps its
/// one-cycle form so that every lat below LAT + 8 emits the Verilog it had before cut H.
///
/// With `refl_cut` (cut K of `lat`, LAT + 11) the second half is itself two cycles: the shift
/// floor(S / 2^k) (a barrel shifter, no carry chain) into a register beside S mod 2^34, the tanh
/// clamp test and k; then the reflection's 34-bit subtract 2^32 − floor(S / 2^k) and the n/exb/s
/// select from those registers. After cut H the shift and the subtract in series were the worst
/// path on the UP5K (both seeds) and on the ECP5 (seed 2). Only the low 34 bits of the
/// reflection are kept, so only the low 34 bits of the shifted sum are registered; `isig` and
/// `neg` then arrive one more cycle later (the `Front`'s side delay is one longer). Without
/// `refl_cut` the registers are wires (`StageReg`): the same function and timing as before.
#[derive(LogicBlock)]
pub struct AccumulateCut {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    // ---- first half: the stage-3 registers
    pub c0: Signal<In, Bits<34>>,
    pub p1: Signal<In, Bits<64>>,
    pub p2: Signal<In, Bits<64>>,
    pub c1neg: Signal<In, Bit>,
    pub c2neg: Signal<In, Bit>,
    pub d: Signal<In, Bits<23>>,
    pub sq: Signal<In, Bits<16>>,
    pub k: Signal<In, Bits<6>>,
    // ---- second half: one cycle later
    pub isig: Signal<In, Bit>,
    /// sign of x
    pub neg: Signal<In, Bit>,
    pub n: Signal<Out, Bits<34>>,
    pub exb: Signal<Out, Bits<10>>,
    /// sign of the result
    pub s: Signal<Out, Bit>,
    term_c0: Signal<Local, Bits<36>>,
    term_p1: Signal<Local, Bits<36>>,
    term_p2: Signal<Local, Bits<36>>,
    term_m1: Signal<Local, Bits<36>>,
    term_m2: Signal<Local, Bits<36>>,
    save1: Signal<Local, Bits<36>>,
    carry1: Signal<Local, Bits<36>>,
    save2: Signal<Local, Bits<36>>,
    carry2: Signal<Local, Bits<36>>,
    save3: Signal<Local, Bits<36>>,
    carry3: Signal<Local, Bits<36>>,
    shr: Signal<Local, Bits<36>>,
    refl: Signal<Local, Bits<34>>,
    sum_h: RDff<Bits<36>>,
    k_h: RDff<Bits<6>>,
    // ---- cut K (registers with `refl_cut`, wires without): the shift -> the subtract and select
    jk_shr: StageReg<Bits<34>>,
    jk_sum: StageReg<Bits<34>>,
    jk_over: StageReg<Bit>,
    jk_k: StageReg<Bits<6>>,
}

impl AccumulateCut {
    /// With `refl_cut` (cut K) a register between the shift by k and the reflection's subtract.
    pub fn new(refl_cut: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            c0: Default::default(),
            p1: Default::default(),
            p2: Default::default(),
            c1neg: Default::default(),
            c2neg: Default::default(),
            d: Default::default(),
            sq: Default::default(),
            k: Default::default(),
            isig: Default::default(),
            neg: Default::default(),
            n: Default::default(),
            exb: Default::default(),
            s: Default::default(),
            term_c0: Default::default(),
            term_p1: Default::default(),
            term_p2: Default::default(),
            term_m1: Default::default(),
            term_m2: Default::default(),
            save1: Default::default(),
            carry1: Default::default(),
            save2: Default::default(),
            carry2: Default::default(),
            save3: Default::default(),
            carry3: Default::default(),
            shr: Default::default(),
            refl: Default::default(),
            sum_h: Default::default(),
            k_h: Default::default(),
            jk_shr: StageReg::new(refl_cut),
            jk_sum: StageReg::new(refl_cut),
            jk_over: StageReg::new(refl_cut),
            jk_k: StageReg::new(refl_cut),
        }
    }
}

impl Default for AccumulateCut {
    fn default() -> Self {
        Self::new(false)
    }
}

impl Logic for AccumulateCut {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, sum_h, k_h);
        self.sum_h.rst.next = self.rst.val();
        self.k_h.rst.next = self.rst.val();
        // ---- first half: five terms, three 3:2 levels, one add
        self.term_c0.next = bit_cast::<36, 34>(self.c0.val());
        self.term_p1.next = bit_cast::<36, 32>(self.p1.val().get_bits::<32>(19));
        self.term_p2.next = bit_cast::<36, 28>(self.p2.val().get_bits::<28>(12));
        self.term_m1.next = 0.into();
        if self.c1neg.val() {
            self.term_m1.next = !(bit_cast::<36, 23>(self.d.val()) << 9);
        }
        self.term_m2.next = 0.into();
        if self.c2neg.val() {
            self.term_m2.next = !(bit_cast::<36, 16>(self.sq.val()) << 12);
        }
        self.save1.next = self.term_c0.val() ^ self.term_p1.val() ^ self.term_p2.val();
        self.carry1.next = (((self.term_c0.val() & self.term_p1.val())
            | (self.term_c0.val() & self.term_p2.val())
            | (self.term_p1.val() & self.term_p2.val()))
            << 1)
            | bit_cast::<36, 1>(self.c1neg.val().into());
        self.save2.next = self.save1.val() ^ self.carry1.val() ^ self.term_m1.val();
        self.carry2.next = (((self.save1.val() & self.carry1.val())
            | (self.save1.val() & self.term_m1.val())
            | (self.carry1.val() & self.term_m1.val()))
            << 1)
            | bit_cast::<36, 1>(self.c2neg.val().into());
        self.save3.next = self.save2.val() ^ self.carry2.val() ^ self.term_m2.val();
        self.carry3.next = ((self.save2.val() & self.carry2.val())
            | (self.save2.val() & self.term_m2.val())
            | (self.carry2.val() & self.term_m2.val()))
            << 1;
        self.sum_h.d.next = self.save3.val() + self.carry3.val();
        self.k_h.d.next = self.k.val();
        // ---- second half: as in `Accumulate`, from the registered sum; with cut K a register
        // between the shift and the subtract (the tanh clamp's test and k beside it)
        self.jk_shr.clock.next = self.clk.val();
        self.jk_sum.clock.next = self.clk.val();
        self.jk_over.clock.next = self.clk.val();
        self.jk_k.clock.next = self.clk.val();
        self.jk_shr.rst.next = self.rst.val();
        self.jk_sum.rst.next = self.rst.val();
        self.jk_over.rst.next = self.rst.val();
        self.jk_k.rst.next = self.rst.val();
        self.jk_shr.en.next = true;
        self.jk_sum.en.next = true;
        self.jk_over.en.next = true;
        self.jk_k.en.next = true;
        self.shr.next = self.sum_h.q.val() >> self.k_h.q.val();
        self.jk_shr.d.next = self.shr.val().get_bits::<34>(0);
        self.jk_sum.d.next = self.sum_h.q.val().get_bits::<34>(0);
        self.jk_over.d.next = false;
        if self.sum_h.q.val().get_bits::<4>(32) != 0 {
            self.jk_over.d.next = true;
        }
        self.jk_k.d.next = self.k_h.q.val();
        // 2^32 − floor(S / 2^k) modulo 2^34: only the low 34 bits of the shifted sum matter
        self.refl.next = 0x1_0000_0000_u64 - self.jk_shr.q.val();
        self.n.next = self.jk_sum.q.val();
        self.exb.next = 201.into();
        self.s.next = self.neg.val();
        if self.isig.val() {
            self.s.next = false;
            if self.neg.val() {
                self.exb.next = 201 - bit_cast::<10, 6>(self.jk_k.q.val());
            } else {
                self.n.next = self.refl.val();
            }
        } else if self.jk_over.q.val() {
            // tanh: G <= 1
            self.n.next = 0x1_0000_0000_u64.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The two-cycle form (and the three-cycle form of cut K) gives `Accumulate`'s n, exb and s
    /// for products of any coefficient bit patterns (u28·u23, u24·u16, the signs their top bits),
    /// any c0, k and sign: random inputs and the all-zero / all-one extremes of every operand.
    #[test]
    fn accumulate_cut_equals_accumulate() {
        let mut one = Accumulate::default();
        let mut two = AccumulateCut::default();
        let mut three = AccumulateCut::new(true);
        one.connect_all();
        two.connect_all();
        three.connect_all();
        let mut rng = StdRng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.gen::<u64>();
        for i in 0..20_000u32 {
            let r = [next(), next(), next()];
            let pick = |v: u64, bits: u32, j: u32| match (i >> (2 * j)) & 3 {
                0 if i < 256 => 0,
                1 if i < 256 => (1u64 << bits) - 1,
                _ => v & ((1u64 << bits) - 1),
            };
            let (c1, d) = (pick(r[0], 28, 0), pick(r[0] >> 28, 23, 1));
            let (c2, sq) = (pick(r[1], 24, 2), pick(r[1] >> 24, 16, 3));
            let c0 = r[2] & ((1 << 34) - 1);
            let (k, isig, neg) = (r[2] >> 34 & 63, r[2] >> 40 & 1 == 1, r[2] >> 41 & 1 == 1);
            let (p1, p2, c1neg, c2neg) = (c1 * d, c2 * sq, c1 >> 27 == 1, c2 >> 23 == 1);
            one.c0.next = c0.into();
            one.p1.next = p1.into();
            one.p2.next = p2.into();
            one.c1neg.next = c1neg;
            one.c2neg.next = c2neg;
            one.d.next = d.into();
            one.sq.next = sq.into();
            one.k.next = k.into();
            one.isig.next = isig;
            one.neg.next = neg;
            assert!(simulate(&mut one, 100));
            // first half, then the clock edge, then the second half's inputs
            two.c0.next = c0.into();
            two.p1.next = p1.into();
            two.p2.next = p2.into();
            two.c1neg.next = c1neg;
            two.c2neg.next = c2neg;
            two.d.next = d.into();
            two.sq.next = sq.into();
            two.k.next = k.into();
            two.rst.next = false;
            two.clk.next = Clock { clk: false };
            assert!(simulate(&mut two, 100));
            two.clk.next = Clock { clk: true };
            two.isig.next = isig;
            two.neg.next = neg;
            assert!(simulate(&mut two, 100));
            // (Bits<34>::index() panics: rust-hdl maps only short vectors to an index)
            let want = (one.n.val(), one.exb.val(), one.s.val());
            let got = (two.n.val(), two.exb.val(), two.s.val());
            assert_eq!(got, want, "c0 {c0:#x} c1 {c1:#x} d {d:#x} c2 {c2:#x} sq {sq:#x} k {k} isig {isig} neg {neg}");
            // cut K: two edges, then the side signals
            three.c0.next = c0.into();
            three.p1.next = p1.into();
            three.p2.next = p2.into();
            three.c1neg.next = c1neg;
            three.c2neg.next = c2neg;
            three.d.next = d.into();
            three.sq.next = sq.into();
            three.k.next = k.into();
            three.rst.next = false;
            for edge in [false, true, false, true] {
                three.clk.next = Clock { clk: edge };
                assert!(simulate(&mut three, 100));
            }
            three.isig.next = isig;
            three.neg.next = neg;
            assert!(simulate(&mut three, 100));
            let got = (three.n.val(), three.exb.val(), three.s.val());
            assert_eq!(got, want, "cut K: c0 {c0:#x} c1 {c1:#x} d {d:#x} c2 {c2:#x} sq {sq:#x} k {k} isig {isig} neg {neg}");
        }
    }
}
