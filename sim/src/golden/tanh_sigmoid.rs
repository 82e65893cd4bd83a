//! Golden model for tanh_sigmoid: placeholder until the block lands.
