//! Lock-step co-simulation drivers shared by the tests and the benches: each drives a block's
//! Verilated model and its golden model together and compares every output port every cycle.

pub mod alu_pipeline;
pub mod branch_unit;
pub mod eu_core;
pub mod region_addr_gen;
pub mod tanh_sigmoid;
pub mod trap_controller;
