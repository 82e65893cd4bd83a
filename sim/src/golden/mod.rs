//! Golden models, one per block, written from the specs in ../shared/spec (never from the RTL).

pub mod alu_pipeline;
pub mod branch_unit;
pub mod region_addr_gen;
pub mod tanh_sigmoid;
pub mod trap_controller;
