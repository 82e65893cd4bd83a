//! Leaf primitives shared by the blocks, one per file, each with its own simulation test
//! (like OpenTitan's `prim_*` and PULP's common_cells). Blocks build their registers, delay lines,
//! pipeline stages, memories and multipliers from these, never by hand. docs/prims.md lists their
//! ports, timing and what each maps to on iCE40 and ECP5 (measured by the yosys tests here).
//! Hand-written Verilog leaves (what rust-hdl cannot express): `Mul`, `MulDsp`, `MulDspPp` (the
//! multipliers; `MulDspPp` generates one registered 16 × 16 piece product per DSP for any
//! operand widths up to 64), the memories `Ram`, `LutRam`, and `RDff`, `CgCell`. `RamOutReg` is
//! a composition (`Ram` + an output `DFF`).

mod cg_cell;
mod delay;
mod lut_ram;
mod mul;
mod pack;
mod pipe_stage;
mod ram;
mod ram_out_reg;
mod rdff;
mod skid_buffer;
mod stage_reg;

#[cfg(test)]
mod handshake_test;
#[cfg(test)]
pub(crate) mod synth_check;

pub use cg_cell::CgCell;
pub use delay::Delay;
pub use lut_ram::LutRam;
pub use mul::{Mul, MulDsp, MulDspPp, Piece, ECP5_DEFINE};
pub use pack::Pack;
pub use pipe_stage::PipeStage;
pub use ram::Ram;
pub use ram_out_reg::RamOutReg;
pub use rdff::RDff;
pub use skid_buffer::SkidBuffer;
pub use stage_reg::StageReg;
