//! tanh/sigmoid cycle models for the BIST top `hdl::bist::tanh_sigmoid` (one lane).

use super::{bits, Words};
use crate::bist::{CycleModel, Layout};
use crate::golden::tanh_sigmoid::{Pipeline, VecIn, VecOut, FMT_BF16, FMT_FP32, FMT_RESERVED, OP_RESERVED, OP_SIGMOID};

/// The golden cycle model (`Pipeline`, the config's latency) on the raw ports of a one-lane datapath.
/// Every output is registered (spec §6.2), so the Mealy sample is the output after the previous edge.
pub struct TanhCycles {
    pipe: Pipeline,
    last: VecOut,
    w: Words,
    /// Coverage: valid vectors with the lane enabled, per op (TANH_PRE, SIGMOID, TANH, reserved)
    /// and per format (fp32, fp16, bf16, reserved); of the legal ones, how many reach the
    /// interpolator, and how many are NaN/∞/zero/subnormal inputs.
    pub cycles: u64,
    pub active: u64,
    pub per_op: [u64; 4],
    pub per_fmt: [u64; 4],
    pub interpolated: u64,
    pub specials: u64,
}

impl TanhCycles {
    pub fn new(cfg: &hdl::tanh_sigmoid::Config) -> Self {
        assert_eq!(cfg.lanes, 1, "TanhCycles models a one-lane datapath");
        let dut = hdl::bist::tanh_sigmoid::dut_module(cfg);
        // the config's latency: LAT (6, fused) or `lat` when it raises it (timing-closure §3.5)
        let mut pipe = Pipeline::with_lat(1, Default::default(), hdl::tanh_sigmoid::lat(cfg));
        if hdl::tanh_sigmoid::is_half(cfg) {
            pipe = pipe.half();
        }
        TanhCycles {
            last: VecOut { valid: false, mask: 0, tag: 0, data: vec![0] },
            pipe,
            w: Words::of(&Layout::of(&dut)),
            cycles: 0,
            active: 0,
            per_op: [0; 4],
            per_fmt: [0; 4],
            interpolated: 0,
            specials: 0,
        }
    }

    fn count(&mut self, v: &VecIn) {
        self.cycles += 1;
        if !(v.valid && v.mask & 1 == 1) {
            return;
        }
        self.active += 1;
        self.per_op[v.op as usize] += 1;
        self.per_fmt[v.fmt as usize] += 1;
        if v.op >= OP_RESERVED || v.fmt >= FMT_RESERVED {
            return;
        }
        // fp32-widened biased exponent of the input (§2.5 region decode).
        let x = v.data[0];
        let (e, emax, ee) = match v.fmt {
            FMT_FP32 => (bits(x, 23, 8), 255, bits(x, 23, 8)),
            FMT_BF16 => (bits(x, 7, 8), 255, bits(x, 7, 8)),
            _ => (bits(x, 10, 5), 31, if bits(x, 10, 5) == 0 { 0 } else { bits(x, 10, 5) + 112 }),
        };
        if e == 0 || e == emax {
            self.specials += 1;
            return;
        }
        // Interpolated: tanh |x| in [2^-12, 16) (biased 115..130, +1 in the row decode), sigmoid |x| < 32.
        let ee = ee + (v.op != OP_SIGMOID) as u32;
        if (v.op == OP_SIGMOID || ee >= 116) && ee <= 131 {
            self.interpolated += 1;
        }
    }
}

impl CycleModel for TanhCycles {
    fn reset(&mut self) {
        self.pipe.reset();
        self.last = VecOut { valid: false, mask: 0, tag: 0, data: vec![0] };
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let w = &self.w;
        let v = VecIn {
            valid: i[w.i("in_valid")] & 1 == 1,
            op: i[w.i("in_op")] as u8,
            fmt: i[w.i("in_fmt")] as u8,
            ftz: i[w.i("in_ftz")] & 1 == 1,
            mask: i[w.i("in_mask")],
            tag: i[w.i("in_tag")],
            data: vec![i[w.i("in_data")]],
        };
        o[w.o("out_valid")] = self.last.valid as u32;
        o[w.o("out_mask")] = self.last.mask;
        o[w.o("out_data")] = self.last.data[0];
        o[w.o("out_tag")] = self.last.tag;
        self.count(&v);
        self.last = self.pipe.tick(&v).clone();
    }
}

/// The BIST top's stimulus shaping (module docs of `hdl::bist::tanh_sigmoid`), then [`TanhCycles`].
pub struct TanhBist {
    pub inner: TanhCycles,
    /// Word offset of the spare-stimulus port in the BIST layout.
    ctl: usize,
    buf: Vec<u32>,
}

impl TanhBist {
    pub fn new(cfg: &hdl::tanh_sigmoid::Config) -> Self {
        assert!(hdl::bist::tanh_sigmoid::supports(cfg), "TanhBist models the top for the small config only");
        let inner = TanhCycles::new(cfg);
        // The BIST layout = the DUT's inputs, then the spare port: its word follows the DUT's.
        let ctl = Layout::of(&crate::bist::with_spare_stimulus(hdl::bist::tanh_sigmoid::dut_module(cfg), hdl::bist::tanh_sigmoid::SPARE_BITS)).in_words - 1;
        TanhBist { inner, ctl, buf: Vec::new() }
    }
}

/// Replaces `n` bits at `lsb` of `x` with `v`.
fn set_field(x: u32, lsb: u32, n: u32, v: u32) -> u32 {
    let m = ((1u64 << n) - 1) as u32;
    (x & !(m << lsb)) | (v & m) << lsb
}

impl CycleModel for TanhBist {
    fn reset(&mut self) {
        self.inner.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let mut b = super::shaping_copy(&mut self.buf, i);
        let w = &self.inner.w;
        // The padded core's spare stimulus bits 47..64 (not DUT inputs): the extra layout port.
        let c = i[self.ctl];
        let bit = |k: u32| c >> k & 1;
        b[w.i("in_valid")] = i[w.i("in_valid")] | bit(0);
        if i[w.i("in_op")] == OP_RESERVED as u32 && (bit(1) | bit(2)) == 1 {
            b[w.i("in_op")] = bit(3);
        }
        let mut fmt = i[w.i("in_fmt")];
        if fmt == FMT_RESERVED as u32 && (bit(4) | bit(5)) == 1 {
            fmt = bit(6);
        }
        b[w.i("in_fmt")] = fmt;
        b[w.i("in_mask")] = i[w.i("in_mask")] | bit(7);
        let mut d = i[w.i("in_data")];
        let class = bits(c, 8, 3);
        let (lsb, n) = match fmt as u8 {
            FMT_FP32 => (23, 8),
            FMT_BF16 => (7, 8),
            _ => (10, 5),
        };
        if class == 0 {
            d = set_field(d, lsb, n, if bit(11) == 1 { u32::MAX } else { 0 });
        } else if class != 1 && (fmt as u8 == FMT_FP32 || fmt as u8 == FMT_BF16) {
            d = set_field(d, lsb, 8, hdl::bist::tanh_sigmoid::TAME_EXP_BASE as u32 + bits(d, lsb, 5));
        }
        b[w.i("in_data")] = d;
        self.inner.step(&b, o);
        self.buf = b;
    }
}

/// This block's entry in the BIST registry (`super::registry`).
pub fn entry() -> super::BistEntry {
    super::entry_of("tanh_sigmoid", &["small", "half"], |all| all.tanh_sigmoid, |c| crate::bist::with_spare_stimulus(hdl::bist::tanh_sigmoid::dut_module(c), hdl::bist::tanh_sigmoid::SPARE_BITS), |c| Box::new(TanhBist::new(c)), hdl::bist::tanh_sigmoid::emit)
}
