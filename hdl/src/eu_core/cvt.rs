//! I2F and F2I for the math unit: one lane, fp32 of a signed integer (round to nearest even) or
//! the signed integer of an fp32 (toward zero, saturating, NaN gives 0), docs/isa.md
//! "Operations". Two cycles, the latency of `MulhLane`, so that the math unit feeds both engines
//! from one feeder and collects them on one write port (their lanes never come back together).
//!
//! - I2F: stage 1 takes the magnitude and its leading zeros into `_s1` registers; stage 2 shifts
//!   the leading one to bit 31 and adds the rounding increment to {exponent, fraction} in one
//!   addition (a fraction that rounds up to 2^23 carries into the exponent, as it must).
//! - F2I: stage 1 classifies (|x| < 1, |x| ≥ 2^31 or infinite, NaN) and forms the right-shift
//!   amount 158 − exponent; stage 2 shifts the significand (bit 31 = the hidden one) right by it,
//!   which truncates toward zero, and negates.

use crate::prims::RDff;
use rust_hdl::prelude::*;

/// Latency in cycles from `in_*` to `out_data`.
pub const CVT_LAT: usize = 2;

#[derive(LogicBlock)]
pub struct CvtLane {
    /// Clock of the stage registers.
    pub clk: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// 1: F2I, 0: I2F.
    pub in_f2i: Signal<In, Bit>,
    /// The operand: a signed integer (I2F) or fp32 bits (F2I).
    pub in_a: Signal<In, Bits<32>>,
    /// The result for the operand of `CVT_LAT` cycles ago.
    pub out_data: Signal<Out, Bits<32>>,
    // ---- stage 1 registers
    f2i_s1: RDff<Bit>,
    sign_s1: RDff<Bit>,
    /// I2F: |a|; F2I: the significand with its hidden one at bit 31.
    mag_s1: RDff<Bits<32>>,
    /// I2F: leading zeros of |a| (0..31); F2I: the right-shift amount 158 − exponent (1..31).
    shift_s1: RDff<Bits<5>>,
    /// I2F: a = 0; F2I: |x| < 1 or NaN (result 0).
    zero_s1: RDff<Bit>,
    /// F2I: |x| ≥ 2^31 or infinite (saturate).
    sat_s1: RDff<Bit>,
    // ---- stage 2 register
    out_s2: RDff<Bits<32>>,
    // ---- stage 1 logic
    exponent: Signal<Local, Bits<8>>,
    fraction: Signal<Local, Bits<23>>,
    magnitude: Signal<Local, Bits<32>>,
    leading_zeros: Signal<Local, Bits<5>>,
    // ---- stage 2 logic
    normalised: Signal<Local, Bits<32>>,
    round_up: Signal<Local, Bit>,
    float_bits: Signal<Local, Bits<32>>,
    truncated: Signal<Local, Bits<32>>,
    int_bits: Signal<Local, Bits<32>>,
    k_leading: [Constant<Bits<5>>; 32],
    /// The biased exponents of 2^0 and 2^31.
    k_exp_2p0: Constant<Bits<8>>,
    k_exp_2p31: Constant<Bits<8>>,
    k_exp_nan: Constant<Bits<8>>,
    k_int_max: Constant<Bits<32>>,
    k_int_min: Constant<Bits<32>>,
}

impl Default for CvtLane {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_f2i: Default::default(),
            in_a: Default::default(),
            out_data: Default::default(),
            f2i_s1: Default::default(),
            sign_s1: Default::default(),
            mag_s1: Default::default(),
            shift_s1: Default::default(),
            zero_s1: Default::default(),
            sat_s1: Default::default(),
            out_s2: Default::default(),
            exponent: Default::default(),
            fraction: Default::default(),
            magnitude: Default::default(),
            leading_zeros: Default::default(),
            normalised: Default::default(),
            round_up: Default::default(),
            float_bits: Default::default(),
            truncated: Default::default(),
            int_bits: Default::default(),
            k_leading: std::array::from_fn(|i| Constant::new(((31 - i) as u64).into())),
            k_exp_2p0: Constant::new(127u64.into()),
            k_exp_2p31: Constant::new(158u64.into()),
            k_exp_nan: Constant::new(255u64.into()),
            k_int_max: Constant::new(0x7FFF_FFFFu64.into()),
            k_int_min: Constant::new(0x8000_0000u64.into()),
        }
    }
}

impl Logic for CvtLane {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, f2i_s1, sign_s1, mag_s1, shift_s1, zero_s1, sat_s1, out_s2);
        self.f2i_s1.rst.next = self.rst.val();
        self.sign_s1.rst.next = self.rst.val();
        self.mag_s1.rst.next = self.rst.val();
        self.shift_s1.rst.next = self.rst.val();
        self.zero_s1.rst.next = self.rst.val();
        self.sat_s1.rst.next = self.rst.val();
        self.out_s2.rst.next = self.rst.val();
        // ================= stage 1 =================
        // I2F: the magnitude (|-2^31| = 2^31 fits 32 unsigned bits) and its leading zeros
        self.magnitude.next = self.in_a.val();
        if self.in_a.val().get_bit(31) {
            self.magnitude.next = !self.in_a.val() + 1;
        }
        self.leading_zeros.next = 0.into();
        for i in 0..32 {
            if self.magnitude.val().get_bit(i) {
                self.leading_zeros.next = self.k_leading[i].val();
            }
        }
        // F2I: the fields
        self.exponent.next = bit_cast::<8, 32>(self.in_a.val() >> 23);
        self.fraction.next = bit_cast::<23, 32>(self.in_a.val());
        self.f2i_s1.d.next = self.in_f2i.val();
        self.sign_s1.d.next = self.in_a.val().get_bit(31);
        if self.in_f2i.val() {
            self.mag_s1.d.next = (bit_cast::<32, 23>(self.fraction.val()) << 8) | self.k_int_min.val();
            self.shift_s1.d.next = bit_cast::<5, 8>(self.k_exp_2p31.val() - self.exponent.val());
            // NaN gives 0, like |x| < 1; infinities saturate like |x| >= 2^31
            self.zero_s1.d.next = (self.exponent.val() < self.k_exp_2p0.val())
                | ((self.exponent.val() == self.k_exp_nan.val()) & self.fraction.val().any());
            self.sat_s1.d.next = (self.exponent.val() >= self.k_exp_2p31.val())
                & !((self.exponent.val() == self.k_exp_nan.val()) & self.fraction.val().any());
        } else {
            self.mag_s1.d.next = self.magnitude.val();
            self.shift_s1.d.next = self.leading_zeros.val();
            self.zero_s1.d.next = !self.in_a.val().any();
            self.sat_s1.d.next = false;
        }
        // ================= stage 2 =================
        // I2F: the leading one at bit 31; fraction = bits 30..8, guard bit 7, sticky bits 6..0;
        // {exponent 158 - lz, fraction} + round_up (a carry out of the fraction bumps the
        // exponent: 2^24 rounds to 1.0 x 2^(e+1))
        self.normalised.next = self.mag_s1.q.val() << self.shift_s1.q.val();
        self.round_up.next = self.normalised.val().get_bit(7)
            & (self.normalised.val().get_bit(8) | (self.normalised.val() & 0x7F).any());
        self.float_bits.next = ((bit_cast::<32, 8>(self.k_exp_2p31.val() - bit_cast::<8, 5>(self.shift_s1.q.val())) << 23)
            | bit_cast::<32, 24>(bit_cast::<24, 32>(self.normalised.val() >> 8) & 0x7F_FFFF))
            + bit_cast::<32, 1>(self.round_up.val().into());
        if self.sign_s1.q.val() {
            self.float_bits.next = self.float_bits.val() | self.k_int_min.val();
        }
        // F2I: truncate toward zero, then the sign
        self.truncated.next = self.mag_s1.q.val() >> self.shift_s1.q.val();
        self.int_bits.next = self.truncated.val();
        if self.sign_s1.q.val() {
            self.int_bits.next = !self.truncated.val() + 1;
        }
        if self.sat_s1.q.val() {
            self.int_bits.next = self.k_int_max.val();
            if self.sign_s1.q.val() {
                self.int_bits.next = self.k_int_min.val();
            }
        }
        self.out_s2.d.next = self.float_bits.val();
        if self.f2i_s1.q.val() {
            self.out_s2.d.next = self.int_bits.val();
        }
        if self.zero_s1.q.val() {
            self.out_s2.d.next = 0.into();
        }
        self.out_data.next = self.out_s2.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::VecDeque;

    /// The ISA's definitions (docs/isa.md): Rust's `as` is exactly I2F (round to nearest even)
    /// and F2I (toward zero, saturating, NaN gives 0).
    fn want(f2i: bool, a: u32) -> u32 {
        if f2i {
            f32::from_bits(a) as i32 as u32
        } else {
            (a as i32 as f32).to_bits()
        }
    }

    /// Corner operands (zero, ±1, the ends of the integers, ties at every rounding position,
    /// ±2^31 as floats and their neighbours, infinities, NaNs, subnormals, every power of two and
    /// every float exponent from 2^0 to 2^31), then xorshift-random words and random floats of
    /// magnitude in [0.5, 2^32).
    fn operands() -> Vec<u32> {
        let mut v: Vec<u32> = vec![
            0, 1, 2, 3, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xFFFF_FFFF, 0x00FF_FFFF, 0x0100_0000, 0x0100_0001, 0x0100_0003,
            0x0200_0005, 0x7FFF_FFC0, 0x7FFF_FF80, 0x7FFF_FF40, 0xFFFF_FF81, 0x3F80_0000, 0xBF80_0000, 0x3F7F_FFFF, 0x3FFF_FFFF,
            0x4EFF_FFFF, 0x4F00_0000, 0xCF00_0000, 0xCF00_0001, 0x7F80_0000, 0xFF80_0000, 0x7F80_0001, 0xFFC0_0000, 0x4B00_0001,
        ];
        for e in 0..32u32 {
            v.push(1 << e);
            v.push((1u32 << e).wrapping_neg());
            v.push((3u32 << e) | 1);
            v.push(((127 + e) << 23) | 0x55_5555);
            v.push(0x8000_0000 | ((127 + e) << 23) | 0x2A_AAAA);
        }
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9);
        let mut next = || rng.gen::<u32>();
        for _ in 0..3000 {
            let r = next();
            v.push(r);
            let f = 0x3F00_0000 + next() % (0x4F80_0000 - 0x3F00_0000);
            v.push(f | (r & 0x8000_0000));
        }
        v
    }

    /// Every operand through the lane back to back, I2F and F2I alternating, each result
    /// `CVT_LAT` edges later, against the ISA's definition.
    #[test]
    fn cvt_lane_matches_the_isa_definitions() {
        let mut uut = CvtLane::default();
        uut.connect_all();
        uut.rst.next = true;
        uut.clk.next = Clock { clk: false };
        assert!(simulate(&mut uut, 100));
        uut.clk.next = Clock { clk: true };
        assert!(simulate(&mut uut, 100));
        uut.rst.next = false;
        let mut line: VecDeque<(bool, u32)> = VecDeque::new();
        let (mut checked, mut f2i_saturated) = (0, 0);
        for a in operands() {
            for f2i in [false, true] {
                uut.clk.next = Clock { clk: false };
                uut.in_f2i.next = f2i;
                uut.in_a.next = (a as u64).to_bits();
                assert!(simulate(&mut uut, 100));
                uut.clk.next = Clock { clk: true };
                assert!(simulate(&mut uut, 100));
                line.push_back((f2i, a));
                if line.len() > CVT_LAT - 1 {
                    let (f, x) = line.pop_front().unwrap();
                    let got = uut.out_data.val().index() as u32;
                    assert_eq!(got, want(f, x), "{} of {x:#010x}", if f { "F2I" } else { "I2F" });
                    checked += 1;
                    f2i_saturated += (f && (got == 0x7FFF_FFFF || got == 0x8000_0000)) as u32;
                }
            }
        }
        assert!(checked > 6000 && f2i_saturated > 10, "{checked} results, {f2i_saturated} saturated");
    }
}
