//! RTL of the tanh/sigmoid datapath in rust-hdl (see docs/tanh_sigmoid.md for the arithmetic).
//!
//! A lane is `Front` (stages 1-3: decode, ROM + squarer, the two coefficient products), the
//! combinational `Accumulate` (sum, tanh clamp, sigmoid reflection) and a tail:
//! - `Lane` (FUSED = 1, LAT = 6): 4 accumulate and select the fused multiplicand min(|x|, 1),
//!   5 N*m product, 6 `RoundPack` (normalise, RNE round, pack, bypass, mask);
//! - `LaneUnfused` (FUSED = 0, LAT = 4): 4 accumulate and `RoundPack` in one stage.
//!
//! Every register is an `RDff`, whose synchronous reset sits in its clocked block: no
//! combinational logic reads `rst`, so Verilator evaluates only the stage-1 decode in its
//! input-combinational region and the rest of the lane once per cycle (docs/tanh_sigmoid.md,
//! "Where the RTL co-sim time goes"). The products are `prims::Mul<32, 32, 64>` (registered, one
//! `*` each) and the valid/mask/tag delay lines `prims::Delay`.

use super::enc::{fmt, op};
const _: () = assert!(super::enc::op_bit0_is_sigmoid());
use super::tables::{tables, WORD_BITS};
use crate::prims::{Delay, Mul, RDff};
use rust_hdl::prelude::*;

/// The coefficient ROM of both functions: address {sigmoid, row[8:0]}, word {k, c2, c1, c0}.
pub fn coefficient_rom() -> ROM<Bits<92>, 10> {
    assert_eq!(WORD_BITS, 92);
    let t = tables();
    let mut map = std::collections::BTreeMap::new();
    for (i, r) in t.tanh.rows.iter().enumerate() {
        map.insert(Bits::<10>::from(i as u64), bits_from_u128::<92>(r.word()));
    }
    for (i, r) in t.sig.rows.iter().enumerate() {
        map.insert(Bits::<10>::from(512 + i as u64), bits_from_u128::<92>(r.word()));
    }
    ROM::new(map)
}

fn bits_from_u128<const N: usize>(w: u128) -> Bits<N> {
    let lo: Bits<N> = bit_cast::<N, 64>(Bits::<64>::from(w as u64));
    let hi: Bits<N> = bit_cast::<N, 64>(Bits::<64>::from((w >> 64) as u64));
    lo | (hi << 64)
}

/// Stages 1-3 of a lane: 1 decode (widen to fp32, NaN/zero/ftz, bypass value, row and Delta),
/// 2 ROM read and 16x16 squarer, 3 c1*Delta and c2*SQ (registered 32x32 multipliers). The `s3_*`
/// outputs are the stage-3 registers. `x` is the widened fp32 input and `op` the op code, carried
/// for the tails (sign, sigmoid/tanh, the fused multiplicand).
#[derive(LogicBlock)]
pub struct Front {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// valid & mask for this lane
    pub en: Signal<In, Bit>,
    pub op: Signal<In, Bits<2>>,
    pub fmt: Signal<In, Bits<2>>,
    pub ftz: Signal<In, Bit>,
    pub din: Signal<In, Bits<32>>,
    pub s3_en: Signal<Out, Bit>,
    pub s3_byp: Signal<Out, Bit>,
    pub s3_bv: Signal<Out, Bits<32>>,
    pub s3_op: Signal<Out, Bits<2>>,
    pub s3_fmt: Signal<Out, Bits<2>>,
    pub s3_ftz: Signal<Out, Bit>,
    pub s3_x: Signal<Out, Bits<32>>,
    pub s3_c0: Signal<Out, Bits<34>>,
    pub s3_k: Signal<Out, Bits<6>>,
    pub s3_c1neg: Signal<Out, Bit>,
    pub s3_c2neg: Signal<Out, Bit>,
    pub s3_d: Signal<Out, Bits<23>>,
    pub s3_sq: Signal<Out, Bits<16>>,
    /// unsigned products u(c1)*Delta and u(c2)*SQ (the sign correction is `Accumulate`'s)
    pub s3_p1: Signal<Out, Bits<64>>,
    pub s3_p2: Signal<Out, Bits<64>>,
    /// CANON_NAN: NaN inputs give the format's canonical quiet NaN
    canon: Constant<Bit>,
    /// FUSED: op TANH exists; without it op TANH is reserved
    fused: Constant<Bit>,
    rom: ROM<Bits<92>, 10>,
    m1: Mul<32, 32, 64>,
    m2: Mul<32, 32, 64>,
    // ---- stage 1 locals
    h: Signal<Local, Bits<16>>,
    raw16: Signal<Local, Bits<32>>,
    isnan: Signal<Local, Bit>,
    nanq: Signal<Local, Bits<32>>,
    cnan: Signal<Local, Bits<32>>,
    x: Signal<Local, Bits<32>>,
    v: Signal<Local, Bits<10>>,
    nz: Signal<Local, Bits<8>>,
    insub: Signal<Local, Bit>,
    ex: Signal<Local, Bits<8>>,
    mx: Signal<Local, Bits<23>>,
    sx: Signal<Local, Bit>,
    sig: Signal<Local, Bits<24>>,
    zero: Signal<Local, Bit>,
    istanh: Signal<Local, Bit>,
    ee: Signal<Local, Bits<9>>,
    q: Signal<Local, Bits<32>>,
    sgn: Signal<Local, Bits<32>>,
    one: Signal<Local, Bits<32>>,
    byp: Signal<Local, Bit>,
    bv: Signal<Local, Bits<32>>,
    // ---- stage 1 registers
    en1: RDff<Bit>,
    byp1: RDff<Bit>,
    bv1: RDff<Bits<32>>,
    op1: RDff<Bits<2>>,
    fmt1: RDff<Bits<2>>,
    ftz1: RDff<Bit>,
    x1: RDff<Bits<32>>,
    row1: RDff<Bits<9>>,
    d1: RDff<Bits<23>>,
    // ---- stage 2
    dh: Signal<Local, Bits<16>>,
    dsq: Signal<Local, Bits<32>>,
    en2: RDff<Bit>,
    byp2: RDff<Bit>,
    bv2: RDff<Bits<32>>,
    op2: RDff<Bits<2>>,
    fmt2: RDff<Bits<2>>,
    ftz2: RDff<Bit>,
    x2: RDff<Bits<32>>,
    d2: RDff<Bits<23>>,
    sq2: RDff<Bits<16>>,
    w2: RDff<Bits<92>>,
    // ---- stage 3
    c1: Signal<Local, Bits<28>>,
    c2: Signal<Local, Bits<24>>,
    en3: RDff<Bit>,
    byp3: RDff<Bit>,
    bv3: RDff<Bits<32>>,
    op3: RDff<Bits<2>>,
    fmt3: RDff<Bits<2>>,
    ftz3: RDff<Bit>,
    x3: RDff<Bits<32>>,
    c03: RDff<Bits<34>>,
    k3: RDff<Bits<6>>,
    c1n3: RDff<Bit>,
    c2n3: RDff<Bit>,
    d3: RDff<Bits<23>>,
    sq3: RDff<Bits<16>>,
    // ---- codes (enc)
    k_op_tanh_pre: Constant<Bits<2>>,
    k_op_tanh: Constant<Bits<2>>,
    k_op_reserved: Constant<Bits<2>>,
    k_fmt_fp32: Constant<Bits<2>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
    k_fmt_reserved: Constant<Bits<2>>,
}

impl Front {
    pub fn new(fused: bool, canon_nan: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            s3_en: Default::default(),
            s3_byp: Default::default(),
            s3_bv: Default::default(),
            s3_op: Default::default(),
            s3_fmt: Default::default(),
            s3_ftz: Default::default(),
            s3_x: Default::default(),
            s3_c0: Default::default(),
            s3_k: Default::default(),
            s3_c1neg: Default::default(),
            s3_c2neg: Default::default(),
            s3_d: Default::default(),
            s3_sq: Default::default(),
            s3_p1: Default::default(),
            s3_p2: Default::default(),
            canon: Constant::new(canon_nan),
            fused: Constant::new(fused),
            rom: coefficient_rom(),
            m1: Default::default(),
            m2: Default::default(),
            h: Default::default(),
            raw16: Default::default(),
            isnan: Default::default(),
            nanq: Default::default(),
            cnan: Default::default(),
            x: Default::default(),
            v: Default::default(),
            nz: Default::default(),
            insub: Default::default(),
            ex: Default::default(),
            mx: Default::default(),
            sx: Default::default(),
            sig: Default::default(),
            zero: Default::default(),
            istanh: Default::default(),
            ee: Default::default(),
            q: Default::default(),
            sgn: Default::default(),
            one: Default::default(),
            byp: Default::default(),
            bv: Default::default(),
            en1: Default::default(),
            byp1: Default::default(),
            bv1: Default::default(),
            op1: Default::default(),
            fmt1: Default::default(),
            ftz1: Default::default(),
            x1: Default::default(),
            row1: Default::default(),
            d1: Default::default(),
            dh: Default::default(),
            dsq: Default::default(),
            en2: Default::default(),
            byp2: Default::default(),
            bv2: Default::default(),
            op2: Default::default(),
            fmt2: Default::default(),
            ftz2: Default::default(),
            x2: Default::default(),
            d2: Default::default(),
            sq2: Default::default(),
            w2: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            en3: Default::default(),
            byp3: Default::default(),
            bv3: Default::default(),
            op3: Default::default(),
            fmt3: Default::default(),
            ftz3: Default::default(),
            x3: Default::default(),
            c03: Default::default(),
            k3: Default::default(),
            c1n3: Default::default(),
            c2n3: Default::default(),
            d3: Default::default(),
            sq3: Default::default(),
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

impl Logic for Front {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clk, en1, byp1, bv1, op1, fmt1, ftz1, x1, row1, d1, en2, byp2, bv2, op2, fmt2, ftz2, x2, d2, sq2, w2, en3,
            byp3, bv3, op3, fmt3, ftz3, x3, c03, k3, c1n3, c2n3, d3, sq3
        );
        self.en1.rst.next = self.rst.val();
        self.byp1.rst.next = self.rst.val();
        self.bv1.rst.next = self.rst.val();
        self.op1.rst.next = self.rst.val();
        self.fmt1.rst.next = self.rst.val();
        self.ftz1.rst.next = self.rst.val();
        self.x1.rst.next = self.rst.val();
        self.row1.rst.next = self.rst.val();
        self.d1.rst.next = self.rst.val();
        self.en2.rst.next = self.rst.val();
        self.byp2.rst.next = self.rst.val();
        self.bv2.rst.next = self.rst.val();
        self.op2.rst.next = self.rst.val();
        self.fmt2.rst.next = self.rst.val();
        self.ftz2.rst.next = self.rst.val();
        self.x2.rst.next = self.rst.val();
        self.d2.rst.next = self.rst.val();
        self.sq2.rst.next = self.rst.val();
        self.w2.rst.next = self.rst.val();
        self.en3.rst.next = self.rst.val();
        self.byp3.rst.next = self.rst.val();
        self.bv3.rst.next = self.rst.val();
        self.op3.rst.next = self.rst.val();
        self.fmt3.rst.next = self.rst.val();
        self.ftz3.rst.next = self.rst.val();
        self.x3.rst.next = self.rst.val();
        self.c03.rst.next = self.rst.val();
        self.k3.rst.next = self.rst.val();
        self.c1n3.rst.next = self.rst.val();
        self.c2n3.rst.next = self.rst.val();
        self.d3.rst.next = self.rst.val();
        self.sq3.rst.next = self.rst.val();
        self.m1.clock.next = self.clk.val();
        self.m2.clock.next = self.clk.val();
        self.m1.rst.next = self.rst.val();
        self.m2.rst.next = self.rst.val();
        // ================= stage 1: decode =================
        self.h.next = self.din.val().get_bits::<16>(0);
        self.raw16.next = bit_cast::<32, 16>(self.h.val());
        if self.fmt.val() == self.k_fmt_fp32.val() {
            self.raw16.next = self.din.val();
        }
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
        // fp16 subnormal: normalise the 10-bit fraction (shift by 8, 4, 2, 1 while the top is clear)
        self.v.next = self.h.val().get_bits::<10>(0);
        self.nz.next = 0.into();
        if self.v.val().get_bits::<8>(2) == 0 {
            self.v.next = self.v.val() << 8;
            self.nz.next = self.nz.val() + 8;
        }
        if self.v.val().get_bits::<4>(6) == 0 {
            self.v.next = self.v.val() << 4;
            self.nz.next = self.nz.val() + 4;
        }
        if self.v.val().get_bits::<2>(8) == 0 {
            self.v.next = self.v.val() << 2;
            self.nz.next = self.nz.val() + 2;
        }
        if !self.v.val().get_bit(9) {
            self.v.next = self.v.val() << 1;
            self.nz.next = self.nz.val() + 1;
        }
        if self.fmt.val() == self.k_fmt_fp16.val() {
            self.insub.next = (self.h.val().get_bits::<5>(10) == 0) & (self.h.val().get_bits::<10>(0) != 0);
            if self.h.val().get_bits::<5>(10) == 0x1F {
                self.x.next = (bit_cast::<32, 16>(self.h.val() & 0x8000) << 16)
                    | 0x7F80_0000
                    | (bit_cast::<32, 10>(self.h.val().get_bits::<10>(0)) << 13);
            } else if self.h.val().get_bits::<5>(10) != 0 {
                self.x.next = (bit_cast::<32, 16>(self.h.val() & 0x8000) << 16)
                    | (bit_cast::<32, 5>(self.h.val().get_bits::<5>(10) + 0) + 112) << 23
                    | (bit_cast::<32, 10>(self.h.val().get_bits::<10>(0)) << 13);
            } else if self.h.val().get_bits::<10>(0) != 0 {
                self.x.next = (bit_cast::<32, 16>(self.h.val() & 0x8000) << 16)
                    | (bit_cast::<32, 8>(112 - self.nz.val()) << 23)
                    | (bit_cast::<32, 9>(self.v.val().get_bits::<9>(0)) << 14);
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
        self.ee.next = bit_cast::<9, 8>(self.ex.val());
        if self.istanh.val() {
            self.ee.next = bit_cast::<9, 8>(self.ex.val()) + 1;
        }
        // region 0: Q = arg/h as u6.23 (truncated); regions 1..4: row from the binade and M[22:17]
        if self.ee.val() >= 122 {
            self.q.next = bit_cast::<32, 24>(self.sig.val()) << (self.ee.val() - 122);
        } else if (122 - self.ee.val()) < 32 {
            self.q.next = bit_cast::<32, 24>(self.sig.val()) >> (122 - self.ee.val());
        } else {
            self.q.next = 0.into();
        }
        if self.ee.val() <= 127 {
            self.row1.d.next = self.q.val().get_bits::<9>(23);
            self.d1.d.next = self.q.val().get_bits::<23>(0);
        } else {
            self.row1.d.next = ((self.ee.val() - 127) << 6) | bit_cast::<9, 6>(self.mx.val().get_bits::<6>(17));
            self.d1.d.next = bit_cast::<23, 17>(self.mx.val().get_bits::<17>(0)) << 6;
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
            } else if self.ee.val() <= 115 {
                self.byp.next = true;
                self.bv.next = self.raw16.val();
                if self.op.val() == self.k_op_tanh_pre.val() {
                    self.bv.next = self.sgn.val() | self.one.val();
                }
            } else if self.ee.val() >= 132 {
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
            } else if self.ex.val() >= 132 {
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
        self.en1.d.next = self.en.val();
        self.byp1.d.next = self.byp.val();
        self.bv1.d.next = self.bv.val();
        self.op1.d.next = self.op.val();
        self.fmt1.d.next = self.fmt.val();
        self.ftz1.d.next = self.ftz.val();
        self.x1.d.next = self.x.val();

        // ================= stage 2: ROM, squarer =================
        // ROM half by op bit 0: sigmoid rows at 512 (`enc::op_bit0_is_sigmoid`)
        self.rom.address.next = (bit_cast::<10, 1>(self.op1.q.val().get_bit(0).into()) << 9) | bit_cast::<10, 9>(self.row1.q.val());
        self.dh.next = self.d1.q.val().get_bits::<16>(7);
        self.dsq.next = self.dh.val() * self.dh.val();
        self.sq2.d.next = self.dsq.val().get_bits::<16>(16);
        self.w2.d.next = self.rom.data.val();
        self.d2.d.next = self.d1.q.val();
        self.en2.d.next = self.en1.q.val();
        self.byp2.d.next = self.byp1.q.val();
        self.bv2.d.next = self.bv1.q.val();
        self.op2.d.next = self.op1.q.val();
        self.fmt2.d.next = self.fmt1.q.val();
        self.ftz2.d.next = self.ftz1.q.val();
        self.x2.d.next = self.x1.q.val();

        // ================= stage 3: products of the coefficients' bit patterns =================
        self.c1.next = self.w2.q.val().get_bits::<28>(34);
        self.c2.next = self.w2.q.val().get_bits::<24>(62);
        self.m1.a.next = bit_cast::<32, 28>(self.c1.val());
        self.m1.b.next = bit_cast::<32, 23>(self.d2.q.val());
        self.m2.a.next = bit_cast::<32, 24>(self.c2.val());
        self.m2.b.next = bit_cast::<32, 16>(self.sq2.q.val());
        self.c1n3.d.next = self.c1.val().get_bit(27);
        self.c2n3.d.next = self.c2.val().get_bit(23);
        self.d3.d.next = self.d2.q.val();
        self.sq3.d.next = self.sq2.q.val();
        self.c03.d.next = self.w2.q.val().get_bits::<34>(0);
        self.k3.d.next = self.w2.q.val().get_bits::<6>(86);
        self.en3.d.next = self.en2.q.val();
        self.byp3.d.next = self.byp2.q.val();
        self.bv3.d.next = self.bv2.q.val();
        self.op3.d.next = self.op2.q.val();
        self.fmt3.d.next = self.fmt2.q.val();
        self.ftz3.d.next = self.ftz2.q.val();
        self.x3.d.next = self.x2.q.val();

        self.s3_en.next = self.en3.q.val();
        self.s3_byp.next = self.byp3.q.val();
        self.s3_bv.next = self.bv3.q.val();
        self.s3_op.next = self.op3.q.val();
        self.s3_fmt.next = self.fmt3.q.val();
        self.s3_ftz.next = self.ftz3.q.val();
        self.s3_x.next = self.x3.q.val();
        self.s3_c0.next = self.c03.q.val();
        self.s3_k.next = self.k3.q.val();
        self.s3_c1neg.next = self.c1n3.q.val();
        self.s3_c2neg.next = self.c2n3.q.val();
        self.s3_d.next = self.d3.q.val();
        self.s3_sq.next = self.sq3.q.val();
        self.s3_p1.next = self.m1.p.val();
        self.s3_p2.next = self.m2.p.val();
    }
}

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

/// Normalise, round (RNE, fp16 gradual underflow, ftz on results) and pack the value
/// `pp` * 2^(`exb` - 256), `pp` in [2^52, 2^58); then the bypass value and the enable
/// (combinational; the lane registers `out`).
#[derive(LogicBlock)]
pub struct RoundPack {
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
    stk: Signal<Local, Bit>,
    rq: Signal<Local, Bits<32>>,
    carry: Signal<Local, Bit>,
    norm: Signal<Local, Bit>,
    expf: Signal<Local, Bits<12>>,
    mant: Signal<Local, Bits<32>>,
    mag: Signal<Local, Bits<32>>,
    k_fmt_fp32: Constant<Bits<2>>,
    k_fmt_fp16: Constant<Bits<2>>,
    k_fmt_bf16: Constant<Bits<2>>,
}

impl Default for RoundPack {
    fn default() -> Self {
        Self {
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
            stk: Default::default(),
            rq: Default::default(),
            carry: Default::default(),
            norm: Default::default(),
            expf: Default::default(),
            mant: Default::default(),
            mag: Default::default(),
            k_fmt_fp32: Constant::new(fmt::FP32.into()),
            k_fmt_fp16: Constant::new(fmt::FP16.into()),
            k_fmt_bf16: Constant::new(fmt::BF16.into()),
        }
    }
}

impl Logic for RoundPack {
    #[hdl_gen]
    fn update(&mut self) {
        // leading one position
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
        self.hi1.next = self.pp.val() >> self.sh1.val();
        self.stk.next = (self.pp.val() - (self.hi1.val() << self.sh1.val())) != 0;
        self.rq.next = bit_cast::<32, 64>(self.hi1.val() >> 1);
        if self.hi1.val().get_bit(0) & (self.stk.val() | self.hi1.val().get_bit(1)) {
            self.rq.next = bit_cast::<32, 64>(self.hi1.val() >> 1) + 1;
        }
        self.carry.next = (self.rq.val() >> (self.pm1.val() + 1)) != 0;
        self.norm.next = (self.rq.val() >> self.pm1.val()) != 0;
        self.expf.next = self.exb.val() + self.sh.val() - self.kx.val();
        self.mant.next = self.rq.val();
        if self.carry.val() {
            self.expf.next = self.exb.val() + self.sh.val() - self.kx.val() + 1;
            self.mant.next = self.rq.val() >> 1;
        }
        if self.fmt.val() == self.k_fmt_fp32.val() {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val()) << 23) | (self.mant.val() & 0x7F_FFFF)
                | (bit_cast::<32, 1>(self.s.val().into()) << 31);
        } else if self.fmt.val() == self.k_fmt_fp16.val() {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0x1F) << 10) | (self.mant.val() & 0x3FF)
                | (bit_cast::<32, 1>(self.s.val().into()) << 15);
        } else {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0xFF) << 7) | (self.mant.val() & 0x7F)
                | (bit_cast::<32, 1>(self.s.val().into()) << 15);
        }
        if !self.norm.val() {
            // subnormal (fp16 sigmoid): exponent field 0; flushed to zero with ftz
            self.mag.next = self.rq.val();
            if self.ftz.val() {
                self.mag.next = 0.into();
            }
        }
        self.out.next = 0.into();
        if self.en.val() {
            self.out.next = self.mag.val();
            if self.byp.val() {
                self.out.next = self.bv.val();
            }
        }
    }
}

/// One lane with the fused TANH tail (FUSED = 1, LAT = 6): stage 4 accumulates and selects the
/// multiplicand m = min(|x|, 1) of op TANH (2^23, i.e. 1, for the other ops and |x| >= 1);
/// stage 5 forms N*m; stage 6 rounds once and packs.
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
    accum: Accumulate,
    m3: Mul<32, 32, 64>,
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
    en5: RDff<Bit>,
    byp5: RDff<Bit>,
    bv5: RDff<Bits<32>>,
    fmt5: RDff<Bits<2>>,
    ftz5: RDff<Bit>,
    s5: RDff<Bit>,
    p5h: RDff<Bits<64>>,
    exb5: RDff<Bits<12>>,
    // ---- stage 6
    out6: RDff<Bits<32>>,
    k_op_tanh: Constant<Bits<2>>,
}

impl Lane {
    pub fn new(canon_nan: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            front: Front::new(true, canon_nan),
            accum: Default::default(),
            m3: Default::default(),
            round: Default::default(),
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
            en5: Default::default(),
            byp5: Default::default(),
            bv5: Default::default(),
            fmt5: Default::default(),
            ftz5: Default::default(),
            s5: Default::default(),
            p5h: Default::default(),
            exb5: Default::default(),
            out6: Default::default(),
            k_op_tanh: Constant::new(op::TANH.into()),
        }
    }
}

impl Logic for Lane {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, en4, byp4, bv4, fmt4, ftz4, s4, n4, mm4, exb4, en5, byp5, bv5, fmt5, ftz5, s5, p5h, exb5, out6);
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
        self.exb5.rst.next = self.rst.val();
        self.out6.rst.next = self.rst.val();
        self.front.clk.next = self.clk.val();
        self.front.rst.next = self.rst.val();
        self.front.en.next = self.en.val();
        self.front.op.next = self.op.val();
        self.front.fmt.next = self.fmt.val();
        self.front.ftz.next = self.ftz.val();
        self.front.din.next = self.din.val();
        self.m3.clock.next = self.clk.val();
        self.m3.rst.next = self.rst.val();
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
        // op TANH with |x| < 1: m = the significand of |x|, exponent folded into exb
        self.mm4.d.next = 0x80_0000.into();
        self.exb4.d.next = self.accum.exb.val();
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
        self.m3.a.next = self.n4.q.val().get_bits::<32>(0);
        self.m3.b.next = bit_cast::<32, 24>(self.mm4.q.val());
        self.nh.next = 0.into();
        if self.n4.q.val().get_bit(32) {
            self.nh.next = bit_cast::<64, 24>(self.mm4.q.val()) << 32;
        }
        if self.n4.q.val().get_bit(33) {
            self.nh.next = self.nh.val() + (bit_cast::<64, 24>(self.mm4.q.val()) << 33);
        }
        self.p5h.d.next = self.nh.val();
        self.exb5.d.next = bit_cast::<12, 10>(self.exb4.q.val());
        self.en5.d.next = self.en4.q.val();
        self.byp5.d.next = self.byp4.q.val();
        self.bv5.d.next = self.bv4.q.val();
        self.fmt5.d.next = self.fmt4.q.val();
        self.ftz5.d.next = self.ftz4.q.val();
        self.s5.d.next = self.s4.q.val();

        // ================= stage 6: normalise, round, pack =================
        self.round.pp.next = self.m3.p.val() + self.p5h.q.val();
        self.round.exb.next = self.exb5.q.val();
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
    round: RoundPack,
    out4: RDff<Bits<32>>,
}

impl LaneUnfused {
    pub fn new(canon_nan: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            front: Front::new(false, canon_nan),
            accum: Default::default(),
            round: Default::default(),
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
        self.round.exb.next = bit_cast::<12, 10>(self.accum.exb.val());
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

/// `tanh_sigmoid_dp` (spec §6.1) with LANES lanes, DW = 32*LANES, tag width TAGW. Exactly one of
/// `fused` / `unfused` holds the LANES lanes (config FUSED); the other is empty and emits nothing.
#[derive(LogicBlock)]
pub struct TanhSigmoid<const LANES: usize, const DW: usize, const TAGW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_op: Signal<In, Bits<2>>,
    pub in_fmt: Signal<In, Bits<2>>,
    pub in_ftz: Signal<In, Bit>,
    pub in_mask: Signal<In, Bits<LANES>>,
    pub in_data: Signal<In, Bits<DW>>,
    pub in_tag: Signal<In, Bits<TAGW>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_mask: Signal<Out, Bits<LANES>>,
    pub out_data: Signal<Out, Bits<DW>>,
    pub out_tag: Signal<Out, Bits<TAGW>>,
    fused: Vec<Lane>,
    unfused: Vec<LaneUnfused>,
    dvalid: Delay<Bits<1>>,
    dmask: Delay<Bits<LANES>>,
    dtag: Delay<Bits<TAGW>>,
    /// `lat` above the spec's LAT: one delay line of `lat − LAT` stages on the data (none at LAT).
    retime: Vec<Delay<Bits<DW>>>,
    collect: Signal<Local, Bits<DW>>,
    lo: Signal<Local, Bits<32>>,
    mask32: Signal<Local, Bits<32>>,
    top: Constant<Bits<16>>,
    _n_fused: usize,
    _n_unfused: usize,
    _n_retime: usize,
}

impl<const LANES: usize, const DW: usize, const TAGW: usize> TanhSigmoid<LANES, DW, TAGW> {
    /// `lat` is the config's latency: at least the spec's (6 with the fused tail, 4 without);
    /// any cycles above it are output register stages on the data.
    pub fn new(fused: bool, canon_nan: bool, lat: usize) -> Self {
        assert_eq!(DW, 32 * LANES);
        let base = if fused { 6 } else { 4 };
        assert!(lat >= base, "lat {lat} below the datapath's {base}");
        let (nf, nu) = if fused { (LANES, 0) } else { (0, LANES) };
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_op: Default::default(),
            in_fmt: Default::default(),
            in_ftz: Default::default(),
            in_mask: Default::default(),
            in_data: Default::default(),
            in_tag: Default::default(),
            out_valid: Default::default(),
            out_mask: Default::default(),
            out_data: Default::default(),
            out_tag: Default::default(),
            fused: (0..nf).map(|_| Lane::new(canon_nan)).collect(),
            unfused: (0..nu).map(|_| LaneUnfused::new(canon_nan)).collect(),
            dvalid: Delay::new(lat),
            dmask: Delay::new(lat),
            dtag: Delay::new(lat),
            retime: (base..lat).take(1).map(|_| Delay::new(lat - base)).collect(),
            collect: Default::default(),
            lo: Default::default(),
            mask32: Default::default(),
            top: Constant::new(((DW - 32) as u64).into()),
            _n_fused: nf,
            _n_unfused: nu,
            _n_retime: (lat > base) as usize,
        }
    }
}

impl<const LANES: usize, const DW: usize, const TAGW: usize> Logic for TanhSigmoid<LANES, DW, TAGW> {
    #[hdl_gen]
    fn update(&mut self) {
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
        self.mask32.next = bit_cast::<32, LANES>(self.in_mask.val());
        // lane i reads in_data[32i+31:32i] and writes out_data[32i+31:32i]; out_data is shifted
        // in from the top, one lane at a time
        self.collect.next = 0.into();
        for i in 0..self._n_fused {
            self.fused[i].clk.next = self.clk.val();
            self.fused[i].rst.next = self.rst.val();
            self.fused[i].en.next = self.in_valid.val() & self.mask32.val().get_bit(i);
            self.fused[i].op.next = self.in_op.val();
            self.fused[i].fmt.next = self.in_fmt.val();
            self.fused[i].ftz.next = self.in_ftz.val();
            self.fused[i].din.next = self.in_data.val().get_bits::<32>(32 * i);
            self.lo.next = self.fused[i].dout.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<DW, 32>(self.lo.val()) << self.top.val());
        }
        for i in 0..self._n_unfused {
            self.unfused[i].clk.next = self.clk.val();
            self.unfused[i].rst.next = self.rst.val();
            self.unfused[i].en.next = self.in_valid.val() & self.mask32.val().get_bit(i);
            self.unfused[i].op.next = self.in_op.val();
            self.unfused[i].fmt.next = self.in_fmt.val();
            self.unfused[i].ftz.next = self.in_ftz.val();
            self.unfused[i].din.next = self.in_data.val().get_bits::<32>(32 * i);
            self.lo.next = self.unfused[i].dout.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<DW, 32>(self.lo.val()) << self.top.val());
        }
        self.out_data.next = self.collect.val();
        for i in 0..self._n_retime {
            self.retime[i].clock.next = self.clk.val();
            self.retime[i].rst.next = self.rst.val();
            self.retime[i].d.next = self.collect.val();
            self.out_data.next = self.retime[i].q.val();
        }
    }
}
