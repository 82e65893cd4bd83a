//! Stage 1 of a lane (combinational; `Front` registers its outputs), in two blocks: `Widen`
//! (the input widened to fp32 exactly, ftz, NaN) and `Decode` (zero, the bypass value of the
//! special cases and clamp rows, the ROM row and Delta). Cut G of `lat` puts a register between
//! them.

use super::enc::{fmt, op};
// the function select and the ROM half use op bit 0
const _: () = assert!(super::enc::op_bit0_is_sigmoid());
use rust_hdl::prelude::*;

/// Stage 1a of a lane's input: widen to fp32 (exact; flushed when ftz), and the NaN test and
/// quieted NaN of the input format. Cut G of `lat` registers its outputs (`Front`), so the fp16
/// subnormal normalisation and the binade shift of `Decode` are in different cycles.
#[derive(LogicBlock)]
pub struct Widen {
    /// format code of the vector
    pub fmt: Signal<In, Bits<2>>,
    /// flush subnormal inputs to zero
    pub ftz: Signal<In, Bit>,
    /// the lane's input word
    pub din: Signal<In, Bits<32>>,
    /// the input widened to fp32 (flushed when ftz)
    pub x: Signal<Out, Bits<32>>,
    /// the input is a NaN of its format
    pub isnan: Signal<Out, Bit>,
    /// the NaN result: the input quieted (sign and payload kept), or the canonical quiet NaN
    pub nanq: Signal<Out, Bits<32>>,
    /// the input as it came (the low 16 bits for fp16/bf16)
    pub raw: Signal<Out, Bits<32>>,
    /// CANON_NAN: NaN inputs give the format's canonical quiet NaN
    canon: Constant<Bit>,
    h: Signal<Local, Bits<16>>,
    raw16: Signal<Local, Bits<32>>,
    cnan: Signal<Local, Bits<32>>,
    v: Signal<Local, Bits<10>>,
    /// the leading zeros of v (0..9 for v != 0), bit by bit from v
    nz3: Signal<Local, Bit>,
    nz2: Signal<Local, Bit>,
    nz1: Signal<Local, Bit>,
    nz0: Signal<Local, Bit>,
    /// v << nz
    vs: Signal<Local, Bits<10>>,
    /// the fp32 exponents of an fp16 subnormal (112 - nz) and of a normal (e5 + 112)
    esub: Signal<Local, Bits<8>>,
    enorm: Signal<Local, Bits<8>>,
    insub: Signal<Local, Bit>,
    k_fmt_fp32: Constant<Bits<2>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
}

impl Widen {
    pub fn new(canon_nan: bool) -> Self {
        Self {
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            x: Default::default(),
            isnan: Default::default(),
            nanq: Default::default(),
            raw: Default::default(),
            canon: Constant::new(canon_nan),
            h: Default::default(),
            raw16: Default::default(),
            cnan: Default::default(),
            v: Default::default(),
            nz3: Default::default(),
            nz2: Default::default(),
            nz1: Default::default(),
            nz0: Default::default(),
            vs: Default::default(),
            esub: Default::default(),
            enorm: Default::default(),
            insub: Default::default(),
            k_fmt_fp32: Constant::new(fmt::FP32.into()),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
            k_fmt_bf16: Constant::new(fmt::BF16.into()),
        }
    }
}

impl Logic for Widen {
    #[hdl_gen]
    fn update(&mut self) {
        self.h.next = self.din.val().get_bits::<16>(0);
        self.raw16.next = bit_cast::<32, 16>(self.h.val());
        if self.fmt.val() == self.k_fmt_fp32.val() {
            self.raw16.next = self.din.val();
        }
        self.raw.next = self.raw16.val();
        // NaN in the input format: quieted (sign and payload kept), or the canonical quiet NaN
        self.isnan.next = false;
        self.nanq.next = self.raw16.val();
        self.cnan.next = 0x7FC0.into();
        if self.fmt.val() == self.k_fmt_fp32.val() {
            self.isnan.next = (self.din.val().get_bits::<8>(23) == 0xFF) & (self.din.val().get_bits::<23>(0) != 0);
            self.nanq.next = self.din.val() | 0x40_0000;
            self.cnan.next = 0x7FC0_0000.into();
        }
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.isnan.next = (self.h.val().get_bits::<5>(10) == 0x1F) & (self.h.val().get_bits::<10>(0) != 0);
            self.nanq.next = self.raw16.val() | 0x200;
            self.cnan.next = 0x7E00.into();
        }
        if self.fmt.val() == self.k_fmt_bf16.val() {
            self.isnan.next = (self.h.val().get_bits::<8>(7) == 0xFF) & (self.h.val().get_bits::<7>(0) != 0);
            self.nanq.next = self.raw16.val() | 0x40;
        }
        if self.canon.val() {
            self.nanq.next = self.cnan.val();
        }
        // widen to fp32 (exact)
        self.x.next = self.din.val();
        self.insub.next = (self.din.val().get_bits::<8>(23) == 0) & (self.din.val().get_bits::<23>(0) != 0);
        // fp16 subnormal: normalise the 10-bit fraction v. After the bypass compares (issue 15)
        // this was the UP5K's worst path (the BIST's fmt -> the serial normaliser, whose every
        // step's test waited for the step before -> nz -> 112 - nz (carry) -> `jg_x`, 10 LUT
        // levels): the leading-zero count nz is now formed bit by bit from v itself (the shift
        // steps only wait for their own select), and both exponents are bit logic, no adder:
        //   112 - nz = {0, 1, 1, nz == 0, (-nz) mod 16}, -nz bit i = nz[i] ^ (nz[i-1:0] != 0)
        //   e5 + 112 = {e5[4], !e5[4] x 3, e5[3:0]} (0x70 + e5 for e5 < 16, 0x80 + e5 - 16 above)
        // nz for v = 0 (8 here, 15 before) is not read: the subnormal branch needs v != 0.
        self.v.next = self.h.val().get_bits::<10>(0);
        self.nz3.next = self.v.val().get_bits::<8>(2) == 0;
        self.nz2.next = (self.v.val().get_bits::<4>(6) == 0) & (self.v.val().get_bits::<4>(2) != 0);
        self.nz1.next = ((self.v.val().get_bits::<2>(8) == 0) & (self.v.val().get_bits::<2>(6) != 0))
            | ((self.v.val().get_bits::<6>(4) == 0) & (self.v.val().get_bits::<2>(2) != 0));
        self.nz0.next = (!self.v.val().get_bit(9) & self.v.val().get_bit(8))
            | ((self.v.val().get_bits::<3>(7) == 0) & self.v.val().get_bit(6))
            | ((self.v.val().get_bits::<5>(5) == 0) & self.v.val().get_bit(4))
            | ((self.v.val().get_bits::<7>(3) == 0) & self.v.val().get_bit(2))
            | ((self.v.val().get_bits::<9>(1) == 0) & self.v.val().get_bit(0));
        self.vs.next = self.v.val();
        if self.nz3.val() {
            self.vs.next = self.vs.val() << 8;
        }
        if self.nz2.val() {
            self.vs.next = self.vs.val() << 4;
        }
        if self.nz1.val() {
            self.vs.next = self.vs.val() << 2;
        }
        if self.nz0.val() {
            self.vs.next = self.vs.val() << 1;
        }
        self.esub.next = 0x60.into();
        if !(self.nz3.val() | self.nz2.val() | self.nz1.val() | self.nz0.val()) {
            self.esub.next = self.esub.val() | 0x10;
        }
        if self.nz0.val() {
            self.esub.next = self.esub.val() | 0x1;
        }
        if self.nz1.val() ^ self.nz0.val() {
            self.esub.next = self.esub.val() | 0x2;
        }
        if self.nz2.val() ^ (self.nz1.val() | self.nz0.val()) {
            self.esub.next = self.esub.val() | 0x4;
        }
        if self.nz3.val() ^ (self.nz2.val() | self.nz1.val() | self.nz0.val()) {
            self.esub.next = self.esub.val() | 0x8;
        }
        self.enorm.next = bit_cast::<8, 4>(self.h.val().get_bits::<4>(10)) | 0x70;
        if self.h.val().get_bit(14) {
            self.enorm.next = bit_cast::<8, 4>(self.h.val().get_bits::<4>(10)) | 0x80;
        }
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.insub.next = (self.h.val().get_bits::<5>(10) == 0) & (self.h.val().get_bits::<10>(0) != 0);
            if self.h.val().get_bits::<5>(10) == 0x1F {
                self.x.next = (bit_cast::<32, 16>(self.h.val() & 0x8000) << 16)
                    | 0x7F80_0000
                    | (bit_cast::<32, 10>(self.h.val().get_bits::<10>(0)) << 13);
            } else if self.h.val().get_bits::<5>(10) != 0 {
                self.x.next = (bit_cast::<32, 16>(self.h.val() & 0x8000) << 16)
                    | (bit_cast::<32, 8>(self.enorm.val()) << 23)
                    | (bit_cast::<32, 10>(self.h.val().get_bits::<10>(0)) << 13);
            } else if self.h.val().get_bits::<10>(0) != 0 {
                self.x.next = (bit_cast::<32, 16>(self.h.val() & 0x8000) << 16)
                    | (bit_cast::<32, 8>(self.esub.val()) << 23)
                    | (bit_cast::<32, 9>(self.vs.val().get_bits::<9>(0)) << 14);
            } else {
                self.x.next = bit_cast::<32, 16>(self.h.val() & 0x8000) << 16;
            }
        }
        if self.fmt.val() == self.k_fmt_bf16.val() {
            self.x.next = bit_cast::<32, 16>(self.h.val()) << 16;
            self.insub.next = (self.h.val().get_bits::<8>(7) == 0) & (self.h.val().get_bits::<7>(0) != 0);
        }
        if self.ftz.val() & self.insub.val() {
            self.x.next = self.x.val() & 0x8000_0000_u64;
        }
    }
}

/// Stage 1b of a lane's input, from `Widen`'s outputs: bypass, ROM row and Delta.
#[derive(LogicBlock)]
pub struct Decode {
    /// op code of the vector
    pub op: Signal<In, Bits<2>>,
    /// format code of the vector
    pub fmt: Signal<In, Bits<2>>,
    /// the input widened to fp32 (`Widen`)
    pub x: Signal<In, Bits<32>>,
    /// the input is a NaN of its format (`Widen`)
    pub isnan: Signal<In, Bit>,
    /// the NaN result (`Widen`)
    pub nanq: Signal<In, Bits<32>>,
    /// the input as it came (`Widen`)
    pub raw: Signal<In, Bits<32>>,
    /// the result is `bv` (reserved op/format, NaN, zero, clamp rows)
    pub byp: Signal<Out, Bit>,
    /// the bypass result
    pub bv: Signal<Out, Bits<32>>,
    /// ROM row within the function's half
    pub row: Signal<Out, Bits<9>>,
    /// Delta, the offset in the row (u0.23)
    pub delta: Signal<Out, Bits<23>>,
    /// FUSED: op TANH exists; without it op TANH is reserved
    fused: Constant<Bit>,
    ex: Signal<Local, Bits<8>>,
    mx: Signal<Local, Bits<23>>,
    sx: Signal<Local, Bit>,
    sig: Signal<Local, Bits<24>>,
    zero: Signal<Local, Bit>,
    istanh: Signal<Local, Bit>,
    /// tanh's |x| < 2^-12 (ee <= 115, ex <= 114), tanh's clamp (ee >= 132, ex >= 131), sigmoid's
    /// clamp (ex >= 132) and region 0 (ee <= 127): compares of ex itself (see `update`)
    tiny: Signal<Local, Bit>,
    big_t: Signal<Local, Bit>,
    big_s: Signal<Local, Bit>,
    low: Signal<Local, Bit>,
    /// sig << 5, or << 6 for tanh (its ee is ex + 1)
    pre: Signal<Local, Bits<32>>,
    q: Signal<Local, Bits<32>>,
    /// 127 - ex (for ex <= 127, where Q is read)
    rshift: Signal<Local, Bits<7>>,
    /// (ee - 127) mod 8 = (ex + 1 + tanh) mod 8: the binade bits of the row outside region 0
    eb: Signal<Local, Bits<3>>,
    sgn: Signal<Local, Bits<32>>,
    one: Signal<Local, Bits<32>>,
    k_op_tanh_pre: Constant<Bits<2>>,
    k_op_tanh: Constant<Bits<2>>,
    k_op_reserved: Constant<Bits<2>>,
    k_fmt_fp32: Constant<Bits<2>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
    k_fmt_reserved: Constant<Bits<2>>,
}

impl Decode {
    pub fn new(fused: bool) -> Self {
        Self {
            op: Default::default(),
            fmt: Default::default(),
            x: Default::default(),
            isnan: Default::default(),
            nanq: Default::default(),
            raw: Default::default(),
            byp: Default::default(),
            bv: Default::default(),
            row: Default::default(),
            delta: Default::default(),
            fused: Constant::new(fused),
            ex: Default::default(),
            mx: Default::default(),
            sx: Default::default(),
            sig: Default::default(),
            zero: Default::default(),
            istanh: Default::default(),
            tiny: Default::default(),
            big_t: Default::default(),
            big_s: Default::default(),
            low: Default::default(),
            pre: Default::default(),
            q: Default::default(),
            rshift: Default::default(),
            eb: Default::default(),
            sgn: Default::default(),
            one: Default::default(),
            k_op_tanh_pre: Constant::new(op::TANH_PRE.into()),
            k_op_tanh: Constant::new(op::TANH.into()),
            k_op_reserved: Constant::new(op::RESERVED.into()),
            k_fmt_fp32: Constant::new(fmt::FP32.into()),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
            k_fmt_bf16: Constant::new(fmt::BF16.into()),
            k_fmt_reserved: Constant::new(fmt::RESERVED.into()),
        }
    }
}

impl Logic for Decode {
    #[hdl_gen]
    fn update(&mut self) {
        self.sx.next = self.x.val().get_bit(31);
        self.ex.next = self.x.val().get_bits::<8>(23);
        self.mx.next = self.x.val().get_bits::<23>(0);
        self.sig.next = bit_cast::<24, 23>(self.mx.val());
        if self.ex.val() != 0 {
            self.sig.next = bit_cast::<24, 23>(self.mx.val()) | 0x80_0000;
        }
        self.zero.next = (self.ex.val() == 0) & (self.mx.val() == 0);
        // bit 0 of the op code is 1 for SIGMOID only (`enc::op_bit0_is_sigmoid`)
        self.istanh.next = !self.op.val().get_bit(0);
        // No ee = ex + 1 adder (issue 15): at cut K it was the UP5K's worst path (`jg_x` -> the
        // 9-bit adder -> the clamp-row compares -> the bypass value -> `bv1`, 9 LUT levels and 8
        // carry cells). Every test of tanh's ee = ex + 1 is the test of ex against the constant
        // one lower (ee has 9 bits: no wrap, ex = 255 gives ee = 256), written as bit logic so
        // that no carry chain is mapped for it:
        //   tanh    ee <= 115 <=> ex <= 114 (0111_0010): ex[7] = 0 and not (ex[6:4] = 7 and
        //           (ex[3] | ex[2] | ex[1] & ex[0]))
        //   tanh    ee >= 132 <=> ex >= 131 (1000_0011): ex[7] and (ex[6:2] != 0 or ex[1:0] = 3)
        //   sigmoid ex >= 132 (1000_0100): ex[7] and ex[6:2] != 0
        //   region 0, ee <= 127: ex[7] = 0, and for tanh ex[6:0] != 127
        self.tiny.next = !self.ex.val().get_bit(7)
            & !((self.ex.val().get_bits::<3>(4) == 7)
                & (self.ex.val().get_bit(3) | self.ex.val().get_bit(2) | (self.ex.val().get_bits::<2>(0) == 3)));
        self.big_s.next = self.ex.val().get_bit(7) & (self.ex.val().get_bits::<5>(2) != 0);
        self.big_t.next = self.big_s.val() | (self.ex.val().get_bit(7) & (self.ex.val().get_bits::<5>(2) == 0) & (self.ex.val().get_bits::<2>(0) == 3));
        self.low.next = !self.ex.val().get_bit(7) & !(self.istanh.val() & (self.ex.val().get_bits::<7>(0) == 127));
        // region 0: Q = arg/h = sig * 2^(ee - 122) as u6.23 (truncated); regions 1..4: row from the
        // binade and M[22:17]. Q is read only for ee <= 127, where it is (sig << 5) >> (127 - ee):
        // one right shift (sig << 5 has 29 bits, so the left shifts by 0..5 lose nothing, and
        // floor(sig * 2^5 / 2^(k+5)) = floor(sig / 2^k)), and 127 - ee is the complement of ee's
        // low 7 bits: no subtractor and no second (left) shifter on the stage's path (the ECP5
        // worst path at lat 16 was x1 -> both shifts -> d1). Amounts >= 32 give 0 (sig < 2^24
        // makes every amount from 29 up give 0 as well, as before). Without the adder: tanh's
        // (sig << 5) >> (126 - ex) = (sig << 6) >> (127 - ex) (sig << 6 < 2^30; at 127 - ex = 32,
        // the one amount that the old test let through and this one does not, both give 0), so
        // the shift amount is !ex[6:0] for both functions and tanh's +1 is a 2:1 mux on sig, off
        // the amount's path; 127 - ex < 32 <=> ex[6:5] = 3.
        self.pre.next = bit_cast::<32, 24>(self.sig.val()) << 5;
        if self.istanh.val() {
            self.pre.next = bit_cast::<32, 24>(self.sig.val()) << 6;
        }
        self.rshift.next = !self.ex.val().get_bits::<7>(0);
        self.q.next = 0.into();
        if self.ex.val().get_bits::<2>(5) == 3 {
            self.q.next = self.pre.val() >> self.rshift.val();
        }
        // (ee - 127) << 6 keeps (ee - 127) mod 8 = (ee + 1) mod 8: a 3-bit add of ex's low bits
        self.eb.next = self.ex.val().get_bits::<3>(0) + 1;
        if self.istanh.val() {
            self.eb.next = self.ex.val().get_bits::<3>(0) + 2;
        }
        if self.low.val() {
            self.row.next = self.q.val().get_bits::<9>(23);
            self.delta.next = self.q.val().get_bits::<23>(0);
        } else {
            self.row.next = (bit_cast::<9, 3>(self.eb.val()) << 6) | bit_cast::<9, 6>(self.mx.val().get_bits::<6>(17));
            self.delta.next = bit_cast::<23, 17>(self.mx.val().get_bits::<17>(0)) << 6;
        }
        // constants of the format
        self.sgn.next = bit_cast::<32, 1>(self.sx.val().into()) << 15;
        self.one.next = 0x3F80.into();
        if self.fmt.val() == self.k_fmt_fp32.val() {
            self.sgn.next = bit_cast::<32, 1>(self.sx.val().into()) << 31;
            self.one.next = 0x3F80_0000.into();
        }
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.one.next = 0x3C00.into();
        }
        // bypass: reserved, NaN, zero, clamp rows
        self.byp.next = false;
        self.bv.next = 0.into();
        if self.istanh.val() {
            if self.zero.val() {
                self.byp.next = true;
                self.bv.next = self.sgn.val();
                if self.op.val() == self.k_op_tanh_pre.val() {
                    self.bv.next = self.sgn.val() | self.one.val();
                }
            } else if self.tiny.val() {
                self.byp.next = true;
                self.bv.next = self.raw.val();
                if self.op.val() == self.k_op_tanh_pre.val() {
                    self.bv.next = self.sgn.val() | self.one.val();
                }
            } else if self.big_t.val() {
                self.byp.next = true;
                self.bv.next = self.sgn.val() | self.one.val();
            }
        } else {
            if self.zero.val() {
                self.byp.next = true;
                self.bv.next = 0x3800.into();
                if self.fmt.val() == self.k_fmt_fp32.val() {
                    self.bv.next = 0x3F00_0000.into();
                }
                if self.fmt.val() == self.k_fmt_bf16.val() {
                    self.bv.next = 0x3F00.into();
                }
            } else if self.big_s.val() {
                self.byp.next = true;
                self.bv.next = 0.into();
                if !self.sx.val() {
                    self.bv.next = self.one.val();
                }
            }
        }
        if self.isnan.val() {
            self.byp.next = true;
            self.bv.next = self.nanq.val();
        }
        if (self.op.val() == self.k_op_reserved.val()) | (self.fmt.val() == self.k_fmt_reserved.val()) | ((self.op.val() == self.k_op_tanh.val()) & !self.fused.val()) {
            self.byp.next = true;
            self.bv.next = 0x7FC0_0000.into();
        }
    }
}
