//! EU-RTL simulation: golden models written from the specs (`golden`) and the Verilator
//! co-simulation harness over the emitted Verilog (`cosim`).

pub mod cosim;
pub mod golden;
/// Expected signatures of the FPGA BIST tops (golden models through the BIST core's recurrence).
pub mod bist;
/// Cycle models of the block golden models for the FPGA BIST tops (with their stimulus shaping).
pub mod bist_models;
