//! Report for alu_pipeline (`cargo bench -p sim --bench alu_pipeline`):
//! 1. co-sim speed (lock-step RTL + golden with every port compared, and RTL alone), median of runs;
//! 2. the gating saving: a workload with 0/25/50/75 % of slots disabled, enabled register-bank
//!    cycles (act_s1..3 from the RTL counters), enabled bank bits (§6.6 E) and bank data toggles
//!    (tog_s1..3 from the RTL counters, TOGGLE_CNT = 1 variants) with ALL vs NONE;
//! 3. yosys synth_ice40 on the emitted Verilog: how many flops map to clock-enable cells
//!    (SB_DFFE*) vs plain (SB_DFF, SB_DFFSR, ...).

use sim::drivers::alu_pipeline::*;
use hdl::alu_pipeline::isa::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::golden::alu_pipeline::{Group, Inputs, Row};
use std::time::Instant;

/// CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID = 3 on Linux, ns resolution). On
/// the shared machine a thread gets a fraction of a core, so wall-clock rates measure the load
/// more than the code; cycles per CPU second compare builds.
fn thread_cpu_s() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
    }
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into `t`.
    let rc = unsafe { clock_gettime(3, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.sec as f64 + t.nsec as f64 * 1e-9
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// A fixed shader (texture-combine-like: MAD, blend, compare + kill) on random pixels with a
/// given fraction of front-end CE bits cleared (the disabled slots).
fn workload(rng: &mut StdRng, groups: usize, off: f64) -> (Vec<[u32; 5]>, Vec<Row>) {
    let prog = vec![
        [lane(OP_ADD, r(0), r(1), r(2), k(1), 4), lane(OP_ADD, r(1), r(2), r(3), k(1), 5), lane(OP_SHR, r(0), k(1), k(4), k(1), 6), lane(OP_XOR, r(0), r(3), k(0), k(0), 7), 0],
        [lane(OP_ADD, r(4), r(5), r(6), r(7), 8), lane(OP_SUB, r(4), k(1), r(5), k(1), 9), lane(OP_MIN, r(0), k(1), r(1), k(1), 10), lane(OP_MAX, r(2), k(1), r(3), k(1), 11), 0],
        [lane(OP_ADD, r(8), r(9), r(10), r(11), 12), lane(OP_AND, r(8), k(1), r(9), k(1), 13), lane(OP_OR, r(10), k(1), r(11), k(1), 14), lane(OP_SAR, r(12), k(1), k(4), k(1), 15), 0],
        [lane(OP_ADD, r(12), r(13), r(14), r(15), 0), lane(OP_SLT, r(12), k(1), r(13), k(1), 1), lane(OP_MAX, r(14), k(1), r(15), k(1), 2), lane(OP_ADD, r(0), r(0), r(1), r(1), 3), 0],
    ];
    let mut rows = Vec::new();
    for _ in 0..groups {
        let mut regs = [[0u32; 16]; 4];
        for p in 0..4 {
            for n in 0..16 {
                regs[p][n] = rng.gen();
            }
        }
        let mut ce = [[true; 4]; 4];
        for p in 0..4 {
            for k in 0..4 {
                ce[p][k] = !rng.gen_bool(off);
            }
        }
        let g = Group { r: 4, regs, ce, iptr: [0, 1, 2, 3], tag: [[0; 4]; 4] };
        rows.extend(g.rows());
    }
    (prog, rows)
}

fn widths(na: u64) -> [u64; 3] {
    // data + control fields as built: B1 per lane {op 4, wdst 5, A..D 128} + cxw 13, ...
    [na * (4 + 5 + 128) + 13, na * (4 + 5 + 64) + 13, na * (5 + 32) + 13]
}

fn main() {
    let mut rng = StdRng::seed_from_u64(2026);

    // ---- 1. co-sim speed (ALU_BENCH_SPEED=off skips it) ----
    let speed = std::env::var("ALU_BENCH_SPEED").map(|v| v != "off").unwrap_or(true);
    println!("## alu_pipeline co-sim speed (default config, GATE_SCOPE=ALL)");
    let (prog, rows) = workload(&mut rng, 400, 0.3);
    let mut lock = Vec::new();
    let mut bare = Vec::new();
    let mut lock_cpu = Vec::new();
    let mut bare_cpu = Vec::new();
    for _ in 0..if speed { 5 } else { 0 } {
        let mut s = Sim::new("all");
        load_program(&mut s, &prog, &[], &[(4, 8)]);
        let t = Instant::now();
        let cpu = thread_cpu_s();
        let c0 = s.cycle;
        let log = run_rows(&mut s, &rows, &|_| true);
        assert_eq!(log.rows.len(), rows.len());
        lock_cpu.push((s.cycle - c0) as f64 / (thread_cpu_s() - cpu));
        lock.push((s.cycle - c0) as f64 / t.elapsed().as_secs_f64());
        // RTL alone: replay the same per-cycle inputs through run_bare
        let mut s2 = Sim::new("all");
        let inw = s2.dut.desc().in_words;
        let outw = s2.dut.desc().out_words;
        let mut packed: Vec<u32> = Vec::new();
        let n = 20_000usize;
        for i in 0..n {
            let r = &rows[i % rows.len()];
            let inp = Inputs { out_ready: true, ..row_inputs(r) };
            s2.drive(&inp);
            packed.extend_from_slice(s2.dut.inputs_raw());
        }
        let mut out = vec![0u32; n * outw];
        let t = Instant::now();
        let cpu = thread_cpu_s();
        s2.dut.run_bare(&packed, &mut out);
        bare_cpu.push(n as f64 / (thread_cpu_s() - cpu));
        bare.push(n as f64 / t.elapsed().as_secs_f64());
        let _ = inw;
    }
    if speed {
        println!("| mode | cycles per wall s (median of 5) | cycles per CPU s of the thread (median of 5) |\n|---|---|---|");
        println!("| lock-step RTL + golden, all ports checked | {:.0} | {:.0} |", median(lock), median(lock_cpu));
        println!("| RTL only (run_bare) | {:.0} | {:.0} |", median(bare), median(bare_cpu));
    }

    // ---- 2. gating saving ----
    println!("\n## Enabled register-bank cycles, ALL vs NONE (200 groups x 16 slots, R = 4)");
    let w = widths(4);
    println!("bank widths as built (bits): B1 {} B2 {} B3 {}", w[0], w[1], w[2]);
    println!("| slots disabled | skipped/issued | ALL act1+act2+act3 | NONE act1+act2+act3 | saving | ALL bank bits E | NONE bank bits E | saving |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut togs = Vec::new();
    for off in [0.0, 0.25, 0.5, 0.75] {
        let mut r2 = StdRng::seed_from_u64(99);
        let (prog, rows) = workload(&mut r2, 200, off);
        let mut res = Vec::new();
        let mut outs = Vec::new();
        // the TOGGLE_CNT = 1 variants: same act counters as all/none, plus tog_s1..3
        for variant in ["all_tog", "none_tog"] {
            let mut s = Sim::new(variant);
            load_program(&mut s, &prog, &[], &[(4, 8)]);
            let log = run_rows(&mut s, &rows, &|_| true);
            let o = log.fin;
            let e: u64 = (0..3).map(|i| o.act[i] as u64 * w[i]).sum();
            res.push((o, e));
            outs.push(log.rows.iter().map(|x| x.1).collect::<Vec<_>>());
        }
        assert_eq!(outs[0], outs[1], "ALL and NONE give identical rows");
        let (a, ea) = res[0];
        let (n, en) = res[1];
        let ca: u64 = a.act[..3].iter().map(|&x| x as u64).sum();
        let cn: u64 = n.act[..3].iter().map(|&x| x as u64).sum();
        togs.push((off, a.tog, n.tog));
        println!(
            "| {:.0} % | {}/{} | {} | {} | {:.1} % | {} | {} | {:.1} % |",
            off * 100.0,
            a.slots_skipped,
            a.slots_issued,
            ca,
            cn,
            100.0 * (cn - ca) as f64 / cn as f64,
            ea,
            en,
            100.0 * (en - ea) as f64 / en as f64
        );
    }

    println!("\n## Bank data toggles (RTL tog_s1..3, TOGGLE_CNT = 1, = golden model every cycle), same workloads, ALL vs NONE");
    println!("| slots disabled | ALL tog1 / tog2 / tog3 | NONE tog1 / tog2 / tog3 | ALL Σ | NONE Σ | saving |");
    println!("|---|---|---|---|---|---|");
    for (off, a, n) in togs {
        let (sa, sn): (u64, u64) = (a.iter().sum(), n.iter().sum());
        println!(
            "| {:.0} % | {} / {} / {} | {} / {} / {} | {sa} | {sn} | {:.1} % |",
            off * 100.0,
            a[0],
            a[1],
            a[2],
            n[0],
            n[1],
            n[2],
            100.0 * (sn - sa) as f64 / sn as f64
        );
    }

    // ---- 3. yosys: gated flops map to clock-enable cells ----
    // scripts/alu_ce_check.sh: synth_ice40's flop mapping, every SB_DFF* attributed to its RTL
    // register (ALU_BENCH_YOSYS=off skips it)
    if std::env::var("ALU_BENCH_YOSYS").map(|v| v == "off").unwrap_or(false) {
        return;
    }
    println!("\n## yosys (synth_ice40 flop mapping, scripts/alu_ce_check.sh): SB_DFFE* vs plain SB_DFF*");
    for variant in ["all", "none"] {
        let s = Sim::new(variant);
        let v = s.dut.desc().verilog;
        let t = Instant::now();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/alu_ce_check.sh");
        match std::process::Command::new("bash").arg(script).arg(v).output() {
            Ok(o) => {
                println!("### GATE_SCOPE={} (default config; {:.0} s)", variant.to_uppercase(), t.elapsed().as_secs_f64());
                print!("{}", String::from_utf8_lossy(&o.stdout));
            }
            Err(e) => println!("alu_ce_check.sh not run: {e}"),
        }
    }
}

