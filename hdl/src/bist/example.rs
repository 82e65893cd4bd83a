//! A narrow example DUT and its BIST top: the recipe for 1-bit ports and for DUTs narrower than
//! the core's minimum (`SW < 64`, `RW < 32`: the core is padded, the signature does not change).
//! Not a GPU block; `sim/tests/fpga_bist.rs` runs it (Icarus) against a golden model.
//!
//! DUT `eu_bist_example_dut`: inputs `in_valid` (1), `d` (12), `k` (4) → SW = 17;
//! outputs `out_valid` (1) `<= in_valid`, `q` (8) `<= d[11:4] + k`, both registered and cleared
//! by `rst`, and `parity` (1) `= k[0] ^ in_valid` (combinational) → RW = 10.

use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ExampleDut {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub d: Signal<In, Bits<12>>,
    pub k: Signal<In, Bits<4>>,
    pub out_valid: Signal<Out, Bit>,
    pub q: Signal<Out, Bits<8>>,
    pub parity: Signal<Out, Bit>,
    v_r: DFF<Bit>,
    q_r: DFF<Bits<8>>,
}

impl Logic for ExampleDut {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, v_r, q_r);
        self.v_r.d.next = self.in_valid.val();
        self.q_r.d.next = self.d.val().get_bits::<8>(4) + bit_cast::<8, 4>(self.k.val());
        if self.rst.val() {
            self.v_r.d.next = false;
            self.q_r.d.next = 0.into();
        }
        self.out_valid.next = self.v_r.q.val();
        self.q.next = self.q_r.q.val();
        self.parity.next = self.k.val().get_bit(0) ^ self.in_valid.val();
    }
}

pub fn dut_module() -> Result<EmittedModule, EmitError> {
    emit_module(ExampleDut::default(), "eu_bist_example_dut", "bist_example", vec![])
}

/// Padded: the DUT needs 17 stimulus and 10 response bits.
pub const SW: usize = 64;
pub const RW: usize = 32;
pub const TOP: &str = "eu_bist_example";

bist_top! {
    pub struct BistExample {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: ExampleDut = ExampleDut::default(),
        fault_always = Constant::new(p.fault_always),
    }
    pub fn new(p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side, in port order. Stimulus bits 17..64 are unused.
        self.dut.in_valid.next = self.core.stim.val().get_bit(0);
        self.dut.d.next = self.core.stim.val().get_bits::<12>(1);
        self.dut.k.next = self.core.stim.val().get_bits::<4>(13);
        // 1-bit outputs: `.into()` makes a Bits<1>; response bits 10..32 are 0.
        self.core.resp.next = bit_cast::<RW, 1>(self.dut.out_valid.val().into())
            | (bit_cast::<RW, 8>(self.dut.q.val()) << 1)
            | (bit_cast::<RW, 1>(self.dut.parity.val().into()) << 9);
    }
}

pub fn emit(p: &BistParams) -> Result<EmittedModule, EmitError> {
    emit_module(BistExample::new(p), TOP, "bist_example", super::bist_params(p, SW, RW))
}
