//! `RoundPack`: normalise, round and pack (the last stage of a lane), optionally cut in two.

use super::enc::fmt;
use crate::prims::StageReg;
use rust_hdl::prelude::*;

/// What the normalising shift amount needs from the exponent and the format, a stage ahead of
/// `RoundPack` (combinational; the fused lane registers `pre` with the stage before the round
/// stage, so its subtracts are off the round stage's path; the ECP5's seed-1 worst path at
/// lat 16 was fmt → the shift amount → `round.jf_sh1`). Packed as `word` = {ek, tc, b1}
/// (12 + 3 + 12 bits), with kx = 1025 − (1280 + emin − (p−1)) + 256 − … per format (106 fp32,
/// 231 fp16, 122 bf16, the constants the round stage used):
/// - b1 = kx − exb: the shift amount minus one when the exponent limits it (gradual underflow);
///   the old `cb − exb − 1025` (cb − 1025 = kx);
/// - tc = clamp(b1 − base, 0, 6) with base = 51 − (p−1): the leading-one offset mo = msb − 52 ∈
///   0..=5 gives b1 > base + mo exactly when tc > mo, so `RoundPack` compares 3 bits, not 12;
/// - ek = exb + 1 − kx: the result's biased exponent is ek + (shift amount − 1).
///
/// The same shift amount and exponent as before for every exb (0..1023) and format, checked
/// exhaustively in `tests::shift_pre_gives_the_old_shift_amount`.
///
/// Built with `split` (`ShiftPre::new(true)`: the fused lane when the stage-5 signals are delayed
/// two cycles or more), a register between the three subtracts and the clamp of tc, one of the
/// delay's cycles: the ECP5's seed-1 worst path at lat 17 was fmt4 → kx → the subtract's carry
/// chain → the clamp → the sync-reset (LSR) input of `pre5`'s first register (9.43 ns).
/// `clk` and `rst` drive that register only.
#[derive(LogicBlock)]
pub struct ShiftPre {
    /// clock of the split register (unused without `split`)
    pub clk: Signal<In, Clock>,
    /// synchronous reset of the split register
    pub rst: Signal<In, Bit>,
    /// the value's biased exponent
    pub exb: Signal<In, Bits<12>>,
    /// format code
    pub fmt: Signal<In, Bits<2>>,
    /// {ek, tc, b1}, one cycle later with `split`
    pub word: Signal<Out, Bits<27>>,
    kx: Signal<Local, Bits<12>>,
    kb: Signal<Local, Bits<12>>,
    kx1: Signal<Local, Bits<12>>,
    b1: Signal<Local, Bits<12>>,
    t0: Signal<Local, Bits<12>>,
    ek: Signal<Local, Bits<12>>,
    /// {ek, t, b1} of the subtracts; `j_sub` the split register (or a wire)
    sub: Signal<Local, Bits<36>>,
    j_sub: StageReg<Bits<36>>,
    t: Signal<Local, Bits<12>>,
    tc: Signal<Local, Bits<3>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
}

impl ShiftPre {
    /// With `split`, a register between the subtracts and the clamp (one cycle).
    pub fn new(split: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            exb: Default::default(),
            fmt: Default::default(),
            word: Default::default(),
            kx: Default::default(),
            kb: Default::default(),
            kx1: Default::default(),
            b1: Default::default(),
            t0: Default::default(),
            ek: Default::default(),
            sub: Default::default(),
            j_sub: StageReg::new(split),
            t: Default::default(),
            tc: Default::default(),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
            k_fmt_bf16: Constant::new(fmt::BF16.into()),
        }
    }
}

impl Logic for ShiftPre {
    #[hdl_gen]
    fn update(&mut self) {
        self.j_sub.clock.next = self.clk.val();
        self.j_sub.rst.next = self.rst.val();
        self.j_sub.en.next = true;
        // per format: kx = (p-1) + bias - 256 negated (= 1280 + emin - (p-1) - 1025),
        // kb = kx - (51 - (p-1)), kx1 = kx - 1
        self.kx.next = 106.into();
        self.kb.next = 78.into();
        self.kx1.next = 105.into();
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.kx.next = 231.into();
            self.kb.next = 190.into();
            self.kx1.next = 230.into();
        }
        if self.fmt.val() == self.k_fmt_bf16.val() {
            self.kx.next = 122.into();
            self.kb.next = 78.into();
            self.kx1.next = 121.into();
        }
        // b1 = kx - exb, t = kb - exb, ek = exb - kx1, each in its own 12-bit signal (a subtract
        // inside the 36-bit concatenation would be computed 36 bits wide in Verilog)
        self.b1.next = self.kx.val() - self.exb.val();
        self.t0.next = self.kb.val() - self.exb.val();
        self.ek.next = self.exb.val() - self.kx1.val();
        self.sub.next = bit_cast::<36, 12>(self.b1.val()) | (bit_cast::<36, 12>(self.t0.val()) << 12) | (bit_cast::<36, 12>(self.ek.val()) << 24);
        self.j_sub.d.next = self.sub.val();
        // t as a signed 12-bit value (|t| < 2^10), clamped to 0..=6
        self.t.next = self.j_sub.q.val().get_bits::<12>(12);
        self.tc.next = self.t.val().get_bits::<3>(0);
        if self.t.val() > 5 {
            self.tc.next = 6.into();
        }
        if self.t.val().get_bit(11) {
            self.tc.next = 0.into();
        }
        self.word.next = bit_cast::<27, 12>(self.j_sub.q.val().get_bits::<12>(0))
            | (bit_cast::<27, 3>(self.tc.val()) << 12)
            | (bit_cast::<27, 12>(self.j_sub.q.val().get_bits::<12>(24)) << 15);
    }
}

/// The signals that ride through the round stage's cuts unchanged: format, ftz, the result's
/// sign, the lane enable, and the bypass flag and value.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Side {
    pub fmt: Bits<2>,
    pub ftz: Bit,
    pub s: Bit,
    pub en: Bit,
    pub byp: Bit,
    pub bv: Bits<32>,
}

/// Normalise, round (RNE, fp16 gradual underflow, ftz on results) and pack the value
/// `pp` * 2^(`exb` - 256), `pp` in [2^52, 2^58); then the bypass value and the enable. The
/// lane registers `out`. Combinational unless built with `cut` (pipeline cut A of `lat`): then a
/// register between the two halves, after the normalising shift and the sticky bit and before
/// the rounding increment and the pack, adds one cycle. With `shift_cut` (cut F) a register after
/// the leading one and the shift amount, before the shift and the sticky bit, adds another. With
/// `shift_split` (cut L) a register inside the shift: the coarse shift (by the shift amount's
/// multiple of 8, zero from 64 up) and the sticky bit of what it drops before it, the fine shift
/// (0..=7) and the sticky bit of its 7 dropped bits after it (the ECP5's worst path at lat 17 was
/// `jf_sh1` → the whole 64-bit shift → `j_hi`, 8.9 ns, 6 of it routing).
#[derive(LogicBlock)]
pub struct RoundPack {
    /// clock of the cut registers (unused without the cut)
    pub clk: Signal<In, Clock>,
    /// synchronous reset of the cut registers
    pub rst: Signal<In, Bit>,
    pub pp: Signal<In, Bits<64>>,
    /// `ShiftPre`'s `word` for the value's biased exponent exb and `fmt`
    pub shw: Signal<In, Bits<27>>,
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    pub s: Signal<In, Bit>,
    pub en: Signal<In, Bit>,
    pub byp: Signal<In, Bit>,
    pub bv: Signal<In, Bits<32>>,
    pub out: Signal<Out, Bits<32>>,
    mo: Signal<Local, Bits<3>>,
    base: Signal<Local, Bits<12>>,
    sh1: Signal<Local, Bits<12>>,
    hi1: Signal<Local, Bits<64>>,
    stk: Signal<Local, Bit>,
    e0: Signal<Local, Bits<12>>,
    tc: Signal<Local, Bits<3>>,
    // ---- cut F (registers with `shift_cut`, wires without): shift amount -> shift and sticky
    jf_pp: StageReg<Bits<64>>,
    jf_sh1: StageReg<Bits<12>>,
    jf_ek: StageReg<Bits<12>>,
    /// the side signals in, and through cuts F, L and A
    side_in: Signal<Local, Side>,
    jf_side: StageReg<Side>,
    // ---- the shift in two: coarse (multiples of 8) | cut L | fine (0..=7)
    coarse: Signal<Local, Bits<12>>,
    r0: Signal<Local, Bits<64>>,
    low0: Signal<Local, Bits<64>>,
    stk0: Signal<Local, Bit>,
    fine: Signal<Local, Bits<3>>,
    low1: Signal<Local, Bits<8>>,
    // cut L (registers with `shift_split`, wires without)
    jl_r: StageReg<Bits<40>>,
    jl_stk: StageReg<Bit>,
    jl_fine: StageReg<Bits<3>>,
    jl_e0: StageReg<Bits<12>>,
    jl_side: StageReg<Side>,
    // ---- the cut (registers with `cut`, wires without): first half -> second half
    j_hi: StageReg<Bits<33>>,
    j_stk: StageReg<Bit>,
    j_e0: StageReg<Bits<12>>,
    j_side: StageReg<Side>,
    /// the side signals after the cuts, unpacked
    side_fmt: Signal<Local, Bits<2>>,
    side_ftz: Signal<Local, Bit>,
    side_s: Signal<Local, Bit>,
    side_en: Signal<Local, Bit>,
    side_byp: Signal<Local, Bit>,
    side_bv: Signal<Local, Bits<32>>,
    // ---- second half
    hi: Signal<Local, Bits<33>>,
    inc: Signal<Local, Bit>,
    rq: Signal<Local, Bits<24>>,
    ones: Signal<Local, Bit>,
    top: Signal<Local, Bit>,
    e1: Signal<Local, Bits<12>>,
    carry: Signal<Local, Bit>,
    norm: Signal<Local, Bit>,
    expf: Signal<Local, Bits<12>>,
    mant: Signal<Local, Bits<24>>,
    mag: Signal<Local, Bits<32>>,
    k_ones64: Constant<Bits<64>>,
    k_ones8: Constant<Bits<8>>,
    /// the shift amount's bits above the fine shift's three
    k_coarse: Constant<Bits<12>>,
    /// hi[p-1:1] per format: all ones there and an increment carry into bit p
    k_low_fp32: Constant<Bits<33>>,
    k_low_fp16: Constant<Bits<33>>,
    k_low_bf16: Constant<Bits<33>>,
    k_fmt_fp32: Constant<Bits<2>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
}

impl RoundPack {
    /// With `cut`, a register between the halves (one more cycle); with `shift_cut`, one between
    /// the shift amount and the shift (one more); with `shift_split`, one inside the shift (one
    /// more).
    pub fn new(cut: bool, shift_cut: bool, shift_split: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            pp: Default::default(),
            shw: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            s: Default::default(),
            en: Default::default(),
            byp: Default::default(),
            bv: Default::default(),
            out: Default::default(),
            mo: Default::default(),
            base: Default::default(),
            sh1: Default::default(),
            hi1: Default::default(),
            stk: Default::default(),
            e0: Default::default(),
            tc: Default::default(),
            jf_pp: StageReg::new(shift_cut),
            jf_sh1: StageReg::new(shift_cut),
            jf_ek: StageReg::new(shift_cut),
            side_in: Default::default(),
            jf_side: StageReg::new(shift_cut),
            coarse: Default::default(),
            r0: Default::default(),
            low0: Default::default(),
            stk0: Default::default(),
            fine: Default::default(),
            low1: Default::default(),
            jl_r: StageReg::new(shift_split),
            jl_stk: StageReg::new(shift_split),
            jl_fine: StageReg::new(shift_split),
            jl_e0: StageReg::new(shift_split),
            jl_side: StageReg::new(shift_split),
            j_hi: StageReg::new(cut),
            j_stk: StageReg::new(cut),
            j_e0: StageReg::new(cut),
            j_side: StageReg::new(cut),
            side_fmt: Default::default(),
            side_ftz: Default::default(),
            side_s: Default::default(),
            side_en: Default::default(),
            side_byp: Default::default(),
            side_bv: Default::default(),
            hi: Default::default(),
            inc: Default::default(),
            rq: Default::default(),
            ones: Default::default(),
            top: Default::default(),
            e1: Default::default(),
            carry: Default::default(),
            norm: Default::default(),
            expf: Default::default(),
            mant: Default::default(),
            mag: Default::default(),
            k_ones64: Constant::new(u64::MAX.to_bits()),
            k_ones8: Constant::new(0xFFu64.to_bits()),
            k_coarse: Constant::new(0xFF8u64.to_bits()),
            k_low_fp32: Constant::new(0xFF_FFFEu64.to_bits()),
            k_low_fp16: Constant::new(0x7FEu64.to_bits()),
            k_low_bf16: Constant::new(0xFEu64.to_bits()),
            k_fmt_fp32: Constant::new(fmt::FP32.into()),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
            k_fmt_bf16: Constant::new(fmt::BF16.into()),
        }
    }
}

impl Logic for RoundPack {
    #[hdl_gen]
    fn update(&mut self) {
        // ================= first half: leading one, shift amount, shift, sticky =================
        // the leading one's offset mo = msb - 52 (pp in [2^52, 2^58))
        self.mo.next = 0.into();
        if self.pp.val().get_bit(53) {
            self.mo.next = 1.into();
        }
        if self.pp.val().get_bit(54) {
            self.mo.next = 2.into();
        }
        if self.pp.val().get_bit(55) {
            self.mo.next = 3.into();
        }
        if self.pp.val().get_bit(56) {
            self.mo.next = 4.into();
        }
        if self.pp.val().get_bit(57) {
            self.mo.next = 5.into();
        }
        // shift - 1 = max(msb - (p-1), emin - (p-1) - e) - 1 = max(base + mo, b1) with
        // base = 51 - (p-1) per format and b1, tc from `ShiftPre` (b1 > base + mo iff tc > mo): a
        // 3-bit compare and a select instead of two subtracts, a 12-bit compare and a decrement
        self.base.next = 28.into();
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.base.next = 41.into();
        }
        if self.fmt.val() == self.k_fmt_bf16.val() {
            self.base.next = 44.into();
        }
        self.tc.next = self.shw.val().get_bits::<3>(12);
        self.sh1.next = self.base.val() + bit_cast::<12, 3>(self.mo.val());
        if self.tc.val() > self.mo.val() {
            self.sh1.next = self.shw.val().get_bits::<12>(0);
        }
        // ================= cut F =================
        self.jf_pp.clock.next = self.clk.val();
        self.jf_sh1.clock.next = self.clk.val();
        self.jf_ek.clock.next = self.clk.val();
        self.jf_side.clock.next = self.clk.val();
        self.jf_side.rst.next = self.rst.val();
        self.jf_side.en.next = true;
        self.side_in.next.fmt = self.fmt.val();
        self.side_in.next.ftz = self.ftz.val();
        self.side_in.next.s = self.s.val();
        self.side_in.next.en = self.en.val();
        self.side_in.next.byp = self.byp.val();
        self.side_in.next.bv = self.bv.val();
        self.jf_side.d.next = self.side_in.val();
        self.jf_pp.rst.next = self.rst.val();
        self.jf_sh1.rst.next = self.rst.val();
        self.jf_ek.rst.next = self.rst.val();
        self.jf_pp.en.next = true;
        self.jf_sh1.en.next = true;
        self.jf_ek.en.next = true;
        self.jf_pp.d.next = self.pp.val();
        self.jf_sh1.d.next = self.sh1.val();
        self.jf_ek.d.next = self.shw.val().get_bits::<12>(15);
        // ================= shift and sticky, coarse then fine =================
        // pp >> sh1 = (pp >> c) >> f with c = sh1's multiple of 8 (zero from 64 up) and f = sh1 mod
        // 8. Sticky: any bit below the shift amount, as a mask (a shifter) and an OR, not as
        // pp - (hi1 << sh1), a second 64-bit carry chain after the shift (the same value for every
        // sh1: both are pp mod 2^sh1, and all of pp when sh1 >= 64); pp mod 2^sh1 is non-zero iff
        // pp mod 2^c is or (pp >> c) mod 2^f is. hi1[32:0] is all the rounding reads, so the
        // coarse result keeps 40 bits (32 + the fine shift's 7 + 1)
        self.coarse.next = self.jf_sh1.q.val() & self.k_coarse.val();
        self.fine.next = bit_cast::<3, 12>(self.jf_sh1.q.val());
        self.r0.next = self.jf_pp.q.val() >> self.coarse.val();
        self.low0.next = (self.k_ones64.val() << self.coarse.val()) ^ self.k_ones64.val();
        self.stk0.next = (self.jf_pp.q.val() & self.low0.val()).any();
        // the biased exponent: ek + shift - 1 (after cut F, beside the shift)
        self.e0.next = self.jf_ek.q.val() + self.jf_sh1.q.val();
        // ================= cut L =================
        self.jl_r.clock.next = self.clk.val();
        self.jl_stk.clock.next = self.clk.val();
        self.jl_fine.clock.next = self.clk.val();
        self.jl_e0.clock.next = self.clk.val();
        self.jl_side.clock.next = self.clk.val();
        self.jl_side.rst.next = self.rst.val();
        self.jl_side.en.next = true;
        self.jl_side.d.next = self.jf_side.q.val();
        self.jl_r.rst.next = self.rst.val();
        self.jl_stk.rst.next = self.rst.val();
        self.jl_fine.rst.next = self.rst.val();
        self.jl_e0.rst.next = self.rst.val();
        self.jl_r.en.next = true;
        self.jl_stk.en.next = true;
        self.jl_fine.en.next = true;
        self.jl_e0.en.next = true;
        self.jl_r.d.next = self.r0.val().get_bits::<40>(0);
        self.jl_stk.d.next = self.stk0.val();
        self.jl_fine.d.next = self.fine.val();
        self.jl_e0.d.next = self.e0.val();
        // the fine shift and the sticky bit of its dropped bits
        self.hi1.next = bit_cast::<64, 40>(self.jl_r.q.val()) >> bit_cast::<64, 3>(self.jl_fine.q.val());
        self.low1.next = (self.k_ones8.val() << bit_cast::<8, 3>(self.jl_fine.q.val())) ^ self.k_ones8.val();
        self.stk.next = self.jl_stk.q.val() | (bit_cast::<8, 40>(self.jl_r.q.val()) & self.low1.val()).any();
        // ================= the cut =================
        self.j_hi.clock.next = self.clk.val();
        self.j_stk.clock.next = self.clk.val();
        self.j_e0.clock.next = self.clk.val();
        self.j_side.clock.next = self.clk.val();
        self.j_side.rst.next = self.rst.val();
        self.j_side.en.next = true;
        self.j_side.d.next = self.jl_side.q.val();
        self.side_fmt.next = self.j_side.q.val().fmt;
        self.side_ftz.next = self.j_side.q.val().ftz;
        self.side_s.next = self.j_side.q.val().s;
        self.side_en.next = self.j_side.q.val().en;
        self.side_byp.next = self.j_side.q.val().byp;
        self.side_bv.next = self.j_side.q.val().bv;
        self.j_hi.rst.next = self.rst.val();
        self.j_stk.rst.next = self.rst.val();
        self.j_e0.rst.next = self.rst.val();
        self.j_hi.en.next = true;
        self.j_stk.en.next = true;
        self.j_e0.en.next = true;
        // hi1[32:0] is all the rounding reads (rq = hi1[32:1], guard hi1[0], lsb hi1[1])
        self.j_hi.d.next = self.hi1.val().get_bits::<33>(0);
        self.j_stk.d.next = self.stk.val();
        self.j_e0.d.next = self.jl_e0.q.val();
        // ================= second half: RNE increment, exponent, pack =================
        // pre = hi[p:1] < 2^p (the shift amount leaves hi's leading one at bit p or below). The
        // increment's carry out of bit p-1 (`carry`, the mantissa overflows into the exponent)
        // and the normal test (`norm`, bit p-1 or p of the rounded value) come from the
        // registered bits, an AND over hi[p-1:1] beside the carry chain, not from the sum: the
        // UP5K's worst path was j_hi -> the 24-bit increment -> carry -> the exponent / mantissa
        // selects -> out6 (seed 2 1.0 MHz short of 30). With carry the mantissa field is 0 (the
        // sum is 2^p) and the exponent e0 + 1, an incrementer off the carry chain.
        self.hi.next = self.j_hi.q.val();
        self.inc.next = self.hi.val().get_bit(0) & (self.j_stk.q.val() | self.hi.val().get_bit(1));
        self.rq.next = bit_cast::<24, 33>(self.hi.val() >> 1);
        if self.inc.val() {
            self.rq.next = bit_cast::<24, 33>(self.hi.val() >> 1) + 1;
        }
        // fp32: p = 24
        self.ones.next = (self.hi.val() & self.k_low_fp32.val()) == self.k_low_fp32.val();
        self.top.next = self.hi.val().get_bit(24);
        if self.side_fmt.val() == self.k_fmt_fp16.val() {
            self.ones.next = (self.hi.val() & self.k_low_fp16.val()) == self.k_low_fp16.val();
            self.top.next = self.hi.val().get_bit(11);
        }
        if self.side_fmt.val() == self.k_fmt_bf16.val() {
            self.ones.next = (self.hi.val() & self.k_low_bf16.val()) == self.k_low_bf16.val();
            self.top.next = self.hi.val().get_bit(8);
        }
        self.carry.next = self.inc.val() & self.ones.val() & self.top.val();
        self.norm.next = self.top.val() | (self.inc.val() & self.ones.val());
        self.e1.next = self.j_e0.q.val() + 1;
        self.expf.next = self.j_e0.q.val();
        self.mant.next = self.rq.val();
        if self.carry.val() {
            self.expf.next = self.e1.val();
            self.mant.next = 0.into();
        }
        if self.side_fmt.val() == self.k_fmt_fp32.val() {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val()) << 23) | bit_cast::<32, 24>(self.mant.val() & 0x7F_FFFF)
                | (bit_cast::<32, 1>(self.side_s.val().into()) << 31);
        } else if self.side_fmt.val() == self.k_fmt_fp16.val() {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0x1F) << 10) | bit_cast::<32, 24>(self.mant.val() & 0x3FF)
                | (bit_cast::<32, 1>(self.side_s.val().into()) << 15);
        } else {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0xFF) << 7) | bit_cast::<32, 24>(self.mant.val() & 0x7F)
                | (bit_cast::<32, 1>(self.side_s.val().into()) << 15);
        }
        if !self.norm.val() {
            // subnormal (fp16 sigmoid): exponent field 0; flushed to zero with ftz
            self.mag.next = bit_cast::<32, 24>(self.rq.val());
            if self.side_ftz.val() {
                self.mag.next = 0.into();
            }
        }
        self.out.next = 0.into();
        if self.side_en.val() {
            self.out.next = self.mag.val();
            if self.side_byp.val() {
                self.out.next = self.side_bv.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ShiftPre` + the round stage's select give the old shift amount minus one and exponent
    /// (sa = msb + 1024 − (p−1), sb = cb − exb, sh = max(sa, sb) − 1024, e0 = exb + sh − kx, all
    /// modulo 2^12) for every exb, format and leading-one position.
    #[test]
    fn shift_pre_gives_the_old_shift_amount() {
        let mut pre = ShiftPre::new(false);
        pre.connect_all();
        for (f, pm1, cb, kx) in [(fmt::FP32, 23u64, 1131u64, 106u64), (fmt::FP16, 10, 1256, 231), (fmt::BF16, 7, 1147, 122)] {
            for exb in 0..1024u64 {
                pre.exb.next = exb.into();
                pre.fmt.next = (f as u64).into();
                assert!(simulate(&mut pre, 100));
                let w = pre.word.val().index() as u64;
                let (b1, tc, ek) = (w & 0xFFF, w >> 12 & 7, w >> 15 & 0xFFF);
                for msb in 52..58u64 {
                    let m = |v: u64| v & 0xFFF;
                    let (sa, sb) = (m(msb + 1024 - pm1), m(cb + 4096 - exb));
                    let sh = if sb > sa { m(sb + 4096 - 1024) } else { m(sa + 4096 - 1024) };
                    let want = (m(sh + 4095), m(exb + sh + 4096 - kx));
                    let mo = msb - 52;
                    let sh1 = if tc > mo { b1 } else { 51 - pm1 + mo };
                    assert_eq!((sh1, m(ek + sh1)), want, "fmt {f} exb {exb} msb {msb}");
                }
            }
        }
    }
}
