//! The EU's ISA-level model (sim::golden::eu_core), its assembler/disassembler and the kernels in
//! kernels/: every kernel's input comes from Rust and its result is checked against plain Rust
//! (the math kernel against the tanh/sigmoid golden model, lane by lane).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sim::golden::eu_core::asm::{assemble, disassemble};
use sim::golden::eu_core::{cause, op, Config, End, Host, Inst, Model, Program, Run, Write};
use sim::golden::tanh_sigmoid as ts;

fn kernel(name: &str) -> String {
    let path = format!("{}/../kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn asm(name: &str) -> Program {
    assemble(&kernel(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn done(r: &Run) {
    assert_eq!(r.end, End::Done, "after {} cycles; exceptions {:?}", r.cycles, r.exceptions);
}

/// Prints the kernel's ISA-level figures (docs/isa.md "Kernels"): cycles, retired instructions,
/// IPC, and lane utilisation = active lanes / 8 over the retired non-control instructions.
fn figures(name: &str, r: &Run, p: &Program) {
    let alu: Vec<_> = r.trace.iter().filter(|x| !hdl::eu_core::enc::is_control(Inst::decode(p.code[x.ip as usize]).unwrap().op)).collect();
    let lanes: u32 = alu.iter().map(|x| x.exec_mask.count_ones()).sum();
    println!(
        "figures {name}: {} cycles, {} retired, IPC {:.3}, lane utilisation {:.3} over {} non-control instructions",
        r.cycles,
        r.trace.len(),
        r.trace.len() as f64 / r.cycles as f64,
        lanes as f64 / (8.0 * alu.len() as f64),
        alu.len()
    );
}

/// Kernel 2: per-lane escape-time fractal; lanes leave the loop at different iterations.
#[test]
fn kernel_fractal_matches_rust() {
    let p = asm("fractal.s");
    let mut m = Model::new(Config::default(), p.clone());
    let mut want = vec![[0u32; 8]; 4];
    for t in 0..4 {
        for l in 0..8 {
            // a row of pixels across the set: cx from -2.0 to 0.5, cy = 0.1 .. 0.8 by thread
            let cx = -8192 + ((t * 8 + l) as i32) * 10240 / 32;
            let cy = 410 + 820 * t as i32;
            m.set_lane(t, 1, l, cx as u32);
            m.set_lane(t, 2, l, cy as u32);
            let (mut x, mut y, mut it) = (0i32, 0i32, 0u32);
            loop {
                let xx = x.wrapping_mul(x) >> 12;
                let yy = y.wrapping_mul(y) >> 12;
                if xx + yy > 16384 {
                    break;
                }
                y = (x.wrapping_mul(y) >> 11) + cy;
                x = xx - yy + cx;
                it += 1;
                if it >= 64 {
                    break;
                }
            }
            want[t][l] = it;
        }
    }
    let r = m.run();
    done(&r);
    figures("fractal", &r, &p);
    let mut counts = std::collections::BTreeSet::new();
    for t in 0..4 {
        for l in 0..8 {
            assert_eq!(r.lane(t, 5, l), want[t][l], "thread {t} lane {l}");
            counts.insert(want[t][l]);
        }
    }
    assert!(counts.len() > 8, "divergent loops: iteration counts {counts:?}");
    // divergence shows in the trace: some instructions ran on a partial mask
    assert!(r.trace.iter().any(|x| x.exec_mask != 0xFF && x.exec_mask != 0));
}

fn collatz(mut n: u32) -> u32 {
    if n > 5000 {
        return 0;
    }
    let mut s = 0;
    while n > 1 {
        s += 1;
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
    }
    s
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Kernel 3: per-lane GCD and Collatz through CALL/RET, BREAK and CONT.
#[test]
fn kernel_gcd_collatz_matches_rust() {
    let p = asm("gcd_collatz.s");
    let mut rng = StdRng::seed_from_u64(3);
    let mut m = Model::new(Config::default(), p.clone());
    let mut inputs = vec![[(0u32, 0u32, 0u32); 8]; 4];
    for (t, row) in inputs.iter_mut().enumerate() {
        for (l, x) in row.iter_mut().enumerate() {
            let (a, b) = (rng.gen_range(1..256), rng.gen_range(1..256));
            let n = if l == 7 { 6000 + t as u32 } else { rng.gen_range(1..3000) };
            *x = (a, b, n);
            m.set_lane(t, 1, l, a);
            m.set_lane(t, 2, l, b);
            m.set_lane(t, 3, l, n);
        }
    }
    let r = m.run();
    done(&r);
    figures("gcd_collatz", &r, &p);
    for (t, row) in inputs.iter().enumerate() {
        for (l, &(a, b, n)) in row.iter().enumerate() {
            assert_eq!(r.lane(t, 1, l), gcd(a, b), "gcd thread {t} lane {l}: {a}, {b}");
            assert_eq!(r.lane(t, 4, l), collatz(n), "collatz thread {t} lane {l}: {n}");
        }
    }
    let code = &r.trace;
    let ops: std::collections::BTreeSet<u64> = code.iter().map(|x| Inst::decode(asm("gcd_collatz.s").code[x.ip as usize]).unwrap().op).collect();
    for o in [op::CALL, op::RET, op::BREAK, op::CONT, op::WHILE] {
        assert!(ops.contains(&o), "{o:#x} retired");
    }
}

/// Kernel 1: 4 096 values through TANH and SIGMOID in fp32, fp16 and bf16, equal to the
/// tanh/sigmoid golden model.
#[test]
fn kernel_activation_equals_the_tanh_golden() {
    let src = kernel("activation.s");
    for (fname, fmt) in [("fp32", ts::FMT_FP32), ("fp16", ts::FMT_FP16), ("bf16", ts::FMT_BF16)] {
        let p = assemble(&src.replace(".fp32", &format!(".{fname}"))).unwrap();
        let mut m = Model::new(Config { mem_bytes: 48 * 1024, ..Config::default() }, p.clone());
        let xs = sim::golden::eu_core::kernels::activation_inputs(fmt);
        for (k, &x) in xs.iter().enumerate() {
            m.set_word(4 * k, x);
        }
        let r = m.run();
        done(&r);
        figures(&format!("activation {fname}"), &r, &p);
        for (k, &x) in xs.iter().enumerate() {
            let mask = if fmt == ts::FMT_FP32 { u32::MAX } else { 0xFFFF };
            assert_eq!(r.word(16384 + 4 * k) & mask, ts::lane(ts::OP_TANH as u8, fmt, false, x), "{fname} tanh #{k}");
            assert_eq!(r.word(32768 + 4 * k) & mask, ts::lane(ts::OP_SIGMOID as u8, fmt, false, x), "{fname} sigmoid #{k}");
        }
        // and the values are tanh and sigmoid, to the format's precision
        let tol = if fmt == ts::FMT_FP32 { 1e-5 } else { 2e-2 };
        for k in (0..4096).step_by(97) {
            let x = ts::to_f64(xs[k], fmt);
            assert!((ts::to_f64(r.word(16384 + 4 * k) & 0xFFFF_FFFF, fmt) - x.tanh()).abs() < tol, "{fname} tanh({x})");
        }
    }
}

/// Kernel 4: 8x8 transpose, separable 3-tap convolution, strides 0/1/2/4, vertical strides.
#[test]
fn kernel_regions_match_rust() {
    let p = asm("regions.s");
    let mut m = Model::new(Config { threads: 1, ..Config::default() }, p.clone());
    let mut rng = StdRng::seed_from_u64(4);
    let a: Vec<Vec<u32>> = (0..8).map(|_| (0..8).map(|_| rng.gen()).collect()).collect();
    for (i, row) in a.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            m.set_lane(0, 10 + i as u32, j, v);
        }
    }
    let img: Vec<Vec<i16>> = (0..10).map(|_| (0..16).map(|_| rng.gen_range(-1000..1000)).collect()).collect();
    for (y, row) in img.iter().enumerate() {
        for x in (0..16).step_by(2) {
            let w = (row[x] as u16 as u32) | (row[x + 1] as u16 as u32) << 16;
            m.set_lane(0, 30 + y as u32, x / 2, w);
        }
    }
    let r = m.run();
    done(&r);
    figures("regions", &r, &p);
    for j in 0..8 {
        for i in 0..8 {
            assert_eq!(r.lane(0, 20 + j, i as usize), a[i][j as usize], "transpose T[{j}][{i}]");
        }
    }
    let h = |y: usize, x: usize| img[y][x] as i32 + 2 * img[y][x + 1] as i32 + img[y][x + 2] as i32;
    for y in 0..8 {
        for x in 0..8 {
            let want = h(y, x) + 2 * h(y + 1, x) + h(y + 2, x);
            assert_eq!(r.lane(0, 70 + y as u32, x) as i32, want, "conv out[{y}][{x}]");
        }
    }
    for x in 0..8 {
        assert_eq!(r.lane(0, 80, x) as i32, img[0][2 * x] as i32, "stride 2 lane {x}");
    }
    for x in 0..4 {
        assert_eq!(r.lane(0, 81, x) as i32, img[0][4 * x] as i32, "stride 4 lane {x}");
    }
    assert_eq!(r.lane(0, 81, 4), 0, "exec size 4 leaves lanes 4..7");
    for x in 0..8 {
        let (yy, xx) = (x / 4, 1 + x % 4);
        assert_eq!(r.lane(0, 82, x) as i32, img[yy][xx] as i32, "2x4 block lane {x}");
    }
    for x in 0..8 {
        let w = r.lane(0, 83, x);
        assert_eq!(w & 0xFFFF, img[0][x] as u16 as u32, "destination stride 2 lane {x}");
        assert_eq!(w >> 16, 0, "destination stride 2 leaves the odd words");
    }
}

/// Kernel 5a: a TRAP and an illegal region per thread; the handler logs both causes, skips the
/// instruction and returns; the threads finish their own code.
#[test]
fn kernel_traps_handler_records_and_returns() {
    let p = asm("traps.s");
    let r = Model::new(Config::default(), p.clone()).run();
    done(&r);
    figures("traps", &r, &p);
    for t in 0..4 {
        assert_eq!(r.word(16 * t), cause::TRAP as u32, "thread {t}: first log entry");
        assert_eq!(r.word(16 * t + 4), cause::ILLEGAL_REGION as u32, "thread {t}: second log entry");
        assert_eq!(r.lane(t, 127, 0), 2, "thread {t}: two traps");
        for l in 0..8 {
            assert_eq!(r.lane(t, 3, l), 9, "thread {t} lane {l} ran on after the traps");
            assert_eq!(r.lane(t, 2, l), 0, "the illegal region wrote nothing");
        }
    }
    assert_eq!(r.exceptions.len(), 8);
    assert_eq!(r.killed, 0);
    assert_eq!(r.irq_cycles, 0);
}

/// Kernel 5b: the handler pauses the excepting thread, the host interrupt rises and the host
/// kills it; the others finish.
#[test]
fn kernel_trap_kill_raises_the_host_interrupt() {
    let p = asm("trap_kill.s");
    let r = Model::new(Config { host: Host::Kill, ..Config::default() }, p).run();
    done(&r);
    assert_eq!(r.killed, 1 << 2);
    assert!(r.irq_cycles > 0);
    assert_ne!(r.sticky & sim::golden::trap_controller::PAUSE, 0);
    for t in [0usize, 1, 3] {
        assert_eq!(r.lane(t, 2, 0), 100 + t as u32, "thread {t} finished");
    }
    assert_eq!(r.lane(2, 2, 0), 0, "thread 2 was killed before the add");
    // the host that ignores the interrupt leaves the machine stuck, it does not hang
    let r = Model::new(Config { host: Host::Ignore, ..Config::default() }, asm("trap_kill.s")).run();
    assert_eq!(r.end, End::Stuck);
}

/// The trace carries every destination write: a register write shows the bytes it enabled.
#[test]
fn trace_records_destination_writes() {
    let p = assemble("mov (4) r3.4<1>:d, 0x11223344\ncmp.eq.f1 r3, 0\n").unwrap();
    let r = Model::new(Config { threads: 1, ..Config::default() }, p).run();
    done(&r);
    let w = r.trace.iter().find(|x| !x.writes.is_empty()).unwrap();
    assert_eq!(w.exec_mask, 0x0F);
    match &w.writes[0] {
        Write::Reg { reg, be, data } => {
            assert_eq!((*reg, *be), (3, 0xFFFF << 4));
            assert_eq!(&data[4..8], &0x11223344u32.to_le_bytes());
        }
        x => panic!("{x:?}"),
    }
    let f = r.trace.iter().flat_map(|x| x.writes.iter()).find(|x| matches!(x, Write::Flag { .. })).unwrap();
    // r3 = 0, X, X, X, X, 0, 0, 0: lanes 0 and 5..7 equal 0
    assert_eq!(f, &Write::Flag { f: 1, value: 0xE1 });
}

/// Assembling the disassembly gives the same words, for every kernel.
#[test]
fn disassembly_round_trips() {
    for k in ["fractal.s", "gcd_collatz.s", "activation.s", "regions.s", "traps.s", "trap_kill.s"] {
        let p = asm(k);
        let text = disassemble(&p);
        let q = assemble(&text).unwrap_or_else(|e| panic!("{k}: {e}\n{text}"));
        assert_eq!(p, q, "{k}:\n{text}");
    }
}

/// Bad source is reported with its line number.
#[test]
fn assembler_errors_name_the_line() {
    let cases = [
        ("mov r1, r2\nfoo r1, r2\n", 2, "unknown mnemonic"),
        ("do\nadd r1, r1\nwhile\n", 2, "operand"),
        ("if\nmov r1, 0\n", 1, "never closed"),
        ("break\n", 1, "outside a loop"),
        ("call nowhere\n", 1, "unknown function"),
        ("\n\nmov r1, r2<8;3,1>:d\n", 3, "power of two"),
        ("mov r1:q, r2\n", 1, "unknown type"),
        ("endif\n", 1, "without an open"),
        ("(f2) mov r1, r2\n", 1, "predicate"),
    ];
    for (src, line, what) in cases {
        let e = assemble(src).expect_err(src);
        assert_eq!(e.line, line, "{src:?}: {e}");
        assert!(e.to_string().contains(what), "{src:?}: {e}");
        assert!(e.to_string().starts_with(&format!("line {line}: ")));
    }
}

/// Illegal instructions and branch-unit faults trap; the handler here pauses, the host kills.
#[test]
fn illegal_instruction_and_branch_fault_trap() {
    let h = ".handler\nsrd r120, esr\ncmp.ne.f0 r120, 0\n(f0) if\ntpause\nendif\ntret\n.endhandler\n";
    let mut p = assemble(&format!("mov r1, 1\nmov r2, 2\n{h}")).unwrap();
    p.code[2] = 0x7F; // reserved op code
    let r = Model::new(Config { threads: 1, ..Config::default() }, p.clone()).run();
    done(&r);
    assert_eq!(r.exceptions[0].cause, cause::ILLEGAL_INSTR);
    assert_eq!(r.killed, 1);
    // a WHILE outside a loop: the branch unit's NO_LOOP
    p.code[2] = Inst { op: op::WHILE, jip: -1, uip: 1, exec_log2: 3, ..Default::default() }.encode();
    let r = Model::new(Config { threads: 1, ..Config::default() }, p).run();
    done(&r);
    assert_eq!(r.exceptions[0].cause, cause::BRANCH_FAULT);
    assert!(r.exceptions[0].detail.contains("NO_LOOP"), "{:?}", r.exceptions[0]);
}

/// docs/isa.md carries the field and code tables generated from hdl::eu_core::enc
/// (`EU_UPDATE_DOCS=1` rewrites the section).
#[test]
fn isa_doc_carries_the_generated_tables() {
    use hdl::eu_core::enc;
    let (begin, end) = ("<!-- isa tables: generated from hdl::eu_core::enc, do not edit -->", "<!-- end of isa tables -->");
    let want = format!("**Instruction fields**\n\n{}\n{}", enc::fields_markdown(), hdl::enc::markdown("eu_core", enc::TABLES));
    let path = format!("{}/../docs/isa.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(&path).unwrap();
    let i = doc.find(begin).expect("begin marker") + begin.len();
    let j = doc.find(end).expect("end marker");
    let have = doc[i..j].trim();
    if have != want.trim() {
        if std::env::var("EU_UPDATE_DOCS").is_ok() {
            std::fs::write(&path, format!("{}\n{}\n{}", &doc[..i], want.trim(), &doc[j..])).unwrap();
        } else {
            panic!("docs/isa.md's generated tables are stale: run with EU_UPDATE_DOCS=1");
        }
    }
}

/// Random programs (structured control flow from the branch unit's generator, every op,
/// random regions, predicates, traps) run on 1..4 threads to the end, without a panic or a
/// hang, and their disassembly assembles back to the same words.
#[test]
fn random_programs_run_to_the_end() {
    use sim::golden::eu_core::gen;
    let mut rng = StdRng::seed_from_u64(19);
    let (mut retired, mut traps, mut cycles) = (0usize, 0usize, 0u64);
    let mut ops = std::collections::BTreeSet::new();
    let mut causes = std::collections::BTreeSet::new();
    let n = 2000;
    for k in 0..n {
        let p = gen::program(&mut rng, 48);
        let text = disassemble(&p);
        assert_eq!(assemble(&text).unwrap_or_else(|e| panic!("program {k}: {e}\n{text}")), p, "program {k}");
        let threads = rng.gen_range(1..=4);
        let m = gen::model(&mut rng, p.clone(), threads);
        let again = (k % 50 == 0).then(|| Model { cfg: m.cfg.clone(), prog: m.prog.clone(), rf: m.rf.clone(), mem: m.mem.clone() });
        let r = m.run();
        if let Some(m2) = again {
            let r2 = m2.run();
            assert_eq!((&r2.trace, &r2.rf, &r2.mem), (&r.trace, &r.rf, &r.mem), "program {k}: the model is a function of its inputs");
        }
        assert_eq!(r.end, End::Done, "program {k} on {threads} threads:\n{text}\nexceptions {:?}", r.exceptions);
        retired += r.trace.len();
        traps += r.exceptions.len();
        cycles += r.cycles;
        for x in &r.trace {
            ops.insert(Inst::decode(p.code[x.ip as usize]).unwrap().op);
        }
        causes.extend(r.exceptions.iter().map(|e| e.cause));
    }
    println!("{n} programs: {retired} retired instructions, {traps} exceptions, {cycles} cycles");
    let missing: Vec<String> = sim::golden::eu_core::op::TABLE
        .codes
        .iter()
        .filter(|c| !ops.contains(&c.value) && !matches!(c.value, op::JMP | op::TPAUSE | op::SWR | op::TRAP | op::TRET))
        .map(|c| c.name.to_string())
        .collect();
    assert!(missing.is_empty(), "ops never retired: {missing:?}");
    for c in [cause::TRAP, cause::ILLEGAL_REGION, cause::ILLEGAL_INSTR] {
        assert!(causes.contains(&c), "cause {c} never raised: {causes:?}");
    }
    assert!(retired > 200_000, "{retired}");
}

/// `eu-asm`: asm writes $readmemh words that disasm and run read back; bad source exits 1
/// naming FILE:LINE.
#[test]
fn eu_asm_command_line() {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_eu-asm");
    let dir = tempfile::tempdir().unwrap();
    let hex = dir.path().join("t.hex");
    let src = format!("{}/../kernels/traps.s", env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(exe).args(["asm", &src, "-o"]).arg(&hex).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = asm("traps.s");
    let text = std::fs::read_to_string(&hex).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with("//")).count(), p.code.len());
    assert!(text.starts_with(&format!("// handler {}\n", p.handler.unwrap())));
    let o = Command::new(exe).arg("disasm").arg(&hex).output().unwrap();
    assert_eq!(assemble(&String::from_utf8(o.stdout).unwrap()).unwrap(), p);
    let o = Command::new(exe).args(["run", "--threads", "2"]).arg(&hex).output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("end Done") && out.contains("cause 4") && out.contains("cause 6"), "{out}");
    let bad = dir.path().join("bad.s");
    std::fs::write(&bad, "do\n  add r1, r1, 1\n  wile\n").unwrap();
    let o = Command::new(exe).arg("asm").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("bad.s:3: unknown mnemonic `wile`"), "{err}");
    let o = Command::new(exe).arg("--help").output().unwrap();
    assert!(String::from_utf8(o.stdout).unwrap().contains("JIP/UIP"));
}

/// The host resumes a paused thread: the handler stepped its EPC first, so the thread goes on
/// after the TRAP and finishes.
#[test]
fn host_resume_continues_a_paused_thread() {
    let src = "
        srd r1:ud, tid
        trap 7
        add r2, r1, 100
    .handler
        srd r120, esr
        cmp.ne.f0 r120, 0
        (f0) if
            srd r124, epc
            add r124, r124, 1
            swr epc, r124
            tpause
        endif
        tret
    .endhandler";
    let r = Model::new(Config { threads: 2, host: Host::Resume, ..Config::default() }, assemble(src).unwrap()).run();
    done(&r);
    assert_eq!(r.killed, 0);
    assert!(r.irq_cycles > 0);
    assert_eq!(r.exceptions.len(), 2);
    for t in 0..2 {
        assert_eq!(r.lane(t, 2, 3), 100 + t as u32, "thread {t}");
    }
}

/// Inside the handler: an illegal region is dropped by the reset HMASK (the instruction is
/// skipped), a memory fault is a double fault (the thread is parked, the host kills it).
#[test]
fn exceptions_inside_the_handler() {
    use sim::golden::trap_controller as tc;
    let src = |inner: &str| {
        format!(
            "trap 1\nadd r2, r1, 5\n.handler\nsrd r120, esr\ncmp.ne.f0 r120, 0\n(f0) if\n{inner}\nmov r121, 9\nsrd r124, epc\nadd r124, r124, 1\nswr epc, r124\nendif\ntret\n.endhandler"
        )
    };
    let cfg = Config { threads: 1, host: Host::Kill, ..Config::default() };
    let r = Model::new(cfg.clone(), assemble(&src("mov r122, r1.0<8;8,1>:rsv")).unwrap()).run();
    done(&r);
    assert_eq!(r.exceptions.iter().map(|e| e.cause).collect::<Vec<_>>(), vec![cause::TRAP, cause::ILLEGAL_REGION]);
    assert_ne!(r.sticky & tc::SUPPR, 0);
    assert_eq!((r.lane(0, 121, 0), r.lane(0, 2, 0), r.killed), (9, 5, 0), "handler and thread went on");
    let r = Model::new(cfg, assemble(&src("mov r125, 0x10001\nld r122, r125")).unwrap()).run();
    done(&r);
    assert_eq!(r.exceptions.iter().map(|e| e.cause).collect::<Vec<_>>(), vec![cause::TRAP, cause::MEM_FAULT]);
    assert_ne!(r.sticky & tc::DBLF, 0);
    assert_eq!((r.killed, r.lane(0, 121, 0), r.lane(0, 2, 0)), (1, 0, 0), "parked and killed");
}

/// TRAP, TRET, TPAUSE and SWR act only when a lane runs them: a predicated-off TRAP does
/// nothing, a predicated-on one traps.
#[test]
fn thread_level_ops_need_a_running_lane() {
    let h = ".handler\nsrd r120, esr\ncmp.ne.f0 r120, 0\n(f0) if\nsrd r124, epc\nadd r124, r124, 1\nswr epc, r124\nendif\ntret\n.endhandler\n";
    let cfg = Config { threads: 1, ..Config::default() };
    let r = Model::new(cfg.clone(), assemble(&format!("cmp.eq.f0 r1, 1\n(f0) trap 1\nmov r2, 3\n{h}")).unwrap()).run();
    done(&r);
    assert!(r.exceptions.is_empty(), "{:?}", r.exceptions);
    assert_eq!(r.lane(0, 2, 0), 3);
    let r = Model::new(cfg, assemble(&format!("cmp.eq.f0 r1, 0\n(f0) trap 1\nmov r2, 3\n{h}")).unwrap()).run();
    done(&r);
    assert_eq!(r.exceptions.len(), 1);
    assert_eq!(r.lane(0, 2, 0), 3);
}

/// A scalar interpreter of one lane of a lane-local program (every operand lane l of its
/// register): ordinary sequential code, control flow by IP, written from docs/isa.md without
/// the branch unit or the region address generator. Returns the lane's registers and flags.
fn scalar_lane(p: &Program, regs: &mut [u32], flags: &mut [bool; 2], limit: usize) -> bool {
    let mut ip = 0usize;
    let mut rs: Vec<usize> = Vec::new();
    for _ in 0..limit {
        let i = Inst::decode(p.code[ip]).unwrap();
        let on = match i.pred {
            1 => flags[i.flag as usize],
            2 => !flags[i.flag as usize],
            _ => true,
        };
        let (j, u) = ((ip as i64 + i.jip) as usize, (ip as i64 + i.uip) as usize);
        ip = match i.op {
            op::JMP => j,
            op::IF => if on { ip + 1 } else { j },
            op::ELSE => u,
            op::ENDIF | op::JOIN_BR | op::JOIN_HALT | op::DO => ip + 1,
            op::WHILE => if on { j } else { ip + 1 },
            op::BREAK => if on { u + 1 } else { ip + 1 },
            op::CONT => if on { u } else { ip + 1 },
            op::CALL => {
                if on {
                    rs.push(ip + 1);
                    j
                } else {
                    ip + 1
                }
            }
            op::RET => if i.jip == 0 || on { rs.pop().unwrap() } else { ip + 1 },
            op::BRANCH => if on { j } else { ip + 1 },
            op::HALT => {
                if on {
                    rs.clear();
                    u
                } else {
                    ip + 1
                }
            }
            op::EOT => return true,
            o => {
                if on {
                    // a one-source op takes the immediate in place of src0
                    let one = matches!(o, op::MOV | op::NOT | op::I2F | op::F2I | op::TANH | op::SIGMOID);
                    let a = match (one, i.imm) {
                        (true, Some(v)) => v,
                        _ => regs[i.src0.reg as usize],
                    };
                    let b = i.imm.unwrap_or_else(|| regs[i.src1.reg as usize]);
                    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
                    let cmp = |m: u64, x: u32, y: u32, fl: bool| -> bool {
                        let (sx, sy, fx, fy) = (x as i32, y as i32, f32::from_bits(x), f32::from_bits(y));
                        match (m, fl) {
                            (1, false) => x == y,
                            (2, false) => x != y,
                            (3, false) => sx < sy,
                            (4, false) => sx <= sy,
                            (5, false) => sx > sy,
                            (6, false) => sx >= sy,
                            (7, false) => x < y,
                            (1, true) => fx == fy,
                            (2, true) => fx != fy,
                            (3, true) => fx < fy,
                            (4, true) => fx <= fy,
                            (5, true) => fx > fy,
                            (6, true) => fx >= fy,
                            (7, true) => fx.is_nan() || fy.is_nan(),
                            _ => unreachable!(),
                        }
                    };
                    let r = match o {
                        op::MOV => a,
                        op::ADD => a.wrapping_add(b),
                        op::SUB => a.wrapping_sub(b),
                        op::MUL => a.wrapping_mul(b),
                        op::MULH => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
                        op::AND => a & b,
                        op::OR => a | b,
                        op::XOR => a ^ b,
                        op::NOT => !a,
                        op::SHL => a << (b % 32),
                        op::SHR => a >> (b % 32),
                        op::ASR => ((a as i32) >> (b % 32)) as u32,
                        op::MIN => (a as i32).min(b as i32) as u32,
                        op::MAX => (a as i32).max(b as i32) as u32,
                        op::SEL => if flags[i.flag as usize] { a } else { b },
                        op::FADD => (fa + fb).to_bits(),
                        op::FMUL => (fa * fb).to_bits(),
                        op::I2F => (a as i32 as f32).to_bits(),
                        op::F2I => fa as i32 as u32,
                        op::TANH => ts::lane(ts::OP_TANH, ts::FMT_FP32, false, a),
                        op::SIGMOID => ts::lane(ts::OP_SIGMOID, ts::FMT_FP32, false, a),
                        op::CMP | op::FCMP => 0,
                        _ => panic!("op {o:#x} is not lane-local"),
                    };
                    if matches!(o, op::CMP | op::FCMP) {
                        flags[i.flag as usize] = cmp(i.cmod, a, b, o == op::FCMP);
                    } else {
                        regs[i.dst.reg as usize] = r;
                        if i.cmod != 0 {
                            flags[i.flag as usize] = cmp(i.cmod, r, 0, matches!(o, op::FADD | op::FMUL | op::I2F));
                        }
                    }
                }
                ip + 1
            }
        };
    }
    false
}

/// The SIMD model (branch unit masks, RAG regions, round-robin threads) and a per-lane scalar
/// interpreter agree on every register and flag of random lane-local programs: divergence,
/// loops with BREAK/CONT, calls, early returns, BRANCH and HALT change only which lanes run.
#[test]
fn lane_local_programs_equal_scalar_lanes() {
    use sim::golden::eu_core::gen;
    let mut rng = StdRng::seed_from_u64(91);
    let mut retired = 0;
    for k in 0..1000 {
        let p = gen::program_lane_local(&mut rng, 40);
        let threads = rng.gen_range(1..=4);
        let mut m = Model::new(Config { threads, ..Config::default() }, p.clone());
        for t in 0..threads {
            for r in 0..16 {
                for l in 0..8 {
                    let v = if rng.gen_bool(0.5) { rng.gen_range(0..8) } else { rng.gen() };
                    m.set_lane(t, r, l, v);
                }
            }
        }
        let init = m.rf.clone();
        let r = m.run();
        assert_eq!(r.end, End::Done, "program {k}: {:?}", r.exceptions);
        assert!(r.exceptions.is_empty(), "program {k}: {:?}", r.exceptions);
        retired += r.trace.len();
        for t in 0..threads {
            for l in 0..8 {
                let mut regs: Vec<u32> = (0..128).map(|g| u32::from_le_bytes(init[t][g * 32 + 4 * l..][..4].try_into().unwrap())).collect();
                let mut flags = [false; 2];
                assert!(scalar_lane(&p, &mut regs, &mut flags, 1_000_000), "program {k}: lane {l} runs to EOT");
                for g in 0..128u32 {
                    assert_eq!(r.lane(t, g, l), regs[g as usize], "program {k} thread {t} lane {l} r{g}\n{}", disassemble(&p));
                }
                for f in 0..2 {
                    assert_eq!(r.flags[t][f] >> l & 1 == 1, flags[f], "program {k} thread {t} lane {l} f{f}");
                }
            }
        }
    }
    println!("lane-local: {retired} retired instructions");
    assert!(retired > 50_000, "{retired}");
}
