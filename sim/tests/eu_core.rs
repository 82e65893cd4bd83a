//! Co-simulation of the `eu_core` RTL (first slice, docs/eu_core.md) against the ISA-level model
//! `sim::golden::eu_core`: every retired instruction (thread, IP, exec mask, destination
//! register and flag writes) and the final registers and flags of every thread, on the kernels
//! that fit the slice and on random programs restricted to it (`gen::program_restricted` with
//! `hdl::eu_core::slice_ops()`). Threads are compared each in its own order: they share no state
//! in this slice (no data memory), so the interleaving is not part of the result. Cycles and IPC
//! are printed, not asserted.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::drivers::eu_core::{EuCoreRtl, RtlRun};
use sim::golden::eu_core::asm::assemble;
use sim::golden::eu_core::{gen, Config, End, Host, Model, Program, Run};
use std::time::Instant;

fn kernel(name: &str) -> Program {
    let path = format!("{}/../kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assemble(&src).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `m` on the ISA model and on the RTL and compares them; returns (retired, RTL cycles).
fn check(rtl: &mut EuCoreRtl, name: &str, m: Model) -> (usize, u64) {
    let threads = m.cfg.threads;
    let (prog, rf) = (m.prog.clone(), m.rf.clone());
    let gold: Run = m.run();
    assert_eq!(gold.end, End::Done, "{name}: the ISA model did not finish ({} cycles)", gold.cycles);
    assert!(gold.exceptions.is_empty(), "{name}: the ISA model raised {:?}", gold.exceptions);
    let r: RtlRun = rtl.run(&prog, &rf, 50 * gold.cycles + 1000);
    assert_eq!(r.fault, None, "{name}: the RTL reported a fault (thread, IP, cause, not_yet)");
    assert!(r.finished, "{name}: the RTL did not finish in {} cycles", r.cycles);
    for t in 0..threads {
        let g: Vec<_> = gold.trace.iter().filter(|x| x.thread == t).collect();
        let d: Vec<_> = r.trace.iter().filter(|x| x.thread == t).collect();
        for (k, (a, b)) in g.iter().zip(&d).enumerate() {
            assert!(
                (a.ip, a.exec_mask, &a.writes) == (b.ip, b.exec_mask, &b.writes),
                "{name}: thread {t}, retired instruction {k}:\n  ISA model: ip {} mask {:#04x} {:?}\n  RTL:       ip {} mask {:#04x} {:?}\n  (RTL cycle {})",
                a.ip,
                a.exec_mask,
                a.writes,
                b.ip,
                b.exec_mask,
                b.writes,
                b.cycle
            );
        }
        assert_eq!(g.len(), d.len(), "{name}: thread {t} retired {} instructions in the ISA model, {} in the RTL", g.len(), d.len());
        for reg in 0..128 {
            let s = 32 * reg;
            assert_eq!(r.rf[t][s..s + 32], gold.rf[t][s..s + 32], "{name}: thread {t} final r{reg}");
        }
        assert_eq!(r.flags[t], gold.flags[t], "{name}: thread {t} final flags f0, f1");
    }
    (r.trace.len(), r.cycles)
}

fn report(name: &str, retired: usize, cycles: u64) {
    println!("eu_core {name}: {retired} retired in {cycles} RTL cycles, IPC {:.3}", retired as f64 / cycles as f64);
}

/// Kernel 2 (fractal, BREAK on escape, WHILE on a count) with the inputs of sim/tests/eu_isa.rs.
#[test]
fn eu_core_kernel_fractal_matches_the_isa_model() {
    let mut rtl = EuCoreRtl::new("default");
    let mut m = Model::new(Config::default(), kernel("fractal.s"));
    for t in 0..4 {
        for l in 0..8 {
            m.set_lane(t, 1, l, (-8192 + ((t * 8 + l) as i32) * 10240 / 32) as u32);
            m.set_lane(t, 2, l, (410 + 820 * t as i32) as u32);
        }
    }
    let (n, c) = check(&mut rtl, "fractal", m);
    report("fractal", n, c);
}

/// Kernel 3 (GCD and Collatz: CALL/RET, BREAK, CONT, an early RET), random inputs.
#[test]
fn eu_core_kernel_gcd_collatz_matches_the_isa_model() {
    let mut rtl = EuCoreRtl::new("default");
    let mut rng = StdRng::seed_from_u64(3);
    let mut m = Model::new(Config::default(), kernel("gcd_collatz.s"));
    for t in 0..4 {
        for l in 0..8 {
            m.set_lane(t, 1, l, rng.gen_range(1..256));
            m.set_lane(t, 2, l, rng.gen_range(1..256));
            m.set_lane(t, 3, l, if l == 7 { 6000 + t as u32 } else { rng.gen_range(1..3000) });
        }
    }
    let (n, c) = check(&mut rtl, "gcd_collatz", m);
    report("gcd_collatz", n, c);
}

/// Random structured programs restricted to the slice's ops and regions, 4 threads, random
/// registers, until 1e6 instructions have retired (issue 19: >= 1e6 retired instructions per CI
/// run with zero mismatches; by count, not time, so a run is the same programs on every machine).
const RANDOM_RETIRED: usize = 1_000_000;

#[test]
fn eu_core_random_programs_match_the_isa_model() {
    let seed = 19;
    println!("eu_core random programs: seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rtl = EuCoreRtl::new("default");
    let ops = hdl::eu_core::slice_ops();
    let t0 = Instant::now();
    let (mut programs, mut retired, mut cycles, mut skipped) = (0usize, 0usize, 0u64, 0usize);
    while retired < RANDOM_RETIRED {
        let size = rng.gen_range(4..40);
        let p = gen::program_restricted(&mut rng, size, &ops);
        if p.code.len() > rtl.imem_depth {
            continue;
        }
        let mut m = gen::model(&mut rng, p, 4);
        m.cfg.host = Host::Kill;
        // a program whose ISA run raises an exception (a branch-unit error of the random
        // skeleton) needs the trap controller, which this slice does not have: counted, skipped
        let probe = Model { cfg: m.cfg.clone(), prog: m.prog.clone(), rf: m.rf.clone(), mem: m.mem.clone() }.run();
        if !probe.exceptions.is_empty() {
            skipped += 1;
            continue;
        }
        let (n, c) = check(&mut rtl, &format!("program {programs} (seed {seed})"), m);
        programs += 1;
        retired += n;
        cycles += c;
    }
    report(&format!("random, {programs} programs"), retired, cycles);
    println!("eu_core random: {skipped} programs skipped (the ISA model raised an exception)");
    assert!(skipped * 10 <= programs, "{skipped} of {} programs raise exceptions", programs + skipped);
    println!("eu_core random: {:.0} retired instructions/s of co-simulation", retired as f64 / t0.elapsed().as_secs_f64());
    assert!(programs >= 20 && retired >= RANDOM_RETIRED, "too few: {programs} programs, {retired} retired");
}
