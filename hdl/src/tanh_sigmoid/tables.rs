//! Coefficient tables of the tanh/sigmoid interpolation datapath, fitted here in Rust
//! (deterministic: f64 `tanh`/`exp`, fixed iteration counts, fixed search order).
//!
//! Geometry (see docs/tanh_sigmoid.md §"Datapath"): both functions have 320 rows, five regions of
//! 64 rows. Region 0 is a uniform grid (tanh: a in [0,1), h = 1/64; sigmoid: t in [0,2), h = 1/32);
//! regions r = 1..4 are one binade each (tanh: [2^(r-1), 2^r); sigmoid: [2^r, 2^(r+1))), 64 rows.
//!
//! Row word: c0 (unsigned, LSB 2^-32), c1 (signed, LSB 2^-28), c2 (signed, LSB 2^-28), k (sigmoid
//! row scale: the row approximates 2^k * sigma(-t); tanh rows have k = 0).
//! Accumulator (LSB 2^-32): S = c0 + floor(T1 / 2^19) + floor(c2*SQ / 2^12), D = Delta (u0.23),
//! SQ = ((D >> 7)^2) >> 16 (u0.16), T1 = c1*D - (c1 mod 2^12)*(D mod 2^7): the truncated product
//! of the datapath (its low x low partial product, below 2^19, left out to save a DSP; issue 15).

use std::sync::OnceLock;

pub const ROWS: usize = 320;
/// Rows per region.
pub const SEG: usize = 64;
pub const C0_BITS: u32 = 34;
pub const C1_BITS: u32 = 28;
pub const C2_BITS: u32 = 24;
pub const K_BITS: u32 = 6;
/// Right shifts that bring the two products to the accumulator LSB 2^-32.
pub const SH1: u32 = 19;
pub const SH2: u32 = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub c0: u64,
    pub c1: i64,
    pub c2: i64,
    pub k: u32,
}

impl Row {
    /// The ROM word: {k, c2, c1, c0} (c1, c2 two's complement in their fields).
    pub fn word(&self) -> u128 {
        let m = |v: i64, w: u32| (v as u64 as u128) & ((1u128 << w) - 1);
        (self.c0 as u128)
            | m(self.c1, C1_BITS) << C0_BITS
            | m(self.c2, C2_BITS) << (C0_BITS + C1_BITS)
            | (self.k as u128) << (C0_BITS + C1_BITS + C2_BITS)
    }
}
pub const WORD_BITS: u32 = C0_BITS + C1_BITS + C2_BITS + K_BITS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Tanh,
    Sigmoid,
}

/// Per-row fit record (for the report).
#[derive(Clone, Debug)]
pub struct RowFit {
    /// max |p(z) - f(z)| of the unquantised minimax fit, scaled units (2^k f).
    pub approx_err: f64,
    /// max |S*2^-32 - 2^k f| of the quantised row over the check grid (scaled units).
    pub fixed_err: f64,
}

pub struct Table {
    pub func: Func,
    pub rows: Vec<Row>,
    pub fits: Vec<RowFit>,
}

pub struct Tables {
    pub tanh: Table,
    pub sig: Table,
}

/// sigma(-t) = 1/(1+e^t).
pub fn sig_neg(t: f64) -> f64 {
    1.0 / (1.0 + t.exp())
}

/// tanh(a)/a with its limit 1 at 0.
pub fn tanh_over_a(a: f64) -> f64 {
    if a < 1e-4 {
        let a2 = a * a;
        1.0 - a2 / 3.0 + 2.0 * a2 * a2 / 15.0
    } else {
        a.tanh() / a
    }
}

/// Argument at position z in [0,1] of row `e`.
pub fn row_arg(func: Func, e: usize, z: f64) -> f64 {
    let (r, k) = (e / SEG, (e % SEG) as f64);
    match (func, r) {
        (Func::Tanh, 0) => (k + z) / 64.0,
        (Func::Tanh, r) => (1u64 << (r - 1)) as f64 * (1.0 + (k + z) / 64.0),
        (Func::Sigmoid, 0) => (k + z) / 32.0,
        (Func::Sigmoid, r) => (1u64 << r) as f64 * (1.0 + (k + z) / 64.0),
    }
}

/// The function a row approximates (unscaled).
pub fn row_fn(func: Func, e: usize, z: f64) -> f64 {
    let x = row_arg(func, e, z);
    match (func, e / SEG) {
        (Func::Tanh, 0) => tanh_over_a(x),
        (Func::Tanh, _) => x.tanh(),
        (Func::Sigmoid, _) => sig_neg(x),
    }
}

/// Row scale exponent: sigmoid rows are scaled by 2^k so that 2^k * sigma(-t_start) is in (1/2, 1].
pub fn row_k(func: Func, e: usize) -> u32 {
    match func {
        Func::Tanh => 0,
        Func::Sigmoid => {
            let s = row_fn(func, e, 0.0);
            let mut k = 0;
            while s * 2f64.powi(k as i32 + 1) <= 1.0 {
                k += 1;
            }
            k
        }
    }
}

/// The datapath accumulator for one row (the fit's own copy of the arithmetic, used to search).
fn acc(c0: i64, c1: i64, c2: i64, d: u64) -> i64 {
    let dh = d >> 7;
    let sq = ((dh * dh) >> 16) as i64;
    // c1 mod 2^12 (the low bits of c1's two's complement pattern) times D mod 2^7 is not formed
    let t1 = c1 * d as i64 - (c1 & 0xfff) * (d & 0x7f) as i64;
    c0 + (t1 >> SH1) + ((c2 * sq) >> SH2)
}

fn solve4(mut a: [[f64; 5]; 4]) -> [f64; 4] {
    for c in 0..4 {
        let p = (c..4).max_by(|&i, &j| a[i][c].abs().partial_cmp(&a[j][c].abs()).unwrap()).unwrap();
        a.swap(c, p);
        for r in 0..4 {
            if r != c {
                let f = a[r][c] / a[c][c];
                for j in c..5 {
                    a[r][j] -= f * a[c][j];
                }
            }
        }
    }
    [a[0][4] / a[0][0], a[1][4] / a[1][1], a[2][4] / a[2][2], a[3][4] / a[3][3]]
}

/// Degree-2 minimax fit of f on [0,1] by Remez exchange. Returns (c0, c1, c2, max error).
pub fn remez(f: &dyn Fn(f64) -> f64) -> ([f64; 3], f64) {
    const N: usize = 4001;
    let grid: Vec<f64> = (0..N).map(|i| i as f64 / (N - 1) as f64).collect();
    let fv: Vec<f64> = grid.iter().map(|&z| f(z)).collect();
    let mut refs = [0.0, 0.25, 0.75, 1.0];
    let mut c = [0.0; 3];
    for _ in 0..8 {
        let mut m = [[0.0; 5]; 4];
        for (i, &z) in refs.iter().enumerate() {
            m[i] = [1.0, z, z * z, if i % 2 == 0 { 1.0 } else { -1.0 }, f(z)];
        }
        let s = solve4(m);
        c = [s[0], s[1], s[2]];
        let err: Vec<f64> = grid.iter().zip(&fv).map(|(&z, &y)| c[0] + c[1] * z + c[2] * z * z - y).collect();
        // interior extrema
        let mut ext: Vec<usize> = (1..N - 1)
            .filter(|&i| (err[i] - err[i - 1]) * (err[i + 1] - err[i]) <= 0.0 && err[i] != err[i - 1])
            .collect();
        ext.sort_by(|&a, &b| err[b].abs().partial_cmp(&err[a].abs()).unwrap());
        if ext.len() < 2 {
            break;
        }
        let (mut i1, mut i2) = (ext[0], ext[1]);
        if i1 > i2 {
            std::mem::swap(&mut i1, &mut i2);
        }
        let new = [0.0, grid[i1], grid[i2], 1.0];
        if new == refs {
            break;
        }
        refs = new;
    }
    let e = grid.iter().zip(&fv).map(|(&z, &y)| (c[0] + c[1] * z + c[2] * z * z - y).abs()).fold(0.0, f64::max);
    (c, e)
}

/// Delta grid used for the search (n+1 points over the 23-bit grid, last = 2^23-1).
fn dgrid(n: u64) -> Vec<u64> {
    (0..=n).map(|j| ((j << 23) / n).min((1 << 23) - 1)).collect()
}

/// Lowest Delta evaluated for a row: tanh row 0 starts at a = 2^-12 (below, the clamp).
fn d_min(func: Func, e: usize) -> u64 {
    if func == Func::Tanh && e == 0 {
        1 << 17
    } else {
        0
    }
}

fn fit_row(func: Func, e: usize) -> (Row, RowFit) {
    let k = row_k(func, e);
    let scale = 2f64.powi(k as i32);
    let f = |z: f64| row_fn(func, e, z) * scale;
    let (c, approx_err) = remez(&f);
    let lsb1 = 2f64.powi(28);
    let (q1, q2) = ((c[1] * lsb1).round() as i64, (c[2] * lsb1).round() as i64);
    let clampv = if func == Func::Tanh { Some(1i64 << 32) } else { None };
    // cost of (c0, c1, c2) on a grid: max |S - 2^32 f|
    let eval = |grid: &[(u64, f64)], c0: i64, c1: i64, c2: i64| -> f64 {
        let mut m = 0.0f64;
        for &(d, y) in grid {
            let mut s = acc(c0, c1, c2, d);
            if let Some(cl) = clampv {
                s = s.min(cl);
            }
            m = m.max((s as f64 - y).abs());
        }
        m
    };
    let mk = |n: u64| -> Vec<(u64, f64)> {
        dgrid(n)
            .into_iter()
            .filter(|&d| d >= d_min(func, e))
            .map(|d| (d, f(d as f64 / (1u64 << 23) as f64) * 2f64.powi(32)))
            .collect()
    };
    let coarse = mk(128);
    let fine = mk(2048);
    // sigmoid row 0 starts exactly at sigma(0) = 1/2 (scaled: 1): pin c0 so that tiny and
    // subnormal inputs give exactly 0.5 (spec §6.4)
    let pin = if func == Func::Sigmoid && e == 0 { Some((f(0.0) * 2f64.powi(32)).round() as i64) } else { None };
    // analytic c0 for given c1, c2: centre the residual range, then try neighbours with the clamp
    let best_c0 = |grid: &[(u64, f64)], c1: i64, c2: i64| -> (i64, f64) {
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        for &(d, y) in grid {
            let r = acc(0, c1, c2, d) as f64 - y;
            lo = lo.min(r);
            hi = hi.max(r);
        }
        let c0 = match pin {
            Some(p) => return (p, eval(grid, p, c1, c2)),
            None => (-(lo + hi) / 2.0).round() as i64,
        };
        let mut best = (c0, f64::MAX);
        for c in c0 - 2..=c0 + 2 {
            let e = eval(grid, c, c1, c2);
            if e < best.1 {
                best = (c, e);
            }
        }
        best
    };
    let mut best = (0i64, q1, q2, f64::MAX);
    for c2 in q2 - 2..=q2 + 2 {
        for c1 in q1 - 2..=q1 + 2 {
            let (c0, e) = best_c0(&coarse, c1, c2);
            if e < best.3 {
                best = (c0, c1, c2, e);
            }
        }
    }
    let (c0, c1, c2) = {
        let (c0, e) = best_c0(&fine, best.1, best.2);
        let _ = e;
        (c0, best.1, best.2)
    };
    let fixed_err = eval(&fine, c0, c1, c2) / 2f64.powi(32);
    assert!(c0 > 0 && (c0 as u64) < (1u64 << C0_BITS), "{func:?} row {e}: c0 {c0} out of range");
    for (v, w, n) in [(c1, C1_BITS, "c1"), (c2, C2_BITS, "c2"), (-c1, C1_BITS, "-c1"), (-c2, C2_BITS, "-c2")] {
        assert!(v >= -(1i64 << (w - 1)) && v < (1i64 << (w - 1)), "{func:?} row {e}: {n} = {v} exceeds s{w}");
    }
    assert!(k < (1 << K_BITS));
    // accumulator range: tanh S >= 2^31 (G in [1/2, 1]); sigmoid S > 0 and < 2^33
    for d in dgrid(2048).into_iter().chain([(1 << 23) - 1]) {
        let s = acc(c0, c1, c2, d);
        match func {
            Func::Tanh => assert!(s >= 1 << 31, "tanh row {e}: S < 2^31"),
            Func::Sigmoid => assert!(s > 1 << 29 && s < 1 << 33, "sigmoid row {e}: S = {s} out of (2^29, 2^33)"),
        }
    }
    (Row { c0: c0 as u64, c1, c2, k }, RowFit { approx_err, fixed_err })
}

fn build(func: Func) -> Table {
    let (rows, fits) = (0..ROWS).map(|e| fit_row(func, e)).unzip();
    Table { func, rows, fits }
}

/// The tables (fitted once per process).
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables { tanh: build(Func::Tanh), sig: build(Func::Sigmoid) })
}

/// FNV-1a 64 over the ROM words, a fingerprint for reports and regression checks.
pub fn fingerprint(t: &Table) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for r in &t.rows {
        for b in r.word().to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// Human-readable dump of both tables (what `eu-gen tables` prints).
pub fn tables_report() -> String {
    use std::fmt::Write;
    let t = tables();
    let mut s = String::new();
    for tab in [&t.tanh, &t.sig] {
        let name = match tab.func {
            Func::Tanh => "TANH",
            Func::Sigmoid => "SIGMOID",
        };
        writeln!(
            s,
            "# {name} ROM: {ROWS} rows x {WORD_BITS} bits = {} bits; word = {{k:u{K_BITS}, c2:s{C2_BITS}, c1:s{C1_BITS}, c0:u{C0_BITS}}}; fingerprint {:016x}",
            ROWS * WORD_BITS as usize,
            fingerprint(tab)
        )
        .unwrap();
        for reg in 0..ROWS / SEG {
            let rr = &tab.fits[reg * SEG..(reg + 1) * SEG];
            let a = rr.iter().map(|f| f.approx_err).fold(0.0, f64::max);
            let q = rr.iter().map(|f| f.fixed_err).fold(0.0, f64::max);
            writeln!(s, "#   region {reg}: max minimax err {:.4e}, max fixed-point err {:.4e} (scaled units; x2^24 = {:.3})", a, q, q * 2f64.powi(24)).unwrap();
        }
        writeln!(s, "# row  arg_lo            k  c0          c1          c2          word").unwrap();
        for (e, r) in tab.rows.iter().enumerate() {
            writeln!(
                s,
                "{e:4} {:<16.10} {:2} {:11} {:11} {:11} {:0w$x}",
                row_arg(tab.func, e, 0.0),
                r.k,
                r.c0,
                r.c1,
                r.c2,
                r.word(),
                w = (WORD_BITS as usize).div_ceil(4)
            )
            .unwrap();
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn tables_fit_within_budget() {
        let t = tables();
        for (e, f) in t.tanh.fits.iter().enumerate() {
            assert!(f.fixed_err * 2f64.powi(24) < 0.75, "tanh row {e}: {}", f.fixed_err * 2f64.powi(24));
        }
        for (e, f) in t.sig.fits.iter().enumerate() {
            let k = t.sig.rows[e].k;
            // positive side: absolute error of 1 - sigma(-t), in units of 2^-24
            let pos = f.fixed_err * 2f64.powi(24 - k as i32);
            assert!(pos < 0.75, "sigmoid row {e}: positive-side error {pos} x 2^-24");
            // negative side: relative error (the scaled row value is > 0.38 over the row)
            assert!(f.fixed_err / 0.38 < 2f64.powi(-12), "sigmoid row {e}: relative error {}", f.fixed_err / 0.38);
        }
    }

    #[test]
    fn anchors_and_scales() {
        let t = tables();
        // tanh row 0 starts at tanh(a)/a = 1: c0 = 2^32 within the fit error
        assert!((t.tanh.rows[0].c0 as i64 - (1i64 << 32)).abs() < 64);
        // sigmoid row 0 is pinned to sigma(0) = 1/2, scale 2^1
        assert_eq!((t.sig.rows[0].c0, t.sig.rows[0].k), (1u64 << 32, 1));
        // scales grow with t: sigma(-t) ~ e^-t, so k(t = 31.75) = floor(31.75 / ln 2) = 45
        assert_eq!(t.sig.rows[ROWS - 1].k, 45);
        assert!(t.sig.rows.windows(2).all(|w| w[1].k >= w[0].k));
    }
}
