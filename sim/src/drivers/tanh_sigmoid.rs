//! Lock-step co-simulation driver for `eu_tanh_sigmoid` (shared by tests/tanh_sigmoid.rs and the
//! figures): the Verilated model and the golden `Pipeline` (lane function behind a
//! `FixedLatency` of the model's `lat`), every output port compared every cycle.

use crate::cosim::Dut;
use crate::golden::tanh_sigmoid::{Params, Pipeline, VecIn};

pub struct TanhBench {
    pub dut: Dut,
    pub gold: Pipeline,
    pub lanes: usize,
    pub params: Params,
    /// `in_tag`/`out_tag` carry TAG_WIDTH bits: stimulus tags are cut to them.
    pub tag_mask: u32,
    /// The ports by their spec names (bindings generated from the model's port list).
    pub p: crate::ports::EuTanhSigmoid,
}

impl TanhBench {
    pub fn new(variant: &str) -> Self {
        let dut = Dut::new(&format!("tanh_sigmoid_{variant}/eu_tanh_sigmoid"));
        let lanes: usize = dut.param("lanes").parse().unwrap();
        let params = Params { fused: dut.param("fused") == "1", canon_nan: dut.param("canon_nan") == "1" };
        // the spec's latency (§6.2), not the golden model's: 6 with the fused tail, 4 without;
        // the test-only `_lat<N>` variants raise it to N
        let lat: usize = dut.param("lat").parse().unwrap();
        let spec_lat = if params.fused { 6 } else { 4 };
        match variant.split_once("_lat") {
            Some((_, n)) => assert_eq!(lat, n.parse::<usize>().unwrap()),
            None => assert_eq!(lat, spec_lat),
        }
        let tag_w: u32 = dut.param("tag_width").parse().unwrap();
        let tag_mask = if tag_w >= 32 { u32::MAX } else { (1 << tag_w) - 1 };
        // formats = "half": the half-only lanes (`lane_half`)
        let mut gold = Pipeline::with_lat(lanes, params, lat);
        if dut.param("formats") == "half" {
            gold = gold.half();
        }
        let mut b = TanhBench { p: crate::ports::EuTanhSigmoid::of(&dut), gold, lanes, params, tag_mask, dut };
        b.dut.reset(2);
        b
    }

    /// One cycle: drive, tick both, compare every output port.
    pub fn cycle(&mut self, i: &VecIn) {
        let cut;
        let i = if i.tag & !self.tag_mask != 0 {
            cut = VecIn { tag: i.tag & self.tag_mask, ..i.clone() };
            &cut
        } else {
            i
        };
        let d = &mut self.dut;
        d.set(self.p.in_valid, i.valid as u64);
        d.set(self.p.in_op, i.op as u64);
        d.set(self.p.in_fmt, i.fmt as u64);
        d.set(self.p.in_ftz, i.ftz as u64);
        d.set(self.p.in_mask, i.mask as u64);
        d.set(self.p.in_tag, i.tag as u64);
        for l in 0..self.lanes {
            d.set_field(self.p.in_data, 32 * l, 32, i.data[l] as u64);
        }
        d.tick();
        let g = self.gold.tick(i);
        let mut e = d.expected();
        e.set(self.p.out_valid, g.valid as u64).set(self.p.out_mask, g.mask as u64).set(self.p.out_tag, g.tag as u64);
        for l in 0..self.lanes {
            e.set_field(self.p.out_data, 32 * l, 32, g.data[l] as u64);
        }
        d.check(&e);
    }

    /// An idle cycle (all inputs zero).
    pub fn idle(&mut self) {
        let i = VecIn { data: vec![0; self.lanes], ..Default::default() };
        self.cycle(&i);
    }

    /// Idle cycles until everything issued has left the pipeline.
    pub fn drain(&mut self) {
        for _ in 0..self.gold.lat() {
            self.idle();
        }
    }

    /// All lanes active, back to back, then drained.
    pub fn run_values(&mut self, op: u8, fmt: u8, ftz: bool, vals: &[u32]) {
        let full = if self.lanes == 32 { u32::MAX } else { (1u32 << self.lanes) - 1 };
        for (n, ch) in vals.chunks(self.lanes).enumerate() {
            let mut data = ch.to_vec();
            data.resize(self.lanes, 0);
            let i = VecIn { valid: true, op, fmt, ftz, mask: full, tag: (n & 0xFF) as u32, data };
            self.cycle(&i);
        }
        self.drain();
    }
}
