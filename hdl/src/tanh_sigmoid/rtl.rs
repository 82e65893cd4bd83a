//! RTL of the tanh/sigmoid datapath in rust-hdl (see docs/tanh_sigmoid.md for the arithmetic).
//!
//! Six register stages per lane (LAT = 6, FUSED = 1):
//! 1 decode (widen, classify, bypass value, row/Delta), 2 ROM + squarer, 3 c1*D and c2*SQ,
//! 4 accumulate, tanh clamp / sigmoid reflection, select the fused multiplicand,
//! 5 N*m product, 6 normalise, RNE round (fp16 gradual underflow, ftz), pack, mask.

use super::tables::{tables, WORD_BITS};
use rust_hdl::prelude::*;

/// Registered 32x32 -> 64 unsigned multiplier built from four of rust-hdl's 16x16 multipliers:
/// `p` is the product of the previous cycle's `a` and `b` (cleared by rst).
#[derive(LogicBlock, Default)]
pub struct Mul32 {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub p: Signal<Out, Bits<64>>,
    a0: Signal<Local, Bits<16>>,
    a1: Signal<Local, Bits<16>>,
    b0: Signal<Local, Bits<16>>,
    b1: Signal<Local, Bits<16>>,
    r: DFF<Bits<64>>,
}

impl Logic for Mul32 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, r);
        self.a0.next = self.a.val().get_bits::<16>(0);
        self.a1.next = self.a.val().get_bits::<16>(16);
        self.b0.next = self.b.val().get_bits::<16>(0);
        self.b1.next = self.b.val().get_bits::<16>(16);
        self.r.d.next = bit_cast::<64, 32>(self.a0.val() * self.b0.val())
            + (bit_cast::<64, 32>(self.a0.val() * self.b1.val()) << 16)
            + (bit_cast::<64, 32>(self.a1.val() * self.b0.val()) << 16)
            + (bit_cast::<64, 32>(self.a1.val() * self.b1.val()) << 32);
        if self.rst.val() {
            self.r.d.next = 0.into();
        }
        self.p.next = self.r.q.val();
    }
}

/// `W`-bit delay line of 6 registers, cleared by rst.
#[derive(LogicBlock, Default)]
pub struct Delay6<const W: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub d: Signal<In, Bits<W>>,
    pub q: Signal<Out, Bits<W>>,
    r1: DFF<Bits<W>>,
    r2: DFF<Bits<W>>,
    r3: DFF<Bits<W>>,
    r4: DFF<Bits<W>>,
    r5: DFF<Bits<W>>,
    r6: DFF<Bits<W>>,
}

impl<const W: usize> Logic for Delay6<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, r1, r2, r3, r4, r5, r6);
        self.r1.d.next = self.d.val();
        self.r2.d.next = self.r1.q.val();
        self.r3.d.next = self.r2.q.val();
        self.r4.d.next = self.r3.q.val();
        self.r5.d.next = self.r4.q.val();
        self.r6.d.next = self.r5.q.val();
        if self.rst.val() {
            self.r1.d.next = 0.into();
            self.r2.d.next = 0.into();
            self.r3.d.next = 0.into();
            self.r4.d.next = 0.into();
            self.r5.d.next = 0.into();
            self.r6.d.next = 0.into();
        }
        self.q.next = self.r6.q.val();
    }
}

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

/// One lane of the datapath.
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
    rom: ROM<Bits<92>, 10>,
    m1: Mul32,
    m2: Mul32,
    m3: Mul32,
    // ---- stage 1 locals
    h: Signal<Local, Bits<16>>,
    raw16: Signal<Local, Bits<32>>,
    isnan: Signal<Local, Bit>,
    nanq: Signal<Local, Bits<32>>,
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
    en1: DFF<Bit>,
    byp1: DFF<Bit>,
    bv1: DFF<Bits<32>>,
    isig1: DFF<Bit>,
    full1: DFF<Bit>,
    fmt1: DFF<Bits<2>>,
    ftz1: DFF<Bit>,
    s1: DFF<Bit>,
    e1: DFF<Bits<8>>,
    sig1: DFF<Bits<24>>,
    row1: DFF<Bits<9>>,
    d1: DFF<Bits<23>>,
    // ---- stage 2
    dh: Signal<Local, Bits<16>>,
    dsq: Signal<Local, Bits<32>>,
    en2: DFF<Bit>,
    byp2: DFF<Bit>,
    bv2: DFF<Bits<32>>,
    isig2: DFF<Bit>,
    full2: DFF<Bit>,
    fmt2: DFF<Bits<2>>,
    ftz2: DFF<Bit>,
    s2: DFF<Bit>,
    e2: DFF<Bits<8>>,
    sig2: DFF<Bits<24>>,
    d2: DFF<Bits<23>>,
    sq2: DFF<Bits<16>>,
    w2: DFF<Bits<92>>,
    // ---- stage 3
    c1: Signal<Local, Bits<28>>,
    c2: Signal<Local, Bits<24>>,
    p1: Signal<Local, Bits<64>>,
    p2: Signal<Local, Bits<64>>,
    en3: DFF<Bit>,
    byp3: DFF<Bit>,
    bv3: DFF<Bits<32>>,
    isig3: DFF<Bit>,
    full3: DFF<Bit>,
    fmt3: DFF<Bits<2>>,
    ftz3: DFF<Bit>,
    s3: DFF<Bit>,
    e3: DFF<Bits<8>>,
    sig3: DFF<Bits<24>>,
    c03: DFF<Bits<34>>,
    k3: DFF<Bits<6>>,
    c1n3: DFF<Bit>,
    c2n3: DFF<Bit>,
    d3: DFF<Bits<23>>,
    sq3: DFF<Bits<16>>,
    t1: Signal<Local, Bits<33>>,
    t2: Signal<Local, Bits<29>>,
    // ---- stage 4
    t1x: Signal<Local, Bits<36>>,
    t2x: Signal<Local, Bits<36>>,
    acc: Signal<Local, Bits<36>>,
    refl: Signal<Local, Bits<36>>,
    en4: DFF<Bit>,
    byp4: DFF<Bit>,
    bv4: DFF<Bits<32>>,
    fmt4: DFF<Bits<2>>,
    ftz4: DFF<Bit>,
    s4: DFF<Bit>,
    n4: DFF<Bits<34>>,
    mm4: DFF<Bits<24>>,
    exb4: DFF<Bits<10>>,
    // ---- stage 5
    nh: Signal<Local, Bits<64>>,
    en5: DFF<Bit>,
    byp5: DFF<Bit>,
    bv5: DFF<Bits<32>>,
    fmt5: DFF<Bits<2>>,
    ftz5: DFF<Bit>,
    s5: DFF<Bit>,
    p5h: DFF<Bits<64>>,
    pp: Signal<Local, Bits<64>>,
    exb5: DFF<Bits<12>>,
    // ---- stage 6
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
    out6: DFF<Bits<32>>,
}

impl Default for Lane {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            op: Default::default(),
            fmt: Default::default(),
            ftz: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            rom: coefficient_rom(),
            m1: Default::default(),
            m2: Default::default(),
            m3: Default::default(),
            h: Default::default(),
            raw16: Default::default(),
            isnan: Default::default(),
            nanq: Default::default(),
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
            isig1: Default::default(),
            full1: Default::default(),
            fmt1: Default::default(),
            ftz1: Default::default(),
            s1: Default::default(),
            e1: Default::default(),
            sig1: Default::default(),
            row1: Default::default(),
            d1: Default::default(),
            dh: Default::default(),
            dsq: Default::default(),
            en2: Default::default(),
            byp2: Default::default(),
            bv2: Default::default(),
            isig2: Default::default(),
            full2: Default::default(),
            fmt2: Default::default(),
            ftz2: Default::default(),
            s2: Default::default(),
            e2: Default::default(),
            sig2: Default::default(),
            d2: Default::default(),
            sq2: Default::default(),
            w2: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            p1: Default::default(),
            p2: Default::default(),
            en3: Default::default(),
            byp3: Default::default(),
            bv3: Default::default(),
            isig3: Default::default(),
            full3: Default::default(),
            fmt3: Default::default(),
            ftz3: Default::default(),
            s3: Default::default(),
            e3: Default::default(),
            sig3: Default::default(),
            c03: Default::default(),
            k3: Default::default(),
            c1n3: Default::default(),
            c2n3: Default::default(),
            d3: Default::default(),
            sq3: Default::default(),
            t1: Default::default(),
            t2: Default::default(),
            t1x: Default::default(),
            t2x: Default::default(),
            acc: Default::default(),
            refl: Default::default(),
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
            pp: Default::default(),
            exb5: Default::default(),
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
            out6: Default::default(),
        }
    }
}

impl Logic for Lane {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, en1, byp1, bv1, isig1, full1, fmt1, ftz1, s1, e1, sig1, row1, d1, en2, byp2, bv2, isig2, full2,
            fmt2, ftz2, s2, e2, sig2, d2, sq2, w2, en3, byp3, bv3, isig3, full3, fmt3, ftz3, s3, e3, sig3, c03, k3, c1n3,
            c2n3, d3, sq3, en4, byp4, bv4, fmt4, ftz4, s4, n4, mm4, exb4, en5, byp5, bv5, fmt5, ftz5, s5, p5h, exb5, out6
        );
        self.m1.clk.next = self.clk.val();
        self.m2.clk.next = self.clk.val();
        self.m3.clk.next = self.clk.val();
        self.m1.rst.next = self.rst.val();
        self.m2.rst.next = self.rst.val();
        self.m3.rst.next = self.rst.val();
        // ================= stage 1: decode =================
        self.h.next = self.din.val().get_bits::<16>(0);
        self.raw16.next = bit_cast::<32, 16>(self.h.val());
        if self.fmt.val() == 0 {
            self.raw16.next = self.din.val();
        }
        // NaN in the input format, quieted
        self.isnan.next = false;
        self.nanq.next = self.raw16.val();
        if self.fmt.val() == 0 {
            self.isnan.next = (self.din.val().get_bits::<8>(23) == 0xFF) & (self.din.val().get_bits::<23>(0) != 0);
            self.nanq.next = self.din.val() | 0x40_0000;
        }
        if self.fmt.val() == 1 {
            self.isnan.next = (self.h.val().get_bits::<5>(10) == 0x1F) & (self.h.val().get_bits::<10>(0) != 0);
            self.nanq.next = self.raw16.val() | 0x200;
        }
        if self.fmt.val() == 2 {
            self.isnan.next = (self.h.val().get_bits::<8>(7) == 0xFF) & (self.h.val().get_bits::<7>(0) != 0);
            self.nanq.next = self.raw16.val() | 0x40;
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
        if self.fmt.val() == 1 {
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
        if self.fmt.val() == 2 {
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
        if self.fmt.val() == 0 {
            self.sgn.next = bit_cast::<32, 1>(self.sx.val().into()) << 31;
            self.one.next = 0x3F80_0000.into();
        }
        if self.fmt.val() == 1 {
            self.one.next = 0x3C00.into();
        }
        // bypass: reserved, NaN, zero, clamp rows
        self.byp.next = false;
        self.bv.next = 0.into();
        if self.istanh.val() {
            if self.zero.val() {
                self.byp.next = true;
                self.bv.next = self.sgn.val();
                if self.op.val() == 0 {
                    self.bv.next = self.sgn.val() | self.one.val();
                }
            } else if self.ee.val() <= 115 {
                self.byp.next = true;
                self.bv.next = self.raw16.val();
                if self.op.val() == 0 {
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
                if self.fmt.val() == 0 {
                    self.bv.next = 0x3F00_0000.into();
                }
                if self.fmt.val() == 2 {
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
        if (self.op.val() == 3) | (self.fmt.val() == 3) {
            self.byp.next = true;
            self.bv.next = 0x7FC0_0000.into();
        }
        self.en1.d.next = self.en.val();
        self.byp1.d.next = self.byp.val();
        self.bv1.d.next = self.bv.val();
        self.isig1.d.next = !self.istanh.val();
        self.full1.d.next = self.op.val() == 2;
        self.fmt1.d.next = self.fmt.val();
        self.ftz1.d.next = self.ftz.val();
        self.s1.d.next = self.sx.val();
        self.e1.d.next = self.ex.val();
        self.sig1.d.next = self.sig.val();

        // ================= stage 2: ROM, squarer =================
        self.rom.address.next = (bit_cast::<10, 1>(self.isig1.q.val().into()) << 9) | bit_cast::<10, 9>(self.row1.q.val());
        self.dh.next = self.d1.q.val().get_bits::<16>(7);
        self.dsq.next = self.dh.val() * self.dh.val();
        self.sq2.d.next = self.dsq.val().get_bits::<16>(16);
        self.w2.d.next = self.rom.data.val();
        self.d2.d.next = self.d1.q.val();
        self.en2.d.next = self.en1.q.val();
        self.byp2.d.next = self.byp1.q.val();
        self.bv2.d.next = self.bv1.q.val();
        self.isig2.d.next = self.isig1.q.val();
        self.full2.d.next = self.full1.q.val();
        self.fmt2.d.next = self.fmt1.q.val();
        self.ftz2.d.next = self.ftz1.q.val();
        self.s2.d.next = self.s1.q.val();
        self.e2.d.next = self.e1.q.val();
        self.sig2.d.next = self.sig1.q.val();

        // ================= stage 3: products (two's complement, floor shifts) =================
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
        self.isig3.d.next = self.isig2.q.val();
        self.full3.d.next = self.full2.q.val();
        self.fmt3.d.next = self.fmt2.q.val();
        self.ftz3.d.next = self.ftz2.q.val();
        self.s3.d.next = self.s2.q.val();
        self.e3.d.next = self.e2.q.val();
        self.sig3.d.next = self.sig2.q.val();

        // ================= stage 4: accumulate, clamp / reflect, fused multiplicand =================
        // signed products: unsigned product minus the sign weight (c*d = u(c)*d - 2^W*d when c < 0),
        // then floor shifts (two's complement truncation) to the accumulator LSB
        self.p1.next = self.m1.p.val();
        if self.c1n3.q.val() {
            self.p1.next = self.m1.p.val() - (bit_cast::<64, 23>(self.d3.q.val()) << 28);
        }
        self.p2.next = self.m2.p.val();
        if self.c2n3.q.val() {
            self.p2.next = self.m2.p.val() - (bit_cast::<64, 16>(self.sq3.q.val()) << 24);
        }
        self.t1.next = self.p1.val().get_bits::<33>(19);
        self.t2.next = self.p2.val().get_bits::<29>(12);
        self.t1x.next = bit_cast::<36, 33>(self.t1.val());
        if self.t1.val().get_bit(32) {
            self.t1x.next = bit_cast::<36, 33>(self.t1.val()) | 0xE_0000_0000_u64;
        }
        self.t2x.next = bit_cast::<36, 29>(self.t2.val());
        if self.t2.val().get_bit(28) {
            self.t2x.next = bit_cast::<36, 29>(self.t2.val()) | 0xF_E000_0000_u64;
        }
        self.acc.next = bit_cast::<36, 34>(self.c03.q.val()) + self.t1x.val() + self.t2x.val();
        self.refl.next = 0x1_0000_0000_u64 - (self.acc.val() >> self.k3.q.val());
        // value = N * m * 2^(exb - 256); exb = 256 - 55 + adjustment
        self.mm4.d.next = 0x80_0000.into();
        self.exb4.d.next = 201.into();
        self.s4.d.next = self.s3.q.val();
        if self.isig3.q.val() {
            self.s4.d.next = false;
            if self.s3.q.val() {
                self.n4.d.next = self.acc.val().get_bits::<34>(0);
                self.exb4.d.next = 201 - bit_cast::<10, 6>(self.k3.q.val());
            } else {
                self.n4.d.next = self.refl.val().get_bits::<34>(0);
            }
        } else {
            self.n4.d.next = self.acc.val().get_bits::<34>(0);
            if self.acc.val().get_bits::<4>(32) != 0 {
                self.n4.d.next = 0x1_0000_0000_u64.into();
            }
            if self.full3.q.val() & (self.e3.q.val() < 127) {
                self.mm4.d.next = self.sig3.q.val();
                self.exb4.d.next = bit_cast::<10, 8>(self.e3.q.val()) + 74;
            }
        }
        self.en4.d.next = self.en3.q.val();
        self.byp4.d.next = self.byp3.q.val();
        self.bv4.d.next = self.bv3.q.val();
        self.fmt4.d.next = self.fmt3.q.val();
        self.ftz4.d.next = self.ftz3.q.val();

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
        self.pp.next = self.m3.p.val() + self.p5h.q.val();
        // P is in [2^52, 2^58): leading one position
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
        if self.fmt5.q.val() == 1 {
            self.pm1.next = 10.into();
            self.cb.next = 1256.into();
            self.kx.next = 231.into();
        }
        if self.fmt5.q.val() == 2 {
            self.pm1.next = 7.into();
            self.cb.next = 1147.into();
            self.kx.next = 122.into();
        }
        // shift = max(msb - (p-1), emin - (p-1) - e)  (offset 1024)
        self.sa.next = self.msb.val() + 1024 - self.pm1.val();
        self.sb.next = self.cb.val() - self.exb5.q.val();
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
        self.expf.next = self.exb5.q.val() + self.sh.val() - self.kx.val();
        self.mant.next = self.rq.val();
        if self.carry.val() {
            self.expf.next = self.exb5.q.val() + self.sh.val() - self.kx.val() + 1;
            self.mant.next = self.rq.val() >> 1;
        }
        if self.fmt5.q.val() == 0 {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val()) << 23) | (self.mant.val() & 0x7F_FFFF)
                | (bit_cast::<32, 1>(self.s5.q.val().into()) << 31);
        } else if self.fmt5.q.val() == 1 {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0x1F) << 10) | (self.mant.val() & 0x3FF)
                | (bit_cast::<32, 1>(self.s5.q.val().into()) << 15);
        } else {
            self.mag.next = (bit_cast::<32, 12>(self.expf.val() & 0xFF) << 7) | (self.mant.val() & 0x7F)
                | (bit_cast::<32, 1>(self.s5.q.val().into()) << 15);
        }
        if !self.norm.val() {
            // subnormal (fp16 sigmoid): exponent field 0; flushed to zero with ftz
            self.mag.next = self.rq.val();
            if self.ftz5.q.val() {
                self.mag.next = 0.into();
            }
        }
        self.out6.d.next = 0.into();
        if self.en5.q.val() {
            self.out6.d.next = self.mag.val();
            if self.byp5.q.val() {
                self.out6.d.next = self.bv5.q.val();
            }
        }
        self.dout.next = self.out6.q.val();

        if self.rst.val() {
            self.en1.d.next = false;
            self.byp1.d.next = false;
            self.bv1.d.next = 0.into();
            self.isig1.d.next = false;
            self.full1.d.next = false;
            self.fmt1.d.next = 0.into();
            self.ftz1.d.next = false;
            self.s1.d.next = false;
            self.e1.d.next = 0.into();
            self.sig1.d.next = 0.into();
            self.row1.d.next = 0.into();
            self.d1.d.next = 0.into();
            self.en2.d.next = false;
            self.byp2.d.next = false;
            self.bv2.d.next = 0.into();
            self.isig2.d.next = false;
            self.full2.d.next = false;
            self.fmt2.d.next = 0.into();
            self.ftz2.d.next = false;
            self.s2.d.next = false;
            self.e2.d.next = 0.into();
            self.sig2.d.next = 0.into();
            self.d2.d.next = 0.into();
            self.sq2.d.next = 0.into();
            self.w2.d.next = 0.into();
            self.en3.d.next = false;
            self.byp3.d.next = false;
            self.bv3.d.next = 0.into();
            self.isig3.d.next = false;
            self.full3.d.next = false;
            self.fmt3.d.next = 0.into();
            self.ftz3.d.next = false;
            self.s3.d.next = false;
            self.e3.d.next = 0.into();
            self.sig3.d.next = 0.into();
            self.c03.d.next = 0.into();
            self.k3.d.next = 0.into();
            self.c1n3.d.next = false;
            self.c2n3.d.next = false;
            self.d3.d.next = 0.into();
            self.sq3.d.next = 0.into();
            self.en4.d.next = false;
            self.byp4.d.next = false;
            self.bv4.d.next = 0.into();
            self.fmt4.d.next = 0.into();
            self.ftz4.d.next = false;
            self.s4.d.next = false;
            self.n4.d.next = 0.into();
            self.mm4.d.next = 0.into();
            self.exb4.d.next = 0.into();
            self.en5.d.next = false;
            self.byp5.d.next = false;
            self.bv5.d.next = 0.into();
            self.fmt5.d.next = 0.into();
            self.ftz5.d.next = false;
            self.s5.d.next = false;
            self.p5h.d.next = 0.into();
            self.exb5.d.next = 0.into();
            self.out6.d.next = 0.into();
        }
    }
}

/// `tanh_sigmoid_dp` (spec §6.1) with LANES lanes, DW = 32*LANES, tag width TAGW, FUSED = 1.
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
    lanes: Vec<Lane>,
    dvalid: Delay6<1>,
    dmask: Delay6<LANES>,
    dtag: Delay6<TAGW>,
    shifted: Signal<Local, Bits<DW>>,
    collect: Signal<Local, Bits<DW>>,
    lo: Signal<Local, Bits<32>>,
    mask32: Signal<Local, Bits<32>>,
    top: Constant<Bits<16>>,
}

impl<const LANES: usize, const DW: usize, const TAGW: usize> Default for TanhSigmoid<LANES, DW, TAGW> {
    fn default() -> Self {
        assert_eq!(DW, 32 * LANES);
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
            lanes: (0..LANES).map(|_| Lane::default()).collect(),
            dvalid: Default::default(),
            dmask: Default::default(),
            dtag: Default::default(),
            shifted: Default::default(),
            collect: Default::default(),
            lo: Default::default(),
            mask32: Default::default(),
            top: Constant::new(((DW - 32) as u64).into()),
        }
    }
}

impl<const LANES: usize, const DW: usize, const TAGW: usize> Logic for TanhSigmoid<LANES, DW, TAGW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.dvalid.clk.next = self.clk.val();
        self.dmask.clk.next = self.clk.val();
        self.dtag.clk.next = self.clk.val();
        self.dvalid.rst.next = self.rst.val();
        self.dmask.rst.next = self.rst.val();
        self.dtag.rst.next = self.rst.val();
        self.dvalid.d.next = bit_cast::<1, 1>(self.in_valid.val().into());
        self.dmask.d.next = self.in_mask.val();
        self.dtag.d.next = self.in_tag.val();
        self.out_valid.next = self.dvalid.q.val().any();
        self.out_mask.next = self.dmask.q.val();
        self.out_tag.next = self.dtag.q.val();
        self.shifted.next = self.in_data.val();
        self.mask32.next = bit_cast::<32, LANES>(self.in_mask.val());
        self.collect.next = 0.into();
        for i in 0..LANES {
            self.lanes[i].clk.next = self.clk.val();
            self.lanes[i].rst.next = self.rst.val();
            self.lanes[i].en.next = self.in_valid.val() & self.mask32.val().get_bit(i);
            self.lanes[i].op.next = self.in_op.val();
            self.lanes[i].fmt.next = self.in_fmt.val();
            self.lanes[i].ftz.next = self.in_ftz.val();
            self.lanes[i].din.next = self.shifted.val().get_bits::<32>(0);
            self.shifted.next = self.shifted.val() >> 32;
            self.lo.next = self.lanes[i].dout.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<DW, 32>(self.lo.val()) << self.top.val());
        }
        self.out_data.next = self.collect.val();
    }
}
