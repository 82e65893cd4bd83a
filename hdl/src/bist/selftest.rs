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

#[derive(LogicBlock)]
pub struct BistSelftest {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub btn_n: Signal<In, Bit>,
    pub inject_fault: Signal<In, Bit>,
    pub expected: Signal<In, Bits<32>>,
    pub led_pass: Signal<Out, Bit>,
    pub led_fail: Signal<Out, Bit>,
    pub led_busy: Signal<Out, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    fault_always: Constant<Bit>,
    core: BistCore<SW, RW>,
    dut: SelfTest,
}

impl BistSelftest {
    pub fn new(p: &BistParams) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            btn_n: Default::default(),
            inject_fault: Default::default(),
            expected: Default::default(),
            led_pass: Default::default(),
            led_fail: Default::default(),
            led_busy: Default::default(),
            uart_tx: Default::default(),
            fault_always: Constant::new(p.fault_always),
            core: BistCore::new(p),
            dut: SelfTest::default(),
        }
    }
}

impl Logic for BistSelftest {
    #[hdl_gen]
    fn update(&mut self) {
        // Board side: the same for every block.
        self.core.clk.next = self.clk.val();
        self.core.rst.next = self.rst.val();
        self.core.btn_n.next = self.btn_n.val();
        self.core.expected_in.next = self.expected.val();
        self.core.inject_fault.next = self.inject_fault.val() | self.fault_always.val();
        self.led_pass.next = self.core.led_pass.val();
        self.led_fail.next = self.core.led_fail.val();
        self.led_busy.next = self.core.led_busy.val();
        self.uart_tx.next = self.core.uart_tx.val();
        self.dut.clk.next = self.clk.val();
        self.dut.rst.next = self.core.dut_rst.val();
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



