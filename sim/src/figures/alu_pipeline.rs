//! Figure of the ALU pipeline: one group of spec TV1 (Fig. 7A: pixel 2 skips instruction 2,
//! its CE bit is 0) with the bank clock enables `dbg_en` that stay low for the skipped slot.

use super::Timing;
use crate::drivers::alu_pipeline::{load_program, run_rows, Sim};
use crate::golden::alu_pipeline::Group;
use crate::waves::{wavedrom, Fmt, Sig};

pub fn timing() -> Vec<Timing> {
    let mut s = Sim::new("all");
    let program = [[0x04C87201, 0, 0, 0, 0], [0x05C60841, 0, 0, 0, 0], [0x08184401, 0, 0, 0, 0], [0x09C97281, 0, 0, 0, 0]];
    load_program(&mut s, &program, &[], &[]);
    // TV1's group: 4 pixels x 4 rows, row 2 of pixel 2 disabled (spec §5 sentinels elsewhere)
    let mut regs = [[0u32; 16]; 4];
    let init: [[u32; 4]; 4] = [[1, 2, 3, 4], [5, 6, 7, 8], [(-1i32) as u32, 3, 3, (-4i32) as u32], [100, 0, 2, 7]];
    for p in 0..4 {
        for n in 0..16 {
            regs[p][n] = if n < 4 { init[p][n] } else { 0xA000_0000 + 0x100 * p as u32 + n as u32 };
        }
    }
    let mut g = Group { r: 4, regs, ce: [[true; 4]; 4], iptr: [0, 1, 2, 3], tag: [[0x5A; 4]; 4] };
    g.ce[2][2] = false;
    s.dut.capture_waves();
    let log = run_rows(&mut s, &g.rows(), &|_| true);
    assert_eq!(log.fin.slots_skipped, 1, "TV1 skips one slot");
    let en = |bit: usize, label: &str| Sig::field("dbg_en", label, bit, 1);
    let groups = [
        (
            "rows in",
            vec![
                Sig::port("in_valid"),
                Sig::port("in_ready"),
                Sig::port("in_pix").fmt(Fmt::Dec).when("in_valid"),
                Sig::port("in_row").fmt(Fmt::Dec).when("in_valid"),
                Sig::port("in_ce").when("in_valid"),
            ],
        ),
        ("issue", vec![Sig::port("dbg_issue"), Sig::port("dbg_issue_pk").fmt(Fmt::Hex).when("dbg_issue")]),
        ("bank enables", vec![en(0, "en1"), en(1, "en2"), en(2, "en3"), en(3, "we4")]),
        (
            "rows out",
            vec![
                Sig::port("out_valid"),
                Sig::port("out_pix").fmt(Fmt::Dec).when("out_valid"),
                Sig::port("out_row").fmt(Fmt::Dec).when("out_valid"),
                Sig::port("out_ce").when("out_valid"),
            ],
        ),
    ];
    vec![Timing {
        stem: "alu_pipeline-disabled_slot",
        json: wavedrom(
            &s.dut.desc().ports(),
            &s.dut.take_waves(),
            "ALU pipeline: a group with a disabled slot (spec TV1, GATE_SCOPE = ALL)",
            "Pixel 2 row 2 has CE = 0: its issue slot is skipped and the bank enables en1..en3, we4 stay low in the cycles that slot passes each stage. Every port compared with the golden model every cycle.",
            1,
            &groups,
        ),
    }]
}
