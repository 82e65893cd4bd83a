//! Figures of the branch unit: a divergent IF/ELSE/ENDIF nest (spec TV-1, 8 lanes) and a DO/WHILE
//! loop that lanes leave at different iterations through BREAK and CONT (TV-3, 4 lanes).

use super::Timing;
use crate::drivers::branch_unit::Sbu;
use crate::golden::branch_unit::{ev, op, step, Cfg, Instr, State};
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

fn lanes(n: usize) -> Vec<(&'static str, Vec<Sig>)> {
    let _ = n;
    vec![
        (
            "request",
            vec![
                Sig::port("req_valid"),
                Sig::port("req_op").fmt(Fmt::Code(&op::TABLE)).when("req_valid"),
                Sig::port("req_ip").fmt(Fmt::Dec).when("req_valid"),
                Sig::port("req_pred").fmt(Fmt::Bin).when("req_valid"),
            ],
        ),
        (
            "response",
            vec![
                Sig::port("rsp_valid"),
                Sig::port("rsp_exec_mask").fmt(Fmt::Bin).when("rsp_valid"),
                Sig::port("rsp_next_ip").fmt(Fmt::Dec).when("rsp_valid"),
                Sig::port("rsp_lane_mask").fmt(Fmt::Bin).when("rsp_valid"),
                Sig::port("rsp_event").fmt(Fmt::Code(&ev::TABLE)).when("rsp_valid"),
            ],
        ),
        ("state", vec![Sig::port("lane_mask").fmt(Fmt::Bin), Sig::port("dbg_loop_nest").fmt(Fmt::Dec)]),
    ]
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
        let json = wavedrom(&sbu.dut.desc().ports(), &sbu.dut.take_waves(), title, foot, 3, &lanes(n));
        v.push(Timing { stem, json });
    }
    v
}
