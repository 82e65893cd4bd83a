//! Golden model for branch_unit: placeholder until the block lands.
