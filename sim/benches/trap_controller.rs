//! Report for trap_controller: placeholder until the block lands.
fn main() {}
