//! One soak chunk per block: random stimulus through the block's lock-step driver
//! (`sim::drivers`), every output port compared with the golden model every cycle. The stimulus
//! is the block's random test's (sim/tests/<block>.rs), written once more here only where the
//! test keeps it private.

use super::Meter;
use crate::drivers;
use crate::golden;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Runs about `cycles` random cycles of `block`'s co-sim variant `variant` from `seed`; returns
/// the cycles the model was clocked. Panics on the first mismatch (the harness's message).
pub fn run(block: &str, variant: &str, seed: u64, cycles: u64, m: &mut Meter) -> u64 {
    match block {
        "alu_pipeline" => alu_pipeline(variant, seed, cycles, m),
        "branch_unit" => branch_unit(variant, seed, cycles, m),
        "region_addr_gen" => region_addr_gen(variant, seed, cycles, m),
        "tanh_sigmoid" => tanh_sigmoid(variant, seed, cycles, m),
        "trap_controller" => trap_controller(variant, seed, cycles, m),
        _ => panic!("the soak has no stimulus for block `{block}`"),
    }
}

// ------------------------------------------------------------------------------------------
// trap_controller: the random test bench of tests/trap_controller.rs (drivers::trap_controller)

fn trap_controller(variant: &str, seed: u64, cycles: u64, m: &mut Meter) -> u64 {
    let (w, pipe) = match variant.strip_suffix("_p") {
        Some(v) => (v, 1),
        None => (variant, 0),
    };
    let w: usize = w.strip_prefix('w').and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("trap_controller variant `{variant}`"));
    let mut r = drivers::trap_controller::RandomTrap::new(w, pipe, seed);
    while r.tb.dut.cycle() < cycles && m.at(r.tb.dut.cycle()) {
        r.step(false);
    }
    r.finish();
    r.check_accounting();
    r.tb.dut.cycle()
}

// ------------------------------------------------------------------------------------------
// branch_unit: random structured programs (as tests/branch_unit.rs `rtl_random_programs`) with
// raw request streams (as its `raw_stream`) between them, the state carried over.

fn branch_unit(variant: &str, seed: u64, cycles: u64, m: &mut Meter) -> u64 {
    use golden::branch_unit::prog::{assemble, simd_run_at, Gen};
    use golden::branch_unit::{op, step, Cfg, Instr, State};
    let c = hdl::registry::cosim_config::<hdl::branch_unit::Block>(variant);
    let cfg = Cfg { n: c.lanes, maxd: c.maxd_r(), maxd_call: c.maxd_call, ipw: c.ipw as u32 };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut sbu = drivers::branch_unit::Sbu::new(variant, cfg);
    let mut cur = State::reset(&cfg);
    let top = drivers::branch_unit::ip_mask(&cfg);
    let half = cfg.imem_depth() / 2;
    let mut programs = 0u64;
    while sbu.dut.cycle() < cycles && m.at(sbu.dut.cycle()) {
        if rng.gen_bool(0.9) {
            let size = rng.gen_range(8..40);
            let ast = Gen::program(&mut rng, size, cfg.maxd_call);
            let p = assemble(&ast, programs % 2 == 0, rng.gen());
            let live = if rng.gen_bool(0.7) {
                cfg.nmask()
            } else {
                loop {
                    let l = rng.gen::<u64>() & cfg.nmask();
                    if l != 0 {
                        break l;
                    }
                }
            };
            let run = simd_run_at(&cfg, &p, 0, live, &mut rng, 200_000).unwrap_or_else(|e| panic!("{variant}: {e}"));
            for st in &run.steps {
                let (s2, o) = step(&cfg, &cur, &st.instr, st.pred);
                sbu.step(&st.instr, st.pred, &o, &s2);
                cur = s2;
            }
            sbu.idle(&cur);
            programs += 1;
        } else {
            // a raw burst: arbitrary ops, offsets and predicates near the edges of the IP range
            for _ in 0..rng.gen_range(1..200) {
                if rng.gen_bool(0.05) {
                    sbu.idle(&cur);
                    continue;
                }
                let o = if cur.fault && rng.gen_bool(0.5) || rng.gen_bool(0.03) {
                    op::INIT
                } else if rng.gen_bool(0.8) {
                    [op::IF, op::ELSE, op::ENDIF, op::DO, op::WHILE, op::BREAK, op::CONT, op::CALL, op::RET, op::BRANCH,
                     op::HALT, op::JOIN_BR, op::JOIN_HALT, op::NOP, op::EOT][rng.gen_range(0..15)]
                } else {
                    rng.gen_range(0..0x20)
                };
                let ip = if rng.gen_bool(0.05) { top - rng.gen_range(0..3) } else { rng.gen_range(0..24) };
                let mut off = || -> i64 {
                    match rng.gen_range(0..10) {
                        0 => 0,
                        1 => rng.gen_range(-half..half),
                        2..=3 => rng.gen_range(-6..0),
                        _ => rng.gen_range(1..10),
                    }
                };
                let (j, u) = (off(), off());
                let pred = if rng.gen_bool(0.3) { cfg.nmask() } else { rng.gen::<u64>() & cfg.nmask() };
                let i = Instr::new(o, ip, j, u);
                let (s2, out) = step(&cfg, &cur, &i, pred);
                sbu.step(&i, pred, &out, &s2);
                cur = s2;
            }
        }
    }
    sbu.dut.cycle()
}

// ------------------------------------------------------------------------------------------
// region_addr_gen: random descriptors, legal and illegal, random valid/ready, rare resets (as
// tests/region_addr_gen.rs `random_run`)

fn region_addr_gen(variant: &str, seed: u64, cycles: u64, m: &mut Meter) -> u64 {
    use golden::region_addr_gen::*;
    let mut b = drivers::region_addr_gen::RagBench::new(variant);
    let mut rng = StdRng::seed_from_u64(seed);
    let cfg = b.cfg;
    while b.dut.cycle() < cycles && m.at(b.dut.cycle()) {
        let d = rag_desc(&mut rng, &cfg);
        let res = rag(&cfg, &d);
        let in_valid = rng.gen_range(0..8) != 0;
        let out_ready = rng.gen_range(0..8) != 0;
        b.step_with(in_valid, &d, &res, out_ready);
        if rng.gen_range(0..20_000) == 0 {
            b.dut.reset(1);
            b.model = RagTiming::new(b.pipe);
            b.check_with(out_ready);
        }
    }
    b.dut.cycle()
}

/// A random descriptor for `cfg`, legal or not (one in five carries anything the ports can
/// carry). Shared with tests/region_addr_gen.rs.
pub fn rag_desc(rng: &mut StdRng, cfg: &golden::region_addr_gen::Cfg) -> golden::region_addr_gen::Desc {
    use golden::region_addr_gen::*;
    let nmax_log = cfg.n_max.trailing_zeros();
    let mut d = Desc {
        enc_err: false,
        reg: rng.gen_range(0..cfg.nr),
        sub: rng.gen_range(0..cfg.rb),
        ty: rng.gen_range(T_UB..=T_F),
        exec_log2: rng.gen_range(0..=nmax_log),
        width_log2: 0,
        hs: match rng.gen_range(0..4) {
            0 => rng.gen_range(0..5),
            1 => [0, 1, 2, 4, 8, 16, 32, 64][rng.gen_range(0..8)],
            _ => rng.gen_range(0..128),
        },
        vs: match rng.gen_range(0..4) {
            0 => rng.gen_range(0..5),
            1 => [0, 1, 2, 4, 8, 16, 32, 64, 128][rng.gen_range(0..9)],
            _ => rng.gen_range(0..256),
        },
        is_dst: rng.gen_bool(0.5),
        colmajor: cfg.colmajor_en && rng.gen_bool(0.3),
        tag: rng.gen_range(0..16),
    };
    d.width_log2 = rng.gen_range(0..=d.exec_log2);
    if rng.gen_bool(0.2) {
        // anything the ports can carry
        d.enc_err = rng.gen_bool(0.2);
        d.reg = rng.gen_range(0..1 << cfg.rn_w());
        d.ty = rng.gen_range(0..8);
        d.exec_log2 = rng.gen_range(0..8);
        d.width_log2 = rng.gen_range(0..8);
        d.colmajor = rng.gen_bool(0.3);
    }
    d
}

// ------------------------------------------------------------------------------------------
// tanh_sigmoid: random ops, formats, masks, tags, bubbles, reserved codes and rare resets (as
// tests/tanh_sigmoid.rs `random_control_masks_tags_bubbles_reserved_and_reset`)

/// One random request for a `lanes`-lane unit: valid 70 %, every op and format code (reserved
/// ones too), random ftz, mask and tag, and data that is a random word, an fp32 in ±20, or an
/// fp16 / bf16 in ±20 / ±40 with junk in the upper half. Shared with tests/tanh_sigmoid.rs.
pub fn tanh_vec(rng: &mut StdRng, lanes: usize) -> golden::tanh_sigmoid::VecIn {
    let data = (0..lanes)
        .map(|_| match rng.gen_range(0..4) {
            0 => rng.gen::<u32>(),
            1 => rng.gen_range(-20.0f32..20.0).to_bits(),
            2 => half::f16::from_f32(rng.gen_range(-20.0f32..20.0)).to_bits() as u32 | (rng.gen::<u32>() << 16),
            _ => half::bf16::from_f32(rng.gen_range(-40.0f32..40.0)).to_bits() as u32 | (rng.gen::<u32>() << 16),
        })
        .collect();
    golden::tanh_sigmoid::VecIn {
        valid: rng.gen_bool(0.7),
        op: rng.gen_range(0..4u8),
        fmt: rng.gen_range(0..4u8),
        ftz: rng.gen(),
        mask: rng.gen::<u32>() & ((1u64 << lanes) - 1) as u32,
        // 16 bits, the widest TAG_WIDTH; the bench cuts them to the model's
        tag: rng.gen::<u32>() & 0xFFFF,
        data,
    }
}

fn tanh_sigmoid(variant: &str, seed: u64, cycles: u64, m: &mut Meter) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = drivers::tanh_sigmoid::TanhBench::new(variant);
    while b.dut.cycle() < cycles && m.at(b.dut.cycle()) {
        let i = tanh_vec(&mut rng, b.lanes);
        b.cycle(&i);
        if rng.gen_range(0..50_000) == 0 {
            b.dut.reset(1);
            b.gold.reset();
        }
    }
    b.dut.cycle()
}

// ------------------------------------------------------------------------------------------
// alu_pipeline: random sessions (as tests/alu_pipeline.rs `random_session`): bursts of groups
// with random programs, CE patterns, bubbles, back-pressure, bad sideband rows, config traffic
// (also while busy), clears and resets

fn alu_pipeline(variant: &str, seed: u64, cycles: u64, m: &mut Meter) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut s = drivers::alu_pipeline::Sim::new(variant);
    let depth = drivers::alu_pipeline::variant_params(variant).imem_depth as u8;
    while s.dut.cycle() < cycles && m.at(s.dut.cycle()) {
        alu_burst(&mut s, &mut rng, depth);
    }
    s.dut.cycle()
}

/// One step of a random ALU session (shared with tests/alu_pipeline.rs): a reset now and then,
/// a few IMEM/G/K writes, then a burst of groups with bubbles, back-pressure, bad sideband rows,
/// config traffic and clears, run until it drains.
pub fn alu_burst(s: &mut drivers::alu_pipeline::Sim, rng: &mut StdRng, depth: u8) {
    use golden::alu_pipeline::{Inputs, Row, St};
    use hdl::alu_pipeline::isa::*;
    if rng.gen_bool(0.05) {
        s.reset();
    }
    for _ in 0..rng.gen_range(0..8) {
        let e = rng.gen_range(0..depth.min(8)) as u32;
        let ins = alu_instr(rng);
        for w in 0..5 {
            s.cfg_write(cfg_imem(e, w), ins[w as usize]);
        }
    }
    for _ in 0..rng.gen_range(0..3) {
        s.cfg_write(CFG_G + rng.gen_range(0..16), rng.gen());
    }
    if rng.gen_bool(0.1) {
        s.cfg_write(CFG_CTRL, rng.gen_range(0..4));
    }
    let p_ce = [1.0, 0.75, 0.5, 0.25, 0.0][rng.gen_range(0..5)];
    let mut rows: Vec<Row> = Vec::new();
    for _ in 0..rng.gen_range(1..12) {
        rows.extend(alu_group(rng, depth, p_ce).rows());
    }
    if rng.gen_bool(0.05) {
        let i = rng.gen_range(0..rows.len());
        match rng.gen_range(0..3) {
            0 => rows[i].pix ^= 1,
            1 => rows[i].nrows_m1 = rng.gen_range(0..4),
            _ => rows[i].iptr ^= 1,
        }
    }
    let p_valid = [1.0, 0.9, 0.5][rng.gen_range(0..3)];
    let p_ready = [1.0, 0.8, 0.3][rng.gen_range(0..3)];
    let mut next = 0;
    let mut guard = 0;
    while (next < rows.len() || s.g.outputs().busy) && guard < 20_000 {
        guard += 1;
        let o = s.g.outputs();
        let mut inp = Inputs { out_ready: rng.gen_bool(p_ready), ..Default::default() };
        if next < rows.len() && rng.gen_bool(p_valid) {
            inp = Inputs { out_ready: inp.out_ready, ..drivers::alu_pipeline::row_inputs(&rows[next]) };
            if o.in_ready {
                next += 1;
            }
        } else if next >= rows.len() && s.g.buf[s.g.fp].st == St::Fill {
            // a corrupted nrows_m1 changed a group's row count: complete it with filler rows
            let b = &s.g.buf[s.g.fp];
            inp = Inputs {
                in_valid: true,
                in_pix: (b.n % 4) as u8,
                in_row: (b.n / 4) as u8,
                in_nrows_m1: (b.r - 1) as u8,
                in_iptr: b.iptr[0][b.n / 4],
                in_data: [rng.gen(), 1, 2, 3],
                in_ce: rng.gen(),
                out_ready: inp.out_ready,
                ..Default::default()
            };
        } else if rng.gen_bool(0.2) {
            inp.in_data = [rng.gen(), rng.gen(), rng.gen(), rng.gen()];
            inp.in_iptr = rng.gen_range(0..32);
            inp.in_ce = rng.gen();
        }
        if rng.gen_bool(0.02) {
            inp.cfg_re = true;
            inp.cfg_addr = rng.gen_range(0..0x200);
        }
        if rng.gen_bool(0.005) {
            inp.cfg_we = true;
            inp.cfg_addr = rng.gen_range(0..0x200);
            inp.cfg_wdata = if inp.cfg_addr as u32 == CFG_CTRL { rng.gen_range(0..4) } else { rng.gen() };
        }
        s.cycle(&inp);
    }
    assert!(guard < 20_000, "burst did not drain");
}

/// Shared with tests/alu_pipeline.rs (its random programs and groups).
pub fn alu_lane(rng: &mut StdRng) -> u32 {
    use hdl::alu_pipeline::isa::lane;
    let op = if rng.gen_bool(0.03) { 15 } else { rng.gen_range(0..15) };
    let src = |rng: &mut StdRng| -> u32 {
        match rng.gen_range(0..10) {
            0..=6 => rng.gen_range(0..16),
            7 => rng.gen_range(16..24),
            _ => rng.gen_range(24..32),
        }
    };
    let dst = match rng.gen_range(0..20) {
        0 => rng.gen_range(24..31),
        1 => 31,
        2 => rng.gen_range(16..24),
        _ => rng.gen_range(0..16),
    };
    let mut w = lane(op, src(rng), src(rng), src(rng), src(rng), dst);
    if rng.gen_bool(0.02) {
        w |= rng.gen_range(1..8) << 29;
    }
    if rng.gen_bool(0.1) {
        0
    } else {
        w
    }
}

/// Shared with tests/alu_pipeline.rs (its random programs and groups).
pub fn alu_instr(rng: &mut StdRng) -> [u32; 5] {
    use hdl::alu_pipeline::isa::cxw;
    let mut ins = [alu_lane(rng), alu_lane(rng), alu_lane(rng), alu_lane(rng), 0];
    if rng.gen_bool(0.5) {
        let f = if rng.gen_bool(0.03) { 3 } else { rng.gen_range(0..3) };
        ins[4] = cxw(rng.gen_range(0..4), f, rng.gen_range(0..16), rng.gen_range(0..16));
        if rng.gen_bool(0.02) {
            ins[4] |= 1 << rng.gen_range(13..32);
        }
    }
    ins
}

/// Shared with tests/alu_pipeline.rs (its random programs and groups).
pub fn alu_group(rng: &mut StdRng, depth: u8, p_ce: f64) -> golden::alu_pipeline::Group {
    let r = rng.gen_range(1..=4);
    let mut regs = [[0u32; 16]; 4];
    for p in regs.iter_mut() {
        for v in p.iter_mut() {
            *v = match rng.gen_range(0..4) {
                0 => rng.gen_range(0..16),
                1 => rng.gen::<u32>() | 0x8000_0000,
                _ => rng.gen(),
            };
        }
    }
    let mut ce = [[true; 4]; 4];
    for p in ce.iter_mut() {
        for c in p.iter_mut() {
            *c = rng.gen_bool(p_ce);
        }
    }
    let mut iptr = [0u8; 4];
    for i in iptr.iter_mut() {
        *i = if rng.gen_bool(0.01) { rng.gen_range(0..32) } else { rng.gen_range(0..depth.min(8)) };
    }
    let tag = [[rng.gen(); 4]; 4];
    golden::alu_pipeline::Group { r, regs, ce, iptr, tag }
}
