//! Leaf primitives shared by the blocks, one per file, each with its own simulation test
//! (like OpenTitan's `prim_*` and PULP's common_cells). Blocks build their registers, delay lines,
//! pipeline stages, memories and multipliers from these, never by hand.

mod cg_cell;
mod rdff;
pub use cg_cell::CgCell;
pub use rdff::RDff;
