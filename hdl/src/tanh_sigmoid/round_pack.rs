//! `RoundPack`: normalise, round and pack (the last stage of a lane), optionally cut in two.

use super::enc::fmt;
use crate::prims::StageReg;
use rust_hdl::prelude::*;

/// Normalise, round (RNE, fp16 gradual underflow, ftz on results) and pack the value
/// `pp` * 2^(`exb` - 256), `pp` in [2^52, 2^58); then the bypass value and the enable. The
/// lane registers `out`. Combinational unless built with `cut` (pipeline cut A of `lat`): then a
/// register between the two halves, after the normalising shift and the sticky bit and before
/// the rounding increment and the pack, adds one cycle. With `shift_cut` (cut F) a register after
/// the leading one and the shift amount, before the shift and the sticky bit, adds another.
#[derive(LogicBlock)]
pub struct RoundPack {
    /// clock of the cut registers (unused without the cut)
    pub clk: Signal<In, Clock>,
    /// synchronous reset of the cut registers
    pub rst: Signal<In, Bit>,
    pub pp: Signal<In, Bits<64>>,
    pub exb: Signal<In, Bits<12>>,
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    pub s: Signal<In, Bit>,
    pub en: Signal<In, Bit>,
    pub byp: Signal<In, Bit>,
    pub bv: Signal<In, Bits<32>>,
    pub out: Signal<Out, Bits<32>>,
    msb: Signal<Local, Bits<12>>,
    pm1: Signal<Local, Bits<12>>,
    cb: Signal<Local, Bits<12>>,
    kx: Signal<Local, Bits<12>>,
    sa: Signal<Local, Bits<12>>,
    sb: Signal<Local, Bits<12>>,
    sh: Signal<Local, Bits<12>>,
    sh1: Signal<Local, Bits<12>>,
    hi1: Signal<Local, Bits<64>>,
    low: Signal<Local, Bits<64>>,
    stk: Signal<Local, Bit>,
    e0: Signal<Local, Bits<12>>,
    // ---- cut F (registers with `shift_cut`, wires without): shift amount -> shift and sticky
    jf_pp: StageReg<Bits<64>>,
    jf_sh1: StageReg<Bits<12>>,
    jf_e0: StageReg<Bits<12>>,
    jf_fmt: StageReg<Bits<2>>,
    jf_ftz: StageReg<Bit>,
    jf_s: StageReg<Bit>,
    jf_en: StageReg<Bit>,
    jf_byp: StageReg<Bit>,
    jf_bv: StageReg<Bits<32>>,
    // ---- the cut (registers with `cut`, wires without): first half -> second half
    j_hi: StageReg<Bits<33>>,
    j_stk: StageReg<Bit>,
    j_e0: StageReg<Bits<12>>,
    j_fmt: StageReg<Bits<2>>,
    j_ftz: StageReg<Bit>,
    j_s: StageReg<Bit>,
    j_en: StageReg<Bit>,
    j_byp: StageReg<Bit>,
    j_bv: StageReg<Bits<32>>,
    // ---- second half
    hi: Signal<Local, Bits<33>>,
    rq: Signal<Local, Bits<32>>,
    carry: Signal<Local, Bit>,
    norm: Signal<Local, Bit>,
    expf: Signal<Local, Bits<12>>,
    mant: Signal<Local, Bits<32>>,
    mag: Signal<Local, Bits<32>>,
    k_ones64: Constant<Bits<64>>,
    k_fmt_fp32: Constant<Bits<2>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
}

impl RoundPack {
    /// With `cut`, a register between the halves (one more cycle); with `shift_cut`, one between
    /// the shift amount and the shift (one more).
    pub fn new(cut: bool, shift_cut: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            pp: Default::default(),
            exb: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            s: Default::default(),
            en: Default::default(),
            byp: Default::default(),
            bv: Default::default(),
            out: Default::default(),
            msb: Default::default(),
            pm1: Default::default(),
            cb: Default::default(),
            kx: Default::default(),
            sa: Default::default(),
            sb: Default::default(),
            sh: Default::default(),
            sh1: Default::default(),
            hi1: Default::default(),
            low: Default::default(),
            stk: Default::default(),
            e0: Default::default(),
            jf_pp: StageReg::new(shift_cut),
            jf_sh1: StageReg::new(shift_cut),
            jf_e0: StageReg::new(shift_cut),
            jf_fmt: StageReg::new(shift_cut),
            jf_ftz: StageReg::new(shift_cut),
            jf_s: StageReg::new(shift_cut),
            jf_en: StageReg::new(shift_cut),
            jf_byp: StageReg::new(shift_cut),
            jf_bv: StageReg::new(shift_cut),
            j_hi: StageReg::new(cut),
            j_stk: StageReg::new(cut),
            j_e0: StageReg::new(cut),
            j_fmt: StageReg::new(cut),
            j_ftz: StageReg::new(cut),
            j_s: StageReg::new(cut),
            j_en: StageReg::new(cut),
            j_byp: StageReg::new(cut),
            j_bv: StageReg::new(cut),
            hi: Default::default(),
            rq: Default::default(),
            carry: Default::default(),
            norm: Default::default(),
            expf: Default::default(),
            mant: Default::default(),
            mag: Default::default(),
            k_ones64: Constant::new(u64::MAX.to_bits()),
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
        self.msb.next = 52.into();
        if self.pp.val().get_bit(53) {
            self.msb.next = 53.into();
        }
        if self.pp.val().get_bit(54) {
            self.msb.next = 54.into();
        }
        if self.pp.val().get_bit(55) {
            self.msb.next = 55.into();
        }
        if self.pp.val().get_bit(56) {
            self.msb.next = 56.into();
        }
        if self.pp.val().get_bit(57) {
            self.msb.next = 57.into();
        }
        // per format: p-1, 1280 + emin - (p-1), (p-1) + bias - 256 negated
        self.pm1.next = 23.into();
        self.cb.next = 1131.into();
        self.kx.next = 106.into();
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.pm1.next = 10.into();
            self.cb.next = 1256.into();
            self.kx.next = 231.into();
        }
        if self.fmt.val() == self.k_fmt_bf16.val() {
            self.pm1.next = 7.into();
            self.cb.next = 1147.into();
            self.kx.next = 122.into();
        }
        // shift = max(msb - (p-1), emin - (p-1) - e)  (offset 1024)
        self.sa.next = self.msb.val() + 1024 - self.pm1.val();
        self.sb.next = self.cb.val() - self.exb.val();
        self.sh.next = self.sa.val() - 1024;
        if self.sb.val() > self.sa.val() {
            self.sh.next = self.sb.val() - 1024;
        }
        self.sh1.next = self.sh.val() - 1;
        self.e0.next = self.exb.val() + self.sh.val() - self.kx.val();
        // ================= cut F =================
        self.jf_pp.clock.next = self.clk.val();
        self.jf_sh1.clock.next = self.clk.val();
        self.jf_e0.clock.next = self.clk.val();
        self.jf_fmt.clock.next = self.clk.val();
        self.jf_ftz.clock.next = self.clk.val();
        self.jf_s.clock.next = self.clk.val();
        self.jf_en.clock.next = self.clk.val();
        self.jf_byp.clock.next = self.clk.val();
        self.jf_bv.clock.next = self.clk.val();
        self.jf_pp.rst.next = self.rst.val();
        self.jf_sh1.rst.next = self.rst.val();
        self.jf_e0.rst.next = self.rst.val();
        self.jf_fmt.rst.next = self.rst.val();
        self.jf_ftz.rst.next = self.rst.val();
        self.jf_s.rst.next = self.rst.val();
        self.jf_en.rst.next = self.rst.val();
        self.jf_byp.rst.next = self.rst.val();
        self.jf_bv.rst.next = self.rst.val();
        self.jf_pp.en.next = true;
        self.jf_sh1.en.next = true;
        self.jf_e0.en.next = true;
        self.jf_fmt.en.next = true;
        self.jf_ftz.en.next = true;
        self.jf_s.en.next = true;
        self.jf_en.en.next = true;
        self.jf_byp.en.next = true;
        self.jf_bv.en.next = true;
        self.jf_pp.d.next = self.pp.val();
        self.jf_sh1.d.next = self.sh1.val();
        self.jf_e0.d.next = self.e0.val();
        self.jf_fmt.d.next = self.fmt.val();
        self.jf_ftz.d.next = self.ftz.val();
        self.jf_s.d.next = self.s.val();
        self.jf_en.d.next = self.en.val();
        self.jf_byp.d.next = self.byp.val();
        self.jf_bv.d.next = self.bv.val();
        // ================= shift and sticky =================
        self.hi1.next = self.jf_pp.q.val() >> self.jf_sh1.q.val();
        // sticky: any bit below the shift amount, as a mask (a shifter) and an OR, not as
        // pp - (hi1 << sh1), a second 64-bit carry chain after the shift (the same value for every
        // sh1: both are pp mod 2^sh1, and all of pp when sh1 >= 64)
        self.low.next = (self.k_ones64.val() << self.jf_sh1.q.val()) ^ self.k_ones64.val();
        self.stk.next = (self.jf_pp.q.val() & self.low.val()).any();
        // ================= the cut =================
        self.j_hi.clock.next = self.clk.val();
        self.j_stk.clock.next = self.clk.val();
        self.j_e0.clock.next = self.clk.val();
        self.j_fmt.clock.next = self.clk.val();
        self.j_ftz.clock.next = self.clk.val();
        self.j_s.clock.next = self.clk.val();
        self.j_en.clock.next = self.clk.val();
        self.j_byp.clock.next = self.clk.val();
        self.j_bv.clock.next = self.clk.val();
        self.j_hi.rst.next = self.rst.val();
        self.j_stk.rst.next = self.rst.val();
        self.j_e0.rst.next = self.rst.val();
        self.j_fmt.rst.next = self.rst.val();
        self.j_ftz.rst.next = self.rst.val();
        self.j_s.rst.next = self.rst.val();
        self.j_en.rst.next = self.rst.val();
        self.j_byp.rst.next = self.rst.val();
        self.j_bv.rst.next = self.rst.val();
        self.j_hi.en.next = true;
        self.j_stk.en.next = true;
        self.j_e0.en.next = true;
        self.j_fmt.en.next = true;
        self.j_ftz.en.next = true;
        self.j_s.en.next = true;
        self.j_en.en.next = true;
        self.j_byp.en.next = true;
        self.j_bv.en.next = true;
        // hi1[32:0] is all the rounding reads (rq = hi1[32:1], guard hi1[0], lsb hi1[1])
        self.j_hi.d.next = self.hi1.val().get_bits::<33>(0);
        self.j_stk.d.next = self.stk.val();
        self.j_e0.d.next = self.jf_e0.q.val();
        self.j_fmt.d.next = self.jf_fmt.q.val();
        self.j_ftz.d.next = self.jf_ftz.q.val();
        self.j_s.d.next = self.jf_s.q.val();
        self.j_en.d.next = self.jf_en.q.val();
        self.j_byp.d.next = self.jf_byp.q.val();
        self.j_bv.d.next = self.jf_bv.q.val();
        // ================= second half: RNE increment, exponent, pack =================
        self.hi.next = self.j_hi.q.val();
        self.rq.next = bit_cast::<32, 33>(self.hi.val() >> 1);
        if self.hi.val().get_bit(0) & (self.j_stk.q.val() | self.hi.val().get_bit(1)) {
            self.rq.next = bit_cast::<32, 33>(self.hi.val() >> 1) + 1;
        }
        // The shift amount leaves the leading one of hi at bit p or below, so rq < 2^p before
        // the increment and rq <= 2^p after it: `rq >> p != 0` is bit p of rq and
        // `rq >> (p-1) != 0` bits p-1 and p, picked per format by a 3:1 select instead of two
        // barrel shifts by a format-dependent amount and two OR-reductions after the increment.
        self.carry.next = self.rq.val().get_bit(24);
        self.norm.next = self.rq.val().get_bit(23) | self.rq.val().get_bit(24);
        if self.j_fmt.q.val() == self.k_fmt_fp16.val() {
            self.carry.next = self.rq.val().get_bit(11);
            self.norm.next = self.rq.val().get_bit(10) | self.rq.val().get_bit(11);
        }
        if self.j_fmt.q.val() == self.k_fmt_bf16.val() {
            self.carry.next = self.rq.val().get_bit(8);
            self.norm.next = self.rq.val().get_bit(7) | self.rq.val().get_bit(8);
        }
        self.expf.next = self.j_e0.q.val();
        self.mant.next = self.rq.val();
        if self.carry.val() {
            self.expf.next = self.j_e0.q.val() + 1;
            self.mant.next = self.rq.val() >> 1;
        }
        if self.j_fmt.q.val() == self.k_fmt_fp32.val() {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val()) << 23) | (self.mant.val() & 0x7F_FFFF)
                | (bit_cast::<32, 1>(self.j_s.q.val().into()) << 31);
        } else if self.j_fmt.q.val() == self.k_fmt_fp16.val() {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0x1F) << 10) | (self.mant.val() & 0x3FF)
                | (bit_cast::<32, 1>(self.j_s.q.val().into()) << 15);
        } else {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0xFF) << 7) | (self.mant.val() & 0x7F)
                | (bit_cast::<32, 1>(self.j_s.q.val().into()) << 15);
        }
        if !self.norm.val() {
            // subnormal (fp16 sigmoid): exponent field 0; flushed to zero with ftz
            self.mag.next = self.rq.val();
            if self.j_ftz.q.val() {
                self.mag.next = 0.into();
            }
        }
        self.out.next = 0.into();
        if self.j_en.q.val() {
            self.out.next = self.mag.val();
            if self.j_byp.q.val() {
                self.out.next = self.j_bv.q.val();
            }
        }
    }
}
