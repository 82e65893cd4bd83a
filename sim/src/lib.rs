//! EU-RTL simulation: golden models written from the specs (`golden`) and the Verilator
//! co-simulation harness over the emitted Verilog (`cosim`).

pub mod cosim;
pub mod golden;
