//! Figures of the region address generator: one `<VS;W,HS>` region per descriptor with its
//! channel addresses (Cfg A, pipe 0), and back-pressure on the deepest pipelined build (Cfg A, pipe 6).

use super::Timing;
use crate::drivers::region_addr_gen::RagBench;
use crate::golden::region_addr_gen::{Desc, T_B};
use crate::waves::{wavedrom, Fmt, Sig};
use hdl::region_addr_gen::enc::warn;
use std::collections::VecDeque;

pub fn timing() -> Vec<Timing> {
    vec![regions(), backpressure()]
}

/// Three figure regions of spec §2.6 back to back: `<8;4,1>` from R0.2, `<8;4,2>` from R1.1 and
/// `<8;8,1>` from R4.6, which wraps past the end of the 40-byte register file (W_WRAP).
fn regions() -> Timing {
    let mut b = RagBench::new("cfg_a");
    b.dut.capture_waves();
    let ds = [Desc::region(0, 2, 8, 4, 1, T_B, 8).dst(), Desc::region(1, 1, 8, 4, 2, T_B, 8), Desc::region(4, 6, 8, 8, 1, T_B, 8)];
    for (k, d) in ds.iter().enumerate() {
        b.step(true, &Desc { tag: k as u32, ..*d }, true);
    }
    for _ in 0..2 {
        b.step(false, &Desc::default(), true);
    }
    let aw = b.aw;
    let dec = |p: &'static str| Sig::port(p).fmt(Fmt::Dec).when("in_valid");
    let mut out = vec![Sig::port("out_valid"), Sig::port("out_tag").fmt(Fmt::Dec).when("out_valid")];
    out.extend((0..8).map(|i| Sig::field("out_addr", format!("addr[{i}]"), aw * i, aw).fmt(Fmt::Dec).when("out_valid")));
    out.push(Sig::port("out_ch_valid").fmt(Fmt::Hex).when("out_valid"));
    out.push(Sig::port("out_warn").fmt(Fmt::Flags(&warn::TABLE)).when("out_valid"));
    let groups = [
        ("", vec![Sig::port("in_valid"), Sig::port("in_ready")]),
        ("descriptor", vec![dec("in_tag"), dec("in_reg"), dec("in_sub"), dec("in_vs"), dec("in_width_log2"), dec("in_hs"), dec("in_exec_log2")]),
        ("result", out),
    ];
    Timing {
        stem: "region_addr_gen-regions",
        json: wavedrom(
            &b.dut.desc().ports(),
            &b.dut.take_waves(),
            "RAG: three regions <VS;W,HS> back to back (Cfg A: 5 registers x 8 B, pipe 0)",
            "byte addresses = reg*8 + byte; the third region wraps past byte 39 (W_WRAP). Every port checked against the golden model every cycle.",
            1,
            &groups,
        ),
    }
}

/// A stream of eight descriptors into the pipe-6 build while the consumer stalls for five
/// cycles: the outputs hold, the seven levels fill, `in_ready` falls only when all are full, and
/// the stream drains in order once `out_ready` returns.
fn backpressure() -> Timing {
    let mut b = RagBench::new("cfg_a_p");
    b.dut.capture_waves();
    let mut queue: VecDeque<Desc> = (0..8u32).map(|k| Desc { tag: k, ..Desc::region(k % 5, 0, 8, 8, 1, T_B, 8) }).collect();
    let ready = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
    for &r in &ready {
        let out_ready = r == 1;
        let (valid, d) = match queue.front() {
            Some(d) => (true, *d),
            None => (false, Desc::default()),
        };
        let taken = valid && b.model.in_ready(out_ready);
        b.step(valid, &d, out_ready);
        if taken {
            queue.pop_front();
        }
    }
    assert!(queue.is_empty(), "the scenario must drain its stream");
    let aw = b.aw;
    let groups = [
        ("input", vec![Sig::port("in_valid"), Sig::port("in_ready"), Sig::port("in_tag").fmt(Fmt::Dec).when("in_valid")]),
        (
            "output",
            vec![
                Sig::port("out_valid"),
                Sig::port("out_ready"),
                Sig::port("out_tag").fmt(Fmt::Dec).when("out_valid"),
                Sig::field("out_addr", "addr[0]", 0, aw).fmt(Fmt::Dec).when("out_valid"),
            ],
        ),
    ];
    Timing {
        stem: "region_addr_gen-backpressure",
        json: wavedrom(
            &b.dut.desc().ports(),
            &b.dut.take_waves(),
            "RAG pipe 6: back-pressure (Cfg A, latency 7)",
            "out_ready low for 5 cycles: outputs hold, in_ready falls only when every level is full, the stream drains in order.",
            1,
            &groups,
        ),
    }
}
