//! Co-simulation of `eu_region_addr_gen` (RAG) against the golden model
//! (sim/src/golden/region_addr_gen.rs), every output port every cycle.
//!
//! Vectors: spec §2.6 (figures), §2.7 anchors, §2.8 (boundary/error/option), claim 1
//! (back-to-back independence), the timing contract (§6.3), 1e6 random descriptors per config
//! and the whole Intel-style legal descriptor space.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::cosim::{Dut, Expected};
use sim::drivers::region_addr_gen::{variant, RagBench};
use sim::golden::region_addr_gen::*;

// ------------------------------------------------------------------------------------------
// §2.6 figure vectors and §2.8 vectors, typed from the spec.
// ------------------------------------------------------------------------------------------

struct Tv {
    id: &'static str,
    variant: &'static str,
    d: Desc,
    /// Expected byte addresses for channels 0..N-1 (None: a fatal vector, all zero).
    addr: Option<Vec<u32>>,
    err: u16,
    warn: u8,
    /// Expected straddle mask where the spec states it.
    straddle: Option<u32>,
}

fn r(reg: u32, sub: u32, vs: u32, w: u32, hs: u32, ty: u32, n: u32) -> Desc {
    Desc::region(reg, sub, vs, w, hs, ty, n)
}

fn seq(from: u32, n: u32) -> Vec<u32> {
    (from..from + n).collect()
}

fn tv(id: &'static str, variant: &'static str, d: Desc, addr: Vec<u32>, err: u16, warn: u8) -> Tv {
    Tv { id, variant, d, addr: Some(addr), err, warn, straddle: None }
}

fn fatal(id: &'static str, variant: &'static str, d: Desc, err: u16) -> Tv {
    Tv { id, variant, d, addr: None, err, warn: 0, straddle: None }
}

const M: u8 = W_MISALIGN;

/// §2.6 (flags W/M/S of the table → warn bits).
fn figure_vectors() -> Vec<Tv> {
    let b = T_B;
    let w = T_W;
    vec![
        tv("TV03a", "cfg_a", r(1, 0, 8, 8, 1, b, 8).dst(), seq(8, 8), 0, 0),
        tv("TV03b", "cfg_a", r(3, 0, 8, 8, 1, b, 8), seq(24, 8), 0, 0),
        tv("TV03c", "cfg_a", r(4, 0, 8, 8, 1, b, 8), seq(32, 8), 0, 0),
        tv("TV05a", "cfg_a", r(0, 2, 8, 4, 1, b, 8).dst(), vec![2, 3, 4, 5, 10, 11, 12, 13], 0, 0),
        tv("TV05b", "cfg_a", r(2, 3, 8, 4, 1, b, 8), vec![19, 20, 21, 22, 27, 28, 29, 30], 0, 0),
        tv("TV05c", "cfg_a", r(4, 0, 8, 8, 1, b, 8), seq(32, 8), 0, 0),
        tv("TV05w1", "cfg_a", r(2, 6, 8, 8, 1, b, 8), seq(22, 8), 0, 0),
        tv("TV05w2", "cfg_a", r(4, 6, 8, 8, 1, b, 8), vec![38, 39, 0, 1, 2, 3, 4, 5], 0, W_WRAP),
        tv("TV07", "cfg_a", r(1, 1, 8, 4, 2, b, 8), vec![9, 11, 13, 15, 17, 19, 21, 23], 0, 0),
        tv("TV07b", "cfg_a", r(1, 1, 8, 4, 1, b, 8), vec![9, 10, 11, 12, 17, 18, 19, 20], 0, 0),
        tv("TV08", "cfg_a", r(1, 1, 8, 4, 0, b, 8), vec![9, 9, 9, 9, 17, 17, 17, 17], 0, 0),
        tv("TV09", "cfg_b", r(2, 3, 8, 4, 1, w, 8), vec![35, 37, 39, 41, 51, 53, 55, 57], 0, M),
        tv("TV10", "cfg_b", r(2, 3, 16, 4, 1, w, 8), vec![35, 37, 39, 41, 67, 69, 71, 73], 0, M),
        tv("TV11", "cfg_b", r(2, 3, 0, 4, 1, w, 8), vec![35, 37, 39, 41, 35, 37, 39, 41], 0, M),
        tv("TV12", "cfg_b", r(2, 3, 1, 4, 1, w, 8), vec![35, 37, 39, 41, 37, 39, 41, 43], 0, M),
        tv("TV13", "cfg_b", r(2, 3, 0, 4, 0, w, 8), vec![35; 8], 0, M),
        tv("TV13w1", "cfg_b", r(2, 3, 0, 1, 0, w, 8), vec![35; 8], 0, M),
        tv("TV14a", "cfg_c", r(2, 17, 16, 2, 1, b, 8), vec![81, 82, 97, 98, 113, 114, 129, 130], 0, 0),
        tv("TV14b", "cfg_c", r(1, 14, 16, 4, 0, b, 8), vec![46, 46, 46, 46, 62, 62, 62, 62], 0, 0),
        tv("TV14c", "cfg_c", r(5, 3, 18, 4, 3, w, 8).dst(), vec![163, 169, 175, 181, 199, 205, 211, 217], 0, M),
    ]
}

/// §2.8 boundary, error and option vectors.
fn extra_vectors() -> Vec<Tv> {
    let (b, w, d) = (T_B, T_W, T_D);
    let mut v = vec![
        tv("TVD1", "default", r(7, 12, 0, 1, 0, d, 16), vec![236; 16], 0, 0),
        tv(
            "TVD2",
            "default",
            r(20, 8, 8, 4, 1, d, 16),
            vec![648, 652, 656, 660, 680, 684, 688, 692, 712, 716, 720, 724, 744, 748, 752, 756],
            0,
            0,
        ),
        Tv { straddle: Some(0x1), ..tv("TVD3", "default", r(2, 31, 4, 4, 1, w, 4), vec![95, 97, 99, 101], 0, W_MISALIGN | W_STRADDLE) },
        Tv { straddle: Some(0x1), ..tv("TVD4", "default", r(127, 30, 4, 4, 1, d, 4), vec![4094, 2, 6, 10], 0, W_WRAP | W_MISALIGN | W_STRADDLE) },
        Tv {
            straddle: Some(0x1),
            ..tv("TVD4n", "nowrap", r(127, 30, 4, 4, 1, d, 4), vec![4094, 2, 6, 10], E_OOB, W_MISALIGN | W_STRADDLE)
        },
        tv("TVD5", "default", r(10, 0, 16, 8, 2, w, 16), (0..16).map(|i| 320 + 4 * i).collect(), 0, 0),
        tv("TVD5b", "default", r(10, 0, 0, 16, 2, w, 16), (0..16).map(|i| 320 + 4 * i).collect(), 0, 0),
        tv("TVE1", "cfg_a_opt", r(4, 6, 8, 8, 1, b, 8), vec![38, 39, 0, 1, 2, 3, 4, 5], E_OOB, 0),
        fatal("TVE2", "default", Desc { ty: T_RESERVED, ..r(1, 0, 8, 8, 1, b, 8) }, E_TYPE),
        fatal("TVE3", "default", Desc { exec_log2: 5, ..r(1, 0, 8, 8, 1, b, 8) }, E_EXEC),
        fatal("TVE4", "default", Desc { width_log2: 4, ..r(1, 0, 8, 8, 1, b, 8) }, E_WIDTH),
        fatal("TVE5", "cfg_a", r(6, 0, 8, 8, 1, b, 8), E_REG),
        tv("TVE6", "cfg_a", r(1, 1, 8, 4, 0, b, 8).dst(), vec![9, 9, 9, 9, 17, 17, 17, 17], E_DST_OVERLAP, 0),
        tv("TVE7", "cfg_b", r(2, 3, 1, 4, 1, w, 8).dst(), vec![35, 37, 39, 41, 37, 39, 41, 43], E_DST_OVERLAP, M),
        tv("TVE8a", "cfg_c", r(5, 3, 18, 4, 3, w, 8).dst(), vec![163, 169, 175, 181, 199, 205, 211, 217], 0, M),
        tv("TVE8b", "cfg_a", r(0, 2, 8, 4, 1, b, 8).dst(), vec![2, 3, 4, 5, 10, 11, 12, 13], 0, 0),
        tv("TVE8c", "cfg_a", r(1, 1, 8, 4, 2, b, 8).dst(), vec![9, 11, 13, 15, 17, 19, 21, 23], 0, 0),
        tv("TVE8d", "cfg_b", r(2, 3, 16, 4, 1, w, 8).dst(), vec![35, 37, 39, 41, 67, 69, 71, 73], 0, M),
        tv("TVE9", "cfg_a_opt", r(0, 2, 8, 4, 1, b, 8).dst(), vec![2, 3, 4, 5, 10, 11, 12, 13], E_DST_PROFILE, 0),
        tv("TVE10", "cfg_b_strict", r(2, 3, 8, 4, 1, w, 8), vec![35, 37, 39, 41, 51, 53, 55, 57], E_ALIGN, M),
        tv("TVE11", "default", r(0, 0, 1, 4, 2, b, 8).dst(), vec![0, 2, 4, 6, 1, 3, 5, 7], E_DST_OVERLAP, 0),
        tv(
            "TVE12",
            "default",
            r(0, 0, 255, 1, 0, d, 16).dst(),
            (0..16).map(|i| (1020 * i) % 4096).collect(),
            E_DST_OVERLAP,
            W_WRAP,
        ),
        tv(
            "TVC1",
            "cfg_a_opt",
            Desc { colmajor: true, ..r(0, 2, 8, 4, 1, b, 8) },
            vec![2, 10, 3, 11, 4, 12, 5, 13],
            0,
            0,
        ),
        fatal("TVC2", "cfg_a", Desc { colmajor: true, ..r(0, 2, 8, 4, 1, b, 8) }, E_ORDER),
        // E_ENC (err0) has no §2.8 row: the compact decoder's reserved-code flag.
        fatal("TVENC", "default", Desc { enc_err: true, ..r(1, 0, 8, 8, 1, b, 8) }, E_ENC),
        // Fatal masking: several fatal bits at once, no warnings, all outputs zero.
        fatal(
            "TVFM",
            "cfg_a",
            Desc { enc_err: true, ty: T_RESERVED, exec_log2: 6, width_log2: 7, colmajor: true, ..r(7, 3, 8, 8, 1, b, 8) },
            E_ENC | E_TYPE | E_EXEC | E_WIDTH | E_REG | E_ORDER,
        ),
        // A semantic error does not suppress warnings (no priority): OOB + misalign + straddle.
        tv("TVSEM", "nowrap", r(127, 31, 4, 4, 1, w, 4), vec![4095, 1, 3, 5], E_OOB, W_MISALIGN | W_STRADDLE),
    ];
    for t in v.iter_mut() {
        t.d.tag = (t.id.len() % 16) as u32;
    }
    v
}

/// The golden model reproduces the spec's listed numbers (addresses, ch_valid, err, warn).
fn check_golden(t: &Tv) -> RagOut {
    let cfg = Cfg::from(&variant(t.variant));
    let g = rag(&cfg, &t.d);
    let n = 1u32 << t.d.exec_log2;
    assert_eq!(g.err, t.err, "{}: err", t.id);
    assert_eq!(g.warn, t.warn, "{}: warn", t.id);
    match &t.addr {
        Some(a) => {
            assert_eq!(a.len() as u32, n, "{}: vector length", t.id);
            assert_eq!(&g.addr[..n as usize], &a[..], "{}: addresses", t.id);
            assert!(g.addr[n as usize..].iter().all(|&x| x == 0), "{}: channels >= N", t.id);
            assert_eq!(g.ch_valid, (1u32 << n) - 1, "{}: ch_valid", t.id);
        }
        None => {
            assert_eq!(g, RagOut { err: t.err, ..Default::default() }, "{}: fatal outputs", t.id);
        }
    }
    if let Some(s) = t.straddle {
        assert_eq!(g.straddle, s, "{}: straddle", t.id);
    }
    assert_eq!(g.warn & W_STRADDLE != 0, g.straddle != 0, "{}", t.id);
    g
}

/// Runs the vectors on their variants, or with `piped` on each variant's pipe = 6 twin.
fn run_vectors(vs: &[Tv], piped: bool) -> usize {
    let mut variants: Vec<&str> = vs.iter().map(|t| t.variant).collect();
    variants.sort();
    variants.dedup();
    let mut n = 0;
    for v in variants {
        let mut b = RagBench::new(&if piped { format!("{v}_p") } else { v.to_string() });
        for t in vs.iter().filter(|t| t.variant == v) {
            let want = check_golden(t);
            let got = b.issue(t.id, &t.d);
            assert_eq!(got, want);
            // The RTL's channel addresses, read back per channel, equal the spec's list (after the
            // idle cycle in `issue` the data outputs still hold the result).
            if let Some(a) = &t.addr {
                for (i, &x) in a.iter().enumerate() {
                    let rtl = b.dut.get_field(b.p.out_addr, i * b.aw, b.aw) as u32;
                    assert_eq!(rtl, x, "{} channel {i}: RTL R{}.{}", t.id, rtl / b.rb(), rtl % b.rb());
                }
            }
            n += 1;
        }
    }
    n
}

#[test]
fn figure_vectors_2_6() {
    let n = run_vectors(&figure_vectors(), false);
    assert_eq!(n, 20);
}

/// The same vectors through the pipelined RAG (pipe = 6, latency 7).
#[test]
fn figure_vectors_2_6_pipelined() {
    assert_eq!(run_vectors(&figure_vectors(), true), 20);
}

#[test]
fn boundary_error_and_option_vectors_2_8() {
    let vs = extra_vectors();
    // Every error bit the RAG can raise (err0..err9) and every RAG warning bit (warn0..warn2)
    // is raised by at least one vector.
    let (mut errs, mut warns) = (0u16, 0u8);
    for t in &vs {
        errs |= t.err;
        warns |= t.warn;
    }
    for t in figure_vectors() {
        warns |= t.warn;
    }
    assert_eq!(errs, 0x3FF, "err bits covered");
    assert_eq!(warns, W_WRAP | W_MISALIGN | W_STRADDLE, "warn bits covered");
    run_vectors(&vs, false);
    run_vectors(&vs, true);
}

/// §2.7 anchors at address level (Fig 6 channel 6, Fig 14 anchors) and D/P counts of §2.6.
#[test]
fn anchors_and_distinct_register_counts() {
    let a = Cfg::from(&variant("cfg_a"));
    let dst = rag(&a, &r(0, 2, 8, 4, 1, T_B, 8));
    let s0 = rag(&a, &r(2, 3, 8, 4, 1, T_B, 8));
    let s1 = rag(&a, &r(4, 0, 8, 8, 1, T_B, 8));
    assert_eq!((s1.addr[6], s0.addr[6], dst.addr[6]), (38, 29, 12), "Fig 6 channel 6");
    let c = Cfg::from(&variant("cfg_c"));
    let mut regs = [0u32; 64];
    let cases: [(&str, Desc, &[u32]); 3] = [
        ("TV14a", r(2, 17, 16, 2, 1, T_B, 8), &[2, 3, 4]),
        ("TV14b", r(1, 14, 16, 4, 0, T_B, 8), &[1]),
        ("TV14c", r(5, 3, 18, 4, 3, T_W, 8), &[5, 6]),
    ];
    for (id, d, want) in cases {
        let n = distinct_regs(&c, &rag(&c, &d), u32::MAX, &mut regs);
        assert_eq!(&regs[..n], want, "{id}");
    }
    let b = Cfg::from(&variant("cfg_b"));
    let n = distinct_regs(&b, &rag(&b, &r(2, 3, 16, 4, 1, T_W, 8)), u32::MAX, &mut regs);
    assert_eq!(&regs[..n], &[2, 4], "TV10 skips R3");
    let dflt = Cfg::from(&variant("default"));
    let n = distinct_regs(&dflt, &rag(&dflt, &r(127, 30, 4, 4, 1, T_D, 4)), u32::MAX, &mut regs);
    assert_eq!(&regs[..n], &[0, 127], "TVD4 schedule");
    let n = distinct_regs(&dflt, &rag(&dflt, &r(20, 8, 8, 4, 1, T_D, 16)), u32::MAX, &mut regs);
    assert_eq!(&regs[..n], &[20, 21, 22, 23], "TVD2 schedule");
}

/// Claim 1: TVD2, TVD1, TVD2 on consecutive cycles give independent results.
#[test]
fn back_to_back_descriptors_are_independent() {
    let mut b = RagBench::new("default");
    let d2 = Desc { tag: 2, ..r(20, 8, 8, 4, 1, T_D, 16) };
    let d1 = Desc { tag: 1, ..r(7, 12, 0, 1, 0, T_D, 16) };
    b.step(true, &d2, true);
    let first = b.model.out;
    b.step(true, &d1, true);
    assert_eq!(b.model.out.addr[..16], [236; 16]);
    b.step(true, &d2, true);
    assert_eq!(b.model.out, first);
    assert_eq!(b.model.tag, 2);
}

/// §6.3: latency 1, outputs held under backpressure, in_ready = !out_valid || out_ready,
/// no in->out combinational path, reset clears all state.
#[test]
fn timing_contract() {
    let mut b = RagBench::new("default");
    let d1 = Desc { tag: 5, ..r(20, 8, 8, 4, 1, T_D, 16) };
    let d2 = Desc { tag: 9, ..r(1, 3, 1, 4, 1, T_W, 8) };
    let g1 = rag(&b.cfg, &d1);
    // Inputs alone (no edge) do not reach the outputs.
    b.drive(true, &d1, true);
    b.dut.settle();
    b.check_with(true);
    assert_eq!(b.dut.get(b.p.out_valid), 0);
    // Accepted at t, valid at t+1.
    b.step(true, &d1, false);
    assert_eq!(b.dut.get(b.p.out_valid), 1);
    assert_eq!(b.dut.get(b.p.in_ready), 0, "full and not drained: in_ready low");
    // Backpressure: a new descriptor is offered but not accepted; outputs hold for 5 cycles.
    for _ in 0..5 {
        b.step(true, &d2, false);
        assert_eq!(b.model.out, g1);
        assert_eq!(b.dut.get(b.p.out_tag), 5);
    }
    // out_ready rises: in_ready is high in the same cycle, d2 is accepted and shows next cycle.
    b.drive(true, &d2, true);
    b.dut.settle();
    assert_eq!(b.dut.get(b.p.in_ready), 1);
    b.step(true, &d2, true);
    assert_eq!(b.dut.get(b.p.out_tag), 9);
    // Drain: out_valid drops, data held.
    b.step(false, &d1, true);
    assert_eq!(b.dut.get(b.p.out_valid), 0);
    // Reset mid-stream clears every output.
    b.step(true, &d1, true);
    b.dut.reset(1);
    b.model = RagTiming::new(0);
    b.check_with(true);
    assert_eq!(b.dut.get(b.p.out_err), 0);
    assert_eq!(b.dut.get_field(b.p.out_addr, 0, 12), 0);
    // After an error, the next legal descriptor is unaffected.
    b.step(true, &Desc { ty: T_RESERVED, ..d1 }, true);
    b.step(true, &d1, true);
    assert_eq!(b.model.out, g1);
}

// ------------------------------------------------------------------------------------------
// Random descriptors (legal and illegal) with random valid/ready, per config.
// ------------------------------------------------------------------------------------------

/// The soak command's generator (one copy).
fn random_desc(rng: &mut StdRng, cfg: &Cfg) -> Desc {
    sim::soak::stimulus::rag_desc(rng, cfg)
}

fn random_run(v: &str, n: usize, seed: u64) {
    println!("random_run {v}: {n} descriptors, seed {seed}");
    let mut b = RagBench::new(v);
    let mut rng = StdRng::seed_from_u64(seed);
    let cfg = b.cfg;
    let (mut fatal, mut semantic, mut wraps, mut straddles) = (0, 0, 0, 0);
    let mut accepted = 0;
    while accepted < n {
        let d = random_desc(&mut rng, &cfg);
        let res = rag(&cfg, &d);
        // Mostly streaming; sometimes idle or stalled.
        let in_valid = rng.gen_range(0..8) != 0;
        let out_ready = rng.gen_range(0..8) != 0;
        if in_valid && b.model.in_ready(out_ready) {
            accepted += 1;
            fatal += (res.err & FATAL_MASK != 0) as usize;
            semantic += (res.err & !FATAL_MASK != 0) as usize;
            wraps += (res.warn & W_WRAP != 0 || res.err & E_OOB != 0) as usize;
            straddles += (res.straddle != 0) as usize;
        }
        b.step_with(in_valid, &d, &res, out_ready);
        // a reset now and then, with descriptors in flight (timing-closure §3.1 tests)
        if rng.gen_range(0..20_000) == 0 {
            b.dut.reset(1);
            b.model = RagTiming::new(b.pipe);
            b.check_with(out_ready);
        }
    }
    println!("  {} cycles; fatal {fatal}, semantic {semantic}, wrap {wraps}, straddle {straddles}", b.cycles);
    assert!(fatal > n / 20 && semantic > n / 50 && wraps > n / 50 && straddles > n / 20, "coverage");
}

const RANDOM_N: usize = 1_000_000;

#[test]
fn random_cfg_a() {
    random_run("cfg_a", RANDOM_N, 0xA);
}
#[test]
fn random_cfg_b() {
    random_run("cfg_b", RANDOM_N, 0xB);
}
#[test]
fn random_cfg_c() {
    random_run("cfg_c", RANDOM_N, 0xC);
}
#[test]
fn random_default_n16() {
    random_run("default", RANDOM_N, 0xD);
}
#[test]
fn random_n4() {
    random_run("n4", RANDOM_N, 4);
}
#[test]
fn random_n8() {
    random_run("n8", RANDOM_N, 8);
}
#[test]
fn random_option_variants() {
    random_run("cfg_a_opt", RANDOM_N / 4, 0xA0);
    random_run("cfg_b_strict", RANDOM_N / 4, 0xB5);
    random_run("nowrap", RANDOM_N / 4, 0xDD);
}

/// Every config again at pipe = 6, and Cfg A at every depth between, with random idle cycles on
/// `in_valid`, random back-pressure on `out_ready` and resets mid-stream; the golden model runs
/// behind the same number of levels (`RagTiming::new(pipe)`), every port compared every cycle.
#[test]
fn random_pipelined_cfg_a_every_depth() {
    for (v, seed) in [("cfg_a_p1", 0xA1), ("cfg_a_p2", 0xA2), ("cfg_a_p3", 0xA3), ("cfg_a_p4", 0xA5), ("cfg_a_p5", 0xA6), ("cfg_a_p", 0xA4)] {
        random_run(v, RANDOM_N / 4, seed);
    }
}
#[test]
fn random_pipelined_rf_configs() {
    random_run("cfg_b_p", RANDOM_N / 4, 0xB4);
    random_run("cfg_c_p", RANDOM_N / 4, 0xC4);
    random_run("default_p", RANDOM_N / 4, 0xD4);
}
#[test]
fn random_pipelined_n_max_and_options() {
    random_run("n4_p", RANDOM_N / 8, 0x44);
    random_run("n8_p", RANDOM_N / 8, 0x84);
    random_run("n32_p", RANDOM_N / 8, 0x324);
    random_run("cfg_a_opt_p", RANDOM_N / 8, 0xA04);
    random_run("cfg_b_strict_p", RANDOM_N / 8, 0xB54);
    random_run("nowrap_p", RANDOM_N / 8, 0xDD4);
}

/// timing-closure §3.1 on every depth: latency 1 + pipe with `out_ready` high; with `out_ready`
/// low the pipeline takes exactly 1 + pipe descriptors and then drops `in_ready`; the outputs
/// hold; once `out_ready` rises it drains one per cycle in order, `in_ready` high in that same
/// cycle; a reset empties it.
#[test]
fn pipeline_contract_every_depth() {
    for v in ["default", "cfg_a_p1", "cfg_a_p2", "cfg_a_p3", "cfg_a_p4", "cfg_a_p", "default_p"] {
        let mut b = RagBench::new(v);
        let lat = 1 + b.pipe as usize;
        let d = |tag: u32| Desc { tag, ..r(1, 2, 2, 4, 1, T_W, 8) };
        // latency
        b.step(true, &d(1), true);
        let mut waited = 1;
        while b.dut.get(b.p.out_valid) == 0 {
            b.step(false, &d(0), true);
            waited += 1;
            assert!(waited <= lat, "{v}: no result after {lat} cycles");
        }
        assert_eq!(waited, lat, "{v}: latency");
        assert_eq!(b.dut.get(b.p.out_tag), 1);
        b.step(false, &d(0), true);
        assert_eq!(b.dut.get(b.p.out_valid), 0, "{v}: drained");
        // fill under back-pressure: exactly `lat` accepted
        let mut accepted = 0u32;
        for _ in 0..lat + 3 {
            let tag = 2 + accepted;
            b.drive(true, &d(tag), false);
            b.dut.settle();
            let ready = b.dut.get(b.p.in_ready) == 1;
            assert_eq!(ready, (accepted as usize) < lat, "{v}: in_ready falls only when full");
            b.step(true, &d(tag), false);
            accepted += ready as u32;
        }
        assert_eq!(accepted as usize, lat);
        let held = b.dut.get(b.p.out_tag);
        assert_eq!(held, 2, "{v}: the first one is shown and held");
        // drain in order, one per cycle, in_ready high while out_ready is high
        for k in 0..lat as u64 {
            b.drive(false, &d(0), true);
            b.dut.settle();
            assert_eq!(b.dut.get(b.p.in_ready), 1, "{v}: in_ready with out_ready");
            assert_eq!((b.dut.get(b.p.out_valid), b.dut.get(b.p.out_tag)), (1, 2 + k), "{v}: order");
            b.step(false, &d(0), true);
        }
        assert_eq!(b.dut.get(b.p.out_valid), 0);
        // reset with descriptors in flight
        for t in 0..lat as u32 {
            b.step(true, &d(8 + t), false);
        }
        b.dut.reset(1);
        b.model = RagTiming::new(b.pipe);
        b.check_with(true);
        assert_eq!(b.dut.get(b.p.out_valid), 0, "{v}: reset empties the pipeline");
        for _ in 0..lat + 1 {
            b.step(false, &d(0), true);
            assert_eq!(b.dut.get(b.p.out_valid), 0, "{v}: nothing left in flight after reset");
        }
    }
}

// ------------------------------------------------------------------------------------------
// The Intel-style descriptor grid (every field value class, three origin registers), golden vs RTL.
// ------------------------------------------------------------------------------------------

/// exec size 1..N_MAX (32 where the config allows it) × VS {0,1,2,4,8,16,32} × W {1,2,4,8,16}
/// × HS {0,1,2,4} × every element-aligned sub-register offset × every type code (3 element
/// sizes), as source and destination, at origin registers {0, NR/2, NR-1} (the last one wraps).
fn intel_space(v: &str) -> usize {
    let mut b = RagBench::new(v);
    let cfg = b.cfg;
    let mut n = 0usize;
    let mut legal = 0usize;
    for exec_log2 in 0..=cfg.n_max.trailing_zeros() {
        for vs in [0, 1, 2, 4, 8, 16, 32] {
            for width_log2 in 0..=4 {
                for hs in [0, 1, 2, 4] {
                    for ty in 0..7 {
                        let e = 1 << esize_log2(ty).unwrap();
                        for sub in (0..cfg.rb).step_by(e as usize) {
                            for reg in [0, cfg.nr / 2, cfg.nr - 1] {
                                for is_dst in [false, true] {
                                    let d = Desc {
                                        reg,
                                        sub,
                                        ty,
                                        exec_log2,
                                        width_log2,
                                        hs,
                                        vs,
                                        is_dst,
                                        tag: (n & 15) as u32,
                                        ..Default::default()
                                    };
                                    let res = rag(&cfg, &d);
                                    legal += (res.err == 0) as usize;
                                    b.step_with(true, &d, &res, true);
                                    n += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!("intel_space {v}: {n} descriptors ({legal} without error), all ports every cycle");
    n
}

#[test]
fn intel_style_grid_default() {
    // N = 1..16 on the default config (N_MAX = 16): 5*7*5*4*(2*32+2*16+3*8)*3*2 = 504000.
    assert_eq!(intel_space("default"), 504_000);
}

#[test]
fn intel_style_grid_default_pipelined() {
    assert_eq!(intel_space("default_p"), 504_000);
}

#[test]
fn intel_style_grid_n32() {
    // N = 1..32 with N_MAX = 32: 6*7*5*4*120*3*2 = 604800.
    assert_eq!(intel_space("n32"), 604_800);
}

// ------------------------------------------------------------------------------------------
// Properties of §2.9 on the golden model itself (the RTL matches it in the runs above).
// ------------------------------------------------------------------------------------------

#[test]
fn golden_properties_2_9() {
    let cfg = Cfg::from(&variant("default"));
    let mut rng = StdRng::seed_from_u64(29);
    for _ in 0..200_000 {
        let d = random_desc(&mut rng, &cfg);
        let g = rag(&cfg, &d);
        if g.err & FATAL_MASK != 0 {
            continue;
        }
        let (n, w) = (1u32 << d.exec_log2, 1u32 << d.width_log2);
        let e = 1 << g.esize_log2;
        assert_eq!(g.addr[0], d.reg * cfg.rb + d.sub, "P1");
        for i in 0..n {
            let raw = raw_addr(&cfg, &d, i);
            if !d.colmajor {
                if i % w < w - 1 {
                    assert_eq!(raw_addr(&cfg, &d, i + 1) - raw, e * d.hs, "P2");
                }
                if i + w < n {
                    assert_eq!(raw_addr(&cfg, &d, i + w) - raw, e * d.vs, "P3");
                }
                if d.vs == 0 {
                    assert_eq!(g.addr[i as usize], g.addr[(i % w) as usize], "P5");
                }
            }
            if d.hs == 0 {
                let row_start = if d.colmajor { i % (n / w) } else { i - i % w };
                assert_eq!(g.addr[i as usize], g.addr[row_start as usize], "P4");
            }
        }
        if !d.colmajor && d.vs == w * d.hs && d.vs < 256 {
            let one_row = rag(&cfg, &Desc { width_log2: d.exec_log2, ..d });
            assert_eq!(one_row.addr, g.addr, "P6");
        }
        if w == n {
            let other = rag(&cfg, &Desc { vs: (d.vs + 7) % 256, ..d });
            assert_eq!(other.addr, g.addr, "P7");
        }
        assert_eq!(g.addr[n as usize..], vec![0; 32 - n as usize][..], "P10");
        assert_eq!(g.ch_valid >> n, 0, "P10");
        assert_eq!(g.straddle >> n, 0, "P10");
        // P9: b -> w doubles every raw offset.
        if g.esize_log2 == 0 && d.reg * cfg.rb + d.sub + 2 * (raw_addr(&cfg, &d, n - 1) - d.reg * cfg.rb - d.sub) < 60000 {
            let dw = Desc { ty: T_W, ..d };
            for i in 0..n {
                let o = d.reg * cfg.rb + d.sub;
                assert_eq!(raw_addr(&cfg, &dw, i) - o, 2 * (raw_addr(&cfg, &d, i) - o), "P9");
            }
        }
    }
    // P8: RB = 32, sub mod E = 0 → the seed's loop (precedence fixed) with SubRegNum = sub/E.
    let c = Cfg::from(&variant("cfg_c"));
    for _ in 0..100_000 {
        let mut d = random_desc(&mut rng, &c);
        if rag(&c, &d).err & FATAL_MASK != 0 || d.colmajor {
            continue;
        }
        let e = 1 << esize_log2(d.ty).unwrap();
        d.sub -= d.sub % e;
        let g = rag(&c, &d);
        let (n, w) = (1u32 << d.exec_log2, 1u32 << d.width_log2);
        let mut ch = 0;
        let mut row_base = (d.reg << 5) + (d.sub / e) * e;
        for _y in 0..n / w {
            let mut off = row_base;
            for _x in 0..w {
                assert_eq!(g.addr[ch], off % c.rf_bytes(), "P8");
                ch += 1;
                off += d.hs * e;
            }
            row_base += d.vs * e;
        }
    }
}

// ------------------------------------------------------------------------------------------
// §2.7 Fig 14 data-level add on the golden model (RAG + gather + add + scatter). The RFG/RFS
// RTL is not built yet (docs/region_addr_gen.md): this checks the golden functions the RTL
// will be compared against, with the spec's numbers.
// ------------------------------------------------------------------------------------------

#[test]
fn fig14_data_level_add_golden_2_7() {
    let cfg = Cfg::from(&variant("cfg_c"));
    assert_eq!((cfg.rb, cfg.nr, cfg.rd_ports, cfg.wr_ports), (32, 8, 2, 1));
    let mut rf = vec![0u8; cfg.rf_bytes() as usize];
    rf[81] = 1;
    rf[46] = 2;
    rf[113] = 3;
    rf[62] = 3;
    let before = rf.clone();
    let src1 = rag(&cfg, &r(2, 17, 16, 2, 1, T_B, 8));
    let src0 = rag(&cfg, &r(1, 14, 16, 4, 0, T_B, 8));
    let dst = rag(&cfg, &r(5, 3, 18, 4, 3, T_W, 8).dst());
    assert_eq!((src1.err, src0.err, dst.err), (0, 0, 0));
    let g1 = gather(&cfg, &rf, &src1);
    assert_eq!(&g1.data[..8], &[1, 0, 0, 0, 3, 0, 0, 0]);
    assert_eq!((g1.passes, &g1.regs[..g1.nregs]), (2, &[2, 3, 4][..]), "pass 0 {{R2,R3}}, pass 1 {{R4}}");
    assert_eq!(g1.warn & W_MULTIPASS, W_MULTIPASS);
    let g0 = gather(&cfg, &rf, &src0);
    assert_eq!(&g0.data[..8], &[2, 2, 2, 2, 3, 3, 3, 3]);
    assert_eq!((g0.passes, &g0.regs[..g0.nregs]), (1, &[1][..]));
    let mut sum = [0u32; N_MAX_LIMIT];
    for i in 0..8 {
        sum[i] = (g0.data[i] + g1.data[i]) & 0xFFFF;
    }
    assert_eq!(&sum[..8], &[3, 2, 2, 2, 6, 3, 3, 3]);
    let s = scatter(&cfg, &mut rf, &dst, &sum, 0xFFFF);
    assert_eq!((s.err, s.passes, &s.regs[..s.nregs]), (0, 2, &[5, 6][..]));
    // Byte enables of the two write passes, from the bytes that changed or were written.
    let be = |reg: u32| -> u32 {
        let mut m = 0u32;
        for i in 0..8 {
            for k in 0..2 {
                let a = (dst.addr[i] + k) % cfg.rf_bytes();
                if a / 32 == reg {
                    m |= 1 << (a % 32);
                }
            }
        }
        m
    };
    assert_eq!(be(5), 0x0061_8618);
    assert_eq!(be(6), 0x0618_6180);
    for (a, v) in [(5 * 32 + 3, 3u8), (5 * 32 + 9, 2), (5 * 32 + 15, 2), (5 * 32 + 21, 2)] {
        assert_eq!(rf[a], v);
    }
    for (a, v) in [(6 * 32 + 7, 6u8), (6 * 32 + 13, 3), (6 * 32 + 19, 3), (6 * 32 + 25, 3)] {
        assert_eq!(rf[a], v);
    }
    let changed: Vec<usize> = (0..rf.len()).filter(|&a| rf[a] != before[a]).collect();
    assert_eq!(changed, vec![163, 169, 175, 181, 199, 205, 211, 217], "no other RF byte changes");
}

// ==========================================================================================
// RFG `eu_region_gather` (§6.5): co-simulation with a Rust RF model (random contents, L_RF
// latency) answering the read requests. Every output port is compared every cycle (after the
// inputs of the cycle are applied: `rag_ready`, `rd_en`, `rd_reg` are combinational).
// ==========================================================================================

type RfgPorts = sim::ports::EuRegionGather;

/// One issued read: (cycle, register per port; None = port idle).
type ReadCycle = (u64, [Option<u32>; 4]);

struct RfgBench {
    dut: Dut,
    p: RfgPorts,
    cfg: Cfg,
    model: RfgTiming,
    exp: Expected,
    rf: Vec<u8>,
    /// Requests of the last L_RF cycles, oldest first (answered in this cycle when full).
    pending: std::collections::VecDeque<[Option<u32>; 4]>,
    rng: StdRng,
    /// Every cycle with at least one `rd_en`, as seen on the DUT ports.
    trace: Vec<ReadCycle>,
    /// (accept cycle, bundle) of every accepted descriptor.
    accepted: Vec<(u64, RagOut)>,
    /// (cycle, data, passes, err) of every operand handed over (`opnd_valid ∧ opnd_ready`).
    delivered: Vec<(u64, [u32; N_MAX_LIMIT], u32, u16)>,
    empty: GatherOut,
}

impl RfgBench {
    fn new(v: &str, seed: u64) -> Self {
        let cfg = Cfg::from(&variant(v));
        let dut = Dut::new(&format!("region_addr_gen_{v}/eu_region_gather"));
        let p = RfgPorts::of(&dut);
        assert_eq!(dut.width_out(p.rd_en), cfg.rd_ports as usize);
        assert_eq!(dut.width_out(p.rd_reg), (cfg.rd_ports * cfg.rn_w()) as usize);
        assert_eq!(dut.width_in(p.rd_data), (cfg.rd_ports * cfg.rb * 8) as usize);
        assert_eq!(dut.width_out(p.opnd_data), 32 * cfg.n_max as usize);
        assert_eq!(dut.width_out(p.opnd_passes), cfg.passes_w() as usize);
        let mut rng = StdRng::seed_from_u64(seed);
        let rf = (0..cfg.rf_bytes()).map(|_| rng.r#gen::<u8>()).collect();
        let exp = dut.expected();
        let mut b = RfgBench {
            dut,
            p,
            cfg,
            model: RfgTiming::default(),
            exp,
            rf,
            pending: Default::default(),
            rng,
            trace: vec![],
            accepted: vec![],
            delivered: vec![],
            empty: gather(&cfg, &vec![0; cfg.rf_bytes() as usize], &RagOut::default()),
        };
        b.dut.reset(2);
        b.model = RfgTiming::default();
        b
    }

    /// One cycle: drive, settle, compare every port with the golden cycle model, clock.
    fn cycle(&mut self, rag_valid: bool, r: &RagOut, tag: u32, opnd_ready: bool) {
        let cfg = self.cfg;
        let (aw, rb, rdp) = (cfg.a_w() as usize, cfg.rb as usize, cfg.rd_ports as usize);
        let newg = if rag_valid { gather(&cfg, &self.rf, r) } else { self.empty };
        let d = &mut self.dut;
        d.set(self.p.rag_valid, rag_valid as u64);
        for i in 0..cfg.n_max as usize {
            d.set_field(self.p.rag_addr, aw * i, aw, r.addr[i] as u64);
        }
        d.set(self.p.rag_esize_log2, r.esize_log2 as u64);
        d.set(self.p.rag_ch_valid, r.ch_valid as u64);
        d.set(self.p.rag_straddle, r.straddle as u64);
        d.set(self.p.rag_err, r.err as u64);
        d.set(self.p.rag_warn, r.warn as u64);
        d.set(self.p.rag_tag, tag as u64);
        d.set(self.p.opnd_ready, opnd_ready as u64);
        // The RF answers the requests made L_RF cycles ago; idle ports carry random bytes.
        let answer = if self.pending.len() == cfg.l_rf as usize { self.pending.pop_front() } else { None };
        for port in 0..rdp {
            let reg = answer.and_then(|a| a[port]);
            for w in 0..rb / 8 {
                let v = match reg {
                    Some(reg) => {
                        let base = reg as usize * rb + 8 * w;
                        u64::from_le_bytes(self.rf[base..base + 8].try_into().unwrap())
                    }
                    None => self.rng.r#gen(),
                };
                d.set_field(self.p.rd_data, port * rb * 8 + 64 * w, 64, v);
            }
        }
        d.settle();
        let o = self.model.outputs(&cfg, rag_valid, &newg, opnd_ready);
        let e = &mut self.exp;
        e.set(self.p.rag_ready, o.rag_ready as u64);
        e.set(self.p.rd_en, o.rd_en as u64);
        let mut rdreg = 0u64;
        for port in 0..rdp {
            rdreg |= (o.rd_reg[port] as u64) << (cfg.rn_w() as usize * port);
        }
        e.set(self.p.rd_reg, rdreg);
        e.set(self.p.opnd_valid, o.opnd_valid as u64);
        for i in 0..cfg.n_max as usize {
            e.set_field(self.p.opnd_data, 32 * i, 32, o.data[i] as u64);
        }
        e.set(self.p.opnd_ch_valid, o.ch_valid as u64);
        e.set(self.p.opnd_err, o.err as u64);
        e.set(self.p.opnd_warn, o.warn as u64);
        e.set(self.p.opnd_passes, o.passes as u64);
        e.set(self.p.opnd_tag, o.tag as u64);
        d.check(&self.exp);
        // Record the DUT's own requests (equal to the model's after the check).
        let (en, regs) = (d.get(self.p.rd_en), d.get(self.p.rd_reg));
        let mut req = [None; 4];
        for (port, slot) in req.iter_mut().enumerate().take(rdp) {
            if en >> port & 1 == 1 {
                *slot = Some((regs >> (cfg.rn_w() as usize * port)) as u32 & ((1 << cfg.rn_w()) - 1));
            }
        }
        let now = d.cycle();
        if en != 0 {
            self.trace.push((now, req));
        }
        self.pending.push_back(req);
        if rag_valid && o.rag_ready {
            self.accepted.push((now, *r));
        }
        if o.opnd_valid && opnd_ready {
            self.delivered.push((now, o.data, o.passes, o.err));
        }
        self.model.step(&cfg, false, rag_valid, &newg, tag, opnd_ready);
        d.tick();
    }

    /// The read trace of each accepted descriptor equals its sorted distinct registers in groups
    /// of RD_PORTS, one group per cycle from the accept cycle on (computed here from the lanes,
    /// independently of the golden `distinct_regs`).
    /// Checks every read pass; returns (descriptors read in several passes, descriptors that
    /// SPAN_LIMIT_1PASS made E_SPAN).
    fn check_read_trace(&self) -> (usize, usize) {
        let cfg = self.cfg;
        let rdp = cfg.rd_ports as usize;
        let mut t = 0;
        let (mut multi, mut spans) = (0, 0);
        for &(c0, r) in &self.accepted {
            let mut regs = std::collections::BTreeSet::new();
            for i in 0..cfg.n_max as usize {
                if r.ch_valid >> i & 1 == 1 {
                    for k in 0..1u32 << r.esize_log2 {
                        regs.insert((r.addr[i] + k) % cfg.rf_bytes() / cfg.rb);
                    }
                }
            }
            let span_err = cfg.span_limit_1pass && regs.len() > rdp;
            spans += (r.err == 0 && span_err) as usize;
            if r.err != 0 || span_err {
                assert!(t >= self.trace.len() || self.trace[t].0 != c0, "errored descriptor at {c0} issued reads");
                continue;
            }
            let regs: Vec<u32> = regs.into_iter().collect();
            for (j, group) in regs.chunks(rdp).enumerate() {
                let (cyc, req) = self.trace[t];
                assert_eq!(cyc, c0 + j as u64, "pass {j} of the descriptor accepted at {c0}");
                let got: Vec<u32> = req.iter().flatten().copied().collect();
                assert_eq!(got, group, "pass {j} of the descriptor accepted at {c0}");
                assert!(req[..group.len()].iter().all(|x| x.is_some()), "ports used from 0 up");
                t += 1;
            }
            multi += (regs.len() > rdp) as usize;
        }
        assert_eq!(t, self.trace.len(), "reads outside any descriptor's passes");
        (multi, spans)
    }
}

/// §2.7 Fig 14, gather side, on the RTL: RF all zero except bytes 81, 46, 113, 62.
#[test]
fn rfg_fig14_gather_2_7() {
    rfg_fig14_gather("cfg_c");
}

/// Fig 14 needs 32-byte registers (R2.17, R3.17, ...); the default RF (32 B x 128) has the same
/// byte addresses, so the same numbers apply there.
#[test]
fn rfg_fig14_gather_default() {
    rfg_fig14_gather("default");
}

fn rfg_fig14_gather(v: &str) {
    let mut b = RfgBench::new(v, 1);
    let cfg = b.cfg;
    assert_eq!((cfg.rb, cfg.rd_ports, cfg.l_rf), (32, 2, 1));
    b.rf = vec![0; cfg.rf_bytes() as usize];
    b.rf[81] = 1;
    b.rf[46] = 2;
    b.rf[113] = 3;
    b.rf[62] = 3;
    let src1 = rag(&cfg, &r(2, 17, 16, 2, 1, T_B, 8)); // TV14a
    let src0 = rag(&cfg, &r(1, 14, 16, 4, 0, T_B, 8)); // TV14b
    let idle = RagOut::default();
    // TV14a accepted in cycle c0; P = 2, L_RF = 1: opnd_valid in c0 + 3 (t + 4 from the RAG).
    b.cycle(true, &src1, 5, true);
    let c0 = b.accepted[0].0;
    for _ in 0..3 {
        b.cycle(false, &idle, 0, true);
    }
    b.cycle(true, &src0, 6, true);
    for _ in 0..4 {
        b.cycle(false, &idle, 0, true);
    }
    assert_eq!(b.delivered.len(), 2);
    let (c1, d1, p1, e1) = b.delivered[0];
    assert_eq!((c1 - c0, p1, e1), (3, 2, 0), "TV14a: valid at c0 + P + L_RF");
    assert_eq!(&d1[..8], &[1, 0, 0, 0, 3, 0, 0, 0]);
    assert!(d1[8..].iter().all(|&x| x == 0));
    let (c2, d2, p2, e2) = b.delivered[1];
    assert_eq!((c2 - b.accepted[1].0, p2, e2), (2, 1, 0), "TV14b: one pass");
    assert_eq!(&d2[..8], &[2, 2, 2, 2, 3, 3, 3, 3]);
    // Read schedules: pass 0 {R2, R3}, pass 1 {R4}; then pass 0 {R1}.
    let sched: Vec<(u64, Vec<u32>)> =
        b.trace.iter().map(|(c, q)| (c - c0, q.iter().flatten().copied().collect())).collect();
    let s1 = b.accepted[1].0 - c0;
    assert_eq!(sched, vec![(0, vec![2, 3]), (1, vec![4]), (s1, vec![1])]);
    b.check_read_trace();
}

/// Timing (§6.5): back-to-back with opnd_ready high (II = P + L_RF), backpressure holding the
/// operand, an errored descriptor (no reads, valid at c0 + 1), reset mid-flight.
#[test]
fn rfg_timing_and_errors() {
    let mut b = RfgBench::new("cfg_c", 2);
    let cfg = b.cfg;
    let one = rag(&cfg, &r(3, 0, 8, 8, 1, T_UB, 8)); // 8 bytes of R3: one pass
    let fatal = rag(&cfg, &Desc { ty: T_RESERVED, ..r(3, 0, 8, 8, 1, T_UB, 8) });
    let oob = rag(&cfg, &r(3, 0, 8, 8, 1, T_UB, 8).dst()); // is_dst with W=8,HS=1: legal
    assert_eq!((one.err, oob.err), (0, 0));
    assert_ne!(fatal.err, 0);
    for _ in 0..6 {
        b.cycle(true, &one, 1, true);
    }
    let acc: Vec<u64> = b.accepted.iter().map(|a| a.0).collect();
    assert!(acc.windows(2).all(|w| w[1] - w[0] == 2), "II = P + L_RF = 2: {acc:?}");
    // Backpressure: the operand is held for 5 cycles.
    for _ in 0..8 {
        b.cycle(true, &one, 2, false);
    }
    let n = b.accepted.len();
    for _ in 0..3 {
        b.cycle(true, &fatal, 3, true);
    }
    assert!(b.accepted.len() > n);
    let (cf, _) = b.accepted.iter().find(|a| a.1.err != 0).copied().unwrap();
    assert!(b.delivered.iter().any(|d| d.0 == cf + 1 && d.3 == fatal.err && d.2 == 0), "error operand at c0 + 1");
    // Reset in the middle of a two-pass descriptor.
    let two = rag(&cfg, &r(2, 17, 16, 2, 1, T_B, 8));
    b.cycle(true, &two, 4, true);
    b.dut.set(b.p.rst, 1);
    b.dut.tick();
    b.dut.set(b.p.rst, 0);
    b.model.step(&cfg, true, false, &b.empty.clone(), 0, false);
    b.pending.clear();
    b.trace.pop(); // the aborted descriptor's first pass
    b.accepted.pop();
    for _ in 0..4 {
        b.cycle(false, &RagOut::default(), 0, true);
    }
    b.cycle(true, &two, 4, true);
    for _ in 0..4 {
        b.cycle(false, &RagOut::default(), 0, true);
    }
    b.check_read_trace();
}

/// Random RAG bundles (from random descriptors through the golden RAG), random RF contents,
/// random rag_valid / opnd_ready.
fn rfg_random(v: &str, n: usize, seed: u64) {
    let mut b = RfgBench::new(v, seed);
    let cfg = b.cfg;
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    let mut cur: Option<(RagOut, u32)> = None;
    let mut cycles = 0u64;
    while b.accepted.len() < n {
        let (r, tag) = *cur.get_or_insert_with(|| {
            let mut d = random_desc(&mut rng, &cfg);
            d.is_dst = rng.gen_bool(0.1);
            (rag(&cfg, &d), d.tag)
        });
        let valid = rng.gen_bool(0.8);
        let ready = rng.gen_bool(0.8);
        let before = b.accepted.len();
        b.cycle(valid, &r, tag, ready);
        if b.accepted.len() > before {
            cur = None;
        }
        cycles += 1;
    }
    for _ in 0..8 {
        b.cycle(false, &RagOut::default(), 0, true);
    }
    let (multi, spans) = b.check_read_trace();
    let errs = b.accepted.iter().filter(|a| a.1.err != 0).count();
    println!("rfg_random {v}: {n} descriptors ({errs} with errors, {multi} multi-pass), {cycles} cycles");
    if cfg.span_limit_1pass {
        // SPAN_LIMIT_1PASS: every operand that needs a second pass is E_SPAN instead
        assert!(multi == 0 && spans > n / 20 && errs < n * 3 / 4, "coverage: {multi} multi-pass, {spans} E_SPAN, {errs} errors");
    } else {
        assert!(multi > n / 20 && errs > n / 20 && errs < n / 2, "coverage: {multi} multi-pass, {errs} errors");
    }
}

#[test]
fn rfg_random_cfg_c() {
    rfg_random("cfg_c", 100_000, 77);
}

#[test]
fn rfg_random_cfg_a() {
    rfg_random("cfg_a", 100_000, 78);
}

#[test]
fn rfg_random_cfg_b() {
    rfg_random("cfg_b", 100_000, 79);
}

#[test]
fn rfg_random_default() {
    rfg_random("default", 100_000, 80);
}

// ==========================================================================================
// RFS `eu_region_scatter` (§6.6): every output port every cycle against `RfsTiming`; the RTL's
// writes are applied to a Rust RF image and compared with the golden `scatter`'s RF.
// ==========================================================================================

struct RfsBench {
    dut: Dut,
    p: sim::ports::EuRegionScatter,
    cfg: Cfg,
    model: RfsTiming,
    exp: Expected,
    rf_dut: Vec<u8>,
    rf_gold: Vec<u8>,
    accepted: usize,
    errors: usize,
    multi: usize,
}

impl RfsBench {
    fn new(v: &str) -> Self {
        let cfg = Cfg::from(&variant(v));
        let mut dut = Dut::new(&format!("region_addr_gen_{v}/eu_region_scatter"));
        let p = sim::ports::EuRegionScatter::of(&dut);
        assert_eq!(dut.width_out(p.wr_be), (cfg.wr_ports * cfg.rb) as usize);
        dut.reset(2);
        let exp = dut.expected();
        let n = cfg.rf_bytes() as usize;
        RfsBench { dut, p, cfg, model: RfsTiming::default(), exp, rf_dut: vec![0; n], rf_gold: vec![0; n], accepted: 0, errors: 0, multi: 0 }
    }

    fn job(&self, r: &RagOut, res: &[u32; N_MAX_LIMIT], mask: u32, tag: u32) -> RfsJob {
        let mut scratch = self.rf_gold.clone();
        RfsJob { r: *r, res: *res, mask, tag, s: scatter(&self.cfg, &mut scratch, r, res, mask) }
    }

    fn cycle(&mut self, rag_valid: bool, job: &RfsJob) {
        let cfg = self.cfg;
        let (aw, rb, wp) = (cfg.a_w() as usize, cfg.rb as usize, cfg.wr_ports as usize);
        let d = &mut self.dut;
        let i = self.p;
        let r = &job.r;
        d.set(i.rag_valid, rag_valid as u64);
        for c in 0..cfg.n_max as usize {
            d.set_field(i.rag_addr, aw * c, aw, r.addr[c] as u64);
            d.set_field(i.res_data, 32 * c, 32, job.res[c] as u64);
        }
        d.set(i.rag_esize_log2, r.esize_log2 as u64);
        d.set(i.rag_ch_valid, r.ch_valid as u64);
        d.set(i.rag_straddle, r.straddle as u64);
        d.set(i.rag_err, r.err as u64);
        d.set(i.rag_warn, r.warn as u64);
        d.set(i.rag_tag, job.tag as u64);
        d.set(i.res_mask, job.mask as u64);
        d.settle();
        let o = self.model.outputs(&cfg, rag_valid, job);
        let (e, p) = (&mut self.exp, self.p);
        e.set(p.rag_ready, o.rag_ready as u64);
        e.set(p.wr_en, o.wr_en as u64);
        let mut regs = 0u64;
        for q in 0..wp {
            regs |= (o.wr_reg[q] as u64) << (cfg.rn_w() as usize * q);
            e.set_field(p.wr_be, rb * q, rb, o.wr_be[q]);
            for c in 0..rb {
                e.set_field(p.wr_data, 8 * (rb * q + c), 8, o.wr_data[q][c] as u64);
            }
        }
        e.set(p.wr_reg, regs);
        e.set(p.wr_done, o.done as u64);
        e.set(p.wr_err, o.err as u64);
        e.set(p.wr_warn, o.warn as u64);
        e.set(p.wr_tag, o.tag as u64);
        d.check(&self.exp);
        // Apply the DUT's writes to its RF image.
        let (en, wreg) = (d.get(p.wr_en), d.get(p.wr_reg));
        for q in 0..wp {
            if en >> q & 1 == 1 {
                let reg = (wreg >> (cfg.rn_w() as usize * q)) as usize & ((1 << cfg.rn_w()) - 1);
                let be = d.get_field(p.wr_be, rb * q, rb);
                for c in 0..rb {
                    if be >> c & 1 == 1 {
                        self.rf_dut[reg * rb + c] = d.get_field(p.wr_data, 8 * (rb * q + c), 8) as u8;
                    }
                }
            }
        }
        if rag_valid && o.rag_ready {
            self.accepted += 1;
            self.errors += (job.s.err != 0) as usize;
            self.multi += (job.s.passes > 1) as usize;
            scatter(&cfg, &mut self.rf_gold, &job.r, &job.res, job.mask);
        }
        self.model.step(false, rag_valid, job);
        d.tick();
    }
}

/// §2.7 Fig 14, scatter side, on the RTL: the sums `3 2 2 2 6 3 3 3` through TV14c on Cfg C.
#[test]
fn rfs_fig14_scatter_2_7() {
    rfs_fig14_scatter("cfg_c");
}

/// Same byte addresses on the default RF (32 B x 128).
#[test]
fn rfs_fig14_scatter_default() {
    rfs_fig14_scatter("default");
}

fn rfs_fig14_scatter(v: &str) {
    let mut b = RfsBench::new(v);
    let cfg = b.cfg;
    assert_eq!(cfg.rb, 32);
    let dst = rag(&cfg, &r(5, 3, 18, 4, 3, T_W, 8).dst());
    assert_eq!(dst.err, 0);
    let mut res = [0u32; N_MAX_LIMIT];
    res[..8].copy_from_slice(&[3, 2, 2, 2, 6, 3, 3, 3]);
    let job = b.job(&dst, &res, 0xFFFF, 9);
    // Every port is compared every cycle inside `cycle`; here the spec's numbers and the RF image.
    b.cycle(true, &job);
    let idle = b.job(&RagOut::default(), &[0; N_MAX_LIMIT], 0, 0);
    b.cycle(false, &idle);
    b.cycle(false, &idle);
    assert_eq!(job.s.passes, 2);
    assert_eq!(scatter_write(&cfg, &dst, &res, 0xFFFF, 5).0, 0x0061_8618);
    assert_eq!(scatter_write(&cfg, &dst, &res, 0xFFFF, 6).0, 0x0618_6180);
    let mut want = vec![0u8; cfg.rf_bytes() as usize];
    for (a, v) in [(163, 3u8), (169, 2), (175, 2), (181, 2), (199, 6), (205, 3), (211, 3), (217, 3)] {
        want[a] = v;
    }
    assert_eq!(b.rf_dut, want, "RF image written by the RTL: R5 bytes 3/9/15/21, R6 bytes 7/13/19/25, nothing else");
}

#[test]
fn rfs_random_cfg_c() {
    rfs_random("cfg_c", 100_000, 99);
}

#[test]
fn rfs_random_cfg_a() {
    rfs_random("cfg_a", 100_000, 100);
}

#[test]
fn rfs_random_cfg_b() {
    rfs_random("cfg_b", 100_000, 101);
}

#[test]
fn rfs_random_default() {
    rfs_random("default", 100_000, 102);
}

/// Random destination descriptors through the golden RAG, random results and masks, random
/// `rag_valid`; every port every cycle against `RfsTiming`; RF image against the golden `scatter`.
fn rfs_random(v: &str, n: usize, seed: u64) {
    let mut b = RfsBench::new(v);
    let cfg = b.cfg;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cur: Option<RfsJob> = None;
    while b.accepted < n {
        let job = match cur {
            Some(j) => j,
            None => {
                let mut d = random_desc(&mut rng, &cfg);
                d.is_dst = true; // the RFS relies on E_DST_OVERLAP: no byte written twice
                let mut res = [0u32; N_MAX_LIMIT];
                for x in res.iter_mut() {
                    *x = rng.r#gen();
                }
                let mask = if rng.gen_bool(0.5) { 0xFFFF } else { rng.gen_range(0..0x10000) };
                let j = b.job(&rag(&cfg, &d), &res, mask, d.tag);
                cur = Some(j);
                j
            }
        };
        let valid = rng.gen_bool(0.8);
        let before = b.accepted;
        b.cycle(valid, &job);
        if b.accepted > before {
            cur = None;
        }
    }
    let idle = b.job(&RagOut::default(), &[0; N_MAX_LIMIT], 0, 0);
    for _ in 0..70 {
        b.cycle(false, &idle);
    }
    println!("rfs_random {v}: {n} descriptors, {} with errors, {} multi-pass", b.errors, b.multi);
    assert!(b.rf_dut == b.rf_gold, "RF written by the RTL differs from the golden scatter");
    let multi_ok = if cfg.span_limit_1pass { b.multi == 0 } else { b.multi > n / 20 };
    assert!(multi_ok && b.errors > n / 20 && b.errors < n, "coverage: {} multi-pass, {} errors", b.multi, b.errors);
}

/// The config matrix (issue 18 item 1, docs/region_addr_gen.md): every co-simulation variant —
/// among them 65 registers with 4 read and 2 write ports (the RAG alone) and Cfg C's RFG/RFS
/// at L_RF 3 with the one-pass limit, which no other test names — takes every directed
/// descriptor of §2.6/§2.8 that its ports can carry, one at a time, then 12 000 random
/// descriptors with idle cycles, back-pressure and resets; the RFG and RFS, where the variant
/// builds them, 10 000 random descriptors each. Golden model in lock-step, every port every
/// cycle.
#[test]
fn every_variant_directed_and_random() {
    let directed: Vec<(&str, Desc)> = figure_vectors().into_iter().chain(extra_vectors()).map(|t| (t.id, t.d)).collect();
    let configs = <hdl::region_addr_gen::Block as hdl::BlockGen>::cosim_configs();
    assert!(configs.len() >= 27);
    for (k, (v, hc)) in configs.into_iter().enumerate() {
        let mut b = RagBench::new(v);
        let cfg = b.cfg;
        let fits = |d: &Desc| d.reg < 1 << hc.rn_w() && d.sub < cfg.rb && 1 << d.exec_log2 <= cfg.n_max && (!d.colmajor || cfg.colmajor_en);
        let mut n = 0;
        for (id, d) in directed.iter().filter(|(_, d)| fits(d)) {
            b.issue(id, d);
            n += 1;
        }
        assert!(n >= 4, "{v}: only {n} directed descriptors fit");
        random_run(v, 12_000, 0x3A70 + k as u64);
        use hdl::region_addr_gen::{rfg_built, rfs_built, Block};
        let kept = |m: &str| <Block as hdl::BlockGen>::cosim_keeps(v, m);
        if rfg_built(&hc) && kept("eu_region_gather") {
            rfg_random(v, 10_000, 0x3B70 + k as u64);
        }
        if rfs_built(&hc) && kept("eu_region_scatter") {
            rfs_random(v, 10_000, 0x3C70 + k as u64);
        }
    }
}
