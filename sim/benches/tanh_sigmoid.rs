//! Report for tanh_sigmoid, not part of the test run:
//! `cargo bench -p sim --bench tanh_sigmoid` (release build).
//! 1. exhaustive fp16/bf16 accuracy of the golden model against the f64 reference;
//! 2. exhaustive fp32 sweep of the golden model (TANH, SIGMOID; TANH_PRE optional) against the
//!    reference: max ulp, where, histogram; error-vs-x CSV in target/reports/, PNG plots in docs/img/;
//! 3. the same fp32 sweep through the Verilator model (lanes8, one model per thread), bit-exact
//!    against the golden model, with the time split between the Verilated model and the golden check;
//! 4. co-sim speed (median of 5 runs) and yosys cell counts for LANES = 1 and 8.
//!
//! Environment: TS_STRIDE=n sweeps every n-th fp32 pattern in the golden sweep (default 1 = all
//! 2^32); TS_RTL_STRIDE=n the same for the RTL sweep (default TS_STRIDE); TS_RTL_OPS=TANH,SIGMOID
//! picks the RTL ops; TS_SKIP_GOLDEN=1 / TS_SKIP_RTL=1 / TS_SKIP_YOSYS=1 / TS_SKIP_SPEED=1 skip parts;
//! TS_THREADS=n (default 2); TS_EXP_TANH / TS_EXP_SIGMOID=lo:hi restrict the golden fp32 sweep to
//! a biased-exponent range (both signs, every mantissa).
#![allow(dead_code)]

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

fn env_u64(k: &str, default: u64) -> u64 {
    std::env::var(k).ok().and_then(|s| s.parse().ok()).unwrap_or(default).max(1)
}
fn stride() -> u64 {
    env_u64("TS_STRIDE", 1)
}
fn rtl_stride() -> u64 {
    env_u64("TS_RTL_STRIDE", stride())
}
fn threads() -> u64 {
    env_u64("TS_THREADS", 2)
}
fn skip(k: &str) -> bool {
    std::env::var(k).is_ok()
}

/// CPU seconds (user + system) of this process (`"self"`) or of the calling thread
/// (`"thread-self"`), from /proc (clock ticks of 1/100 s, Linux's USER_HZ). Rates in this report
/// are given per CPU second as well as per wall second: on the shared machine a thread gets a
/// fraction of a core, so wall-clock rates measure the load more than the code.
fn cpu_seconds(which: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{which}/stat")).unwrap_or_default();
    // fields after the parenthesised command name: state is field 3, utime 14, stime 15
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<u64> = rest.split_whitespace().skip(11).take(2).map(|v| v.parse().unwrap_or(0)).collect();
    f.iter().sum::<u64>() as f64 / 100.0
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

fn img_dir() -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/img");
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

/// The project's requirement for (fmt, op), in the unit the plot shows (ulp; for fp32 SIGMOID the
/// x >= 0 bound in ulp — the x < 0 side is plotted as |err| / 2^-24, bound 2.4e-7 = 4.03).
fn requirement(fmt: u8, op: u8) -> f64 {
    match (fmt, op) {
        (FMT_FP32, OP_TANH) => 1.5,
        (FMT_FP32, OP_SIGMOID) => 2.0,
        _ => 1.0,
    }
}

/// One PNG per format: a panel per op with the max error per x bin and the requirement line.
fn plot_png(fmt: u8, panels: &[(u8, &Acc)], note: &str) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    static FONT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let font_ok = *FONT.get_or_init(|| match std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") {
        Ok(b) => plotters::style::register_font("sans-serif", FontStyle::Normal, Box::leak(b.into_boxed_slice())).is_ok(),
        Err(_) => false,
    });
    if !font_ok {
        return Err("font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf not found (apt-get install fonts-dejavu-core)".into());
    }
    let path = img_dir().join(format!("tanh_sigmoid_err_{}.png", fmt_name(fmt)));
    let root = BitMapBackend::new(&path, (900, 280 * panels.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let areas = root.split_evenly((panels.len(), 1));
    for (area, &(op, a)) in areas.iter().zip(panels) {
        let req = requirement(fmt, op);
        let mut top = a.plot.iter().cloned().fold(0.0f64, f64::max).max(req) * 1.12;
        if fmt == FMT_FP32 && op == OP_SIGMOID {
            top = top.max(2.4e-7 * 2f64.powi(24) * 1.12);
        }
        let unit = if fmt == FMT_FP32 && op == OP_SIGMOID { "ulp (x<0: |err|/2^-24)" } else { "ulp" };
        let mut ch = ChartBuilder::on(area)
            .caption(format!("{} {}: max error per bin ({} bins), {}", fmt_name(fmt), op_name(op), PLOT_BINS, note), ("sans-serif", 17))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(56)
            .build_cartesian_2d(PLOT_LO..PLOT_HI, 0.0..top)?;
        // no fine grid: it makes the PNG several times larger
        ch.configure_mesh().light_line_style(WHITE).x_desc("x").y_desc(unit).label_style(("sans-serif", 13)).draw()?;
        let pts: Vec<(f64, f64)> = a
            .plot
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0.0)
            .map(|(i, v)| (PLOT_LO + (i as f64 + 0.5) * (PLOT_HI - PLOT_LO) / PLOT_BINS as f64, *v))
            .collect();
        ch.draw_series(LineSeries::new(pts, BLUE.stroke_width(1)))?
            .label("max error per bin")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLUE));
        ch.draw_series(LineSeries::new(vec![(PLOT_LO, req), (PLOT_HI, req)], RED.stroke_width(1)))?
            .label(format!("requirement {req} ulp"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED));
        if fmt == FMT_FP32 && op == OP_SIGMOID {
            let b = 2.4e-7 * 2f64.powi(24);
            ch.draw_series(LineSeries::new(vec![(PLOT_LO, b), (0.0, b)], MAGENTA.stroke_width(1)))?
                .label("x<0 requirement 2.4e-7 abs")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], MAGENTA));
        }
        ch.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).label_font(("sans-serif", 13)).draw()?;
    }
    root.present()?;
    Ok(path.clone())
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
        let mut accs = Vec::new();
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
            accs.push((op, a));
        }
        let panels: Vec<(u8, &Acc)> = accs.iter().filter(|(op, _)| *op != OP_TANH_PRE).map(|(op, a)| (*op, a)).collect();
        match plot_png(fmt, &panels, "every input") {
            Ok(p) => println!("  plot: {}", p.display()),
            Err(e) => println!("  plot not written: {e}"),
        }
    }
}

/// TS_EXP_TANH / TS_EXP_SIGMOID = "lo:hi": restrict the golden fp32 sweep of that op to the biased
/// exponents lo..=hi (both signs, every mantissa, still every TS_STRIDE-th): a sweep of every input
/// that reaches the interpolator when the full 2^32 does not fit the time.
fn exp_range(op: u8) -> Option<(u32, u32)> {
    let v = std::env::var(format!("TS_EXP_{}", op_name(op))).ok()?;
    let (a, b) = v.split_once(':')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn golden_sweep(op: u8) -> Acc {
    let st = stride();
    let nt = threads();
    let range = exp_range(op);
    let parts: Vec<Acc> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..nt)
            .map(|t| {
                s.spawn(move || {
                    let mut a = Acc::new();
                    match range {
                        None => {
                            let mut raw = t * st;
                            while raw <= 0xFFFF_FFFF {
                                let r = raw as u32;
                                a.add(op, FMT_FP32, r, lane(op, FMT_FP32, false, r));
                                raw += nt * st;
                            }
                        }
                        Some((lo, hi)) => {
                            for sign in 0..2u32 {
                                for e in lo..=hi {
                                    let mut m = t * st;
                                    while m < 1 << 23 {
                                        let r = sign << 31 | e << 23 | m as u32;
                                        a.add(op, FMT_FP32, r, lane(op, FMT_FP32, false, r));
                                        m += nt * st;
                                    }
                                }
                            }
                        }
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

struct RtlRun {
    checked: u64,
    bad: u64,
    /// wall seconds spent in the Verilated model (run_bare), summed over threads
    sim_s: f64,
    /// wall seconds spent in the golden model and the comparison, summed over threads
    cmp_s: f64,
    /// CPU seconds of the sweep threads, summed
    cpu_s: f64,
}

/// fp32 sweep through the lanes8 Verilator model (one instance per thread), compared bit for bit
/// with the golden model.
fn rtl_sweep(op: u8) -> RtlRun {
    let st = rtl_stride();
    let nt = threads();
    let started = Instant::now();
    let res: Vec<RtlRun> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..nt)
            .map(|t| {
                s.spawn(move || {
                    let cpu0 = cpu_seconds("thread-self");
                    let mut d = Dut::new("tanh_sigmoid_lanes8/eu_tanh_sigmoid");
                    d.reset(1);
                    let l = layout(&d);
                    let lat: usize = d.param("lat").parse().unwrap();
                    const CYC: usize = 1 << 15;
                    let total = CYC + lat;
                    let mut inp = vec![0u32; total * l.in_words];
                    let mut out = vec![0u32; total * l.out_words];
                    for c in 0..CYC {
                        let w = &mut inp[c * l.in_words..(c + 1) * l.in_words];
                        w[l.valid] = 1;
                        w[l.op] = op as u32;
                        w[l.mask] = 0xFF;
                    }
                    let mut r = RtlRun { checked: 0, bad: 0, sim_s: 0.0, cmp_s: 0.0, cpu_s: 0.0 };
                    let mut raw = t * st;
                    let mut batch = Vec::with_capacity(CYC * 8);
                    let mut next_report = 1u64 << 28;
                    while raw <= 0xFFFF_FFFF {
                        batch.clear();
                        while batch.len() < CYC * 8 && raw <= 0xFFFF_FFFF {
                            batch.push(raw as u32);
                            raw += nt * st;
                        }
                        let ncyc = batch.len().div_ceil(8);
                        for c in 0..ncyc {
                            for k in 0..8 {
                                inp[c * l.in_words + l.data + k] = *batch.get(c * 8 + k).unwrap_or(&0);
                            }
                        }
                        // the lat cycles after the batch only flush the pipe (their outputs are not checked)
                        let t0 = Instant::now();
                        // only the cycles in use (a short last batch or a sparse sweep)
                        let used = ncyc + lat;
                        d.run_bare(&inp[..used * l.in_words], &mut out[..used * l.out_words]);
                        let t1 = Instant::now();
                        for (j, &x) in batch.iter().enumerate() {
                            let c = j / 8 + lat - 1;
                            let got = out[c * l.out_words + l.odata + j % 8];
                            let want = lane(op, FMT_FP32, false, x);
                            if got != want {
                                if r.bad < 5 {
                                    eprintln!("MISMATCH op {op} x {x:#x}: rtl {got:#x} golden {want:#x}");
                                }
                                r.bad += 1;
                            }
                        }
                        r.checked += batch.len() as u64;
                        r.sim_s += (t1 - t0).as_secs_f64();
                        r.cmp_s += t1.elapsed().as_secs_f64();
                        if t == 0 && r.checked * nt >= next_report {
                            next_report += 1 << 28;
                            let done = r.checked * nt;
                            let secs = started.elapsed().as_secs_f64();
                            eprintln!(
                                "  [rtl {}] {done} inputs, {:.0} s, {:.3} M/s, mismatches so far (thread 0) {}",
                                op_name(op),
                                secs,
                                done as f64 / secs / 1e6,
                                r.bad
                            );
                        }
                    }
                    r.cpu_s = cpu_seconds("thread-self") - cpu0;
                    r
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    res.iter().fold(RtlRun { checked: 0, bad: 0, sim_s: 0.0, cmp_s: 0.0, cpu_s: 0.0 }, |a, b| RtlRun {
        checked: a.checked + b.checked,
        bad: a.bad + b.bad,
        sim_s: a.sim_s + b.sim_s,
        cmp_s: a.cmp_s + b.cmp_s,
        cpu_s: a.cpu_s + b.cpu_s,
    })
}

/// (M cycles per wall second, per CPU second), median of 5 runs by CPU rate.
fn cosim_speed(variant: &str) -> (f64, f64) {
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
    let mut rates: Vec<(f64, f64)> = (0..5)
        .map(|_| {
            let (t, c) = (Instant::now(), cpu_seconds("thread-self"));
            d.run_bare(&inp, &mut out);
            (N as f64 / t.elapsed().as_secs_f64(), N as f64 / (cpu_seconds("thread-self") - c).max(0.01))
        })
        .collect();
    rates.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap());
    rates[2]
}

/// Golden model alone (no reference): inputs per wall second and per CPU second, one thread.
fn golden_speed(op: u8) -> (f64, f64) {
    const N: u32 = 1 << 24;
    let (t, c) = (Instant::now(), cpu_seconds("thread-self"));
    let mut acc = 0u32;
    for i in 0..N {
        acc = acc.wrapping_add(lane(op, FMT_FP32, false, i.wrapping_mul(0x9E37_79B9)));
    }
    std::hint::black_box(acc);
    (N as f64 / t.elapsed().as_secs_f64(), N as f64 / (cpu_seconds("thread-self") - c).max(0.01))
}

/// yosys cell count: `synth -flatten` (full, with ABC) or, with TS_YOSYS_COARSE=1, the coarse flow
/// `synth -run begin:fine` (what the lint gate runs), which is much faster and counts coarse cells.
fn yosys_cells(variant: &str) -> Option<(String, f64)> {
    let desc = sim::cosim::model(&format!("tanh_sigmoid_{variant}/eu_tanh_sigmoid"));
    let t = Instant::now();
    let flow = if skip("TS_YOSYS_COARSE") { "synth -flatten -run begin:fine -top eu_tanh_sigmoid" } else { "synth -flatten -top eu_tanh_sigmoid" };
    let o = std::process::Command::new("yosys")
        .args(["-q", "-p", &format!("read_verilog {}; {flow}; tee -o /dev/stdout stat", desc.verilog)])
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&o.stdout).to_string();
    let cells = s.lines().filter(|l| l.contains("Number of cells")).last()?.split_whitespace().last()?.to_string();
    Some((cells, t.elapsed().as_secs_f64()))
}

/// Redraws the fp32 PNG from the CSV files of an earlier run (TS_REPLOT_FP32="<note>").
fn replot_fp32(note: &str) {
    let mut accs = Vec::new();
    for op in [OP_TANH, OP_SIGMOID] {
        let f = report_dir().join(format!("tanh_sigmoid_err_fp32_{}.csv", op_name(op)));
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        let mut a = Acc::new();
        for (i, line) in text.lines().skip(1).enumerate().take(PLOT_BINS) {
            a.plot[i] = line.split(',').nth(1).and_then(|v| v.parse().ok()).unwrap_or(0.0);
        }
        accs.push((op, a));
    }
    let panels: Vec<(u8, &Acc)> = accs.iter().map(|(op, a)| (*op, a)).collect();
    match plot_png(FMT_FP32, &panels, note) {
        Ok(p) => println!("  plot: {}", p.display()),
        Err(e) => println!("  plot not written: {e}"),
    }
}

pub fn main() {
    if let Ok(note) = std::env::var("TS_REPLOT_FP32") {
        replot_fp32(&note);
        return;
    }
    let st = stride();
    println!("tanh_sigmoid report (TS_STRIDE = {st}{}, {} threads)", if st == 1 { ", exhaustive" } else { "" }, threads());
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
    if !skip("TS_SKIP_GOLDEN") {
        println!("== fp32, golden model vs f64 reference, every {st}-th pattern, {} threads ==", threads());
        let ops: Vec<u8> = if skip("TS_TANH_PRE") { vec![OP_TANH, OP_SIGMOID, OP_TANH_PRE] } else { vec![OP_TANH, OP_SIGMOID] };
        let mut accs = Vec::new();
        for &op in &ops {
            let (t0, c0) = (Instant::now(), cpu_seconds("self"));
            let a = golden_sweep(op);
            let scope = match exp_range(op) {
                Some((lo, hi)) => format!(", biased exponents {lo}..={hi} only"),
                None => String::new(),
            };
            let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds("self") - c0);
            let label = format!(
                "fp32 {} ({} inputs{scope}, {wall:.1} s wall, {cpu:.1} CPU s = {:.2} M inputs per CPU s; all 2^32 on 2 idle cores ~ {:.1} min)",
                op_name(op),
                a.n,
                a.n as f64 / cpu.max(0.01) / 1e6,
                2f64.powi(32) / (a.n as f64 / cpu.max(0.01)) / 2.0 / 60.0
            );
            print_acc(&label, op, &a, FMT_FP32);
            write_plot_data(&format!("tanh_sigmoid_err_fp32_{}", op_name(op)), &a);
            accs.push((op, a));
            // the plot is rewritten after each op, so a long run leaves a plot behind early
            let panels: Vec<(u8, &Acc)> = accs.iter().filter(|(op, _)| *op != OP_TANH_PRE).map(|(op, a)| (*op, a)).collect();
            let mut note = if st == 1 { "all 2^32 inputs".to_string() } else { format!("every {st}-th pattern") };
            if exp_range(OP_TANH).is_some() || exp_range(OP_SIGMOID).is_some() {
                note = format!("{note} in the exponent ranges TS_EXP_*");
            }
            match plot_png(FMT_FP32, &panels, &note) {
                Ok(p) => println!("  plot: {}", p.display()),
                Err(e) => println!("  plot not written: {e}"),
            }
        }
        println!("  error-vs-x data (max per bin over x in [{PLOT_LO}, {PLOT_HI}]) written to {}", report_dir().display());
    }
    // The RTL sweep's verdict: a mismatch makes the report exit 1 after printing everything.
    let mut rtl_mismatches = 0u64;
    if !skip("TS_SKIP_RTL") {
        let rst = rtl_stride();
        println!("== fp32 through the Verilator model (lanes8, {} threads), bit-exact vs golden, every {rst}-th pattern ==", threads());
        let ops: Vec<u8> = match std::env::var("TS_RTL_OPS") {
            Ok(v) => v.split(',').map(|s| if s.trim() == "SIGMOID" { OP_SIGMOID } else if s.trim() == "TANH_PRE" { OP_TANH_PRE } else { OP_TANH }).collect(),
            Err(_) => vec![OP_TANH, OP_SIGMOID],
        };
        for op in ops {
            let t0 = Instant::now();
            let r = rtl_sweep(op);
            rtl_mismatches += r.bad;
            let secs = t0.elapsed().as_secs_f64();
            let per_cpu = r.checked as f64 / r.cpu_s.max(0.01);
            println!(
                "  {}: {} inputs, {} mismatches, {secs:.1} s wall ({:.3} M inputs per wall s), {:.1} CPU s ({:.3} M inputs per CPU s); \
                 Verilated model {:.0} % of thread time, golden check {:.0} %; full 2^32 sweep at this wall rate ~ {:.2} h, on 2 idle cores ~ {:.1} min",
                op_name(op),
                r.checked,
                r.bad,
                r.checked as f64 / secs / 1e6,
                r.cpu_s,
                per_cpu / 1e6,
                100.0 * r.sim_s / (r.sim_s + r.cmp_s),
                100.0 * r.cmp_s / (r.sim_s + r.cmp_s),
                secs * 2f64.powi(32) / r.checked as f64 / 3600.0,
                2f64.powi(32) / per_cpu / 2.0 / 60.0
            );
        }
    }
    if !skip("TS_SKIP_SPEED") {
        for v in ["lanes1", "lanes8"] {
            let (wall, cpu) = cosim_speed(v);
            println!(
                "  co-sim speed {v}: {:.3} M cycles per CPU s ({:.3} M per wall s; median of 5 runs by CPU time, run_bare, 500k random cycles, 1 thread)",
                cpu / 1e6,
                wall / 1e6
            );
        }
        for op in [OP_TANH, OP_SIGMOID] {
            let (wall, cpu) = golden_speed(op);
            println!("  golden model alone, fp32 {}: {:.1} M inputs per CPU s ({:.1} M per wall s, 1 thread)", op_name(op), cpu / 1e6, wall / 1e6);
        }
    }
    if !skip("TS_SKIP_YOSYS") {
        for v in ["lanes1", "lanes8"] {
            match yosys_cells(v) {
                Some((c, s)) => println!("  yosys {v}: {c} cells ({s:.0} s)"),
                None => println!("  yosys {v}: not available"),
            }
        }
    }
    if rtl_mismatches > 0 {
        eprintln!("tanh_sigmoid report: FAILED: {rtl_mismatches} RTL outputs differ from the golden model (the sweep lines above)");
        std::process::exit(1);
    }
}
