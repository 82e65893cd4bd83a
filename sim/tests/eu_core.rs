//! Co-simulation of the `eu_core` RTL (first slice, docs/eu_core.md) against the ISA-level model
//! `sim::golden::eu_core`: every retired instruction (thread, IP, exec mask, destination
//! register, flag and memory writes) and the final registers, flags and data memory, on the
//! kernels that fit the slice, on directed LD/ST programs and on random programs restricted to it
//! (`gen::program_restricted` with `hdl::eu_core::slice_ops()`). Threads are compared each in its
//! own order: the programs here give each thread its own part of the data memory (docs/isa.md
//! leaves the order of two threads' accesses to one word open), so the interleaving is not part
//! of the result. Cycles and IPC are printed, not asserted.

use hdl::eu_core::enc::op;
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

/// What a compared run gave: the RTL's retired count, cycles, final data memory and the op of
/// every retired instruction.
struct Checked {
    retired: usize,
    cycles: u64,
    mem: Vec<u8>,
    ops: Vec<u64>,
    /// The retired instruction words.
    words: Vec<u128>,
}

impl Checked {
    fn count(&self, f: impl Fn(u64) -> bool) -> usize {
        self.ops.iter().filter(|&&o| f(o)).count()
    }
}

/// Runs `m` on the ISA model and on the RTL and compares them; returns (retired, RTL cycles,
/// retired LD/ST).
fn check(rtl: &mut EuCoreRtl, name: &str, m: Model) -> (usize, u64, usize) {
    let c = check_run(rtl, name, m);
    (c.retired, c.cycles, c.count(|o| matches!(o, op::LD | op::ST)))
}

/// `check`, returning everything the run gave.
fn check_run(rtl: &mut EuCoreRtl, name: &str, m: Model) -> Checked {
    let threads = m.cfg.threads;
    let (prog, rf, mem) = (m.prog.clone(), m.rf.clone(), m.mem.clone());
    let gold: Run = m.run();
    assert_eq!(gold.end, End::Done, "{name}: the ISA model did not finish ({} cycles)", gold.cycles);
    assert!(gold.exceptions.is_empty(), "{name}: the ISA model raised {:?}", gold.exceptions);
    let r: RtlRun = rtl.run(&prog, &rf, &mem, 50 * gold.cycles + 1000);
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
    if let Some(k) = (0..mem.len() / 4).find(|&k| r.mem[4 * k..4 * k + 4] != gold.mem[4 * k..4 * k + 4]) {
        panic!("{name}: final data memory differs first at byte {:#x}: ISA model {:02x?}, RTL {:02x?}", 4 * k, &gold.mem[4 * k..4 * k + 4], &r.mem[4 * k..4 * k + 4]);
    }
    let ops = r.trace.iter().map(|x| prog.code[x.ip as usize] as u64 & 0x7F).collect();
    let words = r.trace.iter().map(|x| prog.code[x.ip as usize]).collect();
    Checked { retired: r.trace.len(), cycles: r.cycles, mem: r.mem, ops, words }
}

/// The instruction has a register operand whose region is not the ISA's default one (a 32-bit
/// type, offset 0, `<N;N,1>` / `<1>`): a narrow type, an offset, a stride or a width of its own.
fn has_own_region(w: u128) -> bool {
    use sim::golden::eu_core::{operands, Inst, Region};
    use sim::golden::region_addr_gen as rag;
    let i = Inst::decode(w).unwrap();
    let o = operands(i.op);
    let wide = |r: &Region| matches!(r.ty, rag::T_D | rag::T_UD | rag::T_F);
    let n = 1 << i.exec_log2.min(3);
    let src = |r: &Region| !(wide(r) && r.sub == 0 && r.vs == n && r.width_log2 == i.exec_log2 && r.hs == 1);
    let imm_src0 = o.src0 && !o.src1 && i.op != op::LD && i.imm.is_some();
    (o.dst && !(wide(&i.dst) && i.dst.sub == 0 && i.dst.hs == 1))
        || (o.src0 && !imm_src0 && src(&i.src0))
        || (o.src1 && i.imm.is_none() && src(&i.src1))
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
    let (n, c, _) = check(&mut rtl, "fractal", m);
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
    let (n, c, _) = check(&mut rtl, "gcd_collatz", m);
    report("gcd_collatz", n, c);
}

/// Kernel 1 (activation: 4 096 values through TANH and SIGMOID, SRD of TID and LANE for the
/// addresses) in fp32, fp16 and bf16 with the inputs of sim/tests/eu_isa.rs, on the default core
/// with a data memory that holds it (48 KiB); every result word is also checked against the
/// tanh/sigmoid golden model directly.
#[test]
fn eu_core_kernel_activation_matches_the_isa_model() {
    use sim::golden::tanh_sigmoid as ts;
    let mut rtl = EuCoreRtl::new("d64k");
    let src = std::fs::read_to_string(format!("{}/../kernels/activation.s", env!("CARGO_MANIFEST_DIR"))).unwrap();
    for (fname, fmt) in [("fp32", ts::FMT_FP32), ("fp16", ts::FMT_FP16), ("bf16", ts::FMT_BF16)] {
        let p = assemble(&src.replace(".fp32", &format!(".{fname}"))).unwrap();
        let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p);
        let xs = sim::golden::eu_core::kernels::activation_inputs(fmt);
        for (k, &x) in xs.iter().enumerate() {
            m.set_word(4 * k, x);
        }
        let name = format!("activation {fname}");
        let Checked { retired: n, cycles: c, mem, .. } = check_run(&mut rtl, &name, m);
        report(&name, n, c);
        let word = |a: usize| u32::from_le_bytes(mem[a..a + 4].try_into().unwrap());
        let mask = if fmt == ts::FMT_FP32 { u32::MAX } else { 0xFFFF };
        for (k, &x) in xs.iter().enumerate() {
            assert_eq!(word(16384 + 4 * k) & mask, ts::lane(ts::OP_TANH as u8, fmt, false, x), "{fname} tanh #{k}");
            assert_eq!(word(32768 + 4 * k) & mask, ts::lane(ts::OP_SIGMOID as u8, fmt, false, x), "{fname} sigmoid #{k}");
        }
    }
}

/// The math unit with several threads' ops in flight: every thread runs TANH, SIGMOID, MUL, MULH,
/// I2F and F2I back to back, so a thread's MUL, MULH or conversion (2 cycles in the aux engine) is
/// fed while other threads' tanh/sigmoid lanes (16 cycles) are still in the block and comes back
/// before them, and the feeder turns threads away (replays) while it feeds another's op;
/// predicated and exec-size-4 ops mask lanes, and immediates take src0's or src1's place. F2I
/// of random words meets NaNs, infinities and saturation; I2F then F2I goes there and back;
/// I2F with a condition modifier sets flags from its float result.
#[test]
fn eu_core_math_unit_overlapping_threads_match_the_isa_model() {
    let src = "\
    tanh.fp32 r4, r3
    mulh r5, r1, r2
    sigmoid.bf16.ftz r6, r3
    cmp.lt.f0 r1, r2
    (f0) mulh r7, r1, 0x80000001
    (!f0) tanh_pre.fp16 r8, r3
    mulh (4) r9, r2, r1
    tanh.fp32 r10, 0x3f000000
    mulh r11, r1, r2
    i2f r12, r1
    f2i r13, r12
    (f0) f2i r14, r3
    i2f.lt.f1 r15, r2
    (f1) tanh.fp32 r16, r15
    f2i (4) r17, 0x4f000000
    i2f r18, 0x80000000
    f2i r19, 0xcf000001
    mul r20, r1, r2
    (!f1) mul.lt.f1 r21, r2, 0xfffffffd
    mul (2) r22, r12, r1
";
    let mut rtl = EuCoreRtl::new("default");
    let mut rng = StdRng::seed_from_u64(5);
    let prog = assemble(src).unwrap();
    let words = prog.code.len();
    let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, prog);
    for t in 0..4 {
        for l in 0..8 {
            for r in 1..4 {
                m.set_lane(t, r, l, rng.gen());
            }
        }
    }
    let (n, c, _) = check(&mut rtl, "math overlap", m);
    report("math overlap", n, c);
    assert_eq!(n, 4 * words, "straight-line code: every word retires once per thread");
}

/// Gives thread t of a random model its own part of the data memory's first 4 KiB (1 KiB with
/// four threads, 512 B with eight): the LD/ST addresses in `gen::ADDR_REG` (word aligned, room
/// for LD's offset up to 28; unit-stride or random) inside [S t, S t + S); the memory as large as the RTL's, random data
/// in the first 4 KiB (the rest zero).
fn private_memory(rng: &mut StdRng, m: &mut Model, dmem_bytes: usize) {
    let share = (gen::MEM_BYTES / m.cfg.threads).min(1024);
    assert!(gen::MEM_BYTES <= dmem_bytes && share >= 256);
    m.cfg.mem_bytes = dmem_bytes;
    m.mem.resize(dmem_bytes, 0);
    for t in 0..m.cfg.threads {
        // half the threads address unit-stride words from a random word (the memory unit's
        // parallel access, rows differing between banks when unaligned), half random words
        // (mostly the lane-serial walk)
        let unit_stride = rng.gen_bool(0.5);
        let base = 4 * rng.gen_range(0..(share - 64) / 4);
        for l in 0..8 {
            let a = if unit_stride { base + 4 * l } else { 4 * rng.gen_range(0..(share - 32) / 4) };
            m.set_lane(t, gen::ADDR_REG, l, (share * t + a) as u32);
        }
    }
}

/// LD/ST, directed: every thread loads its 8 words, adds, stores them back, loads with an
/// offset, stores under a predicate and with exec size 4, and stores two lanes to one address
/// (the higher lane wins); all threads at once, so the memory unit is busy when other threads'
/// memory ops arrive (they are replayed).
#[test]
fn eu_core_load_store_matches_the_isa_model() {
    let mut rtl = EuCoreRtl::new("default");
    let p = assemble(
        "
    ld r3, r1
    add r3, r3, r2
    st r1, r3
    ld r4, r1, 4
    cmp.gt.f0 r4, r3
    (f0) st r1, r2
    st (4) r5, r4
    ld.ne.f1 r6, r5
    (!f1) add r7, r6, 1
    st r8, r1
",
    )
    .unwrap();
    let mut rng = StdRng::seed_from_u64(0x1d57);
    let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p);
    for t in 0..4 {
        for l in 0..8 {
            let base = (1024 * t + 32 * l) as u32;
            m.set_lane(t, 1, l, base + 4 * rng.gen_range(0..7));
            m.set_lane(t, 2, l, rng.gen());
            m.set_lane(t, 5, l, base + 512 + 4 * l as u32);
            // lanes 2 and 3 store to one word
            m.set_lane(t, 8, l, (1024 * t + 768 + 4 * [0, 1, 2, 2, 4, 5, 6, 7][l]) as u32);
        }
    }
    for k in 0..rtl.dmem_bytes / 4 {
        m.set_word(4 * k, if rng.gen_bool(0.2) { 0 } else { rng.gen() });
    }
    let (n, c, _) = check(&mut rtl, "load_store", m);
    report("load_store", n, c);
}

/// A LD whose lane address is misaligned and a ST past the memory stop their threads with
/// MEM_FAULT: the fault report is the ISA model's first exception (thread, IP, cause). The ISA
/// then takes every thread into the trap handler, which this slice does not have, so the rest is
/// compared with the ISA model's run of the same program without the bad address: the faulting
/// thread retires exactly what that run retires before the faulting instruction and writes
/// nothing after it, and every other thread runs to its end exactly as in that run.
#[test]
fn eu_core_bad_addresses_fault_with_mem_fault() {
    use hdl::eu_core::enc::{cause, op};
    let mut rtl = EuCoreRtl::new("default");
    let p = assemble("    add r2, r2, 1\n    ld r3, r1\n    st r4, r2\n").unwrap();
    for (bad_thread, reg, addr, bad_op) in [(1usize, 1u32, 0x102u32, op::LD), (3, 4, rtl.dmem_bytes as u32, op::ST)] {
        let model = |bad: bool| {
            let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p.clone());
            for t in 0..4 {
                for l in 0..8 {
                    m.set_lane(t, 1, l, (256 * t + 4 * l) as u32);
                    m.set_lane(t, 4, l, (256 * t + 128 + 4 * l) as u32);
                }
            }
            if bad {
                m.set_lane(bad_thread, reg, 5, addr);
            }
            m
        };
        let m = model(true);
        let (prog, rf, mem) = (m.prog.clone(), m.rf.clone(), m.mem.clone());
        let gold = m.run();
        let e = gold.exceptions.first().expect("the ISA model raises MEM_FAULT");
        assert_eq!((e.thread, e.cause), (bad_thread, cause::MEM_FAULT), "{e:?}");
        assert_eq!(prog.code[e.ip as usize] as u64 & 0x7F, bad_op, "the faulting instruction is the {bad_op:#x}");
        let good = model(false).run();
        assert!(good.exceptions.is_empty());
        let r = rtl.run(&prog, &rf, &mem, 10_000);
        assert!(r.finished);
        assert_eq!(r.fault, Some((bad_thread, e.ip, cause::MEM_FAULT, false)), "thread, IP, cause, not_yet");
        for t in 0..4 {
            let of = |v: &[sim::golden::eu_core::Retired]| v.iter().filter(|x| x.thread == t).map(|x| (x.ip, x.exec_mask, x.writes.clone())).collect::<Vec<_>>();
            let mut want = of(&good.trace);
            if t == bad_thread {
                want.truncate(want.iter().position(|x| x.0 == e.ip).expect("the good run retires the faulting IP"));
            }
            assert_eq!(of(&r.trace), want, "thread {t}: retired instructions, RTL against the good run");
        }
        // the faulting thread's ST (the last instruction) never wrote: its words keep their value
        let mut want_mem = good.mem.clone();
        let st = 256 * bad_thread + 128;
        want_mem[st..st + 32].copy_from_slice(&mem[st..st + 32]);
        assert!(r.mem == want_mem, "final data memory");
    }
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
    let (mut programs, mut retired, mut cycles, mut skipped, mut mem_ops) = (0usize, 0usize, 0u64, 0usize, 0usize);
    let (mut math_ops, mut srd_ops, mut own_regions, mut non_control, mut cvt_ops) = (0usize, 0usize, 0usize, 0usize, 0usize);
    while retired < RANDOM_RETIRED {
        let size = rng.gen_range(4..40);
        let p = gen::program_restricted(&mut rng, size, &ops);
        if p.code.len() > rtl.imem_depth {
            continue;
        }
        let mut m = gen::model(&mut rng, p, 4);
        m.cfg.host = Host::Kill;
        private_memory(&mut rng, &mut m, rtl.dmem_bytes);
        // a program whose ISA run raises an exception (a branch-unit error of the random
        // skeleton) needs the trap controller, which this slice does not have: counted, skipped
        let probe = Model { cfg: m.cfg.clone(), prog: m.prog.clone(), rf: m.rf.clone(), mem: m.mem.clone() }.run();
        if !probe.exceptions.is_empty() {
            skipped += 1;
            continue;
        }
        let run = check_run(&mut rtl, &format!("program {programs} (seed {seed})"), m);
        mem_ops += run.count(|o| matches!(o, op::LD | op::ST));
        math_ops += run.count(|o| matches!(o, op::TANH | op::TANH_PRE | op::SIGMOID | op::MUL | op::MULH | op::I2F | op::F2I));
        cvt_ops += run.count(|o| matches!(o, op::I2F | op::F2I));
        srd_ops += run.count(|o| o == op::SRD);
        own_regions += run.words.iter().filter(|&&w| has_own_region(w)).count();
        non_control += run.count(|o| !hdl::eu_core::enc::is_control(o));
        programs += 1;
        retired += run.retired;
        cycles += run.cycles;
    }
    report(&format!("random, {programs} programs"), retired, cycles);
    println!("eu_core random: {mem_ops} of the retired instructions are LD/ST");
    assert!(mem_ops * 100 >= retired, "too few LD/ST: {mem_ops} of {retired}");
    println!("eu_core random: {math_ops} TANH_PRE/SIGMOID/TANH/MUL/MULH/I2F/F2I (the math unit, {cvt_ops} of them I2F/F2I), {srd_ops} SRD");
    assert!(math_ops * 200 >= retired && srd_ops * 200 >= retired, "too few math ops ({math_ops}) or SRD ({srd_ops}) of {retired}");
    assert!(cvt_ops * 400 >= retired, "too few I2F/F2I: {cvt_ops} of {retired}");
    println!("eu_core random: {own_regions} of the {non_control} non-control instructions with a region of their own (type, offset, strides)");
    assert!(own_regions * 4 >= non_control, "too few own regions: {own_regions} of {non_control}");
    println!("eu_core random: {skipped} programs skipped (the ISA model raised an exception)");
    assert!(skipped * 10 <= programs, "{skipped} of {} programs raise exceptions", programs + skipped);
    println!("eu_core random: {:.0} retired instructions/s of co-simulation", retired as f64 / t0.elapsed().as_secs_f64());
    assert!(programs >= 20 && retired >= RANDOM_RETIRED, "too few: {programs} programs, {retired} retired");
}

/// The config matrix (issue 18 item 1, docs/eu_core.md): every co-simulation variant — among
/// them eight threads with the smallest instruction and the largest data memory, and the
/// largest instruction with the smallest data memory, which no other test names — runs kernel 3
/// (GCD/Collatz: CALL/RET, BREAK, CONT) on every thread and random programs of the slice's ops
/// (LD/ST among them) until ≥ 10 000 instructions have retired, against the ISA model.
#[test]
fn every_variant_kernel_and_random_programs() {
    let ops = hdl::eu_core::slice_ops();
    let variants = <hdl::eu_core::Block as hdl::BlockGen>::cosim_configs();
    assert!(variants.len() >= 3);
    for (v, hc) in variants {
        let mut rtl = EuCoreRtl::new(v);
        assert_eq!((rtl.threads, rtl.imem_depth, rtl.dmem_bytes), (hc.threads, hc.imem_depth, hc.dmem_bytes), "{v}");
        let mut rng = StdRng::seed_from_u64(0xE0C0);
        let mut m = Model::new(Config { threads: hc.threads, mem_bytes: hc.dmem_bytes, ..Config::default() }, kernel("gcd_collatz.s"));
        for t in 0..hc.threads {
            for l in 0..8 {
                m.set_lane(t, 1, l, rng.gen_range(1..256));
                m.set_lane(t, 2, l, rng.gen_range(1..256));
                m.set_lane(t, 3, l, rng.gen_range(1..3000));
            }
        }
        let (n, c, _) = check(&mut rtl, &format!("{v}: gcd_collatz"), m);
        report(&format!("{v}: gcd_collatz"), n, c);
        let (mut programs, mut retired, mut mem_ops) = (0usize, 0usize, 0usize);
        while retired < 10_000 {
            let size = rng.gen_range(4..40);
            let p = gen::program_restricted(&mut rng, size, &ops);
            if p.code.len() > rtl.imem_depth {
                continue;
            }
            let mut m = gen::model(&mut rng, p, hc.threads);
            m.cfg.host = Host::Kill;
            private_memory(&mut rng, &mut m, rtl.dmem_bytes);
            let probe = Model { cfg: m.cfg.clone(), prog: m.prog.clone(), rf: m.rf.clone(), mem: m.mem.clone() }.run();
            if !probe.exceptions.is_empty() {
                continue;
            }
            let (n, _, k) = check(&mut rtl, &format!("{v}: program {programs}"), m);
            programs += 1;
            retired += n;
            mem_ops += k;
        }
        println!("{v}: {programs} random programs, {retired} retired, {mem_ops} LD/ST");
        assert!(mem_ops > 0, "{v}: no LD/ST retired");
    }
}

/// The instructions of `src` (one per non-empty, non-comment line, straight-line code) whose
/// operand regions each lie in one register (`gen::one_register`), reassembled; and how many
/// were kept and left out.
fn one_register_part(src: &str) -> (Program, usize, usize) {
    use sim::golden::eu_core::{operands, Inst};
    let lines: Vec<&str> = src.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';')).collect();
    let all = assemble(src).unwrap();
    // layout: JMP main; main; JOIN_HALT; EOT (no functions)
    assert_eq!(all.code.len(), lines.len() + 3, "straight-line code");
    let keep: Vec<&str> = lines
        .iter()
        .zip(&all.code[1..])
        .filter(|(_, &w)| {
            let i = Inst::decode(w).unwrap();
            let o = operands(i.op);
            let imm_src0 = o.src0 && !o.src1 && i.op != op::LD && i.imm.is_some();
            (!o.dst || gen::one_register(&i.dst, i.exec_log2, true))
                && (!o.src0 || imm_src0 || gen::one_register(&i.src0, i.exec_log2, false))
                && (!o.src1 || i.imm.is_some() || gen::one_register(&i.src1, i.exec_log2, false))
        })
        .map(|(l, _)| *l)
        .collect();
    (assemble(&keep.join("\n")).unwrap(), keep.len(), lines.len() - keep.len())
}

/// Kernel 4 (kernels/regions.s: sub-register offsets, strides 0/1/2/4, word sources, a word
/// destination with stride 2, 2-D regions) on the RTL, every instruction whose regions lie in one
/// register: all of the convolution and of part (c) but its 2x4 block, which spans r30 and r31;
/// the transpose's column regions span eight registers. 4 threads, random registers.
#[test]
fn eu_core_kernel_regions_one_register_part_matches_the_isa_model() {
    let src = std::fs::read_to_string(format!("{}/../kernels/regions.s", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let (p, kept, left_out) = one_register_part(&src);
    assert_eq!((kept, left_out), (58, 9), "the kernel's 67 instructions but the transpose's 8 moves and the 2x4 block");
    let mut rtl = EuCoreRtl::new("default");
    let mut rng = StdRng::seed_from_u64(4);
    let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p);
    for t in 0..4 {
        for b in m.rf[t].iter_mut() {
            *b = rng.gen();
        }
    }
    let c = check_run(&mut rtl, "kernel 4, one-register part", m);
    assert_eq!(c.count(|o| !hdl::eu_core::enc::is_control(o)), 4 * kept, "every thread retires the kept instructions");
    report("kernel 4 (one-register part)", c.retired, c.cycles);
}

/// ILLEGAL_REGION: a region the region address generator rejects (reserved type, past the
/// register file, exec size 16, a destination writing one byte twice, a register number >= 128,
/// an origin not aligned to its element size — the core's generator has ALIGN_STRICT)
/// stops the thread with the ISA model's exception (thread, IP, cause ILLEGAL_REGION); a legal
/// region spanning two registers stops it as "not yet" (this slice reads one register per
/// operand) where the ISA model runs on. Only thread 2 runs the instruction (an IF on its TID),
/// so the faulting thread does not depend on the order the threads issue in.
#[test]
fn eu_core_illegal_regions_fault_with_illegal_region() {
    use hdl::eu_core::enc::cause;
    let mut rtl = EuCoreRtl::new("default");
    for (line, not_yet) in [
        ("add r5, r4:rsv, 1", false),
        ("mov r5, r127.4<8;8,1>:d", false),
        ("mov (16) r5, r4", false),
        ("mov r5.0<0>:d, r4", false),
        ("add r5, r6, r200", false),
        ("mov r5, r4.2<8;8,1>:d", false),
        ("mov r5.1<1>:w, r4", false),
        ("mov r5, r4.16<8;8,1>:d", true),
        ("mov r5.4<1>:d, r4", true),
    ] {
        let src = format!("    srd r9:ud, tid\n    cmp.eq.f0 r9, 2\n    (f0) if\n        {line}\n    endif\n    add r3, r3, 1\n");
        let p = assemble(&src).unwrap_or_else(|e| panic!("{line}: {e}"));
        let m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p.clone());
        let (rf, mem) = (m.rf.clone(), m.mem.clone());
        let gold = m.run();
        let r = rtl.run(&p, &rf, &mem, 10_000);
        assert!(r.finished, "{line}");
        if not_yet {
            assert!(gold.exceptions.is_empty(), "{line}: legal in the ISA model");
            assert_eq!(r.fault, Some((2, 4, cause::ILLEGAL_REGION, true)), "{line}: thread, IP, cause, not_yet");
        } else {
            let e = gold.exceptions.first().unwrap_or_else(|| panic!("{line}: the ISA model raises ILLEGAL_REGION"));
            assert_eq!((e.thread, e.cause, e.ip), (2, cause::ILLEGAL_REGION, 4), "{line}: {e:?}");
            assert_eq!(r.fault, Some((e.thread, e.ip, cause::ILLEGAL_REGION, false)), "{line}: thread, IP, cause, not_yet");
        }
    }
}
