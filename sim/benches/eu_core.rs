//! Report for eu_core (`cargo bench -p sim --bench eu_core`): the kernels that the RTL runs, each
//! on the Verilated core and on the ISA model, with the figures issue 19 asks for:
//! - retired instructions and RTL cycles from `start` to the last thread's end, IPC;
//! - lane utilisation: running lanes / 8, averaged over the retired non-control instructions;
//! - register-bank write cycles saved by the mask gating: every register write enables only the
//!   byte memories of its destination region's bytes in the running lanes (docs/eu_core.md
//!   "Register file"), so of 32 byte-bank cycles per written register, the others are not spent;
//! - co-simulation speed: RTL cycles per second of `EuCoreRtl::run` (loading the program,
//!   registers and memory, running, reading everything back), wall clock, on a shared machine.
//! Every run is also compared with the ISA model (retired count per thread, every retired
//! instruction, final registers and memory); a mismatch prints it and the bench exits 1.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::drivers::eu_core::EuCoreRtl;
use sim::golden::eu_core::asm::assemble;
use sim::golden::eu_core::{Config, End, Model, Write};
use sim::golden::tanh_sigmoid as ts;
use std::time::Instant;

fn source(name: &str) -> String {
    let path = format!("{}/../kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

struct Row {
    name: String,
    variant: &'static str,
    retired: usize,
    cycles: u64,
    lane_util: f64,
    saved: f64,
    khz: f64,
}

/// Runs `m` on the ISA model and on `rtl`; None (and a message) on any difference.
fn run(rtl: &mut EuCoreRtl, variant: &'static str, name: &str, m: Model) -> Option<Row> {
    let threads = m.cfg.threads;
    let (prog, rf, mem) = (m.prog.clone(), m.rf.clone(), m.mem.clone());
    let gold = m.run();
    if gold.end != End::Done || !gold.exceptions.is_empty() {
        eprintln!("{name}: the ISA model did not finish cleanly: {:?} {:?}", gold.end, gold.exceptions);
        return None;
    }
    let t0 = Instant::now();
    let r = rtl.run(&prog, &rf, &mem, 50 * gold.cycles + 1000);
    let secs = t0.elapsed().as_secs_f64();
    let mut ok = r.finished && r.fault.is_none() && r.mem == gold.mem;
    for t in 0..threads {
        let g: Vec<_> = gold.trace.iter().filter(|x| x.thread == t).map(|x| (x.ip, x.exec_mask, &x.writes)).collect();
        let d: Vec<_> = r.trace.iter().filter(|x| x.thread == t).map(|x| (x.ip, x.exec_mask, &x.writes)).collect();
        ok &= g == d && r.rf[t] == gold.rf[t] && r.flags[t] == gold.flags[t];
    }
    if !ok {
        eprintln!("{name}: the RTL differs from the ISA model (run `cargo test -p sim --test eu_core` for the first difference)");
        return None;
    }
    let (mut lanes, mut alu) = (0u64, 0u64);
    let (mut written, mut reg_writes) = (0u64, 0u64);
    for x in &r.trace {
        let o = prog.code[x.ip as usize] as u64 & 0x7F;
        if !hdl::eu_core::enc::is_control(o) {
            alu += 1;
            lanes += x.exec_mask.count_ones() as u64;
        }
        for w in &x.writes {
            if let Write::Reg { be, .. } = w {
                reg_writes += 1;
                written += be.count_ones() as u64;
            }
        }
    }
    Some(Row {
        name: name.to_string(),
        variant,
        retired: r.trace.len(),
        cycles: r.cycles,
        lane_util: lanes as f64 / (8 * alu.max(1)) as f64,
        saved: 1.0 - written as f64 / (32 * reg_writes.max(1)) as f64,
        khz: r.cycles as f64 / secs / 1e3,
    })
}

fn main() {
    let mut rows = Vec::new();
    let mut failed = false;
    let mut push = |r: Option<Row>| match r {
        Some(r) => rows.push(r),
        None => failed = true,
    };
    // kernel 1: activation in the three formats (needs 48 KiB of data memory: variant d64k)
    let mut rtl = EuCoreRtl::new("d64k");
    for (fname, fmt) in [("fp32", ts::FMT_FP32), ("fp16", ts::FMT_FP16), ("bf16", ts::FMT_BF16)] {
        let p = assemble(&source("activation.s").replace(".fp32", &format!(".{fname}"))).unwrap();
        let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p);
        for (k, &x) in sim::golden::eu_core::kernels::activation_inputs(fmt).iter().enumerate() {
            m.set_word(4 * k, x);
        }
        push(run(&mut rtl, "d64k", &format!("1 activation {fname}"), m));
    }
    // kernels 2 and 3 on the default core, the inputs of sim/tests/eu_core.rs
    let mut rtl = EuCoreRtl::new("default");
    let mut m = Model::new(Config::default(), assemble(&source("fractal.s")).unwrap());
    for t in 0..4 {
        for l in 0..8 {
            m.set_lane(t, 1, l, (-8192 + ((t * 8 + l) as i32) * 10240 / 32) as u32);
            m.set_lane(t, 2, l, (410 + 820 * t as i32) as u32);
        }
    }
    push(run(&mut rtl, "default", "2 fractal", m));
    let mut rng = StdRng::seed_from_u64(3);
    let mut m = Model::new(Config::default(), assemble(&source("gcd_collatz.s")).unwrap());
    for t in 0..4 {
        for l in 0..8 {
            m.set_lane(t, 1, l, rng.gen_range(1..256));
            m.set_lane(t, 2, l, rng.gen_range(1..256));
            m.set_lane(t, 3, l, if l == 7 { 6000 + t as u32 } else { rng.gen_range(1..3000) });
        }
    }
    push(run(&mut rtl, "default", "3 gcd_collatz", m));
    // kernel 4 whole (its 9 multi-register instructions over the multi-register passes), the
    // random registers of sim/tests/eu_core.rs
    let mut rng = StdRng::seed_from_u64(4);
    let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, assemble(&source("regions.s")).unwrap());
    for t in 0..4 {
        for b in m.rf[t].iter_mut() {
            *b = rng.gen();
        }
    }
    push(run(&mut rtl, "default", "4 regions (9 multi-register)", m));

    println!("| kernel | variant | retired | RTL cycles | IPC | lane utilisation | RF byte-bank writes saved | co-sim kHz |");
    println!("|---|---|---|---|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | `{}` | {} | {} | {:.3} | {:.1} % | {:.1} % | {:.0} |",
            r.name,
            r.variant,
            r.retired,
            r.cycles,
            r.retired as f64 / r.cycles as f64,
            100.0 * r.lane_util,
            100.0 * r.saved,
            r.khz
        );
    }
    if failed {
        eprintln!("eu_core bench: some run differed from the ISA model");
        std::process::exit(1);
    }
}
