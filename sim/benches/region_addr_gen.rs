//! Report for region_addr_gen: placeholder until the block lands.
fn main() {}
