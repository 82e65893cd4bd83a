//! `SkidBuffer`: a two-entry valid/ready buffer whose `in_ready` is a register output, cutting
//! the combinational ready path between the two sides (no input reaches an output without a
//! register in between).
//!
//! Maps to 2 × width + 2 flip-flops and a 2:1 multiplexer per bit (output register loads from
//! the input or from the skid register) on every target.

use super::RDff;
use rust_hdl::prelude::*;

/// Skid buffer; timing, exactly (what the co-simulation cycle models mirror):
/// - It is a FIFO of capacity 2 (an output register and a skid register behind it). A transfer
///   happens on a side at a rising edge of `clock` where its valid and ready are both high.
/// - `out_valid` is high iff it holds an item; `out_data` is the oldest item, zero while
///   `out_valid` is low.
/// - `in_ready` is high iff it holds fewer than 2 items, decided by the state alone (the inverted
///   skid-valid register): a change of `out_ready` reaches `in_ready` one edge later, never in
///   the same cycle.
/// - An item taken into an empty buffer at edge k is shown from edge k (latency 1). With
///   `out_ready` high it passes 1 item per cycle. When the output stalls
///   (`out_valid && !out_ready`) the next item taken goes into the skid register and `in_ready`
///   is low from the following edge; when `out_ready` rises the skid item moves to the output at
///   that edge and `in_ready` is high again from the same edge.
/// - While `out_valid && !out_ready` the outputs do not change.
/// - A `rst` edge empties it (`out_valid` 0, `out_data` 0, `in_ready` 1); nothing transfers at it.
#[derive(LogicBlock)]
pub struct SkidBuffer<T: Synth> {
    /// Clock; state changes only at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty after an edge where `rst` is high.
    pub rst: Signal<In, Bit>,
    /// Upstream offers `in_data`.
    pub in_valid: Signal<In, Bit>,
    /// Fewer than two items held (registered: the inverted skid-valid flop).
    pub in_ready: Signal<Out, Bit>,
    /// Item offered by upstream.
    pub in_data: Signal<In, T>,
    /// At least one item held (registered).
    pub out_valid: Signal<Out, Bit>,
    /// Downstream takes `out_data` at the next edge if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    /// The oldest item (registered); zero while `out_valid` is low.
    pub out_data: Signal<Out, T>,
    k_zero: Constant<T>,
    /// The output register (the oldest item).
    main_valid: RDff<Bit>,
    main_data: RDff<T>,
    /// The second item, taken while the output was stalled.
    skid_valid: RDff<Bit>,
    skid_data: RDff<T>,
    /// The output register is free at this edge (empty, or its item leaves).
    main_free: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
}

impl<T: Synth> Default for SkidBuffer<T> {
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
            main_valid: Default::default(),
            main_data: Default::default(),
            skid_valid: Default::default(),
            skid_data: Default::default(),
            main_free: Default::default(),
            take: Default::default(),
        }
    }
}

impl<T: Synth> Logic for SkidBuffer<T> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, main_valid, main_data, skid_valid, skid_data);
        self.main_valid.rst.next = self.rst.val();
        self.main_data.rst.next = self.rst.val();
        self.skid_valid.rst.next = self.rst.val();
        self.skid_data.rst.next = self.rst.val();
        self.main_valid.d.next = self.main_valid.q.val();
        self.main_data.d.next = self.main_data.q.val();
        self.skid_valid.d.next = self.skid_valid.q.val();
        self.skid_data.d.next = self.skid_data.q.val();
        self.take.next = self.in_valid.val() & !self.skid_valid.q.val();
        self.main_free.next = !self.main_valid.q.val() | self.out_ready.val();
        if self.main_free.val() {
            if self.skid_valid.q.val() {
                // Full (in_ready low): the skid item moves up.
                self.main_data.d.next = self.skid_data.q.val();
                self.skid_valid.d.next = false;
                self.skid_data.d.next = self.k_zero.val();
            } else {
                self.main_valid.d.next = self.take.val();
                self.main_data.d.next = self.k_zero.val();
                if self.take.val() {
                    self.main_data.d.next = self.in_data.val();
                }
            }
        } else {
            // The output is stalled: a new item waits in the skid register.
            if self.take.val() {
                self.skid_valid.d.next = true;
                self.skid_data.d.next = self.in_data.val();
            }
        }
        self.in_ready.next = !self.skid_valid.q.val();
        self.out_valid.next = self.main_valid.q.val();
        self.out_data.next = self.main_data.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prims::handshake_test::{run, StreamDut};

    impl StreamDut for SkidBuffer<Bits<16>> {
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

    /// Random valid/ready patterns against a capacity-2 queue whose `in_ready` is "not full":
    /// order kept, nothing lost or duplicated, outputs stable while stalled, full throughput, and
    /// `out_ready` toggled between edges never changes `in_ready` (the bench asserts it every
    /// cycle).
    #[test]
    fn skid_buffer_is_a_two_entry_queue_with_registered_in_ready() {
        let stats = run(SkidBuffer::<Bits<16>>::default(), 2, false, 0x5eed_0002);
        assert!(stats.full_throughput_cycles > 200, "{stats:?}");
        assert!(!stats.out_ready_reaches_in_ready, "{stats:?}");
    }

    /// The same fact in the Verilog: `in_ready` is assigned from the skid-valid register only.
    #[test]
    fn skid_buffer_verilog_drives_in_ready_from_a_register() {
        let mut b = SkidBuffer::<Bits<8>>::default();
        b.connect_all();
        let v = generate_verilog(&mut b);
        let lines: Vec<&str> = v.lines().filter(|l| l.contains("in_ready =")).collect();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0].trim(), "in_ready = ~skid_valid$q;", "{lines:?}");
    }

    /// Test top: a 16-bit SkidBuffer between the ports.
    #[derive(LogicBlock, Default)]
    struct SkidBufferTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        in_valid: Signal<In, Bit>,
        in_ready: Signal<Out, Bit>,
        in_data: Signal<In, Bits<16>>,
        out_valid: Signal<Out, Bit>,
        out_ready: Signal<In, Bit>,
        out_data: Signal<Out, Bits<16>>,
        s: SkidBuffer<Bits<16>>,
    }
    impl Logic for SkidBufferTop {
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

    /// Flip-flops: 34 (data + valid bits); the LUT count is printed for docs/prims.md.
    #[test]
    fn skid_buffer_16_bit_cells_and_lint() {
        use crate::prims::synth_check::{cells, count, lint, ECP5_FF, ICE40_FF};
        let t = crate::emit::emit_module(SkidBufferTop::default(), "prims_skid_buffer", "prims", vec![]).unwrap();
        lint(&t);
        let c = cells(&t, "synth_ice40");
        println!("skid_buffer 16-bit iCE40: {c:?}");
        assert_eq!(count(&c, ICE40_FF), 34, "{c:?}");
        assert!(count(&c, &["SB_LUT4"]) <= 60, "{c:?}");
        let c = cells(&t, "synth_ecp5");
        println!("skid_buffer 16-bit ECP5: {c:?}");
        assert_eq!(count(&c, ECP5_FF), 34, "{c:?}");
        assert!(count(&c, &["LUT4"]) <= 60, "{c:?}");
    }
}
