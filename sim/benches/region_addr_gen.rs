//! Report for region_addr_gen (`cargo bench -p sim --bench region_addr_gen`).
//!
//! RAG at the default config (RB=32, NR=128, N_MAX=16), median of 5 runs each, per wall second and
//! per CPU second of the bench thread (`sim::bench`):
//! 1. bare Verilator model cycles/s (`Dut::run_bare` over pre-generated packed inputs);
//! 2. co-sim cycles/s with the golden model and a full compare every cycle
//!    (drive + tick + golden + check, as the tests do);
//! 3. golden-model-only descriptors/s.

use hdl::region_addr_gen::Config;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::bench::{Rate, RUNS};
use sim::cosim::Dut;
use sim::golden::region_addr_gen::*;
use std::hint::black_box;

const N: usize = 400_000;

fn random_desc(rng: &mut StdRng, cfg: &Cfg) -> Desc {
    let nmax_log = cfg.n_max.trailing_zeros();
    let exec_log2 = rng.gen_range(0..=nmax_log);
    let mut d = Desc {
        enc_err: false,
        reg: rng.gen_range(0..cfg.nr),
        sub: rng.gen_range(0..cfg.rb),
        ty: rng.gen_range(0..7),
        exec_log2,
        width_log2: rng.gen_range(0..=exec_log2),
        hs: rng.gen_range(0..128),
        vs: rng.gen_range(0..256),
        is_dst: rng.gen_bool(0.5),
        colmajor: false,
        tag: rng.gen_range(0..16),
    };
    if rng.gen_bool(0.2) {
        d.ty = rng.gen_range(0..8);
        d.exec_log2 = rng.gen_range(0..8);
        d.width_log2 = rng.gen_range(0..8);
        d.enc_err = rng.gen_bool(0.2);
    }
    d
}

/// The RAG's ports by their spec names (bindings generated from the model's port list).
type P = sim::ports::EuRegionAddrGen;

fn drive(dut: &mut Dut, p: &P, valid: bool, d: &Desc, ready: bool) {
    let v = [
        valid as u64,
        d.enc_err as u64,
        d.reg as u64,
        d.sub as u64,
        d.ty as u64,
        d.exec_log2 as u64,
        d.width_log2 as u64,
        d.hs as u64,
        d.vs as u64,
        d.is_dst as u64,
        d.colmajor as u64,
        d.tag as u64,
        ready as u64,
    ];
    let ins = [
        p.in_valid, p.in_enc_err, p.in_reg, p.in_sub, p.in_type, p.in_exec_log2, p.in_width_log2, p.in_hs, p.in_vs,
        p.in_is_dst, p.in_colmajor, p.in_tag, p.out_ready,
    ];
    for (port, val) in ins.into_iter().zip(v) {
        dut.set(port, val);
    }
}

fn main() {
    let c = Config::default();
    let cfg = Cfg::from(&c);
    let id = "region_addr_gen_default/eu_region_addr_gen";
    let mut rng = StdRng::seed_from_u64(2026);
    let descs: Vec<Desc> = (0..N).map(|_| random_desc(&mut rng, &cfg)).collect();
    let valid: Vec<bool> = (0..N).map(|_| rng.gen_range(0..8) != 0).collect();
    let ready: Vec<bool> = (0..N).map(|_| rng.gen_range(0..8) != 0).collect();

    // Pre-packed input vectors for the bare run.
    let mut dut = Dut::new(id);
    let p = P::of(&dut);
    let (iw, ow) = (dut.desc().in_words, dut.desc().out_words);
    let mut packed = Vec::with_capacity(N * iw);
    for i in 0..N {
        drive(&mut dut, &p, valid[i], &descs[i], ready[i]);
        packed.extend_from_slice(dut.inputs_raw());
    }
    let mut outputs = vec![0u32; N * ow];

    let bare = Rate::median_of_runs(|_| {
        let mut dut = Dut::new(id);
        dut.reset(1);
        dut.run_bare(&packed, &mut outputs);
        N
    });

    // Attribution: the harness' per-cycle path without the golden model or the compare.
    let ticks = Rate::median_of_runs(|_| {
        let mut dut = Dut::new(id);
        let p = P::of(&dut);
        dut.reset(1);
        for i in 0..N {
            drive(&mut dut, &p, valid[i], &descs[i], ready[i]);
            dut.tick();
        }
        N
    });

    let cosim = Rate::median_of_runs(|_| {
        let mut dut = Dut::new(id);
        let p = P::of(&dut);
        dut.reset(1);
        let mut model = RagTiming::default();
        let mut e = dut.expected();
        let aw = cfg.a_w() as usize;
        for i in 0..N {
            let d = &descs[i];
            drive(&mut dut, &p, valid[i], d, ready[i]);
            dut.tick();
            let res = rag(&cfg, d);
            model.step(false, valid[i], d, &res, ready[i]);
            e.set(p.in_ready, model.in_ready(ready[i]) as u64);
            e.set(p.out_valid, model.out_valid as u64);
            let mut acc: u128 = 0;
            let (mut nb, mut lsb) = (0usize, 0usize);
            for ch in 0..16 {
                acc |= (model.out.addr[ch] as u128) << nb;
                nb += aw;
                if nb >= 64 {
                    e.set_field(p.out_addr, lsb, 64, acc as u64);
                    acc >>= 64;
                    nb -= 64;
                    lsb += 64;
                }
            }
            e.set(p.out_esize_log2, model.out.esize_log2 as u64);
            e.set(p.out_ch_valid, model.out.ch_valid as u64);
            e.set(p.out_straddle, model.out.straddle as u64);
            e.set(p.out_err, model.out.err as u64);
            e.set(p.out_warn, model.out.warn as u64);
            e.set(p.out_tag, model.tag as u64);
            dut.check(&e);
        }
        N
    });

    let golden = Rate::median_of_runs(|_| {
        let mut x = 0u32;
        for d in &descs {
            let r = rag(&cfg, black_box(d));
            x ^= r.addr[3] ^ r.err as u32;
        }
        black_box(x);
        N
    });

    let pct = |r: &Rate| 100.0 * r.per_cpu_s / bare.per_cpu_s;
    println!("region_addr_gen RAG, default config (RB=32, NR=128, N_MAX=16), {N} cycles/descriptors, median of {RUNS}");
    println!("| measurement | per wall s / per CPU s of the bench thread | share of bare (CPU) |");
    println!("|---|---|---|");
    println!("| bare Verilator model (run_bare) | {} cycles | 100 % |", bare.show());
    println!("| co-sim: drive + tick + golden + full compare | {} cycles | {:.0} % |", cosim.show(), pct(&cosim));
    println!("| drive + tick only (no golden, no compare) | {} cycles | {:.0} % |", ticks.show(), pct(&ticks));
    println!("| golden model only | {} descriptors | - |", golden.show());
}
