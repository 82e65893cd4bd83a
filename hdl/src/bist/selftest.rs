//! BIST top for the harness self-test design `eu_selftest` — the worked example of a block's
//! BIST wiring (see docs/fpga.md, "Adding a block's BIST top").
//!
//! Stimulus bits (DUT inputs except clk/rst, in port order): `ce` [0], `a` [1..33), `b` [33..65),
//! `wide_d` [65..161) → SW = 161. Response bits (outputs in port order): `sum` [0..33),
//! `wide_q` [33..129), `nibble` [129..133) → RW = 133.

use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::selftest::SelfTest;
use rust_hdl::prelude::*;

pub const SW: usize = 161;
pub const RW: usize = 133;
/// Verilog name of the BIST top.
pub const TOP: &str = "eu_bist_selftest";

bist_top! {
    pub struct BistSelftest {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: SelfTest = SelfTest::default(),
        fault_always = Constant::new(p.fault_always),
    }
    pub fn new(p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side: stimulus bits -> DUT inputs, DUT outputs -> response bits (port order).
        self.dut.ce.next = self.core.stim.val().get_bit(0);
        self.dut.a.next = self.core.stim.val().get_bits::<32>(1);
        self.dut.b.next = self.core.stim.val().get_bits::<32>(33);
        self.dut.wide_d.next = self.core.stim.val().get_bits::<96>(65);
        self.core.resp.next = bit_cast::<RW, 33>(self.dut.sum.val())
            | (bit_cast::<RW, 96>(self.dut.wide_q.val()) << 33)
            | (bit_cast::<RW, 4>(self.dut.nibble.val()) << 129);
    }
}

/// The DUT's ports (for the golden-model packing in `sim::bist`).
pub fn dut_module() -> Result<EmittedModule, EmitError> {
    crate::selftest::emit()
}

pub fn emit(p: &BistParams) -> Result<EmittedModule, EmitError> {
    emit_module(BistSelftest::new(p), TOP, "selftest", super::bist_params(p, SW, RW))
}

/// The co-simulation variant: expected signature from the `expected` port, iCEBreaker clock.
pub fn cosim_params() -> BistParams {
    BistParams {
        dut_name: "eu_selftest".into(),
        board: super::ICEBREAKER,
        cycles: super::DEFAULT_CYCLES,
        expected: None,
        fault_always: false,
    }
}



