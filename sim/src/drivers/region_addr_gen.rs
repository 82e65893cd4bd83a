//! Lock-step co-simulation driver for the RAG `eu_region_addr_gen` (shared by
//! tests/region_addr_gen.rs and the figures): the Verilated model and the cycle-accurate golden
//! wrapper `RagTiming` stepped together, every output port compared every cycle.

use crate::cosim::{Dut, Expected};
use crate::golden::region_addr_gen::*;
use hdl::region_addr_gen::{Block, Config};

/// The co-sim variant `v`'s config (`Block::cosim_configs`).
pub fn variant(v: &str) -> Config {
    hdl::registry::cosim_config::<Block>(v)
}

pub type RagPorts = crate::ports::EuRegionAddrGen;

/// The RAG under test plus its cycle-accurate golden wrapper; `step` compares every port.
pub struct RagBench {
    pub dut: Dut,
    pub p: RagPorts,
    pub cfg: Cfg,
    pub aw: usize,
    pub model: RagTiming,
    pub exp: Expected,
    pub cycles: u64,
    /// The variant's pipeline depth (latency 1 + pipe).
    pub pipe: u32,
}

impl RagBench {
    pub fn new(v: &str) -> Self {
        let c = variant(v);
        let cfg = Cfg::from(&c);
        let mut dut = Dut::new(&format!("region_addr_gen_{v}/eu_region_addr_gen"));
        let p = RagPorts::of(&dut);
        assert_eq!(dut.width_in(p.in_reg), cfg.rn_w() as usize);
        assert_eq!(dut.width_in(p.in_sub), cfg.rb_w() as usize);
        assert_eq!(dut.width_out(p.out_addr), (cfg.n_max * cfg.a_w()) as usize);
        assert_eq!(dut.width_out(p.out_ch_valid), cfg.n_max as usize);
        assert_eq!(dut.width_out(p.out_err), 11);
        assert_eq!(dut.width_out(p.out_warn), 4);
        dut.set(p.out_ready, 1);
        dut.reset(1);
        let exp = dut.expected();
        let mut b = RagBench { dut, p, aw: cfg.a_w() as usize, cfg, model: RagTiming::new(c.pipe), exp, cycles: 0, pipe: c.pipe };
        b.check();
        b
    }

    pub fn drive(&mut self, in_valid: bool, d: &Desc, out_ready: bool) {
        let (dut, p) = (&mut self.dut, &self.p);
        dut.set(p.in_valid, in_valid as u64);
        dut.set(p.in_enc_err, d.enc_err as u64);
        dut.set(p.in_reg, d.reg as u64);
        dut.set(p.in_sub, d.sub as u64);
        dut.set(p.in_type, d.ty as u64);
        dut.set(p.in_exec_log2, d.exec_log2 as u64);
        dut.set(p.in_width_log2, d.width_log2 as u64);
        dut.set(p.in_hs, d.hs as u64);
        dut.set(p.in_vs, d.vs as u64);
        dut.set(p.in_is_dst, d.is_dst as u64);
        dut.set(p.in_colmajor, d.colmajor as u64);
        dut.set(p.in_tag, d.tag as u64);
        dut.set(p.out_ready, out_ready as u64);
    }

    /// Fills `exp` from the golden state (out_ready given for the combinational in_ready).
    pub fn check_with(&mut self, out_ready: bool) {
        let (m, p, e) = (&self.model, &self.p, &mut self.exp);
        e.set(p.in_ready, m.in_ready(out_ready) as u64);
        e.set(p.out_valid, m.out_valid as u64);
        // Pack the addresses 64 bits at a time.
        let (aw, n) = (self.aw, self.cfg.n_max as usize);
        let total = aw * n;
        let mut acc: u128 = 0;
        let (mut nb, mut lsb) = (0usize, 0usize);
        for i in 0..n {
            acc |= (m.out.addr[i] as u128) << nb;
            nb += aw;
            while nb >= 64 {
                e.set_field(p.out_addr, lsb, 64, acc as u64);
                acc >>= 64;
                nb -= 64;
                lsb += 64;
            }
        }
        if nb > 0 {
            e.set_field(p.out_addr, lsb, total - lsb, acc as u64);
        }
        e.set(p.out_esize_log2, m.out.esize_log2 as u64);
        e.set(p.out_ch_valid, m.out.ch_valid as u64);
        e.set(p.out_straddle, m.out.straddle as u64);
        e.set(p.out_err, m.out.err as u64);
        e.set(p.out_warn, m.out.warn as u64);
        e.set(p.out_tag, m.tag as u64);
        self.dut.check(&self.exp);
    }

    /// After reset `out_ready` is driven high.
    pub fn check(&mut self) {
        self.check_with(true)
    }

    /// One cycle: drive, tick, advance the golden model, compare every port.
    pub fn step(&mut self, in_valid: bool, d: &Desc, out_ready: bool) {
        let res = rag(&self.cfg, d);
        self.step_with(in_valid, d, &res, out_ready);
    }

    pub fn step_with(&mut self, in_valid: bool, d: &Desc, res: &RagOut, out_ready: bool) {
        self.drive(in_valid, d, out_ready);
        self.dut.tick();
        self.model.step(false, in_valid, d, res, out_ready);
        self.cycles += 1;
        self.check_with(out_ready);
    }

    /// Issues `d` alone (one valid cycle, then idle cycles until the result is shown — 1 + pipe
    /// cycles after the accept — and one more) and returns the golden result the RTL was checked
    /// against.
    pub fn issue(&mut self, label: &str, d: &Desc) -> RagOut {
        self.dut.set_label(label.to_string());
        let g = rag(&self.cfg, d);
        self.step(true, d, true);
        for _ in 0..self.pipe {
            assert!(!self.model.out_valid);
            self.step(false, &Desc::default(), true);
        }
        assert!(self.model.out_valid && self.model.out == g);
        self.step(false, &Desc::default(), true);
        g
    }

    pub fn rb(&self) -> u32 {
        self.cfg.rb
    }
}
