//! Figures of the branch unit: a divergent IF/ELSE/ENDIF nest (spec TV-1, 8 lanes) and a DO/WHILE
//! loop that lanes leave at different iterations through BREAK and CONT (TV-3, 4 lanes), and four
//! hardware threads interleaved on the pipelined unit (timing-closure §3.2: `thr_busy`, E_BUSY).

use super::Timing;
use crate::drivers::branch_unit::Sbu;
use crate::drivers::branch_unit::SbuMt;
use crate::golden::branch_unit::threads::Request;
use crate::golden::branch_unit::{err, ev, op, step, Cfg, Instr, State};
use crate::waves::{wavedrom, Fmt, Sig};

/// (op, ip, jip, uip, pred; None = all lanes).
type Row = (u64, u64, i64, i64, Option<u64>);

/// INIT with `live`, then `rows`, then two idle cycles; golden and RTL in lock step.
fn run(variant: &str, n: usize, live: u64, rows: &[Row]) -> Sbu {
    let cfg = Cfg::new(n);
    let mut sbu = Sbu::new(variant, cfg);
    let mut s = State::reset(&cfg);
    sbu.dut.capture_waves();
    let all = [(op::INIT, 0, 0, 0, Some(live))];
    for &(o, ip, j, u, pred) in all.iter().chain(rows) {
        let i = Instr::new(o, ip, j, u);
        let pred = pred.unwrap_or(cfg.nmask());
        let (s2, out) = step(&cfg, &s, &i, pred);
        assert!(!out.err, "figure program must not raise an error: {i:?}");
        sbu.step(&i, pred, &out, &s2);
        s = s2;
    }
    for _ in 0..2 {
        sbu.idle(&s);
    }
    sbu
}

/// The request lanes; with `threads` also `req_tid`.
fn request(threads: bool) -> (&'static str, Vec<Sig>) {
    let mut v = vec![Sig::port("req_valid")];
    if threads {
        v.push(Sig::port("req_tid").fmt(Fmt::Dec).when("req_valid"));
    }
    v.extend([
        Sig::port("req_op").fmt(Fmt::Code(&op::TABLE)).when("req_valid"),
        Sig::port("req_ip").fmt(Fmt::Dec).when("req_valid"),
        Sig::port("req_pred").fmt(Fmt::Bin).when("req_valid"),
    ]);
    ("request", v)
}

/// The response lanes; with `threads` `rsp_tid` and `rsp_err_code` (E_BUSY) instead of
/// `rsp_lane_mask` (the per-thread lane masks have their own group).
fn response(threads: bool) -> (&'static str, Vec<Sig>) {
    let mut v = vec![Sig::port("rsp_valid")];
    if threads {
        v.push(Sig::port("rsp_tid").fmt(Fmt::Dec).when("rsp_valid"));
    }
    v.extend([Sig::port("rsp_exec_mask").fmt(Fmt::Bin).when("rsp_valid"), Sig::port("rsp_next_ip").fmt(Fmt::Dec).when("rsp_valid")]);
    if !threads {
        v.push(Sig::port("rsp_lane_mask").fmt(Fmt::Bin).when("rsp_valid"));
    }
    v.push(Sig::port("rsp_event").fmt(Fmt::Code(&ev::TABLE)).when("rsp_valid"));
    if threads {
        v.push(Sig::port("rsp_err_code").fmt(Fmt::Code(&err::TABLE)).when("rsp_valid"));
    }
    ("response", v)
}

/// The lanes of the one-thread figures.
fn lanes() -> Vec<(&'static str, Vec<Sig>)> {
    vec![request(false), response(false), ("state", vec![Sig::port("lane_mask").fmt(Fmt::Bin), Sig::port("dbg_loop_nest").fmt(Fmt::Dec)])]
}

pub fn timing() -> Vec<Timing> {
    let tv1: [Row; 9] = [
        (op::IF, 0, 6, 7, Some(0x0f)),
        (op::NOP, 1, 0, 0, None),
        (op::IF, 2, 2, 2, Some(0xa5)),
        (op::NOP, 3, 0, 0, None),
        (op::ENDIF, 4, 1, 0, Some(0xff)),
        (op::ELSE, 5, 0, 2, None),
        (op::NOP, 6, 0, 0, None),
        (op::ENDIF, 7, 1, 0, Some(0xff)),
        (op::EOT, 8, 0, 0, None),
    ];
    let tv3: [Row; 13] = [
        (op::DO, 0, 0, 0, None),
        (op::NOP, 1, 0, 0, None),
        (op::BREAK, 2, 3, 3, Some(0x1)),
        (op::CONT, 3, 2, 2, Some(0x2)),
        (op::NOP, 4, 0, 0, None),
        (op::WHILE, 5, -4, 1, Some(0x6)),
        (op::NOP, 1, 0, 0, None),
        (op::BREAK, 2, 3, 3, Some(0x0)),
        (op::CONT, 3, 2, 2, Some(0x4)),
        (op::NOP, 4, 0, 0, None),
        (op::WHILE, 5, -4, 1, Some(0x0)),
        (op::NOP, 6, 0, 0, None),
        (op::EOT, 7, 0, 0, None),
    ];
    let mut v = Vec::new();
    for (stem, variant, n, live, rows, title, foot) in [
        (
            "branch_unit-if_else",
            "n8",
            8,
            0xff,
            &tv1[..],
            "Branch unit: nested divergent IF / ELSE / ENDIF (spec TV-1, 8 lanes)",
            "The response of a request is registered: it shows one cycle later. Every port compared with the golden model every cycle.",
        ),
        (
            "branch_unit-loop",
            "n4",
            4,
            0xf,
            &tv3[..],
            "Branch unit: a DO / WHILE loop that lanes leave by BREAK and CONT (spec TV-3, 4 lanes)",
            "exec mask = lanes that run the instruction; lane mask = lanes enabled after it. Every port compared with the golden model every cycle.",
        ),
    ] {
        let mut sbu = run(variant, n, live, rows);
        let json = wavedrom(&sbu.dut.desc().ports(), &sbu.dut.take_waves(), title, foot, 3, &lanes());
        v.push(Timing { stem, json });
    }
    v.push(threads());
    v
}

/// Four threads on the `t4_p1` unit (4 lanes, threads 4, pipe 1: LAT 2). Each thread runs the
/// same IF/ELSE/ENDIF program with its own live lanes and predicate, so they diverge differently;
/// the issuer interleaves them round-robin, which never meets a busy thread, then sends one
/// request to thread 0 in the cycle after its own (thread 0 is busy: E_BUSY, nothing changes)
/// and lets the threads finish. The RTL is compared with the threaded golden model every cycle.
fn threads() -> Timing {
    const THREADS: usize = 4;
    let cfg = Cfg::new(4);
    // IF at 0 (else body at 3, ENDIF at 4), NOP, ELSE at 2 (to the ENDIF), NOP, ENDIF, EOT
    let code = [
        Instr::new(op::IF, 0, 3, 4),
        Instr::new(op::NOP, 1, 0, 0),
        Instr::new(op::ELSE, 2, 0, 2),
        Instr::new(op::NOP, 3, 0, 0),
        Instr::new(op::ENDIF, 4, 1, 0),
        Instr::new(op::EOT, 5, 0, 0),
    ];
    // (live lanes, IF predicate) per thread
    let lanes: [(u64, u64); THREADS] = [(0xf, 0x3), (0x3, 0x3), (0xf, 0x0), (0x5, 0x1)];
    // each thread's requests: INIT, then its program as the golden model steps it alone
    let mut progs: Vec<Vec<(Instr, u64)>> = Vec::new();
    for &(live, if_pred) in &lanes {
        let mut s = State::reset(&cfg);
        let mut reqs = vec![(Instr::new(op::INIT, 0, 0, 0), live)];
        let (s2, _) = step(&cfg, &s, &reqs[0].0, live);
        s = s2;
        let mut ip = 0u64;
        loop {
            let i = code[ip as usize];
            let pred = if i.op == op::IF { if_pred } else { cfg.nmask() };
            let (s2, out) = step(&cfg, &s, &i, pred);
            assert!(!out.err, "figure program must not raise an error: {i:?} {out:?}");
            reqs.push((i, pred));
            s = s2;
            if i.op == op::EOT {
                break;
            }
            ip = out.next_ip;
        }
        progs.push(reqs);
    }
    let mut mt = SbuMt::new("t4_p1", cfg, THREADS, 1);
    mt.sbu.dut.capture_waves();
    let mut next = [0usize; THREADS];
    let mut order: Vec<Option<usize>> = (0..THREADS).map(Some).collect(); // the INITs
    order.extend([Some(0), Some(1), Some(2), Some(3), Some(0), Some(0), None, Some(1), Some(2)]);
    let mut busy_answered = false;
    let mut k_rr = 3;
    let mut queue = order.into_iter();
    let mut idle_tail = 0;
    while idle_tail < 2 {
        let want = match queue.next() {
            Some(t) => t,
            // then round-robin over the threads that have requests left and are not busy
            None => {
                let busy = mt.gold.busy();
                (1..=THREADS).map(|d| (k_rr + d) % THREADS).find(|&k| next[k] < progs[k].len() && busy >> k & 1 == 0)
            }
        };
        let req = want.filter(|&k| next[k] < progs[k].len()).map(|k| {
            if mt.gold.busy() >> k & 1 == 1 {
                // the deliberate request to a busy thread: its next instruction, answered E_BUSY
                busy_answered = true;
                let (instr, pred) = progs[k][next[k]];
                Request { tid: k, instr, pred }
            } else {
                let (instr, pred) = progs[k][next[k]];
                next[k] += 1;
                k_rr = k;
                Request { tid: k, instr, pred }
            }
        });
        let p = mt.cycle(req);
        if let Some((_, out)) = p.rsp {
            assert!(!out.err || out.err_code == err::BUSY, "figure: unexpected error {out:?}");
        }
        if req.is_none() && next.iter().zip(&progs).all(|(n, p)| *n == p.len()) {
            idle_tail += 1;
        }
    }
    assert!(busy_answered, "the figure must show one E_BUSY answer");
    let ports = mt.sbu.dut.desc().ports();
    let waves = mt.sbu.dut.take_waves();
    let mut state = vec![Sig::port("thr_busy").fmt(Fmt::Bin)];
    for k in 0..THREADS {
        state.push(Sig::field("thr_lane_mask", format!("thr_lane_mask[{k}]"), k * cfg.n, cfg.n).fmt(Fmt::Bin));
    }
    let groups = vec![
        request(true),
        response(true),
        ("threads", state),
    ];
    let json = wavedrom(
        &ports,
        &waves,
        "Branch unit: four hardware threads interleaved (threads 4, pipe 1: LAT 2, 4 lanes)",
        "A thread is busy (thr_busy) from the cycle after its request until its response; a request to a busy thread is answered E_BUSY and changes nothing. Every port compared with the threaded golden model every cycle.",
        3,
        &groups,
    );
    Timing { stem: "branch_unit-threads", json }
}
