//! `HalfLane`: one lane of the half-only datapath (config `formats = "half"`, issue 15): fp16 and
//! bf16 with the narrow fixed point of `tables_half` (S LSB 2^-15), fp32 and the reserved format
//! give 0x7FC00000 (§6.4). Golden model: `sim::golden::tanh_sigmoid::lane_half`, bit-exact.
//!
//! Six stages (LAT 6, fused tail only), each a small block or a few registers:
//! 1 `Widen` + `Decode` (decode.rs, shared with the all-formats lane: the same row and Δ; cut C
//!   between them), fp32 requests bypassed to the reserved-format result;
//! 2 the 640 × 43 coefficient ROM (`half_rom`, registered read) and the 6 × 6 squarer of Δ's top
//!   6 bits;
//! 3 c1 · D12 (13 × 12) and c2 · SQ (8 × 12): unsigned products of the coefficients' bit patterns;
//! 4 `HalfSum` (sign corrections, S), `HalfRange` (tanh clamp, sigmoid reflection) and `HalfExp`
//!   (the result's exponent before normalisation), the fused multiplicand;
//! 5 G · m (16 × 11) for op TANH with |x| < 1;
//! 6 `HalfLz` (leading zeros), `HalfNorm` (normalise, exponent), `HalfShift` (the subnormal
//!   shift, sticky, RNE's decision) and `HalfPack` (the RNE increment, ftz, pack, bypass, mask):
//!   one round to fp16 / bf16 with subnormals.
//! `lat` above 6 adds the cuts of `HalfCuts` (A: a register between `HalfNorm` and `HalfShift`, B:
//! one between `HalfSum` and `HalfRange`, C: one between `Widen` and `Decode`, D: one between
//! `HalfLz` and `HalfNorm`, E: the products as `MulDsp`, F: one between `HalfShift` and `HalfPack`,
//! G: one after `HalfRange` and `HalfExp`), then output registers behind the lanes.
//! The products are `prims::Mul` (one registered `*`: the fabric on the HX8K, no DSP there), with
//! cut E `prims::MulDsp` (input and output registers without reset: the UP5K's `SB_MAC16` and,
//! under `EU_ECP5`, the ECP5's `MULT18X18D` hold them; the HX8K keeps LUT products).

use super::decode::{Decode, Widen};
use super::enc::{fmt, op};
use super::tables_half::{half_tables, C0_BITS, C1_BITS, C2_BITS, K_BITS, WORD_BITS};
use crate::prims::{Delay, Mul, MulDsp, RDff, StageReg};
use rust_hdl::prelude::*;

// the function select and the ROM half use op bit 0
const _: () = assert!(super::enc::op_bit0_is_sigmoid());

/// The half lane's pipeline cuts that `lat` above LAT 6 adds, in this order (one cycle each):
/// A `round_reg` (stage 6: a register between the normalisation `HalfNorm` and the round and pack
/// `HalfShift` / `HalfPack`), B `accum_reg` (stage 4: a register on S between `HalfSum` and `HalfRange`), C
/// `widen_reg` (stage 1: a register between `Widen` and `Decode`, `HalfWide`), D `lz_reg` (stage 6:
/// a register between the leading-zero count `HalfLz` and the shift and exponent of `HalfNorm`,
/// `HalfLzd`), E `mul_dsp` (the four products as `prims::MulDsp`: input and output registers
/// without reset, the shape whose registers go inside the DSP, see below), F `pack_reg` (stage 6:
/// a register between the subnormal shift with its sticky bit, `HalfShift`, and the RNE increment,
/// ftz and pack, `HalfPack`: `HalfRnd`), G `range_reg` (stage 4: a register after `HalfRange` and
/// `HalfExp`, before G · m's input registers and `mid4`). The order A, B, C is
/// the measured one (HX8K, docs/tanh_sigmoid.md "Half RTL: cut C"): for two cuts, A + B beats
/// A + C (stage 4 uncut is longer than stage 1 uncut) and B + C (the whole round stage); D and E
/// come after them so that lat 7..9 keep their cuts and timing (docs "Half RTL: cuts D and E"),
/// and F, G after those (lat 12, 13; docs "Half RTL: cuts F and G").
/// Cycles beyond them are output registers behind the lanes (`rtl::TanhSigmoid`).
///
/// E costs one cycle, in stage 3 only: c1 · D12 and c2 · SQ take their operands from the ROM's
/// registered read as before and need one more cycle (input register, product, output register);
/// the squarer takes Δ's top bits from stage 1's decode (its input register is stage 1's, its
/// output register stage 2's) and G · m takes N and m from stage 4's logic (its input registers
/// are stage 4's), so neither adds a cycle. The behavioural `MulDsp` (iCE40, Verilator, lint)
/// is a LUT product between fabric registers on the HX8K and an `SB_MAC16` with its registers on
/// the UP5K; the ECP5 flow's `EU_ECP5` body puts each product in a `MULT18X18D` with its own input
/// and output registers (prims::mul), the mechanism the all-formats lane's cuts D/C use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HalfCuts {
    pub round_reg: bool,
    pub accum_reg: bool,
    pub widen_reg: bool,
    pub lz_reg: bool,
    pub mul_dsp: bool,
    pub pack_reg: bool,
    pub range_reg: bool,
}

impl HalfCuts {
    /// The cuts for `extra` = lat − 6 cycles.
    pub fn for_extra(extra: usize) -> Self {
        Self {
            round_reg: extra >= 1,
            accum_reg: extra >= 2,
            widen_reg: extra >= 3,
            lz_reg: extra >= 4,
            mul_dsp: extra >= 5,
            pack_reg: extra >= 6,
            range_reg: extra >= 7,
        }
    }
    /// Cycles they add.
    pub fn cycles(self) -> usize {
        [self.round_reg, self.accum_reg, self.widen_reg, self.lz_reg, self.mul_dsp, self.pack_reg, self.range_reg].iter().filter(|&&c| c).count()
    }
}

/// The half coefficient ROM of both functions: address {sigmoid, row[8:0]} (rows 0..320 of each
/// half used: 640 words), word {k u6, c2 s8, c1 s13, c0 u16} (`HalfRow::word`).
pub fn half_rom() -> ROM<Bits<43>, 10> {
    assert_eq!((WORD_BITS, C0_BITS, C1_BITS, C2_BITS, K_BITS), (43, 16, 13, 8, 6));
    let t = half_tables();
    let mut map = std::collections::BTreeMap::new();
    for (i, r) in t.tanh.rows.iter().enumerate() {
        map.insert(Bits::<10>::from(i as u64), Bits::<43>::from(r.word()));
    }
    for (i, r) in t.sig.rows.iter().enumerate() {
        map.insert(Bits::<10>::from(512 + i as u64), Bits::<43>::from(r.word()));
    }
    ROM::new(map)
}

/// Stage 4, first half (combinational): S = c0 + floor(c1·D12 / 2^10) + floor(c2·SQ / 2^9) (LSB
/// 2^-15, 20-bit two's complement: c0 < 2^16, the products' terms below 2^14 and 2^10; S > 0 for
/// every interpolated input, the golden model's assertion).
#[derive(LogicBlock, Default)]
pub struct HalfSum {
    /// c0 (u16)
    pub c0: Signal<In, Bits<16>>,
    /// u(c1) · D12, the unsigned product of c1's bit pattern
    pub p1: Signal<In, Bits<25>>,
    /// u(c2) · SQ
    pub p2: Signal<In, Bits<20>>,
    /// c1 < 0, c2 < 0 (the sign bits of their fields)
    pub c1neg: Signal<In, Bit>,
    pub c2neg: Signal<In, Bit>,
    /// D12 = Δ >> 11 and SQ = (Δ >> 17)²: the multiplicands, for the sign corrections
    pub d12: Signal<In, Bits<12>>,
    pub sq: Signal<In, Bits<12>>,
    /// S
    pub s: Signal<Out, Bits<20>>,
    /// c·d = u(c)·d − 2^W·d for c < 0 (W the field width), before the floor shifts
    sp1: Signal<Local, Bits<26>>,
    sp2: Signal<Local, Bits<21>>,
    t1: Signal<Local, Bits<20>>,
    t2: Signal<Local, Bits<20>>,
}

impl Logic for HalfSum {
    #[hdl_gen]
    fn update(&mut self) {
        self.sp1.next = bit_cast::<26, 25>(self.p1.val());
        if self.c1neg.val() {
            self.sp1.next = bit_cast::<26, 25>(self.p1.val()) - (bit_cast::<26, 12>(self.d12.val()) << 13);
        }
        self.sp2.next = bit_cast::<21, 20>(self.p2.val());
        if self.c2neg.val() {
            self.sp2.next = bit_cast::<21, 20>(self.p2.val()) - (bit_cast::<21, 12>(self.sq.val()) << 8);
        }
        // arithmetic right shifts (floor): the kept bits, sign-extended to 20 bits
        self.t1.next = bit_cast::<20, 16>(self.sp1.val().get_bits::<16>(10));
        if self.sp1.val().get_bit(25) {
            self.t1.next = bit_cast::<20, 16>(self.sp1.val().get_bits::<16>(10)) | 0xF_0000;
        }
        self.t2.next = bit_cast::<20, 12>(self.sp2.val().get_bits::<12>(9));
        if self.sp2.val().get_bit(20) {
            self.t2.next = bit_cast::<20, 12>(self.sp2.val().get_bits::<12>(9)) | 0xF_F000;
        }
        self.s.next = bit_cast::<20, 16>(self.c0.val()) + self.t1.val() + self.t2.val();
    }
}

/// Stage 4, second half (combinational): the value N that is rounded: tanh G = min(S, 2^15);
/// sigmoid x < 0: S (scaled by 2^-k in `HalfExp`); sigmoid x ≥ 0: 2^15 − floor(S / 2^k).
#[derive(LogicBlock, Default)]
pub struct HalfRange {
    /// S (`HalfSum`), > 0
    pub s: Signal<In, Bits<20>>,
    /// the row's scale k (sigmoid reflection)
    pub k: Signal<In, Bits<6>>,
    /// the op is SIGMOID
    pub isig: Signal<In, Bit>,
    /// x < 0
    pub neg: Signal<In, Bit>,
    /// N (positive, < 2^19)
    pub n: Signal<Out, Bits<19>>,
    refl: Signal<Local, Bits<20>>,
}

impl Logic for HalfRange {
    #[hdl_gen]
    fn update(&mut self) {
        self.refl.next = 0x8000.into();
        self.refl.next = self.refl.val() - (self.s.val() >> self.k.val());
        if self.isig.val() {
            if self.neg.val() {
                self.n.next = self.s.val().get_bits::<19>(0);
            } else {
                self.n.next = self.refl.val().get_bits::<19>(0);
            }
        } else {
            // tanh: G = min(S, 1)
            self.n.next = self.s.val().get_bits::<19>(0);
            if self.s.val().get_bits::<5>(15) != 0 {
                self.n.next = 0x8000.into();
            }
        }
    }
}

/// Stage 4 (combinational): the biased exponent field the result would have if N's MSB were at
/// bit 26 of the 27-bit rounding input, `pre` = E + 25 + bias (N · 2^E the value; fp16 bias 15,
/// bf16 127), 10-bit two's complement (fp16 sigmoid with k > 25 is negative). E: −15 (tanh G,
/// sigmoid x ≥ 0), −15 − k (sigmoid x < 0), e − 152 (the fused G · m, m = the 11 top bits of the
/// significand of |x|, e its fp32 biased exponent).
#[derive(LogicBlock)]
pub struct HalfExp {
    /// format code
    pub fmt: Signal<In, Bits<2>>,
    /// the op is SIGMOID
    pub isig: Signal<In, Bit>,
    /// x < 0
    pub neg: Signal<In, Bit>,
    /// the row's scale k
    pub k: Signal<In, Bits<6>>,
    /// the result is the fused product G · m
    pub fz: Signal<In, Bit>,
    /// fp32 biased exponent of x
    pub e: Signal<In, Bits<8>>,
    /// E + 25 + bias
    pub pre: Signal<Out, Bits<10>>,
    base: Signal<Local, Bits<10>>,
    k_fmt_fp16: Constant<Bits<2>>,
}

impl Default for HalfExp {
    fn default() -> Self {
        Self {
            fmt: Default::default(),
            isig: Default::default(),
            neg: Default::default(),
            k: Default::default(),
            fz: Default::default(),
            e: Default::default(),
            pre: Default::default(),
            base: Default::default(),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
        }
    }
}

impl Logic for HalfExp {
    #[hdl_gen]
    fn update(&mut self) {
        // −15 + 25 + bias
        self.base.next = 137.into();
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.base.next = 25.into();
        }
        self.pre.next = self.base.val();
        if self.isig.val() & self.neg.val() {
            self.pre.next = self.base.val() - bit_cast::<10, 6>(self.k.val());
        }
        if self.fz.val() {
            // e − 152 + 25 + bias: e − 112 (fp16), e (bf16)
            self.pre.next = bit_cast::<10, 8>(self.e.val());
            if self.fmt.val() == self.k_fmt_fp16.val() {
                self.pre.next = bit_cast::<10, 8>(self.e.val()) - 112;
            }
        }
    }
}

/// Stage 6, first part (combinational): the leading zeros `lz` of N (`pp` > 0, 27 bits; the MSB
/// at bit 26 has lz 0), from a leading-zero tree (pairs, then groups of 4, 8, 16, 32: each level
/// one 2:1 select per group, the upper group's count if it has a one, else 2^level plus the
/// lower's), not from the shifts themselves: the shift-then-test chain (test the top 16 bits,
/// shift, test the top 8 of the result, …) was the HX8K's and UP5K's worst path at lat 8
/// (normaliser → exponent → subnormal shift). Its own block so that cut D
/// (`HalfCuts::lz_reg`) can register lz before the shift and the exponent that read it.
#[derive(LogicBlock, Default)]
pub struct HalfLz {
    /// N (> 0 when the lane is not bypassed)
    pub pp: Signal<In, Bits<27>>,
    /// the leading zeros of `pp` in 27 bits (0..=26; 27 would mean pp = 0, then 31: don't care)
    pub lz: Signal<Out, Bits<5>>,
    /// pp at the top of 32 bits
    v0: Signal<Local, Bits<32>>,
    /// the tree: per group of 2, 4, 8 bits, whether it has a one (`any*`), and per group of 2, 4,
    /// 8, 16 bits its leading zeros (`lz*`: 1, 2, 3, 4 bits per group, group i at bits [w·i + w − 1 : w·i])
    any2: Signal<Local, Bits<16>>,
    lz2: Signal<Local, Bits<16>>,
    any4: Signal<Local, Bits<8>>,
    lz4: Signal<Local, Bits<16>>,
    any8: Signal<Local, Bits<4>>,
    lz8: Signal<Local, Bits<12>>,
    /// the upper 16 bits have a one
    any16_hi: Signal<Local, Bit>,
    lz16: Signal<Local, Bits<8>>,
}

impl Logic for HalfLz {
    #[hdl_gen]
    fn update(&mut self) {
        self.v0.next = bit_cast::<32, 27>(self.pp.val()) << 5;
        self.any2.next = 0.into();
        self.lz2.next = 0.into();
        for i in 0..16 {
            self.any2.next = self.any2.val().replace_bit(i, self.v0.val().get_bit(2 * i + 1) | self.v0.val().get_bit(2 * i));
            self.lz2.next = self.lz2.val().replace_bit(i, !self.v0.val().get_bit(2 * i + 1));
        }
        self.any4.next = 0.into();
        self.lz4.next = 0.into();
        for i in 0..8 {
            self.any4.next = self.any4.val().replace_bit(i, self.any2.val().get_bit(2 * i + 1) | self.any2.val().get_bit(2 * i));
            self.lz4.next = self.lz4.val().replace_bit(2 * i + 1, !self.any2.val().get_bit(2 * i + 1));
            self.lz4.next = self.lz4.val().replace_bit(2 * i, self.lz2.val().get_bit(2 * i));
            if self.any2.val().get_bit(2 * i + 1) {
                self.lz4.next = self.lz4.val().replace_bit(2 * i, self.lz2.val().get_bit(2 * i + 1));
            }
        }
        self.any8.next = 0.into();
        self.lz8.next = 0.into();
        for i in 0..4 {
            self.any8.next = self.any8.val().replace_bit(i, self.any4.val().get_bit(2 * i + 1) | self.any4.val().get_bit(2 * i));
            self.lz8.next = self.lz8.val().replace_bit(3 * i + 2, !self.any4.val().get_bit(2 * i + 1));
            for j in 0..2 {
                self.lz8.next = self.lz8.val().replace_bit(3 * i + j, self.lz4.val().get_bit(4 * i + j));
                if self.any4.val().get_bit(2 * i + 1) {
                    self.lz8.next = self.lz8.val().replace_bit(3 * i + j, self.lz4.val().get_bit(4 * i + 2 + j));
                }
            }
        }
        self.any16_hi.next = self.any8.val().get_bit(3) | self.any8.val().get_bit(2);
        self.lz16.next = 0.into();
        for i in 0..2 {
            self.lz16.next = self.lz16.val().replace_bit(4 * i + 3, !self.any8.val().get_bit(2 * i + 1));
            for j in 0..3 {
                self.lz16.next = self.lz16.val().replace_bit(4 * i + j, self.lz8.val().get_bit(6 * i + j));
                if self.any8.val().get_bit(2 * i + 1) {
                    self.lz16.next = self.lz16.val().replace_bit(4 * i + j, self.lz8.val().get_bit(6 * i + 3 + j));
                }
            }
        }
        self.lz.next = bit_cast::<5, 4>(self.lz16.val().get_bits::<4>(0)) | 16;
        if self.any16_hi.val() {
            self.lz.next = bit_cast::<5, 4>(self.lz16.val().get_bits::<4>(4));
        }
    }
}

/// Stage 6, second part (combinational): N · 2^E (N = `pp` > 0, 27 bits) normalised with its
/// leading zeros lz (`HalfLz`): `nn` = N shifted left by lz (MSB at bit 26), `expf` = `pre` − lz,
/// the result's biased exponent minus 1 (negative: the subnormal range), and `tc` = −expf clamped
/// to 15 there (the further right shift; every amount from 12 up gives 0 for both formats), else
/// 0. The shift by lz applies its bits from 16 down to 1, the order the tree delivers them.
#[derive(LogicBlock, Default)]
pub struct HalfNorm {
    /// N (> 0 when the lane is not bypassed)
    pub pp: Signal<In, Bits<27>>,
    /// `HalfExp`'s E + 25 + bias
    pub pre: Signal<In, Bits<10>>,
    /// the leading zeros of `pp` (`HalfLz`)
    pub lz: Signal<In, Bits<5>>,
    /// N normalised
    pub nn: Signal<Out, Bits<27>>,
    /// biased exponent − 1 (10-bit two's complement)
    pub expf: Signal<Out, Bits<10>>,
    /// subnormal right shift
    pub tc: Signal<Out, Bits<4>>,
    /// pp at the top of 32 bits, lz at the exponent's width
    v0: Signal<Local, Bits<32>>,
    lzw: Signal<Local, Bits<10>>,
    /// the normalising shifts by 16, 8, 4, 2, 1
    v1: Signal<Local, Bits<32>>,
    v2: Signal<Local, Bits<32>>,
    v3: Signal<Local, Bits<32>>,
    v4: Signal<Local, Bits<32>>,
    v5: Signal<Local, Bits<32>>,
    ex: Signal<Local, Bits<10>>,
    tsub: Signal<Local, Bits<10>>,
}

impl Logic for HalfNorm {
    #[hdl_gen]
    fn update(&mut self) {
        self.v0.next = bit_cast::<32, 27>(self.pp.val()) << 5;
        self.lzw.next = bit_cast::<10, 5>(self.lz.val());
        self.v1.next = self.v0.val();
        if self.lz.val().get_bit(4) {
            self.v1.next = self.v0.val() << 16;
        }
        self.v2.next = self.v1.val();
        if self.lz.val().get_bit(3) {
            self.v2.next = self.v1.val() << 8;
        }
        self.v3.next = self.v2.val();
        if self.lz.val().get_bit(2) {
            self.v3.next = self.v2.val() << 4;
        }
        self.v4.next = self.v3.val();
        if self.lz.val().get_bit(1) {
            self.v4.next = self.v3.val() << 2;
        }
        self.v5.next = self.v4.val();
        if self.lz.val().get_bit(0) {
            self.v5.next = self.v4.val() << 1;
        }
        self.nn.next = self.v5.val().get_bits::<27>(5);
        self.ex.next = self.pre.val() - self.lzw.val();
        self.expf.next = self.ex.val();
        self.tsub.next = self.lzw.val() - self.pre.val();
        self.tc.next = 0.into();
        if self.ex.val().get_bit(9) {
            self.tc.next = self.tsub.val().get_bits::<4>(0);
            if self.tsub.val().get_bits::<6>(4) != 0 {
                self.tc.next = 15.into();
            }
        }
    }
}

/// Stage 6, the round's first part (combinational): the normalised N (`HalfNorm`) cut to fp16's
/// or bf16's significand for one RNE round with gradual underflow. In the subnormal range (expf <
/// 0) q is taken `tc` bits further right (the shifted-out bits sticky) and the exponent field is
/// 0. The magnitude before the round is (expf << f) + q with q the p-bit significand including
/// its leading 1 (f = p − 1 fraction bits), so a round-up that carries out of q steps the
/// exponent by itself (`HalfPack`); `inc` is RNE's decision. Its own block so that cut F
/// (`HalfCuts::pack_reg`) can register `mag` and `inc` before the increment.
#[derive(LogicBlock)]
pub struct HalfShift {
    /// N normalised (MSB at bit 26)
    pub nn: Signal<In, Bits<27>>,
    /// biased exponent − 1
    pub expf: Signal<In, Bits<10>>,
    /// subnormal right shift
    pub tc: Signal<In, Bits<4>>,
    pub fmt: Signal<In, Bits<2>>,
    /// the magnitude before the round, (expf << f) + q (exponent field 0 when subnormal)
    pub mag: Signal<Out, Bits<16>>,
    /// RNE rounds up: guard & (sticky | q's LSB)
    pub inc: Signal<Out, Bit>,
    wide: Signal<Local, Bits<43>>,
    nr: Signal<Local, Bits<27>>,
    st0: Signal<Local, Bit>,
    ef: Signal<Local, Bits<16>>,
    q: Signal<Local, Bits<16>>,
    guard: Signal<Local, Bit>,
    sticky: Signal<Local, Bit>,
    k_fmt_fp16: Constant<Bits<2>>,
}

impl Default for HalfShift {
    fn default() -> Self {
        Self {
            nn: Default::default(),
            expf: Default::default(),
            tc: Default::default(),
            fmt: Default::default(),
            mag: Default::default(),
            inc: Default::default(),
            wide: Default::default(),
            nr: Default::default(),
            st0: Default::default(),
            ef: Default::default(),
            q: Default::default(),
            guard: Default::default(),
            sticky: Default::default(),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
        }
    }
}

impl Logic for HalfShift {
    #[hdl_gen]
    fn update(&mut self) {
        self.wide.next = (bit_cast::<43, 27>(self.nn.val()) << 16) >> self.tc.val();
        self.nr.next = self.wide.val().get_bits::<27>(16);
        self.st0.next = self.wide.val().get_bits::<16>(0) != 0;
        self.ef.next = bit_cast::<16, 8>(self.expf.val().get_bits::<8>(0));
        if self.expf.val().get_bit(9) {
            self.ef.next = 0.into();
        }
        // bf16: p = 8 (f = 7); fp16: p = 11 (f = 10)
        self.q.next = bit_cast::<16, 8>(self.nr.val().get_bits::<8>(19));
        self.guard.next = self.nr.val().get_bit(18);
        self.sticky.next = (self.nr.val().get_bits::<18>(0) != 0) | self.st0.val();
        self.mag.next = (self.ef.val() << 7) + self.q.val();
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.q.next = bit_cast::<16, 11>(self.nr.val().get_bits::<11>(16));
            self.guard.next = self.nr.val().get_bit(15);
            self.sticky.next = (self.nr.val().get_bits::<15>(0) != 0) | self.st0.val();
            self.mag.next = (self.ef.val() << 10) + self.q.val();
        }
        self.inc.next = self.guard.val() & (self.sticky.val() | self.q.val().get_bit(0));
    }
}

/// Stage 6, last part (combinational): the RNE increment of `HalfShift`'s magnitude, ftz (a
/// result in the subnormal range after rounding is zero), the sign; the bypass value and the lane
/// mask.
#[derive(LogicBlock)]
pub struct HalfPack {
    /// the magnitude before the round (`HalfShift`)
    pub mag: Signal<In, Bits<16>>,
    /// RNE rounds up
    pub inc: Signal<In, Bit>,
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    /// the result's sign (tanh ops: the sign of x)
    pub sgn: Signal<In, Bit>,
    /// valid & mask for this lane
    pub en: Signal<In, Bit>,
    /// the result is `bv`
    pub byp: Signal<In, Bit>,
    pub bv: Signal<In, Bits<32>>,
    /// the lane's result (fp16/bf16 in [15:0])
    pub out: Signal<Out, Bits<32>>,
    rmag: Signal<Local, Bits<16>>,
    res: Signal<Local, Bits<16>>,
    k_fmt_fp16: Constant<Bits<2>>,
}

impl Default for HalfPack {
    fn default() -> Self {
        Self {
            mag: Default::default(),
            inc: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            sgn: Default::default(),
            en: Default::default(),
            byp: Default::default(),
            bv: Default::default(),
            out: Default::default(),
            rmag: Default::default(),
            res: Default::default(),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
        }
    }
}

impl Logic for HalfPack {
    #[hdl_gen]
    fn update(&mut self) {
        self.rmag.next = self.mag.val();
        if self.inc.val() {
            self.rmag.next = self.mag.val() + 1;
        }
        // ftz: a result in the subnormal range after rounding (exponent field 0) is zero
        if self.ftz.val() {
            if self.fmt.val() == self.k_fmt_fp16.val() {
                if self.rmag.val().get_bits::<5>(10) == 0 {
                    self.rmag.next = 0.into();
                }
            } else {
                if self.rmag.val().get_bits::<8>(7) == 0 {
                    self.rmag.next = 0.into();
                }
            }
        }
        self.res.next = self.rmag.val();
        if self.sgn.val() {
            self.res.next = self.rmag.val() | 0x8000;
        }
        self.out.next = bit_cast::<32, 16>(self.res.val());
        if self.byp.val() {
            self.out.next = self.bv.val();
        }
        if !self.en.val() {
            self.out.next = 0.into();
        }
    }
}

/// Cut C (`HalfCuts::widen_reg`): what stage 1 reads after `Widen`, i.e. `Decode`'s inputs and the
/// vector's control. Only the bits that can matter for fp16 and bf16 are kept: the widened x's bits
/// 31..13 (below them an fp16 or bf16 x is zero: 10 fraction bits at 22..13, a subnormal's 9 at
/// 22..14, bf16's 7 at 22..16), and the low 16 bits of the NaN result and of the raw input (the
/// 16-bit formats' bypass values, zero above bit 15). fp32 and the reserved format are bypassed to
/// 0x7FC00000 whatever the rest holds (`Decode`, and the fp32 test after it).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfWide {
    /// valid & mask for this lane
    pub en: Bit,
    pub op: Bits<2>,
    pub fmt: Bits<2>,
    pub ftz: Bit,
    /// the widened x's bits 31..13
    pub xh: Bits<19>,
    pub isnan: Bit,
    pub nanq: Bits<16>,
    pub raw: Bits<16>,
}

/// The side band that rides beside the datapath from stage 1 to `HalfPack`: one packed register
/// per stage (`HalfLane::side1`, then the delay lines `side_a` to stage 4 and `side_b` to the pack).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfSide {
    /// valid & mask for this lane
    pub en: Bit,
    /// the result is `bv` (a special case or the reserved format)
    pub byp: Bit,
    pub bv: Bits<32>,
    pub fmt: Bits<2>,
    pub ftz: Bit,
    /// the result's sign: tanh ops carry the sign of x; sigmoid results are positive
    pub sgn: Bit,
}

/// The fields of the widened x that stage 4 reads (range, exponent, fused multiplicand), carried
/// from stage 1 (`HalfLane::x1`, delay line `x_a`).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfX {
    pub op: Bits<2>,
    /// sign, fp32 biased exponent and top 10 fraction bits
    pub sx: Bit,
    pub e: Bits<8>,
    pub mt: Bits<10>,
}

/// Stage 3's register: c0, k and the coefficients' signs from the ROM word, D12 and SQ.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfCoef {
    pub c0: Bits<16>,
    pub k: Bits<6>,
    pub c1neg: Bit,
    pub c2neg: Bit,
    pub d12: Bits<12>,
    pub sq: Bits<12>,
}

/// Cut B (`HalfCuts::accum_reg`): S from `HalfSum` and the row's k.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfAcc {
    pub s: Bits<20>,
    pub k: Bits<6>,
}

/// Stages 4 and 5: the range-reduced N and the exponent before normalisation. (Whether the fused
/// G · m replaces N, `fz`, has registers of its own: it also feeds `HalfExp`, and a signal that
/// feeds a sub-block and shares a packed vector with that sub-block's output made Verilator see
/// a combinational loop, UNOPTFLAT, through the one `always` block.)
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfMid {
    pub n: Bits<19>,
    pub pre: Bits<10>,
}

/// Cut D (`HalfCuts::lz_reg`): N and the exponent before normalisation, what `HalfNorm` reads
/// beside N's leading zeros (those have a register of their own, `HalfLane::lz6`: a packed
/// vector holding both `HalfLz`'s output and N, which feeds `HalfLz`, made Verilator see a
/// combinational loop through the one `always` block, UNOPTFLAT).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfLzd {
    pub pp: Bits<27>,
    pub pre: Bits<10>,
}

/// Cut F (`HalfCuts::pack_reg`): `HalfShift`'s outputs, the magnitude before the round and RNE's
/// decision.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfRnd {
    pub mag: Bits<16>,
    pub inc: Bit,
}

/// Cut A (`HalfCuts::round_reg`): `HalfNorm`'s outputs.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct HalfNormed {
    pub nn: Bits<27>,
    pub expf: Bits<10>,
    pub tc: Bits<4>,
}

/// One lane of the half-only datapath (FUSED = 1, LAT = 6; see the module docs for the stages).
/// The same ports as the all-formats `Lane`.
#[derive(LogicBlock)]
pub struct HalfLane {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// valid & mask for this lane
    pub en: Signal<In, Bit>,
    /// op code of the vector
    pub op: Signal<In, Bits<2>>,
    /// format code of the vector
    pub fmt: Signal<In, Bits<2>>,
    /// flush subnormals to zero
    pub ftz: Signal<In, Bit>,
    /// the lane's input word (fp16/bf16 in [15:0])
    pub din: Signal<In, Bits<32>>,
    /// the lane's result, LAT cycles later
    pub dout: Signal<Out, Bits<32>>,
    widen: Widen,
    decode: Decode,
    rom: ROM<Bits<43>, 10>,
    /// 6 × 6 squarer (stage 2), c1 · D12 and c2 · SQ (stage 3), G · m (stage 5): `Mul` without
    /// cut E, `MulDsp` with it (one of each pair holds one)
    msq: Vec<Mul<6, 6, 12>>,
    m1: Vec<Mul<13, 12, 25>>,
    m2: Vec<Mul<8, 12, 20>>,
    m3: Vec<Mul<16, 11, 27>>,
    msq_dsp: Vec<MulDsp<6, 6, 12>>,
    m1_dsp: Vec<MulDsp<13, 12, 25>>,
    m2_dsp: Vec<MulDsp<8, 12, 20>>,
    m3_dsp: Vec<MulDsp<16, 11, 27>>,
    sum: HalfSum,
    range: HalfRange,
    expo: HalfExp,
    lzc: HalfLz,
    norm: HalfNorm,
    shift: HalfShift,
    pack: HalfPack,
    // ---- stage 1, cut C: a register with `HalfCuts::widen_reg`, a wire without
    wide_s0: Signal<Local, HalfWide>,
    wide: StageReg<HalfWide>,
    /// cut C's op and widened x (bits 12..0 zero) read whole for the side band's bit selects (see
    /// `op_s1`). `Decode`'s inputs come from `wide` itself, not from these: a signal written in
    /// this block that fed both `Decode` and the side band that reads `Decode`'s outputs made
    /// Verilator see a combinational loop through the one `always` block (UNOPTFLAT).
    op_c: Signal<Local, Bits<2>>,
    x_c: Signal<Local, Bits<32>>,
    side_s0: Signal<Local, HalfSide>,
    x_s0: Signal<Local, HalfX>,
    side1: RDff<HalfSide>,
    x1: RDff<HalfX>,
    /// struct fields read whole into signals of their own before a bit is taken: yosys 0.23
    /// rejects the select of a select (`q[0 +: 2][0]`) that a field's bit would give
    op_s1: Signal<Local, Bits<2>>,
    op_s3: Signal<Local, Bits<2>>,
    n_s4: Signal<Local, Bits<19>>,
    row1: RDff<Bits<9>>,
    /// D12 = Δ[22:11]
    d1: RDff<Bits<12>>,
    // ---- stage 2 (and the squarer's register, inside `msq`)
    w2: RDff<Bits<43>>,
    d2: RDff<Bits<12>>,
    // ---- stage 3 (and the products', inside `m1`, `m2`)
    coef_s2: Signal<Local, HalfCoef>,
    /// stage 3's register, two with cut E (the products' extra cycle)
    coef3: Delay<HalfCoef>,
    /// the side band and x from stage 1 to stage 4: stages 2, 3 (and E's cycle) and cut B
    side_a: Delay<HalfSide>,
    x_a: Delay<HalfX>,
    // ---- cut B: a register with `HalfCuts::accum_reg`, a wire without
    acc_s3: Signal<Local, HalfAcc>,
    acc: StageReg<HalfAcc>,
    // ---- stage 4
    fz: Signal<Local, Bit>,
    mid_s3: Signal<Local, HalfMid>,
    /// cut G: a register after `HalfRange` (N, the exponent, fz and m) with
    /// `HalfCuts::range_reg`, a wire without; fz and m apart from N (fz feeds `HalfExp`, whose
    /// output is in `mid_s3`: one packed vector would be Verilator's UNOPTFLAT again)
    rng: StageReg<HalfMid>,
    fzg: StageReg<Bit>,
    mtg: StageReg<Bits<10>>,
    /// cut G's N read whole for G · m's bit select (see `op_s1`)
    n_g: Signal<Local, Bits<19>>,
    mid4: RDff<HalfMid>,
    fz4: RDff<Bit>,
    /// m, G · m's multiplicand, registered for the `Mul` (without cut E; with it, in `m3_dsp`)
    mm4: Vec<RDff<Bits<11>>>,
    // ---- stage 5 (and the product's, inside `m3`)
    mid_s4: Signal<Local, HalfMid>,
    mid5: RDff<HalfMid>,
    fz5: RDff<Bit>,
    /// the side band from stage 4 to `HalfShift`: stages 4, 5 and cuts G, D, A; then cut F's
    /// register to `HalfPack`
    side_b: Delay<HalfSide>,
    side_f: StageReg<HalfSide>,
    // ---- stage 6, cut D: a register with `HalfCuts::lz_reg`, a wire without; cut A likewise
    pp6: Signal<Local, Bits<27>>,
    lzd_s5: Signal<Local, HalfLzd>,
    lzd: StageReg<HalfLzd>,
    lz6: StageReg<Bits<5>>,
    normed_s5: Signal<Local, HalfNormed>,
    normed: StageReg<HalfNormed>,
    // ---- cut F: a register with `HalfCuts::pack_reg`, a wire without
    rnd_s5: Signal<Local, HalfRnd>,
    rnd: StageReg<HalfRnd>,
    out6: RDff<Bits<32>>,
    k_op_tanh: Constant<Bits<2>>,
    k_fmt_fp32: Constant<Bits<2>>,
    /// 1 without cut E (the `Mul`s), 0 with it; and the other way round (the `MulDsp`s)
    _n_mul: usize,
    _n_dsp: usize,
}

impl HalfLane {
    /// `cuts`: the half lane's pipeline cuts (`HalfCuts`), one cycle each.
    pub fn new(canon_nan: bool, cuts: HalfCuts) -> Self {
        let (a, b, c, d, e) = (cuts.round_reg, cuts.accum_reg, cuts.widen_reg, cuts.lz_reg, cuts.mul_dsp as usize);
        let (f, g) = (cuts.pack_reg, cuts.range_reg);
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            widen: Widen::new(canon_nan),
            decode: Decode::new(true),
            rom: half_rom(),
            msq: (0..1 - e).map(|_| Mul::default()).collect(),
            m1: (0..1 - e).map(|_| Mul::default()).collect(),
            m2: (0..1 - e).map(|_| Mul::default()).collect(),
            m3: (0..1 - e).map(|_| Mul::default()).collect(),
            msq_dsp: (0..e).map(|_| MulDsp::default()).collect(),
            m1_dsp: (0..e).map(|_| MulDsp::default()).collect(),
            m2_dsp: (0..e).map(|_| MulDsp::default()).collect(),
            m3_dsp: (0..e).map(|_| MulDsp::default()).collect(),
            sum: Default::default(),
            range: Default::default(),
            expo: Default::default(),
            lzc: Default::default(),
            norm: Default::default(),
            shift: Default::default(),
            pack: Default::default(),
            wide_s0: Default::default(),
            wide: StageReg::new(c),
            op_c: Default::default(),
            x_c: Default::default(),
            side_s0: Default::default(),
            x_s0: Default::default(),
            side1: Default::default(),
            x1: Default::default(),
            op_s1: Default::default(),
            op_s3: Default::default(),
            n_s4: Default::default(),
            row1: Default::default(),
            d1: Default::default(),
            w2: Default::default(),
            d2: Default::default(),
            coef_s2: Default::default(),
            coef3: Delay::new(1 + e),
            side_a: Delay::new(2 + b as usize + e),
            x_a: Delay::new(2 + b as usize + e),
            acc_s3: Default::default(),
            acc: StageReg::new(b),
            fz: Default::default(),
            mid_s3: Default::default(),
            rng: StageReg::new(g),
            fzg: StageReg::new(g),
            mtg: StageReg::new(g),
            n_g: Default::default(),
            mid4: Default::default(),
            fz4: Default::default(),
            mm4: (0..1 - e).map(|_| RDff::default()).collect(),
            mid_s4: Default::default(),
            mid5: Default::default(),
            fz5: Default::default(),
            side_b: Delay::new(2 + a as usize + d as usize + g as usize),
            side_f: StageReg::new(f),
            pp6: Default::default(),
            lzd_s5: Default::default(),
            lzd: StageReg::new(d),
            lz6: StageReg::new(d),
            normed_s5: Default::default(),
            normed: StageReg::new(a),
            rnd_s5: Default::default(),
            rnd: StageReg::new(f),
            out6: Default::default(),
            k_op_tanh: Constant::new(op::TANH.into()),
            k_fmt_fp32: Constant::new(fmt::FP32.into()),
            _n_mul: 1 - e,
            _n_dsp: e,
        }
    }
}

impl Logic for HalfLane {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, wide, side1, x1, row1, d1, w2, d2, coef3, side_a, x_a, acc, rng, fzg, mtg, mid4, fz4, mid5, fz5, side_b, side_f, lzd, lz6, normed, rnd, out6);
        for i in 0..self._n_mul {
            self.msq[i].clock.next = self.clk.val();
            self.m1[i].clock.next = self.clk.val();
            self.m2[i].clock.next = self.clk.val();
            self.m3[i].clock.next = self.clk.val();
            self.mm4[i].clock.next = self.clk.val();
            self.msq[i].rst.next = self.rst.val();
            self.m1[i].rst.next = self.rst.val();
            self.m2[i].rst.next = self.rst.val();
            self.m3[i].rst.next = self.rst.val();
            self.mm4[i].rst.next = self.rst.val();
        }
        // no reset (the DSP's registers have none): the side band's en and byp qualify the result
        for i in 0..self._n_dsp {
            self.msq_dsp[i].clock.next = self.clk.val();
            self.m1_dsp[i].clock.next = self.clk.val();
            self.m2_dsp[i].clock.next = self.clk.val();
            self.m3_dsp[i].clock.next = self.clk.val();
            self.msq_dsp[i].en.next = true;
            self.m1_dsp[i].en.next = true;
            self.m2_dsp[i].en.next = true;
            self.m3_dsp[i].en.next = true;
        }
        self.wide.rst.next = self.rst.val();
        self.wide.en.next = true;
        self.side1.rst.next = self.rst.val();
        self.x1.rst.next = self.rst.val();
        self.row1.rst.next = self.rst.val();
        self.d1.rst.next = self.rst.val();
        self.w2.rst.next = self.rst.val();
        self.d2.rst.next = self.rst.val();
        self.coef3.rst.next = self.rst.val();
        self.side_a.rst.next = self.rst.val();
        self.x_a.rst.next = self.rst.val();
        self.acc.rst.next = self.rst.val();
        self.acc.en.next = true;
        self.rng.rst.next = self.rst.val();
        self.rng.en.next = true;
        self.fzg.rst.next = self.rst.val();
        self.fzg.en.next = true;
        self.mtg.rst.next = self.rst.val();
        self.mtg.en.next = true;
        self.mid4.rst.next = self.rst.val();
        self.fz4.rst.next = self.rst.val();
        self.mid5.rst.next = self.rst.val();
        self.fz5.rst.next = self.rst.val();
        self.side_b.rst.next = self.rst.val();
        self.side_f.rst.next = self.rst.val();
        self.side_f.en.next = true;
        self.lzd.rst.next = self.rst.val();
        self.lzd.en.next = true;
        self.lz6.rst.next = self.rst.val();
        self.lz6.en.next = true;
        self.normed.rst.next = self.rst.val();
        self.normed.en.next = true;
        self.rnd.rst.next = self.rst.val();
        self.rnd.en.next = true;
        self.out6.rst.next = self.rst.val();

        // ================= stage 1: widen (cut C: a register), decode; fp32 is reserved here =================
        self.widen.fmt.next = self.fmt.val();
        self.widen.ftz.next = self.ftz.val();
        self.widen.din.next = self.din.val();
        self.wide_s0.next.en = self.en.val();
        self.wide_s0.next.op = self.op.val();
        self.wide_s0.next.fmt = self.fmt.val();
        self.wide_s0.next.ftz = self.ftz.val();
        self.wide_s0.next.xh = self.widen.x.val().get_bits::<19>(13);
        self.wide_s0.next.isnan = self.widen.isnan.val();
        self.wide_s0.next.nanq = self.widen.nanq.val().get_bits::<16>(0);
        self.wide_s0.next.raw = self.widen.raw.val().get_bits::<16>(0);
        self.wide.d.next = self.wide_s0.val();
        self.decode.op.next = self.wide.q.val().op;
        self.decode.fmt.next = self.wide.q.val().fmt;
        self.decode.x.next = bit_cast::<32, 19>(self.wide.q.val().xh) << 13;
        self.decode.isnan.next = self.wide.q.val().isnan;
        self.decode.nanq.next = bit_cast::<32, 16>(self.wide.q.val().nanq);
        self.decode.raw.next = bit_cast::<32, 16>(self.wide.q.val().raw);
        self.op_c.next = self.wide.q.val().op;
        self.x_c.next = bit_cast::<32, 19>(self.wide.q.val().xh) << 13;
        self.side_s0.next.en = self.wide.q.val().en;
        self.side_s0.next.byp = self.decode.byp.val();
        self.side_s0.next.bv = self.decode.bv.val();
        if self.wide.q.val().fmt == self.k_fmt_fp32.val() {
            // §6.4: the format the unit does not implement gives the reserved-format result
            self.side_s0.next.byp = true;
            self.side_s0.next.bv = 0x7FC0_0000.into();
        }
        self.side_s0.next.fmt = self.wide.q.val().fmt;
        self.side_s0.next.ftz = self.wide.q.val().ftz;
        // tanh ops carry the sign of x; sigmoid results are positive
        self.side_s0.next.sgn = self.x_c.val().get_bit(31) & !self.op_c.val().get_bit(0);
        self.side1.d.next = self.side_s0.val();
        self.x_s0.next.op = self.op_c.val();
        self.x_s0.next.sx = self.x_c.val().get_bit(31);
        self.x_s0.next.e = self.x_c.val().get_bits::<8>(23);
        self.x_s0.next.mt = self.x_c.val().get_bits::<10>(13);
        self.x1.d.next = self.x_s0.val();
        self.row1.d.next = self.decode.row.val();
        self.d1.d.next = self.decode.delta.val().get_bits::<12>(11);
        // cut E: the squarer's input register is this stage's (Δ[22:17] = D12[11:6])
        for i in 0..self._n_dsp {
            self.msq_dsp[i].a.next = self.decode.delta.val().get_bits::<6>(17);
            self.msq_dsp[i].b.next = self.decode.delta.val().get_bits::<6>(17);
        }

        // ================= stage 2: ROM (registered read), squarer =================
        // ROM half by op bit 0: sigmoid rows at 512 (`enc::op_bit0_is_sigmoid`)
        self.op_s1.next = self.x1.q.val().op;
        self.rom.address.next = (bit_cast::<10, 1>(self.op_s1.val().get_bit(0).into()) << 9) | bit_cast::<10, 9>(self.row1.q.val());
        self.w2.d.next = self.rom.data.val();
        // SQ = (Δ >> 17)²: D12's top 6 bits
        for i in 0..self._n_mul {
            self.msq[i].a.next = self.d1.q.val().get_bits::<6>(6);
            self.msq[i].b.next = self.d1.q.val().get_bits::<6>(6);
        }
        self.d2.d.next = self.d1.q.val();
        self.side_a.d.next = self.side1.q.val();
        self.x_a.d.next = self.x1.q.val();

        // ================= stage 3: products of the coefficients' bit patterns (two cycles with cut E) =================
        // word {k[42:37], c2[36:29], c1[28:16], c0[15:0]}
        for i in 0..self._n_mul {
            self.m1[i].a.next = self.w2.q.val().get_bits::<13>(16);
            self.m1[i].b.next = self.d2.q.val();
            self.m2[i].a.next = self.w2.q.val().get_bits::<8>(29);
            self.m2[i].b.next = self.msq[i].p.val();
            self.coef_s2.next.sq = self.msq[i].p.val();
            self.sum.p1.next = self.m1[i].p.val();
            self.sum.p2.next = self.m2[i].p.val();
        }
        for i in 0..self._n_dsp {
            self.m1_dsp[i].a.next = self.w2.q.val().get_bits::<13>(16);
            self.m1_dsp[i].b.next = self.d2.q.val();
            self.m2_dsp[i].a.next = self.w2.q.val().get_bits::<8>(29);
            self.m2_dsp[i].b.next = self.msq_dsp[i].p.val();
            self.coef_s2.next.sq = self.msq_dsp[i].p.val();
            self.sum.p1.next = self.m1_dsp[i].p.val();
            self.sum.p2.next = self.m2_dsp[i].p.val();
        }
        self.coef_s2.next.c0 = self.w2.q.val().get_bits::<16>(0);
        self.coef_s2.next.k = self.w2.q.val().get_bits::<6>(37);
        self.coef_s2.next.c1neg = self.w2.q.val().get_bit(28);
        self.coef_s2.next.c2neg = self.w2.q.val().get_bit(36);
        self.coef_s2.next.d12 = self.d2.q.val();
        self.coef3.d.next = self.coef_s2.val();

        // ================= stage 4: accumulate (cut B: a register after S), exponent, fused multiplicand (cut G: a register after them) =================
        self.sum.c0.next = self.coef3.q.val().c0;
        self.sum.c1neg.next = self.coef3.q.val().c1neg;
        self.sum.c2neg.next = self.coef3.q.val().c2neg;
        self.sum.d12.next = self.coef3.q.val().d12;
        self.sum.sq.next = self.coef3.q.val().sq;
        self.acc_s3.next.s = self.sum.s.val();
        self.acc_s3.next.k = self.coef3.q.val().k;
        self.acc.d.next = self.acc_s3.val();
        self.range.s.next = self.acc.q.val().s;
        self.range.k.next = self.acc.q.val().k;
        self.op_s3.next = self.x_a.q.val().op;
        self.range.isig.next = self.op_s3.val().get_bit(0);
        self.range.neg.next = self.x_a.q.val().sx;
        // op TANH with |x| < 1 (e < 127): G times m = the significand's top 11 bits (fp16 has 11
        // significant bits, bf16 8: exact)
        self.fz.next = (self.x_a.q.val().op == self.k_op_tanh.val()) & (self.x_a.q.val().e < 127);
        self.expo.fmt.next = self.side_a.q.val().fmt;
        self.expo.isig.next = self.op_s3.val().get_bit(0);
        self.expo.neg.next = self.x_a.q.val().sx;
        self.expo.k.next = self.acc.q.val().k;
        self.expo.fz.next = self.fz.val();
        self.expo.e.next = self.x_a.q.val().e;
        self.mid_s3.next.n = self.range.n.val();
        self.mid_s3.next.pre = self.expo.pre.val();
        self.rng.d.next = self.mid_s3.val();
        self.fzg.d.next = self.fz.val();
        self.mtg.d.next = self.x_a.q.val().mt;
        self.n_g.next = self.rng.q.val().n;
        self.mid4.d.next = self.rng.q.val();
        self.fz4.d.next = self.fzg.q.val();
        for i in 0..self._n_mul {
            self.mm4[i].d.next = bit_cast::<11, 10>(self.mtg.q.val()) | 0x400;
        }
        // cut E: G · m's input registers are this stage's (after cut G's register, if any)
        for i in 0..self._n_dsp {
            self.m3_dsp[i].a.next = self.n_g.val().get_bits::<16>(0);
            self.m3_dsp[i].b.next = bit_cast::<11, 10>(self.mtg.q.val()) | 0x400;
        }
        self.side_b.d.next = self.side_a.q.val();

        // ================= stage 5: G * m =================
        self.n_s4.next = self.mid4.q.val().n;
        for i in 0..self._n_mul {
            self.m3[i].a.next = self.n_s4.val().get_bits::<16>(0);
            self.m3[i].b.next = self.mm4[i].q.val();
        }
        // N through `n_s4`, which both multipliers' variants read (with cut E it feeds only this)
        self.mid_s4.next.n = self.n_s4.val();
        self.mid_s4.next.pre = self.mid4.q.val().pre;
        self.mid5.d.next = self.mid_s4.val();
        self.fz5.d.next = self.fz4.q.val();

        // ================= stage 6: leading zeros (cut D: a register), normalise (cut A: a register), round (cut F: a register before the increment), pack =================
        self.pp6.next = bit_cast::<27, 19>(self.mid5.q.val().n);
        for i in 0..self._n_mul {
            if self.fz5.q.val() {
                self.pp6.next = self.m3[i].p.val();
            }
        }
        for i in 0..self._n_dsp {
            if self.fz5.q.val() {
                self.pp6.next = self.m3_dsp[i].p.val();
            }
        }
        self.lzc.pp.next = self.pp6.val();
        self.lzd_s5.next.pp = self.pp6.val();
        self.lzd_s5.next.pre = self.mid5.q.val().pre;
        self.lzd.d.next = self.lzd_s5.val();
        self.lz6.d.next = self.lzc.lz.val();
        self.norm.pp.next = self.lzd.q.val().pp;
        self.norm.pre.next = self.lzd.q.val().pre;
        self.norm.lz.next = self.lz6.q.val();
        self.normed_s5.next.nn = self.norm.nn.val();
        self.normed_s5.next.expf = self.norm.expf.val();
        self.normed_s5.next.tc = self.norm.tc.val();
        self.normed.d.next = self.normed_s5.val();
        self.shift.nn.next = self.normed.q.val().nn;
        self.shift.expf.next = self.normed.q.val().expf;
        self.shift.tc.next = self.normed.q.val().tc;
        self.shift.fmt.next = self.side_b.q.val().fmt;
        self.rnd_s5.next.mag = self.shift.mag.val();
        self.rnd_s5.next.inc = self.shift.inc.val();
        self.rnd.d.next = self.rnd_s5.val();
        self.side_f.d.next = self.side_b.q.val();
        self.pack.mag.next = self.rnd.q.val().mag;
        self.pack.inc.next = self.rnd.q.val().inc;
        self.pack.fmt.next = self.side_f.q.val().fmt;
        self.pack.ftz.next = self.side_f.q.val().ftz;
        self.pack.sgn.next = self.side_f.q.val().sgn;
        self.pack.en.next = self.side_f.q.val().en;
        self.pack.byp.next = self.side_f.q.val().byp;
        self.pack.bv.next = self.side_f.q.val().bv;
        self.out6.d.next = self.pack.out.val();
        self.dout.next = self.out6.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `lat` − 6 → the cuts, in the documented order A, B, C, D, E, F, G, and the cycles they add
    /// (beyond G the top's output registers take the rest).
    #[test]
    fn half_cuts_come_in_the_order_a_to_g() {
        let want = [
            [false, false, false, false, false, false, false],
            [true, false, false, false, false, false, false],
            [true, true, false, false, false, false, false],
            [true, true, true, false, false, false, false],
            [true, true, true, true, false, false, false],
            [true, true, true, true, true, false, false],
            [true, true, true, true, true, true, false],
            [true, true, true, true, true, true, true],
            [true, true, true, true, true, true, true],
        ];
        for (extra, w) in want.iter().enumerate() {
            let k = HalfCuts::for_extra(extra);
            assert_eq!([k.round_reg, k.accum_reg, k.widen_reg, k.lz_reg, k.mul_dsp, k.pack_reg, k.range_reg], *w, "extra {extra}");
            assert_eq!(k.cycles(), extra.min(7), "extra {extra}");
        }
    }

    /// N values for the normaliser tests: every single-bit pp and 3 000 random ones of random
    /// width (so that every leading-zero count is drawn often).
    fn norm_inputs() -> Vec<u64> {
        let mut rng = StdRng::seed_from_u64(0x2545_F491);
        let mut pps: Vec<u64> = (0..27).map(|k| 1u64 << k).collect();
        for _ in 0..3000 {
            let w = rng.gen_range(1..=27u32);
            pps.push(rng.gen::<u64>() & ((1u64 << w) - 1) | 1u64 << (w - 1));
        }
        pps
    }

    /// `HalfLz` against `u32::leading_zeros` of pp in 27 bits.
    #[test]
    fn half_lz_matches_the_leading_zero_count() {
        let mut lzc = HalfLz::default();
        lzc.connect_all();
        for pp in norm_inputs() {
            lzc.pp.next = pp.to_bits();
            assert!(simulate(&mut lzc, 100));
            assert_eq!(lzc.lz.val().index() as u64, (pp as u32).leading_zeros() as u64 - 5, "pp {pp:#x}");
        }
    }

    /// `HalfNorm` against its contract, given the true lz (`HalfLz` is checked above): the inputs
    /// of `norm_inputs`, each with `pre` from the top of the exponent range down to the deep
    /// subnormal range.
    #[test]
    fn half_norm_matches_the_leading_zero_count() {
        let mut norm = HalfNorm::default();
        norm.connect_all();
        for pp in norm_inputs() {
            for pre in [0u64, 1, 5, 25, 40, 137, 200, 1000, 1023] {
                let lz = (pp as u32).leading_zeros() as u64 - 5;
                norm.pp.next = pp.to_bits();
                norm.pre.next = pre.to_bits();
                norm.lz.next = lz.to_bits();
                assert!(simulate(&mut norm, 100));
                let ex = (pre + 1024 - lz) & 0x3FF;
                let tc = if ex >> 9 == 1 { (1024 - ex).min(15) } else { 0 };
                let got = (norm.nn.val().index() as u64, norm.expf.val().index() as u64, norm.tc.val().index() as u64);
                assert_eq!(got, ((pp << lz) & ((1 << 27) - 1), ex, tc), "pp {pp:#x} pre {pre}");
            }
        }
    }
}
