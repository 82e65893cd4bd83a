//! Registered unsigned multipliers for the DSP blocks: `Mul` (one output register with a
//! synchronous reset, latency 1; the tanh datapath's former `Mul32`) and `MulDsp` (input and
//! output registers without reset and a clock enable, latency 2: the shape whose registers yosys
//! puts inside the DSP) and `MulDspPp` (`MulDsp` with a register on each 16 × 16 piece product
//! before their sum, latency 3: the DSP's output register position, so the fabric sum of the
//! partial products is a path of its own).
//!
//! Hand-written Verilog (a leaf rust-hdl cannot express: its `*` exists only for 16 × 16 bits).
//! One `*` lets yosys split and map the product itself (`mul2dsp`): on iCE40 UP5K `SB_MAC16`
//! (`synth_ice40 -dsp`; HX8K has no DSP), on ECP5 `MULT18X18D`.
//!
//! What yosys 0.23 does with the registers (measured by the tests below, 16 × 16 → 32):
//! - iCE40: `ice40_dsp` absorbs input and output registers **only when they have no reset** (a
//!   clock enable is fine). `MulDsp` maps to exactly one `SB_MAC16` and no flip-flop; `Mul`, whose
//!   output register is reset by `rst`, maps to one `SB_MAC16` (combinational) and 32 `SB_DFFSR`
//!   in the fabric.
//! - ECP5: yosys 0.23 packs no register into `MULT18X18D` (it maps the bare `$mul`), so the
//!   registers stay `TRELLIS_FF` next to it in both variants (`MulDsp` 16 × 16: 64, `Mul`: 32).
//!   nextpnr places them beside the DSP; the multiplier's own pipeline registers are not used.

use rust_hdl::prelude::*;

/// `Bits<N>` (N ≤ 64) as an integer, for the simulation models.
fn to_u128<const N: usize>(x: Bits<N>) -> u128 {
    assert!(N <= 64, "multiplier operands are at most 64 bits wide");
    x.to_u64() as u128
}

/// `(v mod 2^N)` as `Bits<N>` (N ≤ 128).
fn from_u128<const N: usize>(v: u128) -> Bits<N> {
    assert!(N <= 128, "multiplier products are at most 128 bits wide");
    let v = if N == 128 { v } else { v & ((1u128 << N) - 1) };
    if N <= 64 {
        Bits::from(v as u64)
    } else {
        bit_cast::<N, 64>(Bits::<64>::from(v as u64)) | (bit_cast::<N, 64>(Bits::<64>::from((v >> 64) as u64)) << 64)
    }
}

/// Registered unsigned multiplier: at each rising edge of `clock`, `p` takes `(a * b) mod 2^PW`
/// (zero when `rst` is high at that edge). Latency 1, one product per cycle, no enable.
/// Operands up to 64 bits, product up to 128 bits.
#[derive(Clone, Debug, LogicBlock)]
pub struct Mul<const AW: usize, const BW: usize, const PW: usize> {
    /// Clock; `p` changes only at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: `p` is zero after an edge where `rst` is high.
    pub rst: Signal<In, Bit>,
    /// Multiplicand (unsigned).
    pub a: Signal<In, Bits<AW>>,
    /// Multiplier (unsigned).
    pub b: Signal<In, Bits<BW>>,
    /// Product of the `a` and `b` seen at the last rising edge, modulo 2^PW.
    pub p: Signal<Out, Bits<PW>>,
}

impl<const AW: usize, const BW: usize, const PW: usize> Default for Mul<AW, BW, PW> {
    fn default() -> Self {
        Self { clock: Signal::default(), rst: Signal::default(), a: Signal::default(), b: Signal::default(), p: Signal::default() }
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Logic for Mul<AW, BW, PW> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.p.next = if self.rst.val() {
                Bits::default()
            } else {
                from_u128::<PW>(to_u128(self.a.val()) * to_u128(self.b.val()))
            };
        }
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        let zero = Bits::<PW>::default().verilog();
        // Verilog sizes `a * b` to max(AW, BW, PW) bits (the width of `p`), so the product is
        // exact up to PW bits and wraps like the model above.
        Verilog::Custom(format!(
            "\
initial begin
   p = {zero:x};
end

always @(posedge clock) begin
   if (rst) p <= {zero:x};
   else p <= a * b;
end
"
        ))
    }
}

/// DSP-shaped registered unsigned multiplier: input registers, `*`, output register, none of them
/// reset, all advanced by `en`. At each rising edge of `clock` where `en` is high the input
/// registers take `a`, `b` and `p` takes the product of the previous input registers, modulo
/// 2^PW. Latency 2 enabled edges; with `en` low everything holds. After `rst` of the enclosing
/// block `p` holds stale products for two enabled edges: qualify it with a (reset) valid bit.
#[derive(Clone, Debug, LogicBlock)]
pub struct MulDsp<const AW: usize, const BW: usize, const PW: usize> {
    /// Clock; `p` changes only at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Clock enable of all three registers (the DSP's CE).
    pub en: Signal<In, Bit>,
    /// Multiplicand (unsigned), registered at an enabled edge.
    pub a: Signal<In, Bits<AW>>,
    /// Multiplier (unsigned), registered at an enabled edge.
    pub b: Signal<In, Bits<BW>>,
    /// Product of the `a` and `b` registered two enabled edges ago, modulo 2^PW.
    pub p: Signal<Out, Bits<PW>>,
    // Simulation state of the input registers (hand-written Verilog: `a_r`, `b_r`).
    _a_r: Bits<AW>,
    _b_r: Bits<BW>,
}

impl<const AW: usize, const BW: usize, const PW: usize> Default for MulDsp<AW, BW, PW> {
    fn default() -> Self {
        Self {
            clock: Signal::default(),
            en: Signal::default(),
            a: Signal::default(),
            b: Signal::default(),
            p: Signal::default(),
            _a_r: Bits::default(),
            _b_r: Bits::default(),
        }
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Logic for MulDsp<AW, BW, PW> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() {
            self.p.next = from_u128::<PW>(to_u128(self._a_r) * to_u128(self._b_r));
            self._a_r = self.a.val();
            self._b_r = self.b.val();
        }
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        let (za, zb, zp) = (Bits::<AW>::default().verilog(), Bits::<BW>::default().verilog(), Bits::<PW>::default().verilog());
        Verilog::Custom(format!(
            "\
reg [{aw}:0] a_r;
reg [{bw}:0] b_r;

initial begin
   a_r = {za:x};
   b_r = {zb:x};
   p = {zp:x};
end

// No reset: yosys' ice40_dsp absorbs only reset-free registers into SB_MAC16.
always @(posedge clock) begin
   if (en) begin
      a_r <= a;
      b_r <= b;
      p <= a_r * b_r;
   end
end
",
            aw = AW - 1,
            bw = BW - 1
        ))
    }
}

/// The 16-bit operand pieces of a `width`-bit operand: (low bit, width) each, the last one
/// narrower when `width` is not a multiple of 16.
fn pieces(width: usize) -> Vec<(usize, usize)> {
    (0..width).step_by(PIECE).map(|lo| (lo, PIECE.min(width - lo))).collect()
}

/// `MulDspPp`'s operand piece width: one 16 × 16 product per DSP on both families.
const PIECE: usize = 16;

/// `MulDsp` with its partial products registered: input registers, the operands split into
/// 16-bit pieces (16 × 16 fits one `SB_MAC16` and one `MULT18X18D`), one register per piece
/// product (the position of the DSP's own output register), then the shifted sum of the piece
/// products into the output register `p`. None of them reset, all advanced by `en`: at each
/// rising edge of `clock` where `en` is high the input registers take `a`, `b`, the piece
/// registers the products of the previous input registers, and `p` the sum of the previous piece
/// registers, modulo 2^PW. Latency 3 enabled edges; with `en` low everything holds. Piece products
/// whose weight is 2^PW or more are not built (a truncated product needs fewer DSPs). After `rst`
/// of the enclosing block `p` holds stale products for three enabled edges: qualify it with a
/// (reset) valid bit.
///
/// Why: with `MulDsp` the multiplier and the fabric sum of its partial products (yosys splits a
/// wide `*` into 16/18-bit DSP products and adds them in carry chains) are one path; here the
/// DSP ends in a register and the sum starts from registers.
#[derive(Clone, Debug, LogicBlock)]
pub struct MulDspPp<const AW: usize, const BW: usize, const PW: usize> {
    /// Clock; `p` changes only at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Clock enable of all registers (the DSP's CE).
    pub en: Signal<In, Bit>,
    /// Multiplicand (unsigned), registered at an enabled edge.
    pub a: Signal<In, Bits<AW>>,
    /// Multiplier (unsigned), registered at an enabled edge.
    pub b: Signal<In, Bits<BW>>,
    /// Product of the `a` and `b` registered three enabled edges ago, modulo 2^PW.
    pub p: Signal<Out, Bits<PW>>,
    // Simulation state (hand-written Verilog: `a_r`, `b_r` and the piece registers `pp_<i>_<j>`,
    // whose shifted sum is modelled here as the product itself, modulo 2^PW).
    _a_r: Bits<AW>,
    _b_r: Bits<BW>,
    _pp_sum: u128,
}

impl<const AW: usize, const BW: usize, const PW: usize> MulDspPp<AW, BW, PW> {
    /// The piece products the Verilog builds: (a piece, b piece, weight exponent), only those
    /// with a weight below 2^PW.
    pub fn products() -> Vec<((usize, usize), (usize, usize), usize)> {
        let mut v = vec![];
        for &pa in &pieces(AW) {
            for &pb in &pieces(BW) {
                if pa.0 + pb.0 < PW {
                    v.push((pa, pb, pa.0 + pb.0));
                }
            }
        }
        v
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Default for MulDspPp<AW, BW, PW> {
    fn default() -> Self {
        assert!(AW >= 1 && AW <= 64 && BW >= 1 && BW <= 64, "operands of 1..=64 bits");
        assert!(PW >= 1 && PW <= 128, "product of 1..=128 bits");
        Self {
            clock: Signal::default(),
            en: Signal::default(),
            a: Signal::default(),
            b: Signal::default(),
            p: Signal::default(),
            _a_r: Bits::default(),
            _b_r: Bits::default(),
            _pp_sum: 0,
        }
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Logic for MulDspPp<AW, BW, PW> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() {
            self.p.next = from_u128::<PW>(self._pp_sum);
            self._pp_sum = to_u128(self._a_r) * to_u128(self._b_r);
            self._a_r = self.a.val();
            self._b_r = self.b.val();
        }
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        let zero = |w: usize| format!("{w}'h0");
        let (mut decl, mut init, mut step, mut terms) = (String::new(), String::new(), String::new(), vec![]);
        decl += &format!("reg [{}:0] a_r;\nreg [{}:0] b_r;\n", AW - 1, BW - 1);
        init += &format!("   a_r = {};\n   b_r = {};\n   p = {};\n", zero(AW), zero(BW), zero(PW));
        for ((alo, aw), (blo, bw), sh) in Self::products() {
            let name = format!("pp_{}_{}", alo / PIECE, blo / PIECE);
            let w = aw + bw;
            decl += &format!("reg [{}:0] {name};\n", w - 1);
            init += &format!("   {name} = {};\n", zero(w));
            // both operands widened to the product's width: an exact aw × bw product
            step += &format!(
                "      {name} <= {{{}'h0, a_r[{}:{alo}]}} * {{{}'h0, b_r[{}:{blo}]}};\n",
                w - aw,
                alo + aw - 1,
                w - bw,
                blo + bw - 1
            );
            // the product at its weight, exactly PW bits: {zeros, its bits below 2^PW, zeros}
            let n = w.min(PW - sh);
            let mut parts = vec![];
            if PW - sh > n {
                parts.push(zero(PW - sh - n));
            }
            parts.push(format!("{name}[{}:0]", n - 1));
            if sh > 0 {
                parts.push(zero(sh));
            }
            terms.push(format!("{{{}}}", parts.join(", ")));
        }
        Verilog::Custom(format!(
            "\
{decl}
initial begin
{init}end

// No reset: yosys' ice40_dsp absorbs only reset-free registers into SB_MAC16.
always @(posedge clock) begin
   if (en) begin
      a_r <= a;
      b_r <= b;
{step}      p <= {};
   end
end
",
            terms.join("\n         + ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_module, EmittedModule};
    use crate::prims::synth_check::{cells, count, lint, ECP5_FF, ICE40_FF};

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    fn mask(w: usize) -> u128 {
        if w == 128 { u128::MAX } else { (1u128 << w) - 1 }
    }

    /// `Mul` against its contract: p = previous (a·b mod 2^PW), 0 after a reset edge, stable
    /// between edges; widths 32×32→64 (tanh), 16×16→32, 12×7→8 (truncating) and 40×30→70 (a
    /// product wider than 64 bits).
    fn check_mul<const AW: usize, const BW: usize, const PW: usize>(seed: u64) {
        let mut m: Mul<AW, BW, PW> = Mul::default();
        m.connect_all();
        let mut s = seed;
        let mut want = 0u128;
        let mut resets = 0;
        for cycle in 0..400 {
            let r = xorshift(&mut s);
            // Corner operands now and then: all ones, zero.
            let a = match r % 8 { 0 => mask(AW), 1 => 0, _ => xorshift(&mut s) as u128 & mask(AW) };
            let b = match (r >> 3) % 8 { 0 => mask(BW), 1 => 0, _ => xorshift(&mut s) as u128 & mask(BW) };
            let rst = cycle < 2 || (r >> 8) % 16 == 0;
            m.clock.next = Clock { clk: false };
            m.a.next = from_u128::<AW>(a);
            m.b.next = from_u128::<BW>(b);
            m.rst.next = rst;
            assert!(simulate(&mut m, 100));
            assert_eq!(m.p.val(), from_u128::<PW>(want), "low phase of cycle {cycle}");
            m.clock.next = Clock { clk: true };
            assert!(simulate(&mut m, 100));
            want = if rst { 0 } else { a.wrapping_mul(b) & mask(PW) };
            resets += rst as u32;
            assert_eq!(m.p.val(), from_u128::<PW>(want), "after the edge of cycle {cycle}: {a:#x} * {b:#x}");
        }
        assert!(resets > 10 && resets < 100, "{resets} resets");
    }

    #[test]
    fn mul_registers_the_product_and_resets() {
        check_mul::<32, 32, 64>(0x9e37_79b9_7f4a_7c15);
        check_mul::<16, 16, 32>(0x1234_5678_9abc_def1);
        check_mul::<12, 7, 8>(0x0bad_cafe_f00d_0001);
        check_mul::<40, 30, 70>(0x5555_aaaa_1234_4321);
    }

    /// `MulDsp` against its contract: a two-register pipeline advanced by `en`.
    #[test]
    fn mul_dsp_is_a_two_stage_pipeline_advanced_by_en() {
        let mut m: MulDsp<16, 16, 32> = MulDsp::default();
        m.connect_all();
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let (mut ar, mut br, mut p) = (0u128, 0u128, 0u128);
        let mut holds = 0;
        for cycle in 0..400 {
            let r = xorshift(&mut s);
            let (a, b) = ((r & 0xffff) as u128, ((r >> 16) & 0xffff) as u128);
            let en = (r >> 40) % 4 != 0;
            m.clock.next = Clock { clk: false };
            m.a.next = from_u128::<16>(a);
            m.b.next = from_u128::<16>(b);
            m.en.next = en;
            assert!(simulate(&mut m, 100));
            m.clock.next = Clock { clk: true };
            assert!(simulate(&mut m, 100));
            if en {
                p = ar * br;
                ar = a;
                br = b;
            } else {
                holds += 1;
            }
            assert_eq!(m.p.val(), from_u128::<32>(p), "cycle {cycle}");
        }
        assert!(holds > 50 && holds < 200, "{holds} cycles without en");
    }

    /// `MulDspPp` against its contract: a three-register pipeline advanced by `en` (p = the
    /// product of the operands registered three enabled edges ago, modulo 2^PW).
    fn check_mul_dsp_pp<const AW: usize, const BW: usize, const PW: usize>(seed: u64) {
        let mut m: MulDspPp<AW, BW, PW> = MulDspPp::default();
        m.connect_all();
        let mut s = seed;
        // the operands of the last three enabled edges, newest first
        let mut hist = [(0u128, 0u128); 3];
        let mut holds = 0;
        for cycle in 0..600 {
            let r = xorshift(&mut s);
            let a = match r % 8 { 0 => mask(AW), 1 => 0, _ => xorshift(&mut s) as u128 & mask(AW) };
            let b = match (r >> 3) % 8 { 0 => mask(BW), 1 => 0, _ => xorshift(&mut s) as u128 & mask(BW) };
            let en = (r >> 40) % 4 != 0;
            m.clock.next = Clock { clk: false };
            m.a.next = from_u128::<AW>(a);
            m.b.next = from_u128::<BW>(b);
            m.en.next = en;
            assert!(simulate(&mut m, 100));
            m.clock.next = Clock { clk: true };
            assert!(simulate(&mut m, 100));
            if en {
                hist = [(a, b), hist[0], hist[1]];
            } else {
                holds += 1;
            }
            let (pa, pb) = hist[2];
            assert_eq!(m.p.val(), from_u128::<PW>(pa.wrapping_mul(pb) & mask(PW)), "cycle {cycle}: {pa:#x} * {pb:#x}");
        }
        assert!(holds > 80 && holds < 300, "{holds} cycles without en");
    }

    #[test]
    fn mul_dsp_pp_is_a_three_stage_pipeline_advanced_by_en() {
        check_mul_dsp_pp::<32, 32, 64>(0x2545_f491_4f6c_dd1d);
        check_mul_dsp_pp::<32, 24, 64>(0x9e37_79b9_7f4a_7c15);
        check_mul_dsp_pp::<21, 37, 50>(0x0bad_cafe_f00d_0001);
        check_mul_dsp_pp::<64, 64, 128>(0x5555_aaaa_1234_4321);
    }

    /// The Verilog builds one registered 16 × 16 (or narrower) product per piece pair below
    /// 2^PW: 32 × 32 → 64 has four, 32 × 32 → 32 only the three of weight < 2^32, and 21 × 37
    /// (pieces 16 + 5 and 16 + 16 + 5) six.
    #[test]
    fn mul_dsp_pp_verilog_has_one_register_per_piece_product() {
        let v = |m: Verilog| match m { Verilog::Custom(v) => v, _ => panic!("custom Verilog expected") };
        let t = v(MulDspPp::<32, 32, 64>::default().hdl());
        for r in ["reg [31:0] pp_0_0;", "reg [31:0] pp_0_1;", "reg [31:0] pp_1_0;", "reg [31:0] pp_1_1;"] {
            assert!(t.contains(r), "{r} in\n{t}");
        }
        assert!(t.contains("pp_1_1 <= {16'h0, a_r[31:16]} * {16'h0, b_r[31:16]};"), "{t}");
        assert!(t.contains("{pp_1_1[31:0], 32'h0}"), "{t}");
        let t = v(MulDspPp::<32, 32, 32>::default().hdl());
        assert!(t.contains("pp_0_1") && !t.contains("pp_1_1"), "{t}");
        assert!(t.contains("{pp_0_1[15:0], 16'h0}"), "{t}");
        assert_eq!(MulDspPp::<21, 37, 58>::products().len(), 6);
    }

    // ---- what yosys 0.23 maps a 16×16 instance to

    /// Test top for `Mul<16,16,32>` with the `clk`/`rst` every emitted top has.
    #[derive(LogicBlock, Default)]
    struct MulTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        a: Signal<In, Bits<16>>,
        b: Signal<In, Bits<16>>,
        p: Signal<Out, Bits<32>>,
        m: Mul<16, 16, 32>,
    }
    impl Logic for MulTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.m.clock.next = self.clk.val();
            self.m.rst.next = self.rst.val();
            self.m.a.next = self.a.val();
            self.m.b.next = self.b.val();
            self.p.next = self.m.p.val();
        }
    }

    /// Test top for `MulDsp<16,16,32>`; `rst` is unused (the DSP registers have none).
    #[derive(LogicBlock, Default)]
    struct MulDspTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        en: Signal<In, Bit>,
        a: Signal<In, Bits<16>>,
        b: Signal<In, Bits<16>>,
        p: Signal<Out, Bits<32>>,
        m: MulDsp<16, 16, 32>,
    }
    impl Logic for MulDspTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.m.clock.next = self.clk.val();
            self.m.en.next = self.en.val();
            self.m.a.next = self.a.val();
            self.m.b.next = self.b.val();
            self.p.next = self.m.p.val();
        }
    }

    /// Test top for `MulDspPp<32,32,64>`; `rst` is unused.
    #[derive(LogicBlock, Default)]
    struct MulDspPpTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        en: Signal<In, Bit>,
        a: Signal<In, Bits<32>>,
        b: Signal<In, Bits<32>>,
        p: Signal<Out, Bits<64>>,
        m: MulDspPp<32, 32, 64>,
    }
    impl Logic for MulDspPpTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.m.clock.next = self.clk.val();
            self.m.en.next = self.en.val();
            self.m.a.next = self.a.val();
            self.m.b.next = self.b.val();
            self.p.next = self.m.p.val();
        }
    }

    fn mul_dsp_pp_top() -> EmittedModule {
        emit_module(MulDspPpTop::default(), "prims_mul_dsp_pp", "prims", vec![]).unwrap()
    }

    /// 32 × 32 → 64 with registered piece products: four 16 × 16 DSPs on both families and no
    /// LUT multiplier (the only LUT/carry logic is the 64-bit sum of the four pieces).
    #[test]
    fn mul_dsp_pp_32x32_maps_to_four_dsps() {
        let top = mul_dsp_pp_top();
        let c = cells(&top, "synth_ice40 -dsp");
        eprintln!("ice40: {c:?}");
        assert_eq!(c.get("SB_MAC16"), Some(&4), "{c:?}");
        assert!(count(&c, &["SB_LUT4"]) <= 3 * 64, "no LUT multiplier: {c:?}");
        let c = cells(&top, "synth_ecp5");
        eprintln!("ecp5: {c:?}");
        assert_eq!(c.get("MULT18X18D"), Some(&4), "{c:?}");
        assert!(count(&c, &["LUT4", "CCU2C"]) <= 3 * 64, "no LUT multiplier: {c:?}");
    }

    fn mul_top() -> EmittedModule {
        emit_module(MulTop::default(), "prims_mul", "prims", vec![]).unwrap()
    }
    fn mul_dsp_top() -> EmittedModule {
        emit_module(MulDspTop::default(), "prims_mul_dsp", "prims", vec![]).unwrap()
    }

    /// iCE40 (`synth_ice40 -dsp`): `MulDsp` is one `SB_MAC16` with all three registers inside;
    /// `Mul` is one `SB_MAC16` plus its 32 reset output flops in the fabric (yosys 0.23 does not
    /// absorb registers with a reset).
    #[test]
    fn mul_16x16_maps_to_one_sb_mac16() {
        let c = cells(&mul_dsp_top(), "synth_ice40 -dsp");
        assert_eq!(c.get("SB_MAC16"), Some(&1), "{c:?}");
        assert_eq!(count(&c, ICE40_FF), 0, "input and output registers absorbed: {c:?}");
        assert!(count(&c, &["SB_LUT4"]) <= 2, "{c:?}");
        let c = cells(&mul_top(), "synth_ice40 -dsp");
        assert_eq!(c.get("SB_MAC16"), Some(&1), "{c:?}");
        assert_eq!(c.get("SB_DFFSR"), Some(&32), "the reset output register stays in the fabric: {c:?}");
        assert_eq!(count(&c, ICE40_FF), 32, "{c:?}");
    }

    /// ECP5 (`synth_ecp5`): one `MULT18X18D` each; yosys 0.23 packs no register into it, so the
    /// flops stay beside it (MulDsp 16+16+32, Mul 32) and no LUT multiplier appears.
    #[test]
    fn mul_16x16_maps_to_one_mult18x18d() {
        let c = cells(&mul_dsp_top(), "synth_ecp5");
        assert_eq!(c.get("MULT18X18D"), Some(&1), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 64, "{c:?}");
        assert!(count(&c, &["LUT4", "CCU2C"]) <= 2, "no multiplier in LUTs: {c:?}");
        let c = cells(&mul_top(), "synth_ecp5");
        assert_eq!(c.get("MULT18X18D"), Some(&1), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 32, "{c:?}");
        assert!(count(&c, &["LUT4", "CCU2C"]) <= 2, "no multiplier in LUTs: {c:?}");
    }

    #[test]
    fn mul_verilog_is_one_product_per_register() {
        let m: Mul<32, 32, 64> = Mul::default();
        let Verilog::Custom(v) = m.hdl() else { panic!("custom Verilog expected") };
        assert!(v.contains("if (rst) p <= 64'h0;") && v.contains("else p <= a * b;"), "{v}");
    }

    #[test]
    fn mul_test_tops_pass_verilator_lint() {
        lint(&mul_top());
        lint(&mul_dsp_top());
        lint(&mul_dsp_pp_top());
    }
}
