//! Inputs of the kernels (kernels/*.s) that more than one test or bench runs, so the ISA-level
//! test, the RTL co-simulation and the bench run the same data.

use crate::golden::tanh_sigmoid as ts;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Kernel 1 (activation): 4 096 values in format `fmt` (a tanh/sigmoid unit format code), evenly
/// spaced over [−8, 8) with a little noise, the same for a format on every call.
pub fn activation_inputs(fmt: u8) -> Vec<u32> {
    let mut rng = StdRng::seed_from_u64(1 + fmt as u64);
    (0..4096)
        .map(|k| {
            let v = (k as f64 - 2048.0) / 256.0 + rng.gen_range(-0.01..0.01);
            ts::to_fmt(v, fmt, false)
        })
        .collect()
}
