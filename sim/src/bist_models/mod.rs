//! [`CycleModel`](crate::bist::CycleModel)s of the block golden models for the FPGA BIST tops
//! (`hdl::bist::<block>`), each in two layers:
//! * `<Block>Cycles`: the golden model seen one cycle at a time with the DUT's raw ports (checked
//!   against the plain Verilated block by `sim::bist::check_model_against_dut`);
//! * `<Block>Bist`: the stimulus shaping the BIST top applies in front of the DUT (documented in
//!   the top's module docs), then `<Block>Cycles` — the model `sim::bist::signature` runs.

pub mod alu_pipeline;
pub mod branch_unit;
pub mod region_addr_gen;
pub mod tanh_sigmoid;
pub mod trap_controller;

use crate::bist::Layout;

/// The stimulus words `i`, copied for shaping into the allocation `buf` keeps between cycles
/// (taken out of it: put it back after the inner step, `self.buf = b`).
pub(crate) fn shaping_copy(buf: &mut Vec<u32>, i: &[u32]) -> Vec<u32> {
    let mut b = std::mem::take(buf);
    b.clear();
    b.extend_from_slice(i);
    b
}

/// Word offsets of a DUT's packed ports, looked up by name once.
pub(crate) struct Words {
    ins: Vec<(String, usize)>,
    outs: Vec<(String, usize)>,
}

impl Words {
    pub(crate) fn of(l: &Layout) -> Self {
        Words {
            ins: l.inputs.iter().map(|(p, _, w)| (p.name.clone(), *w)).collect(),
            outs: l.outputs.iter().map(|(p, _, w)| (p.name.clone(), *w)).collect(),
        }
    }
    pub(crate) fn i(&self, name: &str) -> usize {
        self.ins.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no input {name}")).1
    }
    pub(crate) fn o(&self, name: &str) -> usize {
        self.outs.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no output {name}")).1
    }
}

/// Writes `n` (≤ 64) bits of `v` at bit `lsb` of the packed port starting at word `w`.
pub(crate) fn put(o: &mut [u32], w: usize, lsb: usize, n: usize, v: u64) {
    for b in 0..n {
        let i = lsb + b;
        let m = 1u32 << (i % 32);
        if (v >> b) & 1 == 1 {
            o[w + i / 32] |= m;
        } else {
            o[w + i / 32] &= !m;
        }
    }
}

/// `n` bits from bit `lsb` of word `x`.
pub(crate) fn bits(x: u32, lsb: u32, n: u32) -> u32 {
    (x >> lsb) & ((1u64 << n) - 1) as u32
}

/// AND of `n` bits from bit `lsb` of a 64-bit word.
pub(crate) fn all(x: u64, lsb: u32, n: u32) -> bool {
    let m = (1u64 << n) - 1;
    (x >> lsb) & m == m
}
