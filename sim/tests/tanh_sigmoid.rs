//! Co-simulation of `eu_tanh_sigmoid` (Verilator) against the golden model, every output port every
//! cycle, plus the accuracy bounds of the issue checked on the same (RTL == golden) results against
//! the f64 reference.

use rand::{Rng, SeedableRng};
use sim::drivers::tanh_sigmoid::TanhBench;
use sim::golden::tanh_sigmoid::*;

/// The shared lock-step driver (sim::drivers::tanh_sigmoid).
type Bench = TanhBench;

/// Accuracy of one golden result against the f64 reference; panics naming the input on a violation.
fn check_bounds(op: u8, fmt: u8, raw: u32, out: u32) {
    let xw = widen(raw, fmt, false);
    let x = f32::from_bits(xw) as f64;
    if x.is_nan() || op == OP_TANH_PRE {
        return;
    }
    let y = to_f64(out, fmt);
    let f = reference(op, x);
    let err = (y - f).abs();
    let u = err / ulp(f, fmt);
    let ctx = || format!("op {op} fmt {fmt} x = {x:e} ({raw:#x}): got {y:e}, exact {f:e}, {u:.3} ulp, abs {err:.3e}");
    match fmt {
        FMT_FP32 => {
            if op == OP_TANH {
                assert!(u <= 1.5, "{}", ctx());
            } else if x >= 0.0 {
                assert!(u <= 2.0, "{}", ctx());
            } else {
                assert!(err <= 2.4e-7, "{}", ctx());
            }
        }
        FMT_FP16 => {
            if f.abs() >= 2f64.powi(-14) {
                assert!(u <= 1.0, "{}", ctx());
            } else {
                assert!(err <= 2f64.powi(-24), "{}", ctx());
            }
        }
        _ => {
            if op == OP_TANH || x > -16.0 {
                assert!(u <= 1.0, "{}", ctx());
            }
        }
    }
}

fn exhaustive16(variant: &str) {
    let mut b = Bench::new(variant);
    let all: Vec<u32> = (0..=0xFFFFu32).collect();
    for fmt in [FMT_FP16, FMT_BF16] {
        for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH] {
            for ftz in [false, true] {
                b.run_values(op, fmt, ftz, &all);
                if !ftz {
                    for &r in &all {
                        check_bounds(op, fmt, r, lane(op, fmt, ftz, r));
                    }
                }
            }
        }
    }
}

#[test]
fn every_fp16_and_bf16_input_all_ops_both_ftz_lanes8() {
    exhaustive16("lanes8");
}

/// fp32 directed set: every row's first and last Delta, the thresholds +-3 ulp, zeros, subnormals,
/// infinities, NaNs with payloads.
fn fp32_directed() -> Vec<u32> {
    let mut v = Vec::new();
    for e in 0..=255u32 {
        for m in [0u32, 1, 2, 0x7F_FFFF, 0x40_0000, 0x3F_FFFF] {
            v.push(e << 23 | m);
        }
    }
    // row edges in the binade regions (M[22:17] steps) and region 0 grids
    for e in 100..=132u32 {
        for row in 0..64u32 {
            for d in [0u32, 1, 0x1FFFF] {
                v.push(e << 23 | row << 17 | d);
            }
        }
    }
    for t in [2f32.powi(-20), 2f32.powi(-12), 1.0, 2.0, 4.0, 8.0, 9.0109, 16.0, 17.33, 32.0] {
        for k in -3i32..=3 {
            v.push((t.to_bits() as i32 + k) as u32);
        }
    }
    for j in 0..64u32 {
        v.push(j * 0x2_0000 + 1); // subnormals
        v.push(0x7F80_0001 + j * 0x1_0001); // sNaN payloads
        v.push(0x7FC0_0000 + j * 0x1235); // qNaN
    }
    v.extend([0, 0x7F80_0000, 0x7FFF_FFFF]);
    let neg: Vec<u32> = v.iter().map(|x| x | 0x8000_0000).collect();
    v.extend(neg);
    v
}

#[test]
fn fp32_directed_all_ops_both_ftz_lanes8_and_lanes1() {
    let vals = fp32_directed();
    for variant in ["lanes8", "lanes1"] {
        let mut b = Bench::new(variant);
        for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH] {
            for ftz in [false, true] {
                b.run_values(op, FMT_FP32, ftz, &vals);
            }
            for &r in &vals {
                check_bounds(op, FMT_FP32, r, lane(op, FMT_FP32, false, r));
            }
        }
    }
}

#[test]
fn fp32_random_1e7_per_op() {
    let seed = 0x7a5e_u64;
    println!("seed {seed}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut b = Bench::new("lanes8");
    let n = 10_000_000usize;
    let mut vals = vec![0u32; n];
    for op in [OP_SIGMOID, OP_TANH, OP_TANH_PRE] {
        for (i, v) in vals.iter_mut().enumerate() {
            *v = if i % 2 == 0 {
                rng.gen()
            } else {
                // uniform inside the interpolated range: |x| < 32
                let x: f32 = rng.gen_range(-32.0f32..32.0);
                x.to_bits()
            };
        }
        b.run_values(op, FMT_FP32, false, &vals);
        for &r in &vals {
            check_bounds(op, FMT_FP32, r, lane(op, FMT_FP32, false, r));
        }
    }
    // ftz = 1 on a smaller random set
    for (op, ftz) in [(OP_TANH_PRE, true), (OP_TANH, true), (OP_SIGMOID, true)] {
        let v: Vec<u32> = (0..400_000).map(|_| rng.gen()).collect();
        b.run_values(op, FMT_FP32, ftz, &v);
    }
}

#[test]
fn random_control_masks_tags_bubbles_reserved_and_reset() {
    let seed = 99u64;
    println!("seed {seed}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for variant in ["lanes8", "lanes1", UNFUSED_CANON].into_iter().chain(DEEPER) {
        let mut b = Bench::new(variant);
        for n in 0..200_000u32 {
            // the soak command's generator (one copy)
            let i = sim::soak::stimulus::tanh_vec(&mut rng, b.lanes);
            b.cycle(&i);
            if n % 50_000 == 49_999 {
                // reset in the middle of traffic clears every stage
                b.dut.reset(1);
                b.gold.reset();
            }
        }
    }
}

/// The FUSED = 0 (LAT = 4, op TANH reserved), CANON_NAN = 1 variant (one lane).
const UNFUSED_CANON: &str = "lanes1_unfused_canon";

#[test]
fn unfused_canon_every_fp16_and_bf16_input_both_ops_both_ftz() {
    let mut b = Bench::new(UNFUSED_CANON);
    assert_eq!(b.params, Params { fused: false, canon_nan: true });
    let all: Vec<u32> = (0..=0xFFFFu32).collect();
    for fmt in [FMT_FP16, FMT_BF16] {
        for op in [OP_TANH_PRE, OP_SIGMOID] {
            for ftz in [false, true] {
                b.run_values(op, fmt, ftz, &all);
            }
        }
    }
}

#[test]
fn unfused_canon_fp32_random_1e6_per_op_directed_and_reserved_ops() {
    let seed = 0x0ca_u64;
    println!("seed {seed}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut b = Bench::new(UNFUSED_CANON);
    for op in [OP_TANH_PRE, OP_SIGMOID] {
        // half uniform bit patterns (NaNs with random payloads among them), half uniform in (-32, 32)
        let vals: Vec<u32> =
            (0..1_000_000).map(|i| if i % 2 == 0 { rng.gen() } else { rng.gen_range(-32.0f32..32.0).to_bits() }).collect();
        b.run_values(op, FMT_FP32, false, &vals);
    }
    // specials, NaN payloads, thresholds; op TANH and op RESERVED are reserved here
    let directed = fp32_directed();
    for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH, OP_RESERVED] {
        for ftz in [false, true] {
            b.run_values(op, FMT_FP32, ftz, &directed);
        }
    }
}

#[test]
fn unfused_result_leaves_exactly_4_cycles_after_its_input() {
    let mut b = Bench::new(UNFUSED_CANON);
    let (o_valid, o_tag) = (b.p.out_valid, b.p.out_tag);
    let x = VecIn { valid: true, op: OP_SIGMOID, fmt: FMT_FP32, mask: 1, tag: 0x5A, data: vec![0], ..Default::default() };
    let idle = VecIn { data: vec![0], ..Default::default() };
    // spec §6.2: LAT = 4 with FUSED = 0; the input's own clock edge is cycle 1
    for n in 1..=6 {
        b.cycle(if n == 1 { &x } else { &idle });
        let (valid, tag) = (b.dut.get(o_valid), b.dut.get(o_tag));
        assert_eq!((valid, tag), if n == 4 { (1, 0x5A) } else { (0, 0) }, "after clock edge {n}");
    }
}

#[test]
fn spec_unfused_and_canonical_nan_values() {
    // §6.4 CANON_NAN = 1: 0x7FC00000 / 0x7E00 / 0x7FC0 whatever the NaN's sign and payload
    let p = Params { fused: false, canon_nan: true };
    let l = |op, fmt, x: u32| lane_with(p, op, fmt, false, x);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, 0xFF80_0001), 0x7FC0_0000);
    assert_eq!(l(OP_TANH_PRE, FMT_FP32, 0x7FFF_FFFF), 0x7FC0_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP16, 0xFC01), 0x7E00);
    assert_eq!(l(OP_TANH_PRE, FMT_FP16, 0x7E55), 0x7E00);
    assert_eq!(l(OP_TANH_PRE, FMT_BF16, 0xFF81), 0x7FC0);
    // §6.1 FUSED = 0: op TANH is reserved, every active lane returns 0x7FC00000 (§6.4)
    assert_eq!(l(OP_TANH, FMT_FP32, 0x3F00_0000), 0x7FC0_0000);
    assert_eq!(l(OP_TANH, FMT_FP16, 0x3800), 0x7FC0_0000);
    assert_eq!(l(OP_TANH, FMT_BF16, 0x7FC1), 0x7FC0_0000);
    // reserved op / format are not NaN inputs: still 0x7FC00000
    assert_eq!(l(3, FMT_FP16, 0x7C01), 0x7FC0_0000);
    assert_eq!(l(OP_SIGMOID, 3, 0x7C01), 0x7FC0_0000);
    // §6.2 latency
    assert_eq!(p.lat(), 4);
    assert_eq!(Params::default().lat(), 6);
    // with CANON_NAN = 1 but FUSED = 1, op TANH exists and NaNs are canonical
    let pc = Params { fused: true, canon_nan: true };
    assert_eq!(lane_with(pc, OP_TANH, FMT_FP32, false, 0xFFC0_1234), 0x7FC0_0000);
    assert_eq!(lane_with(pc, OP_TANH, FMT_FP32, false, 0.25f32.to_bits()), lane(OP_TANH, FMT_FP32, false, 0.25f32.to_bits()));
}

#[test]
fn spec_special_values() {
    // §2.7 / §6.4 table, typed from the spec
    let l = |op, fmt, ftz, x: u32| lane(op, fmt, ftz, x);
    // zeros
    assert_eq!(l(OP_TANH_PRE, FMT_FP32, false, 0x0000_0000), 0x3F80_0000);
    assert_eq!(l(OP_TANH_PRE, FMT_FP32, false, 0x8000_0000), 0xBF80_0000);
    assert_eq!(l(OP_TANH, FMT_FP32, false, 0x8000_0000), 0x8000_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, 0x8000_0000), 0x3F00_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP16, false, 0x8000), 0x3800);
    assert_eq!(l(OP_SIGMOID, FMT_BF16, false, 0x0000), 0x3F00);
    // subnormals
    assert_eq!(l(OP_TANH, FMT_FP32, false, 0x8000_0003), 0x8000_0003);
    assert_eq!(l(OP_TANH, FMT_FP32, true, 0x8000_0003), 0x8000_0000);
    assert_eq!(l(OP_TANH_PRE, FMT_FP32, true, 0x8000_0003), 0xBF80_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, 0x0000_0003), 0x3F00_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, 0x8000_0003), 0x3F00_0000);
    assert_eq!(l(OP_TANH, FMT_FP16, false, 0x0001), 0x0001);
    assert_eq!(l(OP_TANH, FMT_FP16, true, 0x8001), 0x8000);
    // infinities
    assert_eq!(l(OP_TANH, FMT_FP32, false, 0xFF80_0000), 0xBF80_0000);
    assert_eq!(l(OP_TANH_PRE, FMT_FP16, false, 0x7C00), 0x3C00);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, 0x7F80_0000), 0x3F80_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, 0xFF80_0000), 0x0000_0000);
    assert_eq!(l(OP_SIGMOID, FMT_BF16, false, 0xFF80), 0x0000);
    // NaNs: quieted, sign and payload kept
    assert_eq!(l(OP_TANH, FMT_FP32, false, 0xFF80_0001), 0xFFC0_0001);
    assert_eq!(l(OP_SIGMOID, FMT_FP16, false, 0x7C01), 0x7E01);
    assert_eq!(l(OP_TANH_PRE, FMT_BF16, false, 0xFF81), 0xFFC1);
    // reserved op / format
    assert_eq!(l(3, FMT_FP32, false, 0x3F80_0000), RESERVED_NAN);
    assert_eq!(l(OP_TANH, 3, false, 0x3F80_0000), RESERVED_NAN);
    // |x| < 2^-12: TANH returns x, TANH_PRE returns +-1
    let x = 2f32.powi(-13).to_bits();
    assert_eq!(l(OP_TANH, FMT_FP32, false, x), x);
    assert_eq!(l(OP_TANH_PRE, FMT_FP32, false, x | 1 << 31), 0xBF80_0000);
    // clamps: tanh past where fp32 tanh rounds to 1, sigmoid beyond 32
    assert_eq!(l(OP_TANH, FMT_FP32, false, 9.5f32.to_bits()), 0x3F80_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, 40f32.to_bits()), 0x3F80_0000);
    assert_eq!(l(OP_SIGMOID, FMT_FP32, false, (-40f32).to_bits()), 0);
}

#[test]
fn ulp_is_the_spacing_of_the_format() {
    // OpenCL ulp of a representable value = distance to the next representable value (also at the
    // top of a binade and for subnormals), for every format
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    for _ in 0..200_000 {
        let b: u32 = rng.gen::<u32>() & 0x7FFF_FFFF;
        let y = f32::from_bits(b);
        if y.is_finite() && b != 0x7F7F_FFFF {
            assert_eq!(ulp(y as f64, FMT_FP32), (f32::from_bits(b + 1) - y) as f64, "fp32 {y:e}");
        }
        let h = half::f16::from_bits((b & 0x7FFF) as u16);
        if h.is_finite() && h != half::f16::MAX {
            let next = half::f16::from_bits(h.to_bits() + 1);
            assert_eq!(ulp(h.to_f64(), FMT_FP16), next.to_f64() - h.to_f64(), "fp16 {h}");
        }
    }
    assert_eq!(ulp(0.0, FMT_FP16), 2f64.powi(-24));
}

#[test]
fn invariants_symmetry_and_ranges() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..200_000 {
        let r: u32 = rng.gen::<u32>() & 0x7FFF_FFFF;
        if f32::from_bits(r).is_nan() {
            continue;
        }
        for op in [OP_TANH_PRE, OP_TANH] {
            assert_eq!(lane(op, FMT_FP32, false, r | 1 << 31), lane(op, FMT_FP32, false, r) | 1 << 31);
        }
        let g = f32::from_bits(lane(OP_TANH_PRE, FMT_FP32, false, r)).abs();
        assert!((0.5..=1.0).contains(&g));
        let t = f32::from_bits(lane(OP_TANH, FMT_FP32, false, r));
        assert!(t <= f32::from_bits(r) && t <= 1.0);
        let (sp, sn) = (f32::from_bits(lane(OP_SIGMOID, FMT_FP32, false, r)) as f64, f32::from_bits(lane(OP_SIGMOID, FMT_FP32, false, r | 1 << 31)) as f64);
        assert!((0.0..=1.0).contains(&sp) && (0.0..=1.0).contains(&sn));
        assert!((sp + sn - 1.0).abs() <= 2f64.powi(-24) * 1.5, "x {}", f32::from_bits(r));
    }
}

/// The deeper pipelines (`lat` above the spec's LAT; hdl `rtl::Cuts`), test-only variants: lanes1 at
/// LAT + 1 (cut A: normalise | round + pack), LAT + 4 (A, B the ROM output register, C the DSP input
/// registers of the coefficient multipliers, D the N*m multiplier's DSP input registers), LAT + 7
/// (A-D, E the register on the sum of the N*m product parts, F the register on the shift amount,
/// G the register inside the stage-1 decode), LAT + 8 (A-G, H the register inside the stage-4
/// accumulate), LAT + 9 (A-H, I the N*m multiplier's piece products registered before their sum,
/// `prims::MulDspPp`), LAT + 12 (A-L: J the coefficient multipliers' piece products registered
/// the same way, K the register between the shift and the subtract of the sigmoid reflection, L
/// the register inside the normalising shift; LAT + 10 and LAT + 11 are in
/// `every_variant_directed_and_random_20k_cycles`), and FUSED = 0 / CANON_NAN = 1 at LAT + 6 (A, B, C, F, G, which is all of its cuts,
/// and one output register behind them). Each is checked against the same transaction-level golden
/// model behind a `FixedLatency` of its `lat`, every port every cycle.
const DEEPER: [&str; 7] =
    ["lanes1_lat7", "lanes1_lat10", "lanes1_lat13", "lanes1_lat14", "lanes1_lat15", "lanes1_lat18", "lanes1_unfused_canon_lat10"];

/// The ops a variant implements (op TANH is reserved without the fused tail; the reserved op is
/// covered by the random-control and directed tests).
fn ops_of(b: &Bench) -> &'static [u8] {
    if b.params.fused { &[OP_TANH_PRE, OP_SIGMOID, OP_TANH] } else { &[OP_TANH_PRE, OP_SIGMOID] }
}

#[test]
fn deeper_pipelines_every_fp16_and_bf16_input_all_ops_both_ftz() {
    let all: Vec<u32> = (0..=0xFFFFu32).collect();
    for variant in DEEPER {
        let mut b = Bench::new(variant);
        for fmt in [FMT_FP16, FMT_BF16] {
            for &op in ops_of(&b) {
                for ftz in [false, true] {
                    b.run_values(op, fmt, ftz, &all);
                }
            }
        }
    }
}

#[test]
fn deeper_pipelines_fp32_directed_and_random_1e6_per_op() {
    let seed = 0xdee9_u64;
    println!("seed {seed}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let directed = fp32_directed();
    for variant in DEEPER {
        let mut b = Bench::new(variant);
        for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH, OP_RESERVED] {
            for ftz in [false, true] {
                b.run_values(op, FMT_FP32, ftz, &directed);
            }
        }
        for &op in ops_of(&b) {
            // half uniform bit patterns, half uniform in (-32, 32)
            let vals: Vec<u32> =
                (0..1_000_000).map(|i| if i % 2 == 0 { rng.gen() } else { rng.gen_range(-32.0f32..32.0).to_bits() }).collect();
            b.run_values(op, FMT_FP32, false, &vals);
        }
    }
}

#[test]
fn deeper_pipelines_match_the_golden_model_through_the_latency_wrapper() {
    for (variant, lat) in DEEPER.into_iter().zip([7, 10, 13, 14, 15, 18, 10]) {
        let mut b = Bench::new(variant);
        assert_eq!(b.gold.lat(), lat);
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        for n in 0..100_000u32 {
            let i = VecIn {
                valid: rng.gen_bool(0.8),
                op: rng.gen_range(0..4u8),
                fmt: rng.gen_range(0..4u8),
                ftz: rng.gen(),
                mask: rng.gen_range(0..2),
                tag: rng.gen::<u32>() & 0xFF,
                data: vec![if rng.gen() { rng.gen() } else { rng.gen_range(-20.0f32..20.0).to_bits() }],
            };
            b.cycle(&i);
            if n % 30_000 == 29_999 {
                b.dut.reset(1);
                b.gold.reset();
            }
        }
    }
}

#[test]
fn deeper_pipeline_result_leaves_exactly_lat_cycles_after_its_input() {
    for (variant, lat) in DEEPER.into_iter().zip([7u32, 10, 13, 14, 15, 18, 10]) {
        let mut b = Bench::new(variant);
        let (o_valid, o_tag, o_data) = (b.p.out_valid, b.p.out_tag, b.p.out_data);
        let x = VecIn { valid: true, op: OP_SIGMOID, fmt: FMT_FP32, mask: 1, tag: 0x5A, data: vec![0], ..Default::default() };
        let idle = VecIn { data: vec![0], ..Default::default() };
        // sigmoid(0) = 0.5 exactly; the input's own clock edge is cycle 1
        for n in 1..=lat + 2 {
            b.cycle(if n == 1 { &x } else { &idle });
            let got = (b.dut.get(o_valid), b.dut.get(o_tag), b.dut.get(o_data));
            assert_eq!(got, if n == lat { (1, 0x5A, 0.5f32.to_bits() as u64) } else { (0, 0, 0) }, "{variant}: after clock edge {n}");
        }
    }
}

#[test]
fn lat_below_the_spec_or_too_far_above_is_rejected_naming_the_key() {
    use hdl::BlockGen;
    use hdl::tanh_sigmoid::{Block, Config};
    for (fused, lat) in [(1, 5), (0, 3), (1, 19), (0, 17)] {
        let e = Block::validate(&Config { fused, lat, ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.lat", "{e}");
    }
    for (fused, lat) in [(1, 0), (1, 6), (1, 17), (1, 18), (0, 4), (0, 16)] {
        Block::validate(&Config { fused, lat, ..Config::default() }).unwrap();
    }
}

/// The config matrix (issue 18 item 1, docs/tanh_sigmoid.md): every co-simulation variant —
/// among them 16 lanes with 16-bit tags and both options on, and 2 lanes with 4-bit tags and both
/// off, which no other test names — runs the fp32 directed values and 5 000 values of each
/// fp16/bf16 sweep for every op it implements, both FTZ settings, then 20 000 random control
/// cycles (masks, tags of the full width, bubbles, reserved ops, a reset in traffic), every port
/// every cycle.
#[test]
fn every_variant_directed_and_random_20k_cycles() {
    let vals = fp32_directed();
    let half: Vec<u32> = (0..=0xFFFFu32).step_by(13).collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7A55);
    let variants = <hdl::tanh_sigmoid::Block as hdl::BlockGen>::cosim_configs();
    assert!(variants.len() >= 12);
    for (variant, cfg) in variants {
        let mut b = Bench::new(variant);
        assert_eq!((b.lanes, b.tag_mask), (cfg.lanes, ((1u64 << cfg.tag_width) - 1) as u32), "{variant}");
        for &op in ops_of(&b) {
            for ftz in [false, true] {
                b.run_values(op, FMT_FP32, ftz, &vals);
                b.run_values(op, FMT_FP16, ftz, &half);
                b.run_values(op, FMT_BF16, ftz, &half);
            }
        }
        for n in 0..20_000u32 {
            let i = sim::soak::stimulus::tanh_vec(&mut rng, b.lanes);
            b.cycle(&i);
            if n == 12_345 {
                b.dut.reset(1);
                b.gold.reset();
            }
        }
    }
}

/// The half-only datapath's golden model (config `formats = "half"`, issue 15; `lane_half`, tables
/// `hdl::tanh_sigmoid::tables_half`; the RTL `HalfLane` is held to it by the `half_*` tests
/// below): every fp16 and bf16 input x 3 ops x ftz meets §0.1's bounds (the same `check_bounds`
/// as the all-formats unit), the special values are the all-formats lane's, and fp32 /
/// reserved-format requests give the reserved-format result (§6.4). Prints the maxima
/// (docs/tanh_sigmoid.md, "formats = half").
#[test]
fn half_datapath_golden_every_fp16_and_bf16_input_meets_the_bounds() {
    for params in [Params::default(), Params { fused: false, canon_nan: true }] {
        for fmt in [FMT_FP32, FMT_RESERVED] {
            for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH, OP_RESERVED] {
                for raw in [0, 0x3F80_0000, 0x7FC0_0000, 0x3C00] {
                    assert_eq!(lane_half(params, op, fmt, false, raw), RESERVED_NAN);
                }
            }
        }
    }
    let p = Params::default();
    for fmt in [FMT_FP16, FMT_BF16] {
        for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH] {
            let (mut worst_u, mut worst_abs) = (0.0f64, 0.0f64);
            for ftz in [false, true] {
                for raw in 0..=0xFFFFu32 {
                    let out = lane_half(p, op, fmt, ftz, raw);
                    let full = lane(op, fmt, ftz, raw);
                    let x = f32::from_bits(widen(raw, fmt, ftz)) as f64;
                    // not interpolated (NaN, zero, tiny, saturated: sigmoid |x| >= 32, tanh |x| >= 16
                    // or < 2^-12): the all-formats lane's result
                    let interpolated = x.is_finite()
                        && x != 0.0
                        && if op == OP_SIGMOID { x.abs() < 32.0 } else { x.abs() < 16.0 && x.abs() >= 2f64.powi(-12) };
                    if !interpolated {
                        assert_eq!(out, full, "op {op} fmt {fmt} ftz {ftz} raw {raw:#x}");
                    }
                    if !ftz {
                        check_bounds(op, fmt, raw, out);
                        if op != OP_TANH_PRE && !x.is_nan() {
                            let f = reference(op, x);
                            let err = (to_f64(out, fmt) - f).abs();
                            if fmt == FMT_FP16 && f.abs() < 2f64.powi(-14) {
                                worst_abs = worst_abs.max(err);
                            } else if fmt == FMT_FP16 || op == OP_TANH || x > -16.0 {
                                worst_u = worst_u.max(err / ulp(f, fmt));
                            }
                        }
                    }
                }
            }
            println!("half datapath: fmt {fmt} op {op}: max {worst_u:.4} ulp, max abs below fp16 normal {:.3} x 2^-24", worst_abs / 2f64.powi(-24));
        }
    }
}

/// The half-only variants (config `formats = "half"`, hdl `tanh_sigmoid::half::HalfLane`): one lane
/// at LAT 6, one lane at lat 7 (cut A: a register inside the round stage), and two lanes with
/// 4-bit tags, CANON_NAN = 1 and lat 9 (cuts A, B the register inside the stage-4 accumulate, and
/// C the register between the stage-1 widen and decode), and one lane at lat 11 (all five cuts: D
/// the register after the round stage's leading-zero count, E the products as `MulDsp`), and one
/// lane at lat 13 (all seven: F the register between the subnormal shift and the RNE increment, G
/// the one after the stage-4 range reduction).
const HALF: [&str; 5] = ["lanes1_half", "lanes1_half_lat7", "lanes2_half_tag4_canon_lat9", "lanes1_half_lat11", "lanes1_half_lat13"];

/// Every fp16 and bf16 input x 3 ops x ftz through the half RTL against `lane_half`, every port
/// every cycle (`exhaustive16`'s shape); for the one-lane variant the results also meet §0.1's
/// bounds (the golden model's own sweep checks all of them).
#[test]
fn half_every_fp16_and_bf16_input_all_ops_both_ftz() {
    let all: Vec<u32> = (0..=0xFFFFu32).collect();
    for variant in HALF {
        let mut b = Bench::new(variant);
        for fmt in [FMT_FP16, FMT_BF16] {
            for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH] {
                for ftz in [false, true] {
                    b.run_values(op, fmt, ftz, &all);
                }
            }
        }
    }
}

/// fp32 and the reserved format give 0x7FC00000 in the half unit (§6.4), for every op, ftz and
/// value class (the fp32 directed set: specials, NaN payloads, thresholds), and the reserved op
/// with fp16/bf16 as well: checked against the golden model every cycle and on the port itself.
#[test]
fn half_fp32_and_reserved_requests_give_the_reserved_result() {
    let directed = fp32_directed();
    for variant in HALF {
        let mut b = Bench::new(variant);
        for fmt in [FMT_FP32, FMT_RESERVED] {
            for op in [OP_TANH_PRE, OP_SIGMOID, OP_TANH, OP_RESERVED] {
                for ftz in [false, true] {
                    b.run_values(op, fmt, ftz, &directed);
                }
            }
        }
        for fmt in [FMT_FP16, FMT_BF16] {
            b.run_values(OP_RESERVED, fmt, false, &[0, 0x3C00, 0x7C01, 0xFFFF]);
        }
        // the port: an fp32 1.0 through sigmoid is the reserved result, not sigmoid(1)
        let o_data = b.p.out_data;
        let x = VecIn { valid: true, op: OP_SIGMOID, fmt: FMT_FP32, mask: 1, tag: 1, data: vec![0x3F80_0000; b.lanes], ..Default::default() };
        b.cycle(&x);
        for _ in 1..b.gold.lat() {
            b.idle();
        }
        assert_eq!(b.dut.get(o_data) & 0xFFFF_FFFF, RESERVED_NAN as u64, "{variant}");
        b.drain();
    }
}

#[test]
fn half_result_leaves_exactly_lat_cycles_after_its_input() {
    for (variant, lat) in HALF.into_iter().zip([6u32, 7, 9, 11, 13]) {
        let mut b = Bench::new(variant);
        assert_eq!(b.gold.lat(), lat as usize);
        let (o_valid, o_tag, o_data) = (b.p.out_valid, b.p.out_tag, b.p.out_data);
        let mut data = vec![0u32; b.lanes];
        data[0] = 0x0000; // fp16 +0: sigmoid 0.5 = 0x3800
        let x = VecIn { valid: true, op: OP_SIGMOID, fmt: FMT_FP16, mask: 1, tag: 0x5, data, ..Default::default() };
        let idle = VecIn { data: vec![0; b.lanes], ..Default::default() };
        for n in 1..=lat + 2 {
            b.cycle(if n == 1 { &x } else { &idle });
            let got = (b.dut.get(o_valid), b.dut.get(o_tag), b.dut.get(o_data));
            assert_eq!(got, if n == lat { (1, 0x5, 0x3800) } else { (0, 0, 0) }, "{variant}: after clock edge {n}");
        }
    }
}

/// Random control (masks, tags, bubbles, reserved ops and formats, fp32 requests) with resets in
/// traffic, the half variants, every port every cycle.
#[test]
fn half_random_control_masks_tags_bubbles_reserved_and_reset() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x4a1f);
    for variant in HALF {
        let mut b = Bench::new(variant);
        for n in 0..200_000u32 {
            let i = sim::soak::stimulus::tanh_vec(&mut rng, b.lanes);
            b.cycle(&i);
            if n % 50_000 == 49_999 {
                b.dut.reset(1);
                b.gold.reset();
            }
        }
    }
}
