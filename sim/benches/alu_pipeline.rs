//! Report for alu_pipeline: placeholder until the block lands.
fn main() {}
