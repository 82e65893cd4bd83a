//! Report for tanh_sigmoid (`cargo bench -p sim --bench tanh_sigmoid`), not part of the tests:
//! 1. exhaustive fp16/bf16 accuracy of the golden model against the f64 reference;
//! 2. exhaustive fp32 sweep of the golden model (TANH, SIGMOID; TANH_PRE optional) against the
//!    reference: max ulp, where, histogram; error-vs-x data and plots in target/reports/;
//! 3. the same fp32 sweep through the Verilator model (lanes8), bit-exact against the golden model;
//! 4. co-sim speed (median of 5 runs) and yosys cell counts for LANES = 1 and 8.
//!
//! Environment: TS_STRIDE=n sweeps every n-th fp32 pattern (default 1 = all 2^32);
//! TS_SKIP_RTL=1 / TS_SKIP_YOSYS=1 skip parts.

use sim::cosim::Dut;
use sim::golden::tanh_sigmoid::*;
use std::time::Instant;

const HIST: [f64; 8] = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, f64::INFINITY];
const PLOT_BINS: usize = 4000;
const PLOT_LO: f64 = -24.0;
const PLOT_HI: f64 = 24.0;

#[derive(Clone)]
struct Acc {
    max_ulp: f64,
    at: u32,
    max_neg_abs: f64,
    at_neg: u32,
    max_neg_ulp: f64,
    hist: [u64; 8],
    n: u64,
    plot: Vec<f64>,
}

impl Acc {
    fn new() -> Self {
        Acc { max_ulp: 0.0, at: 0, max_neg_abs: 0.0, at_neg: 0, max_neg_ulp: 0.0, hist: [0; 8], n: 0, plot: vec![0.0; PLOT_BINS] }
    }
    fn merge(&mut self, o: &Acc) {
        if o.max_ulp > self.max_ulp {
            self.max_ulp = o.max_ulp;
            self.at = o.at;
        }
        if o.max_neg_abs > self.max_neg_abs {
            self.max_neg_abs = o.max_neg_abs;
            self.at_neg = o.at_neg;
        }
        self.max_neg_ulp = self.max_neg_ulp.max(o.max_neg_ulp);
        for i in 0..8 {
            self.hist[i] += o.hist[i];
        }
        self.n += o.n;
        for i in 0..PLOT_BINS {
            self.plot[i] = self.plot[i].max(o.plot[i]);
        }
    }
    /// ulp error for tanh everywhere and sigmoid x >= 0; absolute error for sigmoid x < 0.
    fn add(&mut self, op: u8, fmt: u8, raw: u32, out: u32) {
        let x = to_f64(widen(raw, fmt, false), FMT_FP32);
        if x.is_nan() {
            return;
        }
        let y = to_f64(out, fmt);
        let f = reference(op, x);
        let err = (y - f).abs();
        let u = err / ulp(f, fmt);
        self.n += 1;
        if op == OP_SIGMOID && x < 0.0 {
            if err > self.max_neg_abs {
                self.max_neg_abs = err;
                self.at_neg = raw;
            }
            self.max_neg_ulp = self.max_neg_ulp.max(u);
        } else {
            if u > self.max_ulp {
                self.max_ulp = u;
                self.at = raw;
            }
            let b = HIST.iter().position(|&h| u < h).unwrap();
            self.hist[b] += 1;
        }
        if (PLOT_LO..PLOT_HI).contains(&x) {
            let b = ((x - PLOT_LO) / (PLOT_HI - PLOT_LO) * PLOT_BINS as f64) as usize;
            let metric = if op == OP_SIGMOID && x < 0.0 && fmt == FMT_FP32 { err * 2f64.powi(24) } else { u };
            self.plot[b] = self.plot[b].max(metric);
        }
    }
}

fn stride() -> u64 {
    std::env::var("TS_STRIDE").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1)
}

fn op_name(op: u8) -> &'static str {
    ["TANH_PRE", "SIGMOID", "TANH"][op as usize]
}
fn fmt_name(fmt: u8) -> &'static str {
    ["fp32", "fp16", "bf16"][fmt as usize]
}

fn show(x: u32, fmt: u8) -> String {
    format!("{:e} ({x:#x})", to_f64(widen(x, fmt, false), FMT_FP32))
}

fn report_dir() -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/reports");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_plot_data(name: &str, a: &Acc) {
    let mut s = String::from("x,max_err\n");
    for (i, v) in a.plot.iter().enumerate() {
        let x = PLOT_LO + (i as f64 + 0.5) * (PLOT_HI - PLOT_LO) / PLOT_BINS as f64;
        s += &format!("{x},{v}\n");
    }
    std::fs::write(report_dir().join(format!("{name}.csv")), s).unwrap();
}

fn print_acc(label: &str, op: u8, a: &Acc, fmt: u8) {
    print!("  {label}: max {:.4} ulp at x = {}", a.max_ulp, show(a.at, fmt));
    if op == OP_SIGMOID {
        print!("; x<0: max abs {:.4e} at {} (max {:.3} ulp)", a.max_neg_abs, show(a.at_neg, fmt), a.max_neg_ulp);
    }
    println!();
    let labels = ["<0.25", "<0.5", "<0.75", "<1", "<1.25", "<1.5", "<2", ">=2"];
    let h: Vec<String> = labels.iter().zip(a.hist.iter()).map(|(l, c)| format!("{l}:{c}")).collect();
    println!("    histogram (ulp{}): {}", if op == OP_SIGMOID { ", x >= 0" } else { "" }, h.join(" "));
}

fn small_formats() {
    println!("== fp16 / bf16: every input, golden model vs f64 reference (ftz = 0) ==");
    for fmt in [FMT_FP16, FMT_BF16] {
        for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH] {
            let (mut worst, mut wat, mut sub_abs, mut lim) = (0.0f64, 0u32, 0.0f64, 0.0f64);
            let mut a = Acc::new();
            for raw in 0..=0xFFFFu32 {
                let x = to_f64(widen(raw, fmt, false), FMT_FP32);
                if x.is_nan() {
                    continue;
                }
                let out = lane(op, fmt, false, raw);
                a.add(op, fmt, raw, out);
                let (y, f) = (to_f64(out, fmt), reference(op, x));
                let (_, emin, _, _) = fmt_params(fmt);
                if fmt == FMT_FP16 && f.abs() < 2f64.powi(emin) {
                    sub_abs = sub_abs.max((y - f).abs());
                    continue;
                }
                let u = (y - f).abs() / ulp(f, fmt);
                if fmt == FMT_BF16 && op == OP_SIGMOID && x <= -16.0 {
                    lim = lim.max(u);
                    continue;
                }
                if u > worst {
                    worst = u;
                    wat = raw;
                }
            }
            print!("  {} {:8}: max {:.4} ulp at {}", fmt_name(fmt), op_name(op), worst, show(wat, fmt));
            if fmt == FMT_FP16 && op != OP_TANH_PRE {
                print!("; below normal: max abs {:.3e} = {:.3} x 2^-24", sub_abs, sub_abs * 2f64.powi(24));
            }
            if fmt == FMT_BF16 && op == OP_SIGMOID {
                print!("; x <= -16 (known limit): max {:.1} ulp", lim);
            }
            println!();
            write_plot_data(&format!("tanh_sigmoid_err_{}_{}", fmt_name(fmt), op_name(op)), &a);
        }
    }
}

fn golden_sweep(op: u8) -> Acc {
    let st = stride();
    let parts: Vec<Acc> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2u64)
            .map(|t| {
                s.spawn(move || {
                    let mut a = Acc::new();
                    let mut raw = t * st;
                    while raw <= 0xFFFF_FFFF {
                        let r = raw as u32;
                        a.add(op, FMT_FP32, r, lane(op, FMT_FP32, false, r));
                        raw += 2 * st;
                    }
                    a
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut a = Acc::new();
    for p in &parts {
        a.merge(p);
    }
    a
}

struct Layout {
    in_words: usize,
    out_words: usize,
    valid: usize,
    op: usize,
    mask: usize,
    data: usize,
    odata: usize,
}

fn layout(d: &Dut) -> Layout {
    let desc = d.desc();
    let i = |n: &str| desc.inputs.iter().find(|p| p.name == n).unwrap().offset;
    let o = |n: &str| desc.outputs.iter().find(|p| p.name == n).unwrap().offset;
    Layout { in_words: desc.in_words, out_words: desc.out_words, valid: i("in_valid"), op: i("in_op"), mask: i("in_mask"), data: i("in_data"), odata: o("out_data") }
}

/// fp32 sweep through the lanes8 Verilator model, compared bit for bit with the golden model.
/// Returns (patterns checked, mismatches).
fn rtl_sweep(op: u8) -> (u64, u64) {
    let st = stride();
    let res: Vec<(u64, u64)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2u64)
            .map(|t| {
                s.spawn(move || {
                    let mut d = Dut::new("tanh_sigmoid_lanes8/eu_tanh_sigmoid");
                    d.reset(1);
                    let l = layout(&d);
                    const CYC: usize = 1 << 15;
                    let total = CYC + LAT;
                    let mut inp = vec![0u32; total * l.in_words];
                    let mut out = vec![0u32; total * l.out_words];
                    for c in 0..CYC {
                        let w = &mut inp[c * l.in_words..(c + 1) * l.in_words];
                        w[l.valid] = 1;
                        w[l.op] = op as u32;
                        w[l.mask] = 0xFF;
                    }
                    let (mut checked, mut bad) = (0u64, 0u64);
                    let mut raw = t * st;
                    let mut batch = Vec::with_capacity(CYC * 8);
                    while raw <= 0xFFFF_FFFF {
                        batch.clear();
                        while batch.len() < CYC * 8 && raw <= 0xFFFF_FFFF {
                            batch.push(raw as u32);
                            raw += 2 * st;
                        }
                        let ncyc = batch.len().div_ceil(8);
                        for c in 0..ncyc {
                            for k in 0..8 {
                                inp[c * l.in_words + l.data + k] = *batch.get(c * 8 + k).unwrap_or(&0);
                            }
                        }
                        // a partial last batch: idle the rest
                        for c in ncyc..CYC {
                            inp[c * l.in_words + l.valid] = 0;
                        }
                        d.run_bare(&inp, &mut out);
                        for (j, &r) in batch.iter().enumerate() {
                            let c = j / 8 + LAT - 1;
                            let got = out[c * l.out_words + l.odata + j % 8];
                            checked += 1;
                            if got != lane(op, FMT_FP32, false, r) {
                                if bad < 5 {
                                    eprintln!("MISMATCH op {op} x {r:#x}: rtl {got:#x} golden {:#x}", lane(op, FMT_FP32, false, r));
                                }
                                bad += 1;
                            }
                        }
                    }
                    (checked, bad)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    res.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

fn cosim_speed(variant: &str) -> f64 {
    let mut d = Dut::new(&format!("tanh_sigmoid_{variant}/eu_tanh_sigmoid"));
    d.reset(1);
    let l = layout(&d);
    let lanes: usize = d.param("lanes").parse().unwrap();
    const N: usize = 500_000;
    let mut inp = vec![0u32; N * l.in_words];
    let mut x: u32 = 12345;
    for c in 0..N {
        let w = &mut inp[c * l.in_words..(c + 1) * l.in_words];
        w[l.valid] = 1;
        w[l.op] = (c % 3) as u32;
        w[l.mask] = ((1u64 << lanes) - 1) as u32;
        for k in 0..lanes {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            w[l.data + k] = x;
        }
    }
    let mut out = vec![0u32; N * l.out_words];
    let mut rates: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            d.run_bare(&inp, &mut out);
            N as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(|a, b| a.partial_cmp(b).unwrap());
    rates[2]
}

fn yosys_cells(variant: &str) -> Option<(String, f64)> {
    let desc = sim::cosim::model(&format!("tanh_sigmoid_{variant}/eu_tanh_sigmoid"));
    let t = Instant::now();
    let o = std::process::Command::new("yosys")
        .args(["-q", "-p", &format!("read_verilog {}; synth -flatten -top eu_tanh_sigmoid; tee -o /dev/stdout stat", desc.verilog)])
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&o.stdout).to_string();
    let cells = s.lines().filter(|l| l.contains("Number of cells")).last()?.split_whitespace().last()?.to_string();
    Some((cells, t.elapsed().as_secs_f64()))
}

fn main() {
    let st = stride();
    println!("tanh_sigmoid report (TS_STRIDE = {st}{})", if st == 1 { ", exhaustive" } else { "" });
    let t = hdl::tanh_sigmoid::tables::tables();
    println!(
        "ROM: 2 x {} rows x {} bits = {} bits; fingerprints tanh {:016x}, sigmoid {:016x}",
        hdl::tanh_sigmoid::tables::ROWS,
        hdl::tanh_sigmoid::tables::WORD_BITS,
        2 * hdl::tanh_sigmoid::tables::ROWS * hdl::tanh_sigmoid::tables::WORD_BITS as usize,
        hdl::tanh_sigmoid::tables::fingerprint(&t.tanh),
        hdl::tanh_sigmoid::tables::fingerprint(&t.sig)
    );
    small_formats();
    println!("== fp32, golden model vs f64 reference, every {st}-th pattern ==");
    let ops: Vec<u8> = if std::env::var("TS_TANH_PRE").is_ok() { vec![OP_TANH, OP_SIGMOID, OP_TANH_PRE] } else { vec![OP_TANH, OP_SIGMOID] };
    for &op in &ops {
        let t0 = Instant::now();
        let a = golden_sweep(op);
        print_acc(&format!("fp32 {} ({} inputs, {:.1} s)", op_name(op), a.n, t0.elapsed().as_secs_f64()), op, &a, FMT_FP32);
        write_plot_data(&format!("tanh_sigmoid_err_fp32_{}", op_name(op)), &a);
    }
    println!("  error-vs-x data (max per bin over x in [{PLOT_LO}, {PLOT_HI}]) written to {}", report_dir().display());
    if std::env::var("TS_SKIP_RTL").is_err() {
        println!("== fp32 through the Verilator model (lanes8, 2 threads), bit-exact vs golden ==");
        for op in [OP_TANH, OP_SIGMOID] {
            let t0 = Instant::now();
            let (n, bad) = rtl_sweep(op);
            let secs = t0.elapsed().as_secs_f64();
            println!(
                "  {}: {n} inputs, {bad} mismatches, {secs:.1} s wall ({:.1} M inputs/s; full 2^32 sweep ~ {:.0} s)",
                op_name(op),
                n as f64 / secs / 1e6,
                secs * 2f64.powi(32) / n as f64
            );
        }
        for v in ["lanes1", "lanes8"] {
            println!("  co-sim speed {v}: {:.3} M cycles/s (median of 5, run_bare, 500k random cycles)", cosim_speed(v) / 1e6);
        }
    }
    if std::env::var("TS_SKIP_YOSYS").is_err() {
        for v in ["lanes1", "lanes8"] {
            match yosys_cells(v) {
                Some((c, s)) => println!("  yosys synth -flatten {v}: {c} cells ({s:.0} s)"),
                None => println!("  yosys {v}: not available"),
            }
        }
    }
}
