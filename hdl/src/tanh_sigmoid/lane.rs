//! The two lane tails: `Lane` (FUSED = 1, stages 4-6) and `LaneUnfused` (FUSED = 0, stage 4),
//! both behind the shared `Front` (stages 1-3).

use super::accumulate::{Accumulate, AccumulateCut};
use super::enc::op;
use super::front::Front;
use super::round_pack::{RoundPack, ShiftPre};
use super::rtl::Cuts;
use crate::prims::{Delay, Mul, MulDsp, MulDspPp, Piece, RDff, StageReg};
use rust_hdl::prelude::*;

/// The pieces of the truncated fused product N·m (issue 15: at most 8 DSPs per lane). N's low 32
/// bits split as NH·2^16 + NL, the multiplicand m (u1.23) as mH·2^8 + mL (mH = m[23:8]): NH·mH,
/// NL·mH and NH·mL are DSP pieces, NL·mL (< 2^24) is left out. The product is at least
/// 2^31·1.5·2^23 > 2^54 when m < 1 (op TANH, |x| < 1: G = N·2^-32 > 0.76), so the left-out piece is
/// below 2^-7 of the result's LSB (fp32: 2^31 or more); for m = 2^23 (every other op) mL = 0 and
/// the product is exact. The golden model computes the same: N·m − (N mod 2^16)·(m mod 2^8).
pub fn m3_pieces() -> Vec<Piece> {
    vec![Piece::dsp(16, 16, 8, 16), Piece::dsp(0, 16, 8, 16), Piece::dsp(16, 16, 0, 8)]
}

/// One lane with the fused TANH tail (FUSED = 1, LAT = 6): stage 4 accumulates and selects the
/// multiplicand m = min(|x|, 1) of op TANH (2^23, i.e. 1, for the other ops and |x| >= 1);
/// stage 5 forms N*m; stage 6 rounds once and packs. Cut D of `lat` (`Cuts::mul3_dsp`) makes the
/// N*m multiplier a `MulDsp` (input registers: one cycle more in stage 5); cut E (`Cuts::sum_reg`)
/// registers the sum of its product parts `pp`, so the 64-bit carry chain and the normalise that
/// reads its top bits are in different cycles. Cut H (`Cuts::accum_reg`) replaces the one-cycle
/// `Accumulate` by the two-cycle `AccumulateCut`; the `Front` then delivers the side signals one
/// cycle later, so the stage-4 code reads them unchanged. Cut I (`Cuts::mul3_pp`) makes the N*m
/// multiplier a `MulDspPp` (its 16x16 piece products registered before their sum: one cycle more
/// in stage 5), so the DSP and the fabric sum of its partial products are separate paths. Cut K
/// (`Cuts::refl_reg`) adds a third cycle to `AccumulateCut` (the shift by k | the sigmoid
/// reflection's subtract); the side signals come one more cycle later.
#[derive(LogicBlock)]
pub struct Lane {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// valid & mask for this lane
    pub en: Signal<In, Bit>,
    pub op: Signal<In, Bits<2>>,
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    pub din: Signal<In, Bits<32>>,
    pub dout: Signal<Out, Bits<32>>,
    front: Front,
    /// stage 4 in one cycle; without cut H the lane's, with it unread (synthesis removes it)
    accum: Accumulate,
    /// stage 4 in two cycles (cut H): one or none
    accum_h: Vec<AccumulateCut>,
    /// N*m: `Mul` without cut D, `MulDsp` with D, `MulDspPp` with I (one of the three holds one)
    m3: Vec<Mul<32, 24, 64>>,
    m3_dsp: Vec<MulDsp<32, 24, 64>>,
    m3_pp: Vec<MulDspPp<32, 24, 64>>,
    round: RoundPack,
    // ---- stage 4
    en4: RDff<Bit>,
    byp4: RDff<Bit>,
    bv4: RDff<Bits<32>>,
    fmt4: RDff<Bits<2>>,
    ftz4: RDff<Bit>,
    s4: RDff<Bit>,
    n4: RDff<Bits<34>>,
    mm4: RDff<Bits<24>>,
    exb4: RDff<Bits<10>>,
    // ---- stage 5
    nh: Signal<Local, Bits<64>>,
    en5: Delay<Bit>,
    byp5: Delay<Bit>,
    bv5: Delay<Bits<32>>,
    fmt5: Delay<Bits<2>>,
    ftz5: Delay<Bit>,
    s5: Delay<Bit>,
    p5h: Delay<Bits<64>>,
    /// `ShiftPre` of exb4 and fmt4, delayed with the stage-5 signals (its split register is the
    /// first of those cycles when there are two or more)
    shift_pre: ShiftPre,
    pre5: Delay<Bits<27>>,
    /// pp = N*m: a register with cut E, else a wire
    pp5: StageReg<Bits<64>>,
    // ---- stage 6
    out6: RDff<Bits<32>>,
    k_op_tanh: Constant<Bits<2>>,
    _n_m3: usize,
    _n_m3_dsp: usize,
    _n_m3_pp: usize,
    _n_accum_h: usize,
}

impl Lane {
    pub fn new(canon_nan: bool, cuts: Cuts) -> Self {
        let d = cuts.mul3_dsp as usize;
        let e = cuts.sum_reg as usize;
        let h = cuts.accum_reg as usize;
        assert!(h == 1 || !cuts.refl_reg, "cut K is inside cut H's AccumulateCut");
        // I replaces D's MulDsp (I comes after D in the cut order)
        let i = cuts.mul3_pp as usize;
        let d_only = d - i;
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            front: Front::new(true, canon_nan, cuts.rom_reg, cuts.mul_dsp, cuts.decode_reg, h + cuts.refl_reg as usize, cuts.mul_pp),
            accum: Default::default(),
            accum_h: (0..h).map(|_| AccumulateCut::new(cuts.refl_reg)).collect(),
            m3: (0..1 - d).map(|_| Mul::truncated(m3_pieces())).collect(),
            m3_dsp: (0..d_only).map(|_| MulDsp::truncated(m3_pieces())).collect(),
            m3_pp: (0..i).map(|_| MulDspPp::truncated(m3_pieces())).collect(),
            round: RoundPack::new(cuts.round_split, cuts.shift_reg, cuts.shift_split),
            en4: Default::default(),
            byp4: Default::default(),
            bv4: Default::default(),
            fmt4: Default::default(),
            ftz4: Default::default(),
            s4: Default::default(),
            n4: Default::default(),
            mm4: Default::default(),
            exb4: Default::default(),
            nh: Default::default(),
            en5: Delay::new(1 + d + e + i),
            byp5: Delay::new(1 + d + e + i),
            bv5: Delay::new(1 + d + e + i),
            fmt5: Delay::new(1 + d + e + i),
            ftz5: Delay::new(1 + d + e + i),
            s5: Delay::new(1 + d + e + i),
            p5h: Delay::new(1 + d + i),
            pp5: StageReg::new(cuts.sum_reg),
            shift_pre: ShiftPre::new(d + e + i >= 1),
            pre5: Delay::new(1 + d + e + i - (d + e + i >= 1) as usize),
            out6: Default::default(),
            k_op_tanh: Constant::new(op::TANH.into()),
            _n_m3: 1 - d,
            _n_m3_dsp: d_only,
            _n_m3_pp: i,
            _n_accum_h: h,
        }
    }
}

impl Logic for Lane {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, en4, byp4, bv4, fmt4, ftz4, s4, n4, mm4, exb4, en5, byp5, bv5, fmt5, ftz5, s5, p5h, pre5, out6);
        self.en4.rst.next = self.rst.val();
        self.byp4.rst.next = self.rst.val();
        self.bv4.rst.next = self.rst.val();
        self.fmt4.rst.next = self.rst.val();
        self.ftz4.rst.next = self.rst.val();
        self.s4.rst.next = self.rst.val();
        self.n4.rst.next = self.rst.val();
        self.mm4.rst.next = self.rst.val();
        self.exb4.rst.next = self.rst.val();
        self.en5.rst.next = self.rst.val();
        self.byp5.rst.next = self.rst.val();
        self.bv5.rst.next = self.rst.val();
        self.fmt5.rst.next = self.rst.val();
        self.ftz5.rst.next = self.rst.val();
        self.s5.rst.next = self.rst.val();
        self.p5h.rst.next = self.rst.val();
        self.pre5.rst.next = self.rst.val();
        self.out6.rst.next = self.rst.val();
        self.front.clk.next = self.clk.val();
        self.front.rst.next = self.rst.val();
        self.front.en.next = self.en.val();
        self.front.op.next = self.op.val();
        self.front.fmt.next = self.fmt.val();
        self.front.ftz.next = self.ftz.val();
        self.front.din.next = self.din.val();
        self.round.clk.next = self.clk.val();
        self.round.rst.next = self.rst.val();
        // ================= stage 4: accumulate, fused multiplicand =================
        self.accum.c0.next = self.front.s3_c0.val();
        self.accum.p1.next = self.front.s3_p1.val();
        self.accum.p2.next = self.front.s3_p2.val();
        self.accum.c1neg.next = self.front.s3_c1neg.val();
        self.accum.c2neg.next = self.front.s3_c2neg.val();
        self.accum.d.next = self.front.s3_d.val();
        self.accum.sq.next = self.front.s3_sq.val();
        self.accum.k.next = self.front.s3_k.val();
        self.accum.isig.next = self.front.s3_op.val().get_bit(0);
        self.accum.neg.next = self.front.s3_x.val().get_bit(31);
        self.n4.d.next = self.accum.n.val();
        self.s4.d.next = self.accum.s.val();
        for i in 0..self._n_accum_h {
            self.accum_h[i].clk.next = self.clk.val();
            self.accum_h[i].rst.next = self.rst.val();
            self.accum_h[i].c0.next = self.front.s3_c0.val();
            self.accum_h[i].p1.next = self.front.s3_p1.val();
            self.accum_h[i].p2.next = self.front.s3_p2.val();
            self.accum_h[i].c1neg.next = self.front.s3_c1neg.val();
            self.accum_h[i].c2neg.next = self.front.s3_c2neg.val();
            self.accum_h[i].d.next = self.front.s3_d.val();
            self.accum_h[i].sq.next = self.front.s3_sq.val();
            self.accum_h[i].k.next = self.front.s3_k.val();
            // the side signals are one cycle later with cut H, like the accumulate's second half
            self.accum_h[i].isig.next = self.front.s3_op.val().get_bit(0);
            self.accum_h[i].neg.next = self.front.s3_x.val().get_bit(31);
            self.n4.d.next = self.accum_h[i].n.val();
            self.s4.d.next = self.accum_h[i].s.val();
        }
        // op TANH with |x| < 1: m = the significand of |x|, exponent folded into exb
        self.mm4.d.next = 0x80_0000.into();
        self.exb4.d.next = self.accum.exb.val();
        for i in 0..self._n_accum_h {
            self.exb4.d.next = self.accum_h[i].exb.val();
        }
        if (self.front.s3_op.val() == self.k_op_tanh.val()) & (self.front.s3_x.val().get_bits::<8>(23) < 127) {
            self.mm4.d.next = bit_cast::<24, 23>(self.front.s3_x.val().get_bits::<23>(0)) | 0x80_0000;
            self.exb4.d.next = bit_cast::<10, 8>(self.front.s3_x.val().get_bits::<8>(23)) + 74;
        }
        self.en4.d.next = self.front.s3_en.val();
        self.byp4.d.next = self.front.s3_byp.val();
        self.bv4.d.next = self.front.s3_bv.val();
        self.fmt4.d.next = self.front.s3_fmt.val();
        self.ftz4.d.next = self.front.s3_ftz.val();

        // ================= stage 5: N * m =================
        for i in 0..self._n_m3 {
            self.m3[i].clock.next = self.clk.val();
            self.m3[i].rst.next = self.rst.val();
            self.m3[i].a.next = self.n4.q.val().get_bits::<32>(0);
            self.m3[i].b.next = self.mm4.q.val();
            self.pp5.d.next = self.m3[i].p.val() + self.p5h.q.val();
        }
        for i in 0..self._n_m3_dsp {
            self.m3_dsp[i].clock.next = self.clk.val();
            self.m3_dsp[i].en.next = true;
            self.m3_dsp[i].a.next = self.n4.q.val().get_bits::<32>(0);
            self.m3_dsp[i].b.next = self.mm4.q.val();
            self.pp5.d.next = self.m3_dsp[i].p.val() + self.p5h.q.val();
        }
        for i in 0..self._n_m3_pp {
            self.m3_pp[i].clock.next = self.clk.val();
            self.m3_pp[i].en.next = true;
            self.m3_pp[i].a.next = self.n4.q.val().get_bits::<32>(0);
            self.m3_pp[i].b.next = self.mm4.q.val();
            self.pp5.d.next = self.m3_pp[i].p.val() + self.p5h.q.val();
        }
        self.nh.next = 0.into();
        if self.n4.q.val().get_bit(32) {
            self.nh.next = bit_cast::<64, 24>(self.mm4.q.val()) << 32;
        }
        if self.n4.q.val().get_bit(33) {
            self.nh.next = self.nh.val() + (bit_cast::<64, 24>(self.mm4.q.val()) << 33);
        }
        self.p5h.d.next = self.nh.val();
        self.pp5.clock.next = self.clk.val();
        self.pp5.rst.next = self.rst.val();
        self.pp5.en.next = true;
        self.round.pp.next = self.pp5.q.val();
        self.shift_pre.clk.next = self.clk.val();
        self.shift_pre.rst.next = self.rst.val();
        self.shift_pre.exb.next = bit_cast::<12, 10>(self.exb4.q.val());
        self.shift_pre.fmt.next = self.fmt4.q.val();
        self.pre5.d.next = self.shift_pre.word.val();
        self.en5.d.next = self.en4.q.val();
        self.byp5.d.next = self.byp4.q.val();
        self.bv5.d.next = self.bv4.q.val();
        self.fmt5.d.next = self.fmt4.q.val();
        self.ftz5.d.next = self.ftz4.q.val();
        self.s5.d.next = self.s4.q.val();

        // ================= stage 6: normalise, round, pack =================
        self.round.shw.next = self.pre5.q.val();
        self.round.fmt.next = self.fmt5.q.val();
        self.round.ftz.next = self.ftz5.q.val();
        self.round.s.next = self.s5.q.val();
        self.round.en.next = self.en5.q.val();
        self.round.byp.next = self.byp5.q.val();
        self.round.bv.next = self.bv5.q.val();
        self.out6.d.next = self.round.out.val();
        self.dout.next = self.out6.q.val();
    }
}

/// One lane without the fused tail (FUSED = 0, LAT = 4): stage 4 accumulates, rounds and packs.
#[derive(LogicBlock)]
pub struct LaneUnfused {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// valid & mask for this lane
    pub en: Signal<In, Bit>,
    pub op: Signal<In, Bits<2>>,
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    pub din: Signal<In, Bits<32>>,
    pub dout: Signal<Out, Bits<32>>,
    front: Front,
    accum: Accumulate,
    shift_pre: ShiftPre,
    round: RoundPack,
    out4: RDff<Bits<32>>,
}

impl LaneUnfused {
    pub fn new(canon_nan: bool, cuts: Cuts) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            front: Front::new(false, canon_nan, cuts.rom_reg, cuts.mul_dsp, cuts.decode_reg, 0, cuts.mul_pp),
            accum: Default::default(),
            shift_pre: ShiftPre::new(false),
            round: RoundPack::new(cuts.round_split, cuts.shift_reg, cuts.shift_split),
            out4: Default::default(),
        }
    }
}

impl Logic for LaneUnfused {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, out4);
        self.out4.rst.next = self.rst.val();
        self.front.clk.next = self.clk.val();
        self.front.rst.next = self.rst.val();
        self.front.en.next = self.en.val();
        self.front.op.next = self.op.val();
        self.front.fmt.next = self.fmt.val();
        self.front.ftz.next = self.ftz.val();
        self.front.din.next = self.din.val();
        self.round.clk.next = self.clk.val();
        self.round.rst.next = self.rst.val();
        // ================= stage 4: accumulate, normalise, round, pack =================
        self.accum.c0.next = self.front.s3_c0.val();
        self.accum.p1.next = self.front.s3_p1.val();
        self.accum.p2.next = self.front.s3_p2.val();
        self.accum.c1neg.next = self.front.s3_c1neg.val();
        self.accum.c2neg.next = self.front.s3_c2neg.val();
        self.accum.d.next = self.front.s3_d.val();
        self.accum.sq.next = self.front.s3_sq.val();
        self.accum.k.next = self.front.s3_k.val();
        self.accum.isig.next = self.front.s3_op.val().get_bit(0);
        self.accum.neg.next = self.front.s3_x.val().get_bit(31);
        // m = 1 = 2^23 * 2^-23: N*m is a shift
        self.round.pp.next = bit_cast::<64, 34>(self.accum.n.val()) << 23;
        self.shift_pre.clk.next = self.clk.val();
        self.shift_pre.rst.next = self.rst.val();
        self.shift_pre.exb.next = bit_cast::<12, 10>(self.accum.exb.val());
        self.shift_pre.fmt.next = self.front.s3_fmt.val();
        self.round.shw.next = self.shift_pre.word.val();
        self.round.fmt.next = self.front.s3_fmt.val();
        self.round.ftz.next = self.front.s3_ftz.val();
        self.round.s.next = self.accum.s.val();
        self.round.en.next = self.front.s3_en.val();
        self.round.byp.next = self.front.s3_byp.val();
        self.round.bv.next = self.front.s3_bv.val();
        self.out4.d.next = self.round.out.val();
        self.dout.next = self.out4.q.val();
    }
}
