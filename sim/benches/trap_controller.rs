//! Report for trap_controller (`cargo bench -p sim --bench trap_controller`):
//! - flip-flops and cells of the emitted Verilog (yosys `synth -flatten; stat`) for W = 4, 16, 32;
//! - co-simulation speed: cycles/s of the checked loop (drive + golden step + compare every
//!   output) and of the bare Verilated model, median of 5 runs, per co-sim variant; per wall
//!   second and per CPU second of the bench thread (the machine is shared, so the wall-clock
//!   rate mostly measures the other jobs; the CPU-second rate is what a change to the RTL moves).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::cosim::{model, Dut};
use sim::golden::trap_controller::*;
use std::process::Command;
use std::time::Instant;

fn yosys_stat(verilog: &str) -> Option<(u64, u64)> {
    let out = Command::new("yosys")
        .args(["-q", "-p"])
        .arg(format!("read_verilog {verilog}; synth -flatten -top eu_trap_controller; tee -o /dev/stdout stat"))
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!("yosys failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut cells = 0;
    let mut ffs = 0;
    for line in text.lines() {
        let t = line.trim();
        if let Some(n) = t.strip_prefix("Number of cells:") {
            cells = n.trim().parse().unwrap_or(0);
        } else if t.starts_with("$_") && t.contains("DFF") {
            ffs += t.split_whitespace().last().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        }
    }
    Some((ffs, cells))
}

fn random_inputs(rng: &mut StdRng, p: &Params, s: &State) -> Inputs {
    let w = p.w;
    let mut i = Inputs { warp_valid: p.wm(), ..Default::default() };
    for k in 0..w {
        if s.ws[k] == RUN && rng.gen_bool(0.3 / w as f64) {
            i.exc_valid |= 1 << k;
            i.exc_cause[k] = rng.gen_range(1..7);
            i.exc_pc[k] = rng.gen();
            i.exc_mask[k] = rng.gen();
        }
        if s.ws[k] == TRAP && rng.gen_bool(0.15) {
            i.ret_valid |= 1 << k;
        }
        i.warp_pc[k] = 0x1000 + k as u32 * 4;
        i.warp_mask[k] = u32::MAX;
    }
    i.quiesced = rng.gen_bool(0.3);
    i.host_int = rng.gen_ratio(1, 300);
    i.sr_valid = rng.gen();
    i.sr_wid = rng.gen_range(0..w as u32);
    i.csr_valid = rng.gen();
    i.csr_addr = 4 * rng.gen_range(0..21u8);
    i
}

/// CPU seconds this thread has run (first field of /proc/thread-self/schedstat, in ns).
fn thread_cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("/proc/thread-self/schedstat (Linux)");
    s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()).expect("schedstat format") / 1e9
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median rates over 5 runs: (checked per wall s, checked per CPU s, bare per wall s, bare per CPU s).
fn cosim_speed(w: usize, cycles: usize) -> (f64, f64, f64, f64) {
    let id = format!("trap_controller_w{w}/eu_trap_controller");
    let p = Params::new(w);
    let mut rng = StdRng::seed_from_u64(w as u64);
    // checked loop: drive, settle, golden step, compare every output, clock
    let mut checked = Vec::new();
    let mut bare = Vec::new();
    let mut checked_cpu = Vec::new();
    let mut bare_cpu = Vec::new();
    for _ in 0..5 {
        let mut dut = Dut::new(&id);
        let ins: Vec<_> = dut.desc().inputs.iter().map(|d| dut.input(d.name)).collect();
        let outs: Vec<_> = dut.desc().outputs.iter().map(|d| dut.output(d.name)).collect();
        let name_in = |n: &str| ins[dut.desc().inputs.iter().position(|d| d.name == n).unwrap()];
        let name_out = |n: &str| outs[dut.desc().outputs.iter().position(|d| d.name == n).unwrap()];
        let (wv, ev, ec, ep, em, rv) = (
            name_in("warp_valid"),
            name_in("exc_valid"),
            name_in("exc_cause"),
            name_in("exc_pc"),
            name_in("exc_mask"),
            name_in("ret_valid"),
        );
        let (wp, wmk, q, hi, sv, sw, cv, ca) = (
            name_in("warp_pc"),
            name_in("warp_mask"),
            name_in("quiesced"),
            name_in("host_int"),
            name_in("sr_valid"),
            name_in("sr_wid"),
            name_in("csr_valid"),
            name_in("csr_addr"),
        );
        let (oh, od, ot, orv, opc, om, ok, oi, ob, ovt, osr, ocsr) = (
            name_out("warp_halt"),
            name_out("drain_req"),
            name_out("trap_mode"),
            name_out("redir_valid"),
            name_out("redir_pc"),
            name_out("redir_mask"),
            name_out("warp_kill"),
            name_out("host_irq"),
            name_out("bcast_out"),
            name_out("vt_base"),
            name_out("sr_rdata"),
            name_out("csr_rdata"),
        );
        dut.reset(1);
        let mut s = reset_state(&p);
        let mut e = dut.expected();
        let (t0, c0) = (Instant::now(), thread_cpu_secs());
        let mut bare_vecs: Vec<u32> = Vec::with_capacity(cycles * dut.desc().in_words);
        for _ in 0..cycles {
            let i = random_inputs(&mut rng, &p, &s);
            dut.set(wv, i.warp_valid as u64);
            dut.set(ev, i.exc_valid as u64);
            dut.set(rv, i.ret_valid as u64);
            for k in 0..w {
                if i.exc_valid >> k & 1 == 1 {
                    dut.set_field(ec, 4 * k, 4, i.exc_cause[k] as u64);
                    dut.set_field(ep, 32 * k, 32, i.exc_pc[k] as u64);
                    dut.set_field(em, 32 * k, 32, i.exc_mask[k] as u64);
                }
                dut.set_field(wp, 32 * k, 32, i.warp_pc[k] as u64);
                dut.set_field(wmk, 32 * k, 32, i.warp_mask[k] as u64);
            }
            dut.set(q, i.quiesced as u64);
            dut.set(hi, i.host_int as u64);
            dut.set(sv, i.sr_valid as u64);
            dut.set(sw, i.sr_wid as u64);
            dut.set(cv, i.csr_valid as u64);
            dut.set(ca, i.csr_addr as u64);
            if bare_vecs.len() < bare_vecs.capacity() {
                bare_vecs.extend_from_slice(dut.inputs_raw());
            }
            dut.settle();
            let (n, o) = step(&p, &s, &i);
            e.set(oh, o.warp_halt as u64)
                .set(od, o.drain_req as u64)
                .set(ot, o.trap_mode as u64)
                .set(orv, o.redir_valid as u64)
                .set(ok, o.warp_kill as u64)
                .set(oi, o.host_irq as u64)
                .set(ob, o.bcast_out as u64)
                .set(ovt, o.vt_base as u64)
                .set(osr, o.sr_rdata as u64)
                .set(ocsr, o.csr_rdata as u64);
            for k in 0..w {
                e.set_field(opc, 32 * k, 32, o.redir_pc[k] as u64);
                e.set_field(om, 32 * k, 32, o.redir_mask[k] as u64);
            }
            dut.check(&e);
            dut.tick();
            s = n;
        }
        checked.push(cycles as f64 / t0.elapsed().as_secs_f64());
        checked_cpu.push(cycles as f64 / (thread_cpu_secs() - c0));
        let mut out = vec![0u32; cycles * dut.desc().out_words];
        let (t1, c1) = (Instant::now(), thread_cpu_secs());
        dut.run_bare(&bare_vecs, &mut out);
        bare.push(cycles as f64 / t1.elapsed().as_secs_f64());
        bare_cpu.push(cycles as f64 / (thread_cpu_secs() - c1));
    }
    (median(checked), median(checked_cpu), median(bare), median(bare_cpu))
}

fn main() {
    println!("trap_controller report\n");
    // TRAP_BENCH_YOSYS=off skips the yosys table (W=32 synth takes minutes)
    let yosys = std::env::var("TRAP_BENCH_YOSYS").map(|v| v != "off").unwrap_or(true);
    println!("| W | flip-flops | cells (yosys synth -flatten) |");
    println!("|---|---|---|");
    for w in [4usize, 16, 32].into_iter().filter(|_| yosys) {
        let m = model(&format!("trap_controller_w{w}/eu_trap_controller"));
        match yosys_stat(m.verilog) {
            Some((ff, cells)) => println!("| {w} | {ff} | {cells} |"),
            None => println!("| {w} | (yosys failed) | |"),
        }
    }
    // TRAP_BENCH_W=4,32 and TRAP_BENCH_CYCLES=2000 restrict the speed table (short runs under
    // `valgrind --tool=callgrind`, whose instruction counts the machine's load does not distort)
    let ws: Vec<usize> = std::env::var("TRAP_BENCH_W")
        .map(|v| v.split(',').map(|w| w.trim().parse().expect("TRAP_BENCH_W: warp counts")).collect())
        .unwrap_or_else(|_| vec![1, 4, 16, 32]);
    let cycles = std::env::var("TRAP_BENCH_CYCLES").map(|v| v.parse().expect("TRAP_BENCH_CYCLES")).unwrap_or(200_000);
    println!("\n| W | co-sim checked (cycles per wall s / per CPU s) | bare model (cycles per wall s / per CPU s) |");
    println!("|---|---|---|");
    for w in ws {
        let (c, cc, b, bc) = cosim_speed(w, cycles);
        println!("| {w} | {:.2} M / {:.2} M | {:.2} M / {:.2} M |", c / 1e6, cc / 1e6, b / 1e6, bc / 1e6);
    }
}
