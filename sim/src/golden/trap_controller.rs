//! Golden model for trap_controller: placeholder until the block lands.
