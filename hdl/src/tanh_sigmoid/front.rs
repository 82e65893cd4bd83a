//! `Front`: stages 1-3 of a lane, shared by both tails: 1 `Decode`, 2 ROM read and squarer,
//! 3 the two coefficient products.

use super::decode::{Decode, Widen};
use super::tables::{tables, WORD_BITS};
use crate::prims::{Delay, Mul, MulDsp, MulDspPp, Piece, RDff, StageReg};
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

/// The pieces of the truncated coefficient product c1·Δ (issue 15, timing-closure §3.5: at most 8
/// DSPs per all-formats lane). The operands split from the top, c1's 28-bit pattern u = uH·2^12 + uL
/// (uH = u[27:12], 16 bits) and Δ = dH·2^7 + dL (dH = Δ[22:7], 16 bits, the squarer's input):
/// uH·dH and uL·dH are DSP pieces (16 × 16, 12 × 16), uH·dL (16 × 7) is built in the fabric, and
/// uL·dL is left out. It is below 2^19, the LSB kept by floor(p1 / 2^19), so the accumulator S
/// loses at most one unit of 2^-32 (the full product took four DSPs). The golden model and the
/// table fit compute the same: c1·Δ − (c1 mod 2^12)·(Δ mod 2^7).
pub fn m1_pieces() -> Vec<Piece> {
    vec![Piece::dsp(12, 16, 7, 16), Piece::dsp(0, 12, 7, 16), Piece::fabric(12, 16, 0, 7)]
}

fn bits_from_u128<const N: usize>(w: u128) -> Bits<N> {
    let lo: Bits<N> = bit_cast::<N, 64>(Bits::<64>::from(w as u64));
    let hi: Bits<N> = bit_cast::<N, 64>(Bits::<64>::from((w >> 64) as u64));
    lo | (hi << 64)
}

/// Stages 1-3 of a lane: 1 decode (widen to fp32, NaN/zero/ftz, bypass value, row and Delta),
/// 2 ROM read and 16x16 squarer, 3 c1*Delta (truncated: `m1_pieces`) and c2*SQ (registered
/// multipliers). The `s3_*`
/// outputs are the stage-3 registers. `x` is the widened fp32 input and `op` the op code, carried
/// for the tails (sign, sigmoid/tanh, the fused multiplicand).
///
/// Three optional pipeline cuts of `lat` (see `rtl`): B, a second register on the ROM word (the EBR's
/// output register) and on what travels beside it, C, the multipliers as `MulDsp` (input and
/// output registers, latency 2, the DSP's own registers) instead of `Mul` (output register only),
/// G, a register between `Widen` and `Decode` in stage 1, and J (fused lane only, after cut C),
/// the multipliers as `MulDspPp` (their 16x16 piece products registered before their sum,
/// latency 3) instead of `MulDsp`. Each adds one cycle; the signals
/// that only travel along are `Delay` lines or `StageReg`s of the matching length. With cut H
/// (`side_late` = 1, the fused lane's register inside the stage-4 accumulate) the side signals
/// (`s3_en` … `s3_x`) leave one cycle after the stage-3 registers (`s3_c0` … `s3_p2`): the
/// accumulate's second half and the stage-4 registers read them then; with cut K as well
/// (`side_late` = 2, the register before the sigmoid reflection's subtract) two cycles after.
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
    widen: Widen,
    // ---- cut G (registers with it, wires without): Widen -> Decode
    jg_x: StageReg<Bits<32>>,
    jg_isnan: StageReg<Bit>,
    jg_nanq: StageReg<Bits<32>>,
    jg_raw: StageReg<Bits<32>>,
    jg_en: StageReg<Bit>,
    jg_op: StageReg<Bits<2>>,
    jg_fmt: StageReg<Bits<2>>,
    jg_ftz: StageReg<Bit>,
    decode: Decode,
    rom: ROM<Bits<92>, 10>,
    /// the multipliers: `Mul` without cut C, `MulDsp` with it, `MulDspPp` with J (one of the three
    /// pairs holds them)
    m1: Vec<Mul<28, 23, 64>>,
    m2: Vec<Mul<24, 16, 64>>,
    m1_dsp: Vec<MulDsp<28, 23, 64>>,
    m2_dsp: Vec<MulDsp<24, 16, 64>>,
    m1_pp: Vec<MulDspPp<28, 23, 64>>,
    m2_pp: Vec<MulDspPp<24, 16, 64>>,
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
    // ---- stage 2 (and cut B)
    dh: Signal<Local, Bits<16>>,
    dsq: Signal<Local, Bits<32>>,
    sq2: RDff<Bits<16>>,
    w2: RDff<Bits<92>>,
    w_b: StageReg<Bits<92>>,
    sq_b: StageReg<Bits<16>>,
    /// Delta from stage 1 to the multiplier input (1 + B cycles)
    d_mul: Delay<Bits<23>>,
    // ---- stage 3 (and cut C)
    w: Signal<Local, Bits<92>>,
    c1: Signal<Local, Bits<28>>,
    c2: Signal<Local, Bits<24>>,
    /// from the multiplier inputs to the `s3_*` outputs (1 + C + J cycles)
    w_out: Delay<Bits<92>>,
    d_out: Delay<Bits<23>>,
    sq_out: Delay<Bits<16>>,
    /// from the stage-1 registers to the `s3_*` outputs (2 + B + C + J cycles, + H)
    en_s3: Delay<Bit>,
    byp_s3: Delay<Bit>,
    bv_s3: Delay<Bits<32>>,
    op_s3: Delay<Bits<2>>,
    fmt_s3: Delay<Bits<2>>,
    ftz_s3: Delay<Bit>,
    x_s3: Delay<Bits<32>>,
    _n_mul: usize,
    _n_mul_dsp: usize,
    _n_mul_pp: usize,
}

impl Front {
    /// `rom_reg`: cut B; `mul_dsp`: cut C; `decode_reg`: cut G; `mul_pp`: cut J (needs C);
    /// `side_late`: the cycles of cuts H and K (see the struct).
    pub fn new(fused: bool, canon_nan: bool, rom_reg: bool, mul_dsp: bool, decode_reg: bool, side_late: usize, mul_pp: bool) -> Self {
        assert!(mul_dsp || !mul_pp, "cut J comes after cut C");
        let (b, c, h, j) = (rom_reg as usize, mul_dsp as usize, side_late, mul_pp as usize);
        // J replaces C's MulDsp pair
        let c_only = c - j;
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
            widen: Widen::new(canon_nan),
            jg_x: StageReg::new(decode_reg),
            jg_isnan: StageReg::new(decode_reg),
            jg_nanq: StageReg::new(decode_reg),
            jg_raw: StageReg::new(decode_reg),
            jg_en: StageReg::new(decode_reg),
            jg_op: StageReg::new(decode_reg),
            jg_fmt: StageReg::new(decode_reg),
            jg_ftz: StageReg::new(decode_reg),
            decode: Decode::new(fused),
            rom: coefficient_rom(),
            m1: (0..1 - c).map(|_| Mul::truncated(m1_pieces())).collect(),
            m2: (0..1 - c).map(|_| Mul::default()).collect(),
            m1_dsp: (0..c_only).map(|_| MulDsp::truncated(m1_pieces())).collect(),
            m2_dsp: (0..c_only).map(|_| MulDsp::default()).collect(),
            m1_pp: (0..j).map(|_| MulDspPp::truncated(m1_pieces())).collect(),
            m2_pp: (0..j).map(|_| MulDspPp::default()).collect(),
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
            sq2: Default::default(),
            w2: Default::default(),
            w_b: StageReg::new(rom_reg),
            sq_b: StageReg::new(rom_reg),
            d_mul: Delay::new(1 + b),
            w: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            w_out: Delay::new(1 + c + j),
            d_out: Delay::new(1 + c + j),
            sq_out: Delay::new(1 + c + j),
            en_s3: Delay::new(2 + b + c + j + h),
            byp_s3: Delay::new(2 + b + c + j + h),
            bv_s3: Delay::new(2 + b + c + j + h),
            op_s3: Delay::new(2 + b + c + j + h),
            fmt_s3: Delay::new(2 + b + c + j + h),
            ftz_s3: Delay::new(2 + b + c + j + h),
            x_s3: Delay::new(2 + b + c + j + h),
            _n_mul: 1 - c,
            _n_mul_dsp: c_only,
            _n_mul_pp: j,
        }
    }
}

impl Logic for Front {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, en1, byp1, bv1, op1, fmt1, ftz1, x1, row1, d1, sq2, w2);
        self.en1.rst.next = self.rst.val();
        self.byp1.rst.next = self.rst.val();
        self.bv1.rst.next = self.rst.val();
        self.op1.rst.next = self.rst.val();
        self.fmt1.rst.next = self.rst.val();
        self.ftz1.rst.next = self.rst.val();
        self.x1.rst.next = self.rst.val();
        self.row1.rst.next = self.rst.val();
        self.d1.rst.next = self.rst.val();
        self.sq2.rst.next = self.rst.val();
        self.w2.rst.next = self.rst.val();
        // ================= stage 1: widen (cut G: a register), decode =================
        self.widen.fmt.next = self.fmt.val();
        self.widen.ftz.next = self.ftz.val();
        self.widen.din.next = self.din.val();
        self.jg_x.clock.next = self.clk.val();
        self.jg_isnan.clock.next = self.clk.val();
        self.jg_nanq.clock.next = self.clk.val();
        self.jg_raw.clock.next = self.clk.val();
        self.jg_en.clock.next = self.clk.val();
        self.jg_op.clock.next = self.clk.val();
        self.jg_fmt.clock.next = self.clk.val();
        self.jg_ftz.clock.next = self.clk.val();
        self.jg_x.rst.next = self.rst.val();
        self.jg_isnan.rst.next = self.rst.val();
        self.jg_nanq.rst.next = self.rst.val();
        self.jg_raw.rst.next = self.rst.val();
        self.jg_en.rst.next = self.rst.val();
        self.jg_op.rst.next = self.rst.val();
        self.jg_fmt.rst.next = self.rst.val();
        self.jg_ftz.rst.next = self.rst.val();
        self.jg_x.en.next = true;
        self.jg_isnan.en.next = true;
        self.jg_nanq.en.next = true;
        self.jg_raw.en.next = true;
        self.jg_en.en.next = true;
        self.jg_op.en.next = true;
        self.jg_fmt.en.next = true;
        self.jg_ftz.en.next = true;
        self.jg_x.d.next = self.widen.x.val();
        self.jg_isnan.d.next = self.widen.isnan.val();
        self.jg_nanq.d.next = self.widen.nanq.val();
        self.jg_raw.d.next = self.widen.raw.val();
        self.jg_en.d.next = self.en.val();
        self.jg_op.d.next = self.op.val();
        self.jg_fmt.d.next = self.fmt.val();
        self.jg_ftz.d.next = self.ftz.val();
        self.decode.op.next = self.jg_op.q.val();
        self.decode.fmt.next = self.jg_fmt.q.val();
        self.decode.x.next = self.jg_x.q.val();
        self.decode.isnan.next = self.jg_isnan.q.val();
        self.decode.nanq.next = self.jg_nanq.q.val();
        self.decode.raw.next = self.jg_raw.q.val();
        self.row1.d.next = self.decode.row.val();
        self.d1.d.next = self.decode.delta.val();
        self.en1.d.next = self.jg_en.q.val();
        self.byp1.d.next = self.decode.byp.val();
        self.bv1.d.next = self.decode.bv.val();
        self.op1.d.next = self.jg_op.q.val();
        self.fmt1.d.next = self.jg_fmt.q.val();
        self.ftz1.d.next = self.jg_ftz.q.val();
        self.x1.d.next = self.jg_x.q.val();

        // ================= stage 2: ROM, squarer (cut B: one more register on both) =================
        // ROM half by op bit 0: sigmoid rows at 512 (`enc::op_bit0_is_sigmoid`)
        self.rom.address.next = (bit_cast::<10, 1>(self.op1.q.val().get_bit(0).into()) << 9) | bit_cast::<10, 9>(self.row1.q.val());
        self.dh.next = self.d1.q.val().get_bits::<16>(7);
        self.dsq.next = self.dh.val() * self.dh.val();
        self.sq2.d.next = self.dsq.val().get_bits::<16>(16);
        self.w2.d.next = self.rom.data.val();
        self.w_b.clock.next = self.clk.val();
        self.sq_b.clock.next = self.clk.val();
        self.d_mul.clock.next = self.clk.val();
        self.w_b.rst.next = self.rst.val();
        self.sq_b.rst.next = self.rst.val();
        self.d_mul.rst.next = self.rst.val();
        self.w_b.en.next = true;
        self.sq_b.en.next = true;
        self.w_b.d.next = self.w2.q.val();
        self.sq_b.d.next = self.sq2.q.val();
        self.d_mul.d.next = self.d1.q.val();

        // ================= stage 3: products of the coefficients' bit patterns =================
        self.w.next = self.w_b.q.val();
        self.c1.next = self.w.val().get_bits::<28>(34);
        self.c2.next = self.w.val().get_bits::<24>(62);
        for i in 0..self._n_mul {
            self.m1[i].clock.next = self.clk.val();
            self.m2[i].clock.next = self.clk.val();
            self.m1[i].rst.next = self.rst.val();
            self.m2[i].rst.next = self.rst.val();
            self.m1[i].a.next = self.c1.val();
            self.m1[i].b.next = self.d_mul.q.val();
            self.m2[i].a.next = self.c2.val();
            self.m2[i].b.next = self.sq_b.q.val();
            self.s3_p1.next = self.m1[i].p.val();
            self.s3_p2.next = self.m2[i].p.val();
        }
        for i in 0..self._n_mul_dsp {
            self.m1_dsp[i].clock.next = self.clk.val();
            self.m2_dsp[i].clock.next = self.clk.val();
            self.m1_dsp[i].en.next = true;
            self.m2_dsp[i].en.next = true;
            self.m1_dsp[i].a.next = self.c1.val();
            self.m1_dsp[i].b.next = self.d_mul.q.val();
            self.m2_dsp[i].a.next = self.c2.val();
            self.m2_dsp[i].b.next = self.sq_b.q.val();
            self.s3_p1.next = self.m1_dsp[i].p.val();
            self.s3_p2.next = self.m2_dsp[i].p.val();
        }
        for i in 0..self._n_mul_pp {
            self.m1_pp[i].clock.next = self.clk.val();
            self.m2_pp[i].clock.next = self.clk.val();
            self.m1_pp[i].en.next = true;
            self.m2_pp[i].en.next = true;
            self.m1_pp[i].a.next = self.c1.val();
            self.m1_pp[i].b.next = self.d_mul.q.val();
            self.m2_pp[i].a.next = self.c2.val();
            self.m2_pp[i].b.next = self.sq_b.q.val();
            self.s3_p1.next = self.m1_pp[i].p.val();
            self.s3_p2.next = self.m2_pp[i].p.val();
        }
        self.w_out.clock.next = self.clk.val();
        self.d_out.clock.next = self.clk.val();
        self.sq_out.clock.next = self.clk.val();
        self.w_out.rst.next = self.rst.val();
        self.d_out.rst.next = self.rst.val();
        self.sq_out.rst.next = self.rst.val();
        self.w_out.d.next = self.w.val();
        self.d_out.d.next = self.d_mul.q.val();
        self.sq_out.d.next = self.sq_b.q.val();
        // word {k[91:86], c2[85:62], c1[61:34], c0[33:0]}; the sign bits are c1[27], c2[23]
        self.s3_c0.next = self.w_out.q.val().get_bits::<34>(0);
        self.s3_k.next = self.w_out.q.val().get_bits::<6>(86);
        self.s3_c1neg.next = self.w_out.q.val().get_bit(61);
        self.s3_c2neg.next = self.w_out.q.val().get_bit(85);
        self.s3_d.next = self.d_out.q.val();
        self.s3_sq.next = self.sq_out.q.val();
        // the side signals, stage-1 registers to s3
        self.en_s3.clock.next = self.clk.val();
        self.en_s3.rst.next = self.rst.val();
        self.en_s3.d.next = self.en1.q.val();
        self.s3_en.next = self.en_s3.q.val();
        self.byp_s3.clock.next = self.clk.val();
        self.byp_s3.rst.next = self.rst.val();
        self.byp_s3.d.next = self.byp1.q.val();
        self.s3_byp.next = self.byp_s3.q.val();
        self.bv_s3.clock.next = self.clk.val();
        self.bv_s3.rst.next = self.rst.val();
        self.bv_s3.d.next = self.bv1.q.val();
        self.s3_bv.next = self.bv_s3.q.val();
        self.op_s3.clock.next = self.clk.val();
        self.op_s3.rst.next = self.rst.val();
        self.op_s3.d.next = self.op1.q.val();
        self.s3_op.next = self.op_s3.q.val();
        self.fmt_s3.clock.next = self.clk.val();
        self.fmt_s3.rst.next = self.rst.val();
        self.fmt_s3.d.next = self.fmt1.q.val();
        self.s3_fmt.next = self.fmt_s3.q.val();
        self.ftz_s3.clock.next = self.clk.val();
        self.ftz_s3.rst.next = self.rst.val();
        self.ftz_s3.d.next = self.ftz1.q.val();
        self.s3_ftz.next = self.ftz_s3.q.val();
        self.x_s3.clock.next = self.clk.val();
        self.x_s3.rst.next = self.rst.val();
        self.x_s3.d.next = self.x1.q.val();
        self.s3_x.next = self.x_s3.q.val();
    }
}
