//! Test-only: one random valid/ready test bench for the stream primitives (`PipeStage`,
//! `SkidBuffer`), checked every cycle against a queue model written from their contracts.

use rust_hdl::prelude::*;
use std::collections::VecDeque;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A stream primitive with 16-bit items, driven through rust-hdl's simulator.
pub trait StreamDut: Block {
    fn set_clock(&mut self, high: bool);
    fn set_inputs(&mut self, rst: bool, in_valid: bool, in_data: u16, out_ready: bool);
    fn set_out_ready(&mut self, out_ready: bool);
    /// (`in_ready`, `out_valid`, `out_data`)
    fn outputs(&self) -> (bool, bool, u16);
}

#[derive(Debug, Default)]
pub struct Stats {
    pub taken: u64,
    pub delivered: u64,
    pub lost_to_reset: u64,
    pub resets: u64,
    /// cycles with a transfer on both sides
    pub full_throughput_cycles: u64,
    /// cycles where out_valid && !out_ready
    pub stalled_cycles: u64,
    /// cycles where the DUT refused an offered item
    pub refused_cycles: u64,
    /// a change of `out_ready` alone (no clock edge) ever changed `in_ready`
    pub out_ready_reaches_in_ready: bool,
}

/// The contract both primitives share: a FIFO of `capacity` items, `out_valid` = not empty,
/// `out_data` = the oldest item or zero, `in_ready` = not full, or also (`pass_through`) when an
/// item leaves at the same edge. A `rst` edge empties it.
struct QueueModel {
    q: VecDeque<u16>,
    capacity: usize,
    pass_through: bool,
}

impl QueueModel {
    fn in_ready(&self, out_ready: bool) -> bool {
        self.q.len() < self.capacity || (self.pass_through && out_ready)
    }
    fn outputs(&self, out_ready: bool) -> (bool, bool, u16) {
        (self.in_ready(out_ready), !self.q.is_empty(), self.q.front().copied().unwrap_or(0))
    }
}

/// Runs 4 000 cycles in phases of different offer/accept rates, then drains, asserting every
/// cycle: the outputs equal the model's; the outputs hold while `out_valid && !out_ready`;
/// items leave in order, none duplicated, and all taken items come out except those a reset
/// dropped. With `pass_through` false, a change of `out_ready` without a clock edge must never
/// change `in_ready`.
pub fn run<D: StreamDut>(mut dut: D, capacity: usize, pass_through: bool, seed: u64) -> Stats {
    dut.connect_all();
    let mut m = QueueModel { q: VecDeque::new(), capacity, pass_through };
    let mut st = Stats::default();
    let mut s = StdRng::seed_from_u64(seed);
    let mut next_seq: u16 = 1; // the item the source offers (0 is the idle output value)
    let mut last_out: Option<u16> = None;
    let mut stalled: Option<u16> = None; // the item shown while stalled at the previous cycle
    // (percent in_valid, percent out_ready) per phase of 500 cycles; the last phase drains.
    let phases = [(90, 90), (90, 30), (30, 90), (100, 100), (60, 60), (100, 0), (0, 100), (75, 50), (0, 100)];
    for cycle in 0..phases.len() * 500 {
        let (pv, pr) = phases[cycle / 500];
        let r = s.gen::<u64>();
        let drain = cycle / 500 == phases.len() - 1;
        let rst = cycle < 2 || (!drain && r % 300 == 0);
        let in_valid = (r >> 8) % 100 < pv;
        let out_ready = (r >> 16) % 100 < pr;
        dut.set_clock(false);
        dut.set_inputs(rst, in_valid, next_seq, out_ready);
        assert!(simulate(&mut dut, 200));
        let (in_ready, out_valid, out_data) = dut.outputs();
        assert_eq!((in_ready, out_valid, out_data), m.outputs(out_ready), "cycle {cycle}: (in_ready, out_valid, out_data)");
        if let Some(held) = stalled {
            assert!(out_valid && out_data == held, "cycle {cycle}: output changed while stalled");
        }
        // out_ready alone, with no clock edge: does in_ready follow?
        dut.set_out_ready(!out_ready);
        assert!(simulate(&mut dut, 200));
        if dut.outputs().0 != in_ready {
            st.out_ready_reaches_in_ready = true;
            assert!(pass_through, "cycle {cycle}: in_ready changed with out_ready alone (combinational ready path)");
        }
        dut.set_out_ready(out_ready);
        assert!(simulate(&mut dut, 200));
        assert_eq!(dut.outputs(), (in_ready, out_valid, out_data));
        // The edge.
        dut.set_clock(true);
        assert!(simulate(&mut dut, 200));
        let take = in_valid && in_ready;
        let give = out_valid && out_ready;
        stalled = None;
        if rst {
            st.resets += 1;
            st.lost_to_reset += m.q.len() as u64;
            m.q.clear();
            last_out = None;
        } else {
            if give {
                let item = m.q.pop_front().unwrap();
                assert_eq!(item, out_data);
                if let Some(prev) = last_out {
                    assert!(item > prev, "cycle {cycle}: item {item} after {prev}: order or duplicate");
                }
                last_out = Some(item);
                st.delivered += 1;
            } else if out_valid {
                stalled = Some(out_data);
                st.stalled_cycles += 1;
            }
            if take {
                m.q.push_back(next_seq);
                assert!(m.q.len() <= capacity);
                next_seq = next_seq.wrapping_add(1).max(1);
                st.taken += 1;
            } else if in_valid {
                st.refused_cycles += 1;
            }
            st.full_throughput_cycles += (take && give) as u64;
        }
        assert_eq!(dut.outputs(), m.outputs(out_ready), "cycle {cycle}: just after the edge");
    }
    assert!(m.q.is_empty(), "drained");
    assert_eq!(st.taken, st.delivered + st.lost_to_reset, "every item taken came out or was dropped by a reset: {st:?}");
    assert!(st.resets > 5 && st.stalled_cycles > 300 && st.refused_cycles > 100 && st.taken > 1500, "{st:?}");
    st
}
