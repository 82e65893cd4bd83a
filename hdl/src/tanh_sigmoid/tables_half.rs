//! Coefficient tables of the half-only datapath (config `formats = "half"`, issue 15: fp16 and
//! bf16 only, fp32 reserved), fitted here like `tables` (same functions, the same 320-row
//! geometry per function and the same row scales k) but for the narrow fixed point of a datapath
//! that needs about 11 significant bits (fp16) instead of 24:
//!
//! S (LSB 2^-SB) = c0 + floor(c1·D12 / 2^SH1) + floor(c2·SQ / 2^SH2), with D12 = Δ >> 11 (the top
//! 12 bits of Δ, u0.12) and SQ = (Δ >> 17)² (the square of its top 6 bits, u0.12).
//!
//! Why these widths (the accuracy is checked exhaustively against the f64 reference for every
//! fp16 and bf16 input, three ops, in sim's `tanh_sigmoid` tests, on the golden model
//! `sim::golden::tanh_sigmoid::lane_half`):
//! - Δ in regions 1–4 is m[16:0]·2^6: an fp16 input has only m[22:13], so only Δ's top 4 bits
//!   (bf16: 1) can be non-zero: the top 6 bits square exactly there. In region 0 (|x| < 1 tanh,
//!   < 2 sigmoid) Δ can have all its bits, but c2 is small there (|c2·2^-12| < 2^-10) and D12
//!   drops less than 2^-12 of a row's slope.
//! - the fit error is at most 2.8 units of 2^-15 over a 129-point grid per row (regions 1–4: the
//!   16 reachable Δ); with the rounding that gives at most 0.64 fp16 ulp and 0.51 bf16 ulp
//!   (Python prototype of this fit, 2026-11-27; the Rust fit is checked by the exhaustive test).
//! - widths: c0 u16 (tanh row 0 starts at 1 = 2^15, a little above), c1 s13, c2 s8, k u6: 43 bits
//!   per word against 92 for all formats; the products are 13 × 12 and 8 × 12 bits (+ a 6 × 6
//!   squarer), small enough for LUT multipliers (no DSPs on the HX8K).

use super::tables::{remez, row_fn, row_k, Func, ROWS, SEG};
use std::sync::OnceLock;

/// S LSB 2^-SB.
pub const SB: u32 = 15;
/// c1 LSB 2^-13, c2 LSB 2^-12: the products' shifts to the LSB of S.
pub const C1L: u32 = 13;
pub const C2L: u32 = 12;
pub const SH1: u32 = C1L + 12 - SB;
pub const SH2: u32 = C2L + 12 - SB;
pub const C0_BITS: u32 = 16;
pub const C1_BITS: u32 = 13;
pub const C2_BITS: u32 = 8;
pub const K_BITS: u32 = 6;
pub const WORD_BITS: u32 = C0_BITS + C1_BITS + C2_BITS + K_BITS;

/// One row of the half tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfRow {
    pub c0: u64,
    pub c1: i64,
    pub c2: i64,
    pub k: u32,
}

impl HalfRow {
    /// The ROM word {k, c2, c1, c0} (c1, c2 two's complement in their fields).
    pub fn word(&self) -> u64 {
        let m = |v: i64, w: u32| (v as u64) & ((1u64 << w) - 1);
        self.c0 | m(self.c1, C1_BITS) << C0_BITS | m(self.c2, C2_BITS) << (C0_BITS + C1_BITS) | (self.k as u64) << (C0_BITS + C1_BITS + C2_BITS)
    }
}

/// The half datapath's accumulator for one row and Δ (u0.23).
pub fn acc(c0: i64, c1: i64, c2: i64, d: u64) -> i64 {
    let d12 = (d >> 11) as i64;
    let dh = (d >> 17) as i64;
    c0 + ((c1 * d12) >> SH1) + ((c2 * dh * dh) >> SH2)
}

pub struct HalfTable {
    pub func: Func,
    pub rows: Vec<HalfRow>,
    /// max |S − 2^SB·2^k f| over the fit grid, in units of 2^-SB
    pub fit_err: Vec<f64>,
}

pub struct HalfTables {
    pub tanh: HalfTable,
    pub sig: HalfTable,
}

fn fit_row(func: Func, e: usize) -> (HalfRow, f64) {
    let k = row_k(func, e);
    let scale = 2f64.powi(k as i32);
    let f = |z: f64| row_fn(func, e, z) * scale;
    let (c, _) = remez(&f);
    let (q1, q2) = ((c[1] * 2f64.powi(C1L as i32)).round() as i64, (c[2] * 2f64.powi(C2L as i32)).round() as i64);
    let dmin = if func == Func::Tanh && e == 0 { 1u64 << 17 } else { 0 };
    // region 0: a 129-point grid; regions 1-4: the 16 Δ an fp16 input can have there
    let grid: Vec<u64> = if e < SEG {
        (0..=128u64).map(|j| ((j << 23) / 128).min((1 << 23) - 1)).filter(|&d| d >= dmin).collect()
    } else {
        (0..16u64).map(|j| j << 19).collect()
    };
    let pts: Vec<(u64, f64)> = grid.iter().map(|&d| (d, f(d as f64 / 2f64.powi(23)) * 2f64.powi(SB as i32))).collect();
    let clamp = if func == Func::Tanh { Some(1i64 << SB) } else { None };
    // sigmoid row 0 starts at sigma(0) = 1/2: c0 pinned so that tiny inputs give exactly 0.5
    let pin = if func == Func::Sigmoid && e == 0 { Some((f(0.0) * 2f64.powi(SB as i32)).round() as i64) } else { None };
    let eval = |c0: i64, c1: i64, c2: i64| {
        pts.iter().fold(0.0f64, |m, &(d, y)| {
            let mut s = acc(c0, c1, c2, d);
            if let Some(cl) = clamp {
                s = s.min(cl);
            }
            m.max((s as f64 - y).abs())
        })
    };
    let mut best = (f64::MAX, 0i64, 0i64, 0i64);
    for c2 in q2 - 2..=q2 + 2 {
        for c1 in q1 - 2..=q1 + 2 {
            let cands: Vec<i64> = match pin {
                Some(p) => vec![p],
                None => {
                    let (lo, hi) = pts.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &(d, y)| {
                        let r = acc(0, c1, c2, d) as f64 - y;
                        (lo.min(r), hi.max(r))
                    });
                    let c0 = (-(lo + hi) / 2.0).round() as i64;
                    (c0 - 1..=c0 + 1).collect()
                }
            };
            for c0 in cands {
                let v = eval(c0, c1, c2);
                if v < best.0 {
                    best = (v, c0, c1, c2);
                }
            }
        }
    }
    let (err, c0, c1, c2) = best;
    assert!(c0 > 0 && (c0 as u64) < (1 << C0_BITS), "{func:?} row {e}: c0 {c0}");
    for (v, w) in [(c1, C1_BITS), (c2, C2_BITS)] {
        assert!(v >= -(1i64 << (w - 1)) && v < (1i64 << (w - 1)), "{func:?} row {e}: {v} exceeds s{w}");
    }
    assert!(k < (1 << K_BITS));
    (HalfRow { c0: c0 as u64, c1, c2, k }, err)
}

fn build(func: Func) -> HalfTable {
    let (rows, fit_err) = (0..ROWS).map(|e| fit_row(func, e)).unzip();
    HalfTable { func, rows, fit_err }
}

/// The half tables (fitted once per process).
pub fn half_tables() -> &'static HalfTables {
    static T: OnceLock<HalfTables> = OnceLock::new();
    T.get_or_init(|| HalfTables { tanh: build(Func::Tanh), sig: build(Func::Sigmoid) })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn half_tables_fit_and_ranges() {
        let t = half_tables();
        let worst = |tab: &HalfTable| tab.fit_err.iter().cloned().fold(0.0, f64::max);
        // units of 2^-15 on the scaled row value (in (1/2, 1]): well below half an fp16 ulp (2^-12)
        assert!(worst(&t.tanh) < 4.0 && worst(&t.sig) < 4.0, "{} {}", worst(&t.tanh), worst(&t.sig));
        assert_eq!((t.sig.rows[0].c0, t.sig.rows[0].k), (1 << SB, 1));
        assert_eq!(t.sig.rows[ROWS - 1].k, 45);
    }
}
