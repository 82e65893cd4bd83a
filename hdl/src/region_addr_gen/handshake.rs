//! `Handshake`: the valid/ready control of the RAG pipeline (timing-closure §3.1).
//!
//! Seven levels: the six joins between the datapath sections (decode | stride | table-lo |
//! table-hi | channel look-up | channel sum | channel-flags) and the output register. `pipe` decides which joins are registers
//! (`LEVELS_OF_PIPE`); the output register always is. A registered level holds one descriptor
//! (its valid bit lives here, its data in the sections' `StageReg`s); an unregistered level passes
//! valid forward and ready backward unchanged.
//!
//! Each level moves forward whenever the level after it is empty or moving (`ready[k] =
//! !valid[k] | ready[k+1]`, `ready[7] = out_ready`), so bubbles close up and `in_ready` falls only
//! when every registered level is full and `out_ready` is low. With only the output register
//! (pipe = 0) this is exactly §6.3: `in_ready = !out_valid | out_ready`.
//!
//! That recursion unrolled is a flat OR: `ready[k] = out_ready | OR(!valid[m])` over the
//! registered levels m >= k (`k_below[k]`, a constant mask). Built as a flat OR, the mapper still
//! rebuilt the chain (HX8K seed 2), so `full[k]` = !OR(...) is a register of its own, its next
//! state the AND of the valid bits' next state over the same mask, and `ready[k] = out_ready |
//! !full[k]` is one LUT from flip-flops (docs/region_addr_gen.md, "The handshake as a flat OR").
//!
//! Load enables (`load`): an INTERNAL registered level k loads on `ready[k]` alone, valid or not:
//! when it is ready it is either empty or handing its descriptor on, so a bubble may load garbage
//! into it, which is harmless because its valid bit becomes 0 (and the joins' data registers have
//! no reset; only the valid bits here do). Only the output register (level 6) loads on
//! `ready[6] & valid`: idle outputs hold (§6.3).

use crate::prims::RDff;
use rust_hdl::prelude::*;

/// Number of levels (six joins and the output register).
pub const LEVELS: usize = 7;

/// Which joins are registers for `pipe` = 0..=6 (index: join after decode, after stride, after
/// the lower table levels, after the upper table levels, after the channel look-up, after the
/// channel addresses). Chosen to balance the sections' logic depth (docs/region_addr_gen.md,
/// "Pipeline"): decode and stride are the shortest sections, so their join is the one pipe = 4
/// leaves out; pipe = 5 registers every join but the look-up's (a [P] range beyond
/// timing-closure §3.1's 0..4: decode + stride in one cycle was the UP5K's worst path at pipe 4);
/// pipe = 6 registers the look-up too (the channel look-up, sum and modulo in one cycle were the
/// worst path of every pipe-5 run).
pub const LEVELS_OF_PIPE: [[bool; 6]; 7] = [
    [false, false, false, false, false, false],
    [false, false, true, false, false, false],
    [false, true, false, true, false, false],
    [false, true, false, true, false, true],
    [false, true, true, true, false, true],
    [true, true, true, true, false, true],
    [true, true, true, true, true, true],
];

#[derive(LogicBlock)]
pub struct Handshake {
    /// Rising-edge clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every level empty.
    pub rst: Signal<In, Bit>,
    /// A descriptor is offered.
    pub in_valid: Signal<In, Bit>,
    /// The first level takes it this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// The consumer takes the output this cycle.
    pub out_ready: Signal<In, Bit>,
    /// The output register holds a result.
    pub out_valid: Signal<Out, Bit>,
    /// Bit k < 6: level k may load at this edge (its `ready`, valid or not; the enable of its data
    /// registers). Bit 6: the output register loads a valid result.
    pub load: Signal<Out, Bits<8>>,
    valid: Vec<RDff<Bit>>,
    ready: Vec<Signal<Local, Bit>>,
    chain: Vec<Signal<Local, Bit>>,
    /// `full[k]`: every registered level m >= k holds a descriptor (so `ready[k] = out_ready |
    /// !full[k]`), kept as a register of its own, computed from the valid bits' next state.
    full: Vec<RDff<Bit>>,
    /// The valid bits' next state (bit k: `valid[k].d`).
    vnext: Signal<Local, Bits<8>>,
    k_registered: Vec<Constant<Bit>>,
    /// Bit m of entry k: level m is registered and m >= k (the levels whose empty bit makes
    /// level k ready).
    k_below: Vec<Constant<Bits<8>>>,
}

impl Handshake {
    pub fn new(pipe: usize) -> Self {
        let joins = LEVELS_OF_PIPE[pipe];
        Self {
            clock: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_ready: Default::default(),
            out_valid: Default::default(),
            load: Default::default(),
            valid: (0..LEVELS).map(|_| Default::default()).collect(),
            ready: (0..LEVELS).map(|_| Default::default()).collect(),
            chain: (0..=LEVELS).map(|_| Default::default()).collect(),
            full: (0..LEVELS).map(|_| Default::default()).collect(),
            vnext: Default::default(),
            k_registered: (0..LEVELS).map(|k| Constant::new(k == LEVELS - 1 || joins[k])).collect(),
            k_below: (0..LEVELS)
                .map(|k| {
                    let mask = (k..LEVELS).filter(|&m| m == LEVELS - 1 || joins[m]).fold(0u64, |a, m| a | 1 << m);
                    Constant::new(mask.to_bits())
                })
                .collect(),
        }
    }
}

impl Logic for Handshake {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..7 {
            self.valid[k].clock.next = self.clock.val();
            self.valid[k].rst.next = self.rst.val();
        }
        // ready: out_ready or some registered level at or after k empty (`full[k]` low), one LUT
        for k in 0..7 {
            self.full[k].clock.next = self.clock.val();
            self.full[k].rst.next = self.rst.val();
            self.ready[k].next = self.out_ready.val() | !self.full[k].q.val();
        }
        // valid, from the input forward; chain[k] is what is offered to level k
        self.chain[0].next = self.in_valid.val();
        self.load.next = 0.into();
        self.vnext.next = 0.into();
        for k in 0..7 {
            self.valid[k].d.next = self.valid[k].q.val();
            if self.ready[k].val() {
                self.valid[k].d.next = self.chain[k].val();
            }
            self.vnext.next = self.vnext.val().replace_bit(k, self.valid[k].d.val());
            self.load.next = self.load.val().replace_bit(k, self.ready[k].val());
            self.chain[k + 1].next = self.chain[k].val();
            if self.k_registered[k].val() {
                self.chain[k + 1].next = self.valid[k].q.val();
            }
        }
        for k in 0..7 {
            self.full[k].d.next = (self.vnext.val() & self.k_below[k].val()) == self.k_below[k].val();
        }
        self.load.next = self.load.val().replace_bit(6, self.ready[6].val() & self.chain[6].val());
        self.in_ready.next = self.ready[0].val();
        self.out_valid.next = self.chain[7].val();
    }
}

#[cfg(test)]
mod tests {
    use super::LEVELS_OF_PIPE;

    /// `pipe` = p registers exactly p of the six joins; from pipe 4 on each depth only adds a join
    /// to the one before (the FPGA configs' depths), and pipe 4 already has the joins around the
    /// channel addresses (the two halves of the old worst path).
    #[test]
    fn each_pipe_depth_registers_that_many_joins() {
        for (p, joins) in LEVELS_OF_PIPE.iter().enumerate() {
            assert_eq!(joins.iter().filter(|&&j| j).count(), p, "pipe {p}: {joins:?}");
        }
        for p in 4..LEVELS_OF_PIPE.len() - 1 {
            for j in 0..6 {
                assert!(!LEVELS_OF_PIPE[p][j] || LEVELS_OF_PIPE[p + 1][j], "pipe {} drops join {j} of pipe {p}", p + 1);
            }
        }
        assert!(LEVELS_OF_PIPE[4][3] && LEVELS_OF_PIPE[4][5]);
        assert!(LEVELS_OF_PIPE[6].iter().all(|&j| j), "pipe 6 registers every join");
    }
}
