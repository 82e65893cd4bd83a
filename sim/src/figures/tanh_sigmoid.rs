//! Figure of tanh/sigmoid: requests of the three formats, one lane, flowing through the pipeline
//! at its LAT (6, fused tail) and at the deepest co-simulated `lat` (10: cuts A–D).

use super::Timing;
use crate::drivers::tanh_sigmoid::TanhBench;
use crate::golden::tanh_sigmoid::{to_fmt, VecIn};
use crate::waves::{wavedrom, Fmt, Sig};
use hdl::tanh_sigmoid::enc::{fmt, op};

fn run(variant: &'static str, stem: &'static str, title: &str) -> Timing {
    let mut b = TanhBench::new(variant);
    b.dut.capture_waves();
    let x = |v: f64, f: u8| to_fmt(v, f, false);
    let reqs = [
        (op::TANH as u8, fmt::FP32 as u8, x(0.5, fmt::FP32 as u8)),
        (op::SIGMOID as u8, fmt::FP16 as u8, x(-1.25, fmt::FP16 as u8)),
        (op::TANH as u8, fmt::BF16 as u8, x(2.0, fmt::BF16 as u8)),
        (op::TANH_PRE as u8, fmt::FP32 as u8, x(0.75, fmt::FP32 as u8)),
    ];
    for (k, &(o, f, raw)) in reqs.iter().enumerate() {
        b.cycle(&VecIn { valid: true, op: o, fmt: f, ftz: false, mask: 1, tag: k as u32 + 1, data: vec![raw] });
    }
    for _ in 0..b.gold.lat() + 1 {
        b.idle();
    }
    let groups = [
        (
            "request",
            vec![
                Sig::port("in_valid"),
                Sig::port("in_op").fmt(Fmt::Code(&op::TABLE)).when("in_valid"),
                Sig::port("in_fmt").fmt(Fmt::Code(&fmt::TABLE)).when("in_valid"),
                Sig::port("in_tag").fmt(Fmt::Dec).when("in_valid"),
                Sig::port("in_data").fmt(Fmt::Hex).when("in_valid"),
            ],
        ),
        (
            "result",
            vec![
                Sig::port("out_valid"),
                Sig::port("out_tag").fmt(Fmt::Dec).when("out_valid"),
                Sig::port("out_data").fmt(Fmt::Hex).when("out_valid"),
            ],
        ),
    ];
    let lat = b.gold.lat();
    Timing {
        stem,
        json: wavedrom(
            &b.dut.desc().ports(),
            &b.dut.take_waves(),
            title,
            &format!(
                "tanh(0.5) fp32, sigmoid(-1.25) fp16, tanh(2) bf16, TANH_PRE(0.75) fp32: each result {lat} cycles after its request. Every port compared with the golden model every cycle."
            ),
            2,
            &groups,
        ),
    }
}

pub fn timing() -> Vec<Timing> {
    vec![
        run("lanes1", "tanh_sigmoid-formats", "tanh/sigmoid, 1 lane: three formats through the pipeline at LAT = 6"),
        run("lanes1_lat14", "tanh_sigmoid-formats_lat14", "tanh/sigmoid, 1 lane, lat = 14 (cuts A-H inside the datapath)"),
    ]
}
