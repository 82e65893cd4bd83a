//! Lock-step co-simulation driver for `eu_tanh_sigmoid` (used by the figures; the same shape as
//! the bench in tests/tanh_sigmoid.rs, which moves here next): the Verilated model and the
//! golden `Pipeline` (lane function behind a `FixedLatency` of the model's `lat`), every output
//! port compared every cycle.

use crate::cosim::Dut;
use crate::golden::tanh_sigmoid::{Params, Pipeline, VecIn};

pub struct TanhBench {
    pub dut: Dut,
    pub gold: Pipeline,
    pub lanes: usize,
    pub p: crate::ports::EuTanhSigmoid,
}

impl TanhBench {
    pub fn new(variant: &str) -> Self {
        let dut = Dut::new(&format!("tanh_sigmoid_{variant}/eu_tanh_sigmoid"));
        let lanes: usize = dut.param("lanes").parse().unwrap();
        let params = Params { fused: dut.param("fused") == "1", canon_nan: dut.param("canon_nan") == "1" };
        let lat: usize = dut.param("lat").parse().unwrap();
        let mut b = TanhBench { p: crate::ports::EuTanhSigmoid::of(&dut), gold: Pipeline::with_lat(lanes, params, lat), lanes, dut };
        b.dut.reset(2);
        b
    }

    /// One cycle: drive, tick both, compare every output port.
    pub fn cycle(&mut self, i: &VecIn) {
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
}
