//! Report for branch_unit: placeholder until the block lands.
fn main() {}
