//! Golden model for alu_pipeline: placeholder until the block lands.
