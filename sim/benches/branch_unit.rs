//! Report for branch_unit (`cargo bench -p sim --bench branch_unit`):
//! - flip-flop bits of the N=16 design (architectural state vs response registers), from the
//!   config and from yosys on the emitted Verilog, against the spec's ~1.3 kbit (§6.3) and a
//!   reconvergence-stack design (Vortex: 1 425 bits per 16-thread warp);
//! - yosys generic cell count (and iCE40 LUT/FF figures);
//! - co-simulation speed: bare Verilator instructions/s, the golden model alone, and checked
//!   co-sim (golden + RTL + compare of every output port, the tests' driver) instructions/s,
//!   medians of several runs.

use sim::drivers::branch_unit as drv;

use hdl::branch_unit::{Block, Config};
use hdl::BlockGen;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::cosim::Dut;
use sim::golden::branch_unit::prog::{assemble, simd_run, Gen};
use sim::golden::branch_unit::{step, Cfg, State};
use std::time::Instant;

fn yosys_stat(verilog: &str, script_tail: &str) -> Option<String> {
    let dir = tempfile::tempdir().ok()?;
    let f = dir.path().join("bu.v");
    std::fs::write(&f, verilog).ok()?;
    let script = format!("read_verilog {}; hierarchy -top eu_branch_unit; {script_tail}; flatten; stat", f.display());
    let o = std::process::Command::new("yosys").args(["-q", "-p", &script.replace("; stat", "; tee -o /dev/stdout stat")]).output().ok()?;
    if !o.status.success() {
        eprintln!("yosys failed: {}", String::from_utf8_lossy(&o.stderr));
        return None;
    }
    Some(String::from_utf8_lossy(&o.stdout).to_string())
}

/// Sums "<count> <celltype>" lines of a yosys `stat` whose cell type matches `pred`.
fn cells(stat: &str, pred: impl Fn(&str) -> bool) -> u64 {
    stat.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let (a, b) = (it.next()?, it.next()?);
            let (name, n) = if let Ok(n) = b.parse::<u64>() { (a, n) } else { (b, a.parse::<u64>().ok()?) };
            pred(name).then_some(n)
        })
        .sum()
}

fn total_cells(stat: &str) -> Option<u64> {
    stat.lines().rev().find(|l| l.trim_start().starts_with("Number of cells:")).and_then(|l| l.split(':').nth(1)?.trim().parse().ok())
}

/// CPU seconds this thread has run (utime + stime of /proc/thread-self/stat, in the usual
/// 100 Hz clock ticks), so that speeds can be given per CPU-second: on the shared 2-core machine
/// the wall-clock rate mostly measures the other builds.
fn thread_cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat (Linux)");
    let f: Vec<&str> = s[s.rfind(')').expect("stat format") + 2..].split_whitespace().collect();
    // fields after the command: state is field 3, utime field 14, stime field 15
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}

/// Runs `f` (which processes `n` instructions) `reps` times: the median wall-clock rate and the
/// rate per CPU-second of this thread over all repetitions.
fn rates(reps: usize, n: usize, mut f: impl FnMut()) -> (f64, f64) {
    let mut wall = Vec::new();
    let cpu0 = thread_cpu_secs();
    for _ in 0..reps {
        let t = Instant::now();
        f();
        wall.push(n as f64 / t.elapsed().as_secs_f64());
    }
    let cpu = (thread_cpu_secs() - cpu0).max(0.01);
    (median(wall), (reps * n) as f64 / cpu)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let cfg = Config::default(); // N = 16, MAXD = 16, MAXD_CALL = 8, IPW = 16 -> DW = 5, CW = 8
    let (n, maxd, maxdc, ipw, dw, cw) = (cfg.lanes, cfg.maxd_r(), cfg.maxd_call, cfg.ipw, cfg.dw(), cfg.cw());
    let ent = ipw + dw;
    let arch = [
        ("counters N*CW", n * cw),
        ("CICs 5*DW", 5 * dw),
        ("IF/LOOP/BR stacks 3*MAXD*(IPW+DW)", 3 * maxd * ent),
        ("CALL stack MAXD_CALL*(IPW+DW)", maxdc * ent),
        ("HALT entry IPW (aux not stored)", ipw),
        ("loop_nest DW", dw),
        ("fault", 1),
    ];
    let arch_bits: usize = arch.iter().map(|a| a.1).sum();
    let rsp_bits = 1 + ipw + 3 * n + 1 + 5 + 3 + 2 + 6;
    println!("== branch_unit N={n} MAXD={maxd} MAXD_CALL={maxdc} IPW={ipw} DW={dw} CW={cw} ==");
    println!("architectural state (from the config):");
    for (k, v) in arch {
        println!("  {k:<38} {v:>5} bits");
    }
    println!("  {:<38} {arch_bits:>5} bits  (spec §6.3: about 1.3 kbit; Vortex IPDOM stack: 1425 bits/16-thread warp)", "total");
    println!("response registers: {rsp_bits} bits; all flops: {} bits", arch_bits + rsp_bits);

    let m = Block::emit(&cfg).expect("emit").remove(0);
    println!("emitted Verilog: {} lines", m.verilog.lines().count());
    if let Some(st) = yosys_stat(&m.verilog, "proc; opt; memory; opt; techmap; opt") {
        let ff = cells(&st, |c| c.contains("DFF"));
        println!("yosys (proc; techmap): {ff} single-bit flip-flops, {} cells in total", total_cells(&st).unwrap_or(0));
    }
    if let Some(st) = yosys_stat(&m.verilog, "synth -top eu_branch_unit") {
        let ff = cells(&st, |c| c.contains("DFF"));
        println!("yosys synth: {ff} flip-flops, {} cells (generic gates)", total_cells(&st).unwrap_or(0));
    }
    if let Some(st) = yosys_stat(&m.verilog, "synth_ice40 -top eu_branch_unit") {
        println!(
            "yosys synth_ice40: {} SB_LUT4, {} SB_DFF*, {} SB_CARRY",
            cells(&st, |c| c == "SB_LUT4"),
            cells(&st, |c| c.starts_with("SB_DFF")),
            cells(&st, |c| c == "SB_CARRY")
        );
    }

    // ---- co-simulation speed on random structured programs, N = 16 ----
    let gcfg = Cfg::new(16);
    let mut rng = StdRng::seed_from_u64(0xBE0C);
    let mut runs = Vec::new();
    let mut total = 0;
    while total < 300_000 {
        let size = rng.gen_range(8..40);
        let ast = Gen::program(&mut rng, size, gcfg.maxd_call);
        let p = assemble(&ast, true, rng.gen());
        let r = simd_run(&gcfg, &p, gcfg.nmask(), &mut rng, 200_000).expect("program runs");
        total += r.steps.len();
        runs.push(r);
    }
    let mut dut = Dut::new("branch_unit_n16/eu_branch_unit");
    let ins = ["req_valid", "req_op", "req_ip", "req_jip", "req_uip", "req_pred"].map(|p| dut.input(p));
    dut.reset(1);
    // packed bare vectors
    let ip_mask = drv::ip_mask(&gcfg);
    let mut vecs = Vec::new();
    for r in &runs {
        for s in &r.steps {
            dut.set(ins[0], 1);
            dut.set(ins[1], s.instr.op);
            dut.set(ins[2], s.instr.ip);
            dut.set(ins[3], s.instr.jip as u64 & ip_mask);
            dut.set(ins[4], s.instr.uip as u64 & ip_mask);
            dut.set(ins[5], s.pred);
            vecs.extend_from_slice(dut.inputs_raw());
        }
    }
    // EU_BENCH_VECTORS=<file>: also write the packed input vectors (little-endian u32 words,
    // `in_words` per cycle, after the reset), for instruction counts of the bare model under
    // callgrind with the same stimulus on two versions of the Verilog.
    if let Ok(path) = std::env::var("EU_BENCH_VECTORS") {
        let bytes: Vec<u8> = vecs.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).expect("write the vectors");
        println!("wrote {total} cycles of packed inputs ({} words each) to {path}", dut.desc().in_words);
    }
    let ow = dut.desc().out_words;
    let mut outs = vec![0u32; total * ow];
    let bare = rates(5, total, || dut.run_bare(&vecs, &mut outs));
    // the golden model alone (the reference cost of the checked run)
    let golden = rates(3, total, || {
        let mut st = State::reset(&gcfg);
        for r in &runs {
            for s in &r.steps {
                st = std::hint::black_box(step(&gcfg, &st, &s.instr, s.pred)).0;
            }
        }
    });
    // checked co-sim: golden model steps + RTL + compare of every output port (the tests' driver)
    let checked = rates(3, total, || {
        let mut sbu = drv::Sbu::new("n16", gcfg);
        let mut st = State::reset(&gcfg);
        for r in &runs {
            for s in &r.steps {
                let (s2, o) = step(&gcfg, &st, &s.instr, s.pred);
                sbu.step(&s.instr, s.pred, &o, &s2);
                st = s2;
            }
        }
    });
    println!("co-sim N=16, {total} instructions of {} random programs (M instructions/s: wall-clock median | per CPU-second):", runs.len());
    for (what, (wall, cpu)) in [("bare Verilator", bare), ("golden model alone", golden), ("golden + RTL + compare of every port", checked)] {
        println!("  {what:<38} {:>6.3} | {:>6.3}", wall / 1e6, cpu / 1e6);
    }
}
