//! `PipeStage`: a registered valid/ready pipeline stage, one entry, full throughput.
//!
//! Maps to width + 1 flip-flops and one LUT level per bit in front of them (hold / load / clear)
//! on every target. `in_ready` is combinational from `out_ready` (`!out_valid || out_ready`):
//! a chain of these stages has a ready path through every stage; use `SkidBuffer` to cut it.

use super::RDff;
use rust_hdl::prelude::*;

/// Registered valid/ready stage; timing, exactly (what the co-simulation cycle models mirror):
/// - It is a queue of capacity 1. A transfer happens on a side at a rising edge of `clock` where
///   its valid and ready are both high.
/// - `out_valid` is high iff the stage holds an item; `out_data` is that item, and zero while
///   `out_valid` is low.
/// - `in_ready = !out_valid || out_ready`, combinationally: a full stage accepts a new item in
///   the same cycle its item leaves (1 item per cycle sustained).
/// - An item taken at edge k is shown from edge k (latency 1) until the edge where it leaves;
///   while `out_valid && !out_ready` the outputs do not change.
/// - A `rst` edge empties the stage (`out_valid` 0, `out_data` 0); nothing transfers at it.
#[derive(LogicBlock)]
pub struct PipeStage<T: Synth> {
    /// Clock; state changes only at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty after an edge where `rst` is high.
    pub rst: Signal<In, Bit>,
    /// Upstream offers `in_data`.
    pub in_valid: Signal<In, Bit>,
    /// The stage takes `in_data` at the next edge if `in_valid`: `!out_valid || out_ready`.
    pub in_ready: Signal<Out, Bit>,
    /// Item offered by upstream.
    pub in_data: Signal<In, T>,
    /// The stage holds an item (registered).
    pub out_valid: Signal<Out, Bit>,
    /// Downstream takes `out_data` at the next edge if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    /// The item held (registered); zero while `out_valid` is low.
    pub out_data: Signal<Out, T>,
    k_zero: Constant<T>,
    valid: RDff<Bit>,
    data: RDff<T>,
}

impl<T: Synth> Default for PipeStage<T> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_data: Default::default(),
            k_zero: Constant::new(T::default()),
            valid: Default::default(),
            data: Default::default(),
        }
    }
}

impl<T: Synth> Logic for PipeStage<T> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, valid, data);
        self.valid.rst.next = self.rst.val();
        self.data.rst.next = self.rst.val();
        self.valid.d.next = self.valid.q.val();
        self.data.d.next = self.data.q.val();
        self.in_ready.next = !self.valid.q.val() | self.out_ready.val();
        // The item leaves: empty, data cleared (an idle output reads zero) ...
        if self.valid.q.val() & self.out_ready.val() {
            self.valid.d.next = false;
            self.data.d.next = self.k_zero.val();
        }
        // ... unless a new one comes in at the same edge.
        if self.in_valid.val() & self.in_ready.val() {
            self.valid.d.next = true;
            self.data.d.next = self.in_data.val();
        }
        self.out_valid.next = self.valid.q.val();
        self.out_data.next = self.data.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prims::handshake_test::{run, StreamDut};

    impl StreamDut for PipeStage<Bits<16>> {
        fn set_clock(&mut self, high: bool) {
            self.clock.next = Clock { clk: high };
        }
        fn set_inputs(&mut self, rst: bool, in_valid: bool, in_data: u16, out_ready: bool) {
            self.rst.next = rst;
            self.in_valid.next = in_valid;
            self.in_data.next = (in_data as u64).to_bits();
            self.out_ready.next = out_ready;
        }
        fn set_out_ready(&mut self, out_ready: bool) {
            self.out_ready.next = out_ready;
        }
        fn outputs(&self) -> (bool, bool, u16) {
            (self.in_ready.val(), self.out_valid.val(), self.out_data.val().index() as u16)
        }
    }

    /// Random valid/ready patterns against a capacity-1 queue whose `in_ready` is
    /// `empty || out_ready`: order kept, nothing lost or duplicated, outputs stable while stalled.
    #[test]
    fn pipe_stage_is_a_one_entry_queue_at_full_throughput() {
        let stats = run(PipeStage::<Bits<16>>::default(), 1, true, 0x5eed_0001);
        assert!(stats.full_throughput_cycles > 200, "{stats:?}");
        assert!(stats.out_ready_reaches_in_ready, "in_ready follows out_ready combinationally: {stats:?}");
    }

    /// Test top: a 16-bit PipeStage between the ports.
    #[derive(LogicBlock, Default)]
    struct PipeStageTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        in_valid: Signal<In, Bit>,
        in_ready: Signal<Out, Bit>,
        in_data: Signal<In, Bits<16>>,
        out_valid: Signal<Out, Bit>,
        out_ready: Signal<In, Bit>,
        out_data: Signal<Out, Bits<16>>,
        s: PipeStage<Bits<16>>,
    }
    impl Logic for PipeStageTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.s.clock.next = self.clk.val();
            self.s.rst.next = self.rst.val();
            self.s.in_valid.next = self.in_valid.val();
            self.s.in_data.next = self.in_data.val();
            self.s.out_ready.next = self.out_ready.val();
            self.in_ready.next = self.s.in_ready.val();
            self.out_valid.next = self.s.out_valid.val();
            self.out_data.next = self.s.out_data.val();
        }
    }

    /// Flip-flops: 17 (data + valid bits); the LUT count is printed for docs/prims.md.
    #[test]
    fn pipe_stage_16_bit_cells_and_lint() {
        use crate::prims::synth_check::{cells, count, lint, ECP5_FF, ICE40_FF};
        let t = crate::emit::emit_module(PipeStageTop::default(), "prims_pipe_stage", "prims", vec![]).unwrap();
        lint(&t);
        let c = cells(&t, "synth_ice40");
        println!("pipe_stage 16-bit iCE40: {c:?}");
        assert_eq!(count(&c, ICE40_FF), 17, "{c:?}");
        assert!(count(&c, &["SB_LUT4"]) <= 40, "{c:?}");
        let c = cells(&t, "synth_ecp5");
        println!("pipe_stage 16-bit ECP5: {c:?}");
        assert_eq!(count(&c, ECP5_FF), 17, "{c:?}");
        assert!(count(&c, &["LUT4"]) <= 40, "{c:?}");
    }
}
