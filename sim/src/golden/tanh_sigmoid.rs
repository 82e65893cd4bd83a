//! Golden model of the tanh/sigmoid interpolation datapath (spec: ../shared/spec/tanh-sigmoid.md,
//! with the deviations recorded in docs/tanh_sigmoid.md). Written from the spec's description of the
//! arithmetic (§2.5–§2.8, §6), not from the RTL. The coefficient ROMs come from the table generator
//! (`hdl::tanh_sigmoid::tables`), which is the single source of the ROM contents.
//!
//! Everything is integer arithmetic on exact values: a result is a non-negative integer N times
//! 2^e, rounded once (RNE) to the output format.

use crate::latency::FixedLatency;
use hdl::tanh_sigmoid::tables::{tables, Row};

/// Latency with the fused TANH tail (FUSED = 1, the default), every op and format.
pub const LAT: usize = 6;

/// The spec parameters that change what a lane computes (§6.1, §6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// FUSED = 1: op TANH is the fused tail; FUSED = 0: op TANH is reserved.
    pub fused: bool,
    /// CANON_NAN = 1: a NaN input gives the format's canonical quiet NaN.
    pub canon_nan: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params { fused: true, canon_nan: false }
    }
}

impl Params {
    /// Pipeline latency (§6.2): 6 with the fused tail, 4 without.
    pub fn lat(&self) -> usize {
        if self.fused {
            6
        } else {
            4
        }
    }
}

/// Op and format codes (spec §6.1) by name, from `hdl::tanh_sigmoid::enc`.
pub const OP_TANH_PRE: u8 = op::TANH_PRE as u8;
pub const OP_SIGMOID: u8 = op::SIGMOID as u8;
pub const OP_TANH: u8 = op::TANH as u8;
pub const OP_RESERVED: u8 = op::RESERVED as u8;
pub const FMT_FP32: u8 = fmt::FP32 as u8;
pub const FMT_FP16: u8 = fmt::FP16 as u8;
pub const FMT_BF16: u8 = fmt::BF16 as u8;
pub const FMT_RESERVED: u8 = fmt::RESERVED as u8;
use hdl::tanh_sigmoid::enc::{fmt, op};

/// Result of a reserved op or format.
pub const RESERVED_NAN: u32 = 0x7FC0_0000;

/// (precision p, minimum normal exponent, exponent bias, fraction bits) of a format.
pub fn fmt_params(fmt: u8) -> (i32, i32, i32, u32) {
    match fmt {
        FMT_FP32 => (24, -126, 127, 23),
        FMT_FP16 => (11, -14, 15, 10),
        FMT_BF16 => (8, -126, 127, 7),
        _ => unreachable!(),
    }
}

fn one(fmt: u8) -> u32 {
    match fmt {
        FMT_FP32 => 0x3F80_0000,
        FMT_FP16 => 0x3C00,
        _ => 0x3F80,
    }
}
fn half_val(fmt: u8) -> u32 {
    match fmt {
        FMT_FP32 => 0x3F00_0000,
        FMT_FP16 => 0x3800,
        _ => 0x3F00,
    }
}
fn sign_bit(fmt: u8) -> u32 {
    if fmt == FMT_FP32 {
        1 << 31
    } else {
        1 << 15
    }
}

/// Rounds N * 2^e (N > 0) once, to nearest even, into `fmt`, with gradual underflow; with `ftz`
/// a result that lands in the subnormal range (after rounding) becomes zero. Returns the magnitude bits.
pub fn round_to(n: u128, e: i32, fmt: u8, ftz: bool) -> u32 {
    assert!(n > 0);
    let (p, emin, bias, fbits) = fmt_params(fmt);
    let l = 127 - n.leading_zeros() as i32 + e; // exponent of the MSB
    let mut lsb = (l - (p - 1)).max(emin - (p - 1));
    let sh = lsb - e;
    let mut q: u128 = if sh <= 0 {
        n << (-sh)
    } else {
        let q = n >> sh;
        let r = n & ((1u128 << sh) - 1);
        let half = 1u128 << (sh - 1);
        if r > half || (r == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    if q >> p != 0 {
        q >>= 1;
        lsb += 1;
    }
    if q < 1 << (p - 1) {
        // subnormal (or zero)
        if ftz {
            return 0;
        }
        return q as u32;
    }
    let exp = (lsb + (p - 1) + bias) as u32;
    (exp << fbits) | (q as u32 & ((1 << fbits) - 1))
}

/// fp32 bit pattern of the (exact) fp32 widening of `raw` in `fmt`; ftz flushes subnormal inputs
/// to signed zero.
pub fn widen(raw: u32, fmt: u8, ftz: bool) -> u32 {
    let x = match fmt {
        FMT_FP32 => raw,
        FMT_FP16 => half::f16::from_bits(raw as u16).to_f32().to_bits(),
        _ => (raw & 0xFFFF) << 16,
    };
    let in_sub = match fmt {
        FMT_FP16 => raw & 0x7C00 == 0 && raw & 0x3FF != 0,
        _ => (x >> 23) & 0xFF == 0 && x & 0x7F_FFFF != 0,
    };
    if ftz && in_sub {
        x & 0x8000_0000
    } else {
        x
    }
}

/// Row and Delta (u0.23) of an interpolated input: `ee` is the fp32 biased exponent (tanh: +1).
pub fn index(ee: u32, m: u32, sig: u32) -> (usize, u64) {
    if ee <= 127 {
        // region 0: uniform grid, Q = arg / h as u6.23, truncated
        let sh = ee as i32 - 122;
        let q: u64 = if sh >= 0 {
            (sig as u64) << sh
        } else if -sh >= 40 {
            0
        } else {
            (sig as u64) >> (-sh)
        };
        ((q >> 23) as usize, q & 0x7F_FFFF)
    } else {
        (64 * (ee as usize - 127) + (m >> 17) as usize, ((m & 0x1FFFF) as u64) << 6)
    }
}

/// The accumulator S (LSB 2^-32) of the quadratic for one row: c0 + floor(T1/2^19) + floor(c2*SQ/2^12)
/// with SQ = floor((D>>7)^2 / 2^16) and T1 = c1*D - (c1 mod 2^12)*(D mod 2^7): the truncated
/// product c1*D (docs/tanh_sigmoid.md, "DSP count": the partial product of c1's low 12 bits and
/// D's low 7 bits, below 2^19, is not formed; S is at most one unit of 2^-32 below the exact sum).
pub fn accumulate(r: &Row, d: u64) -> i64 {
    let dh = (d >> 7) as i64;
    let sq = (dh * dh) >> 16;
    // arithmetic right shifts: floor division by 2^19 and 2^12; c1 mod 2^12 = c1.rem_euclid(4096)
    let t1 = (r.c1 * d as i64 - r.c1.rem_euclid(1 << 12) * (d % (1 << 7)) as i64) >> 19;
    let t2 = (r.c2 * sq) >> 12;
    r.c0 as i64 + t1 + t2
}

/// TANH_PRE accumulator G * 2^32 (after the clamp to 1.0) for an interpolated |x|.
fn tanh_g(ee: u32, m: u32, sig: u32) -> u64 {
    let (row, d) = index(ee, m, sig);
    let s = accumulate(&tables().tanh.rows[row], d);
    assert!(s >= 1 << 31);
    (s as u64).min(1 << 32)
}

/// The canonical quiet NaN of a format (CANON_NAN = 1, §6.4).
pub fn canonical_nan(fmt: u8) -> u32 {
    match fmt {
        FMT_FP32 => 0x7FC0_0000,
        FMT_FP16 => 0x7E00,
        _ => 0x7FC0,
    }
}

/// A finite, non-zero input that goes through the tables: its sign (and the format's sign bit),
/// fp32 exponent, mantissa and significand after widening (ftz applied).
struct Input {
    neg: bool,
    sgn: u32,
    e: u32,
    m: u32,
    sig: u32,
}

/// The input stage shared by the full and the half lane (spec §6): a NaN (quieted or
/// canonical), zero, tanh's |x| < 2^-12 (G = 1, tanh(x) = x) and the clamps (tanh |x| ≥ 16 →
/// ±1; sigmoid x ≥ 32 → 1, x ≤ −32 → 0) give their result as `Err`; anything else is `Ok`.
/// `raw`: the input bits, 16-bit formats already masked to [15:0].
fn front(params: Params, op: u8, fmt: u8, ftz: bool, raw: u32) -> Result<Input, u32> {
    let is_nan = match fmt {
        FMT_FP32 => raw & 0x7F80_0000 == 0x7F80_0000 && raw & 0x7F_FFFF != 0,
        FMT_FP16 => raw & 0x7C00 == 0x7C00 && raw & 0x3FF != 0,
        _ => raw & 0x7F80 == 0x7F80 && raw & 0x7F != 0,
    };
    if is_nan {
        // quieted, sign and payload kept; or the canonical quiet NaN
        let quiet_bit = match fmt {
            FMT_FP32 => 0x40_0000,
            FMT_FP16 => 0x200,
            _ => 0x40,
        };
        return Err(if params.canon_nan { canonical_nan(fmt) } else { raw | quiet_bit });
    }
    let x = widen(raw, fmt, ftz);
    let neg = x >> 31 == 1;
    let sgn = if neg { sign_bit(fmt) } else { 0 };
    let e = (x >> 23) & 0xFF;
    let m = x & 0x7F_FFFF;
    let sig = if e == 0 { m } else { m | 1 << 23 };
    let zero = e == 0 && m == 0;
    if op == OP_TANH_PRE || op == OP_TANH {
        let ee = e + 1;
        if zero {
            return Err(if op == OP_TANH_PRE { sgn | one(fmt) } else { sgn });
        }
        if ee <= 115 {
            // |x| < 2^-12: G = 1, tanh(x) = x
            return Err(if op == OP_TANH_PRE { sgn | one(fmt) } else { raw });
        }
        if ee >= 132 {
            return Err(sgn | one(fmt));
        }
    } else {
        if zero {
            return Err(half_val(fmt));
        }
        if e >= 132 {
            return Err(if neg { 0 } else { one(fmt) });
        }
    }
    Ok(Input { neg, sgn, e, m, sig })
}

/// One lane with the default parameters (FUSED = 1, CANON_NAN = 0).
pub fn lane(op: u8, fmt: u8, ftz: bool, raw: u32) -> u32 {
    lane_with(Params::default(), op, fmt, ftz, raw)
}

/// One lane: (op, fmt, ftz, raw input bits) -> output bits (16-bit formats in [15:0]).
pub fn lane_with(params: Params, op: u8, fmt: u8, ftz: bool, raw: u32) -> u32 {
    let reserved_op = op >= OP_RESERVED || (op == OP_TANH && !params.fused);
    if reserved_op || fmt >= FMT_RESERVED {
        return RESERVED_NAN;
    }
    let raw = if fmt == FMT_FP32 { raw } else { raw & 0xFFFF };
    let Input { neg, sgn, e, m, sig } = match front(params, op, fmt, ftz, raw) {
        Ok(x) => x,
        Err(out) => return out,
    };
    match op {
        OP_TANH_PRE | OP_TANH => {
            let ee = e + 1;
            let g = tanh_g(ee, m, sig);
            let mag = if op == OP_TANH_PRE || e >= 127 {
                round_to(g as u128, -32, fmt, ftz)
            } else {
                // fused tail: the product with min(|x|, 1) = |x|, rounded once; the product is
                // truncated: (G*2^32 mod 2^16)*(sig mod 2^8), below 2^24 where the product is over
                // 2^54, is not formed (docs/tanh_sigmoid.md, "DSP count")
                let n = g as u128 * sig as u128 - (g as u128 % (1 << 16)) * (sig as u128 % (1 << 8));
                round_to(n, e as i32 - 127 - 23 - 32, fmt, ftz)
            };
            sgn | mag
        }
        _ => {
            let (row, d) = index(e, m, sig);
            let r = &tables().sig.rows[row];
            let s = accumulate(r, d);
            assert!(s > 0);
            if neg {
                round_to(s as u128, -32 - r.k as i32, fmt, ftz)
            } else {
                let p = (1u64 << 32) - ((s as u64) >> r.k);
                round_to(p as u128, -32, fmt, ftz)
            }
        }
    }
}

/// The three-instruction tanh of the patent (TANH_PRE rounded to fmt, then an FPU `min` and
/// `mul` in fmt with RNE): reported for comparison, not what op TANH computes (spec §0.1.1).
pub fn tanh_three_instr(fmt: u8, ftz: bool, raw: u32) -> u32 {
    let g = lane(OP_TANH_PRE, fmt, ftz, raw);
    let (gx, xx) = (widen(g, fmt, false), widen(raw, fmt, ftz));
    if f32::from_bits(xx).is_nan() {
        return lane(OP_TANH, fmt, ftz, raw);
    }
    let scale = f32::from_bits(xx).abs().min(1.0);
    // exact product of two fp values with <= 24-bit significands, rounded once to fmt
    let prod = f32::from_bits(gx) as f64 * scale as f64;
    to_fmt(prod, fmt, ftz)
}

/// Correctly rounded (RNE) conversion of an f64 value to `fmt` bits (finite, |v| <= 1).
pub fn to_fmt(v: f64, fmt: u8, ftz: bool) -> u32 {
    let sgn = if v.is_sign_negative() { sign_bit(fmt) } else { 0 };
    if v == 0.0 {
        return sgn;
    }
    let b = v.abs().to_bits();
    let (ex, mant) = ((b >> 52) as i32, b & ((1 << 52) - 1));
    sgn | round_to((mant | 1 << 52) as u128, ex - 1075, fmt, ftz)
}

/// Value of `fmt` bits as f64.
pub fn to_f64(bits: u32, fmt: u8) -> f64 {
    match fmt {
        FMT_FP32 => f32::from_bits(bits) as f64,
        FMT_FP16 => half::f16::from_bits(bits as u16).to_f64(),
        _ => f32::from_bits((bits & 0xFFFF) << 16) as f64,
    }
}

/// Reference functions (f64): tanh and 1/(1+exp(-x)).
pub fn reference(op: u8, x: f64) -> f64 {
    match op {
        OP_SIGMOID => 1.0 / (1.0 + (-x).exp()),
        OP_TANH_PRE => {
            let a = x.abs();
            let g = if a < 1.0 { if a == 0.0 { 1.0 } else { a.tanh() / a } } else { a.tanh() };
            if x.is_sign_negative() { -g } else { g }
        }
        _ => x.tanh(),
    }
}

/// ulp of `fmt` at the exact value y (OpenCL definition: the spacing in y's binade, the subnormal
/// spacing below the normal range). The binade comes from y's f64 exponent field (exact; a
/// `log2` would need guards at binade edges and is several times slower in the sweeps).
pub fn ulp(y: f64, fmt: u8) -> f64 {
    let (p, emin, _, _) = fmt_params(fmt);
    let biased = ((y.to_bits() >> 52) & 0x7FF) as i32;
    // zero and f64 subnormals are far below every format's normal range
    let ex = if biased == 0 { emin } else { (biased - 1023).max(emin) };
    // 2^(ex - (p-1)) >= 2^-149 is a normal f64: build it from its exponent field
    f64::from_bits(((ex - (p - 1) + 1023) as u64) << 52)
}

/// One cycle of inputs for the whole vector.
#[derive(Clone, Debug, Default)]
pub struct VecIn {
    pub valid: bool,
    pub op: u8,
    pub fmt: u8,
    pub ftz: bool,
    pub mask: u32,
    pub tag: u32,
    pub data: Vec<u32>,
}

/// One cycle of outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VecOut {
    pub valid: bool,
    pub mask: u32,
    pub tag: u32,
    pub data: Vec<u32>,
}

/// Cycle model: the transaction-level lane function behind a [`FixedLatency`] of `lat` stages
/// (the spec's `params.lat()` unless raised by the config's `lat`), reset to zero; data zero on
/// invalid cycles and masked lanes.
pub struct Pipeline {
    lanes: usize,
    params: Params,
    /// config `formats = "half"`: the lanes are `lane_half`
    half: bool,
    pipe: FixedLatency<VecOut>,
}

impl Pipeline {
    /// Default parameters (FUSED = 1, CANON_NAN = 0).
    pub fn new(lanes: usize) -> Self {
        Self::with(lanes, Params::default())
    }
    pub fn with(lanes: usize, params: Params) -> Self {
        Self::with_lat(lanes, params, params.lat())
    }
    /// A unit whose latency is raised to `lat` (≥ the spec's) by output register stages.
    pub fn with_lat(lanes: usize, params: Params, lat: usize) -> Self {
        assert!(lat >= params.lat(), "lat {lat} below the spec's {}", params.lat());
        let z = VecOut { valid: false, mask: 0, tag: 0, data: vec![0; lanes] };
        Self { lanes, params, half: false, pipe: FixedLatency::new(lat, z) }
    }
    /// The same pipeline with the half-only lanes (`lane_half`, config `formats = "half"`).
    pub fn half(mut self) -> Self {
        self.half = true;
        self
    }
    pub fn lat(&self) -> usize {
        self.pipe.latency()
    }
    pub fn reset(&mut self) {
        self.pipe.reset();
    }
    /// The combinational result of one input vector (what leaves `lat()` cycles later).
    pub fn compute(&self, i: &VecIn) -> VecOut {
        let data = (0..self.lanes)
            .map(|l| {
                if !(i.valid && i.mask >> l & 1 == 1) {
                    0
                } else if self.half {
                    lane_half(self.params, i.op, i.fmt, i.ftz, i.data[l])
                } else {
                    lane_with(self.params, i.op, i.fmt, i.ftz, i.data[l])
                }
            })
            .collect();
        VecOut { valid: i.valid, mask: i.mask, tag: i.tag, data }
    }
    /// One clock edge; returns the outputs after the edge.
    pub fn tick(&mut self, i: &VecIn) -> &VecOut {
        let v = self.compute(i);
        self.pipe.tick(v)
    }
}

// ---------------------------------------------------------------------------------------------
// The half-only datapath (config `formats = "half"`, issue 15; RTL `hdl::tanh_sigmoid::half`): fp16 and bf16
// with the narrow fixed point of `hdl::tanh_sigmoid::tables_half` (S LSB 2^-15, Δ's top 12 bits
// in the linear term, the square of its top 6 bits in the quadratic one). The same decode, row
// index, special values, clamp, reflection and single rounding as `lane_with`; fp32 (and the
// reserved format) requests give the reserved-format result of spec §6.4.

/// The half datapath's accumulator S (LSB 2^-15) for one row and Δ (u0.23).
pub fn accumulate_half(r: &hdl::tanh_sigmoid::tables_half::HalfRow, d: u64) -> i64 {
    hdl::tanh_sigmoid::tables_half::acc(r.c0 as i64, r.c1, r.c2, d)
}

/// One lane of the half-only datapath: (op, fmt, ftz, raw input bits) -> output bits.
pub fn lane_half(params: Params, op: u8, fmt: u8, ftz: bool, raw: u32) -> u32 {
    use hdl::tanh_sigmoid::tables_half::{half_tables, SB};
    let reserved_op = op >= OP_RESERVED || (op == OP_TANH && !params.fused);
    if reserved_op || fmt != FMT_FP16 && fmt != FMT_BF16 {
        return RESERVED_NAN;
    }
    let Input { neg, sgn, e, m, sig } = match front(params, op, fmt, ftz, raw & 0xFFFF) {
        Ok(x) => x,
        Err(out) => return out,
    };
    let t = half_tables();
    match op {
        OP_TANH_PRE | OP_TANH => {
            let ee = e + 1;
            let (row, d) = index(ee, m, sig);
            let s = accumulate_half(&t.tanh.rows[row], d);
            assert!(s >= 1 << (SB - 1));
            let g = (s as u64).min(1 << SB);
            let mag = if op == OP_TANH_PRE || e >= 127 {
                round_to(g as u128, -(SB as i32), fmt, ftz)
            } else {
                // fused tail: G times |x| exactly (an fp16 significand has 11 bits, bf16 8: the
                // product is at most 16 + 11 bits), rounded once
                round_to(g as u128 * sig as u128, e as i32 - 127 - 23 - SB as i32, fmt, ftz)
            };
            sgn | mag
        }
        _ => {
            let (row, d) = index(e, m, sig);
            let r = &t.sig.rows[row];
            let s = accumulate_half(r, d);
            assert!(s > 0);
            if neg {
                round_to(s as u128, -(SB as i32) - r.k as i32, fmt, ftz)
            } else {
                let p = (1u64 << SB) - ((s as u64) >> r.k);
                round_to(p as u128, -(SB as i32), fmt, ftz)
            }
        }
    }
}
