//! `Ram`: a simple dual-port RAM (one write port, one read port, one clock) with registered read
//! data: yosys infers block RAM, `SB_RAM40_4K` on iCE40 and `DP16KD` on ECP5 (a 256 × 32 instance:
//! 2 `SB_RAM40_4K` + 1 `SB_LUT4`, or 1 `DP16KD`, and no flip-flop); small instances may become
//! `TRELLIS_DPR16X4` plus output flops on ECP5, which yosys decides by cost.
//!
//! Hand-written Verilog (a leaf rust-hdl cannot express): rust-hdl's `RAM` has separate read and
//! write clocks and no way to mark read/write collisions as don't-care; with one clock yosys 0.23
//! then builds collision-forwarding logic around the EBR (256 × 32: 74 flops and 39 LUTs on
//! iCE40, a multiplexer after the EBR output). Here the memory carries `(* no_rw_check *)`.
//!
//! Read during write of the same address in the same cycle is **undefined** (on both FPGA
//! families the EBR's port-to-port collision result is unspecified). So that a design which
//! depends on it fails in simulation rather than on the board, every simulation (rust-hdl's, and
//! Verilator/Icarus through the `ifndef SYNTHESIS` branch) returns the bitwise inverse of the old
//! word for such a read. The memory has no reset and no defined initial contents: a block keeps
//! its own valid bits. `read_data` is not reset either (simulations start it at zero).

use rust_hdl::prelude::*;

/// Simple dual-port RAM of 2^A words of W bits; timing, exactly:
/// - Write: at a rising edge of `clock` with `write_enable` high, word `write_address` takes
///   `write_data`.
/// - Read: at a rising edge with `read_enable` high, `read_data` takes word `read_address` as it
///   was before that edge (a word written at edge k is read back by a read at edge k + 1 or later:
///   one cycle after the write is visible, latency 1 from address to data). With `read_enable`
///   low, `read_data` holds.
/// - A read at the same edge as a write of the same address gives undefined data (simulation:
///   the inverse of the old word).
#[derive(LogicBlock)]
pub struct Ram<const W: usize, const A: usize> {
    /// Clock of both ports.
    pub clock: Signal<In, Clock>,
    /// Write `write_data` to `write_address` at the next edge.
    pub write_enable: Signal<In, Bit>,
    /// Word written.
    pub write_address: Signal<In, Bits<A>>,
    /// Data written.
    pub write_data: Signal<In, Bits<W>>,
    /// Load `read_data` from `read_address` at the next edge (low: `read_data` holds).
    pub read_enable: Signal<In, Bit>,
    /// Word read.
    pub read_address: Signal<In, Bits<A>>,
    /// Registered read data: the word at `read_address` before the last enabled edge.
    pub read_data: Signal<Out, Bits<W>>,
    _mem: Vec<Bits<W>>,
}

impl<const W: usize, const A: usize> Default for Ram<W, A> {
    fn default() -> Self {
        assert!(A <= 20, "Ram: at most 2^20 words");
        Self {
            clock: Default::default(),
            write_enable: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            read_enable: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            _mem: vec![Bits::default(); 1 << A],
        }
    }
}

impl<const W: usize, const A: usize> Logic for Ram<W, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let (we, wa, ra) = (self.write_enable.val(), self.write_address.val().index(), self.read_address.val().index());
            if self.read_enable.val() {
                let old = self._mem[ra];
                self.read_data.next = if we && wa == ra { !old } else { old };
            }
            if we {
                self._mem[wa] = self.write_data.val();
            }
        }
    }
    fn connect(&mut self) {
        self.read_data.connect();
    }
    fn hdl(&self) -> Verilog {
        let zero = Bits::<W>::default().verilog();
        Verilog::Custom(format!(
            "\
// Read/write collisions are don't-care (see the Rust doc of Ram): no forwarding logic.
(* no_rw_check *)
reg [{msb}:0] mem[0:{last}];

`ifndef SYNTHESIS
initial read_data = {zero:x};
`endif

always @(posedge clock) begin
   if (write_enable) mem[write_address] <= write_data;
end

always @(posedge clock) begin
   if (read_enable) begin
`ifdef SYNTHESIS
      read_data <= mem[read_address];
`else
      // Simulation only: the undefined collision read returns the inverse of the old word.
      if (write_enable && write_address == read_address) read_data <= ~mem[read_address];
      else read_data <= mem[read_address];
`endif
   end
end
",
            msb = W - 1,
            last = (1usize << A) - 1
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_module, EmittedModule};
    use crate::prims::synth_check::{cells, count, lint, ECP5_FF, ICE40_FF};

    /// Reference from the contract: an array, read before write, collisions inverted; random
    /// addresses in a small window so that reads hit recent writes (and collide) often.
    #[test]
    fn ram_reads_registered_data_and_writes_are_visible_one_edge_later() {
        let mut r: Ram<12, 6> = Ram::default();
        r.connect_all();
        let mut mem = [0u64; 64];
        let mut read_data = 0u64;
        let mut s = 0x2545_f491u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        let (mut collisions, mut raw_hits, mut holds) = (0, 0, 0);
        let mut last_write: Option<(usize, u64)> = None; // the write at the previous edge
        for cycle in 0..3000 {
            let x = next();
            let base = (cycle / 200 * 8) % 64;
            let (we, re) = (x & 3 != 0, (x >> 2) & 7 != 0);
            let wa = (base + (x >> 5) as usize % 8) % 64;
            let ra = (base + (x >> 9) as usize % 8) % 64;
            let wd = (next() & 0xfff) as u64;
            r.clock.next = Clock { clk: false };
            r.write_enable.next = we;
            r.write_address.next = wa.to_bits();
            r.write_data.next = wd.to_bits();
            r.read_enable.next = re;
            r.read_address.next = ra.to_bits();
            assert!(simulate(&mut r, 100));
            assert_eq!(r.read_data.val().index() as u64, read_data, "cycle {cycle}: holds between edges");
            r.clock.next = Clock { clk: true };
            assert!(simulate(&mut r, 100));
            if re {
                if we && wa == ra {
                    read_data = !mem[ra] & 0xfff;
                    collisions += 1;
                } else {
                    read_data = mem[ra];
                    // Read-after-write one edge later returns the new word.
                    if last_write.is_some_and(|(a, _)| a == ra) {
                        raw_hits += 1;
                    }
                }
            } else {
                holds += 1;
            }
            if we {
                mem[wa] = wd;
                last_write = Some((wa, wd));
            } else {
                last_write = None;
            }
            assert_eq!(r.read_data.val().index() as u64, read_data, "cycle {cycle}: after the edge");
        }
        assert!(collisions > 50 && raw_hits > 50 && holds > 100, "{collisions} {raw_hits} {holds}");
    }

    /// The Verilog branches: synthesis reads plainly, simulation inverts on a collision.
    #[test]
    fn ram_verilog_marks_collisions_dont_care() {
        let Verilog::Custom(v) = Ram::<32, 8>::default().hdl() else { panic!("custom Verilog expected") };
        assert!(v.contains("(* no_rw_check *)\nreg [31:0] mem[0:255];"), "{v}");
        assert!(v.contains("if (write_enable && write_address == read_address) read_data <= ~mem[read_address];"), "{v}");
    }

    /// Test top for a 256 × 32 `Ram` with the `clk`/`rst` every emitted top has.
    #[derive(LogicBlock, Default)]
    struct RamTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        we: Signal<In, Bit>,
        wa: Signal<In, Bits<8>>,
        wd: Signal<In, Bits<32>>,
        re: Signal<In, Bit>,
        ra: Signal<In, Bits<8>>,
        rd: Signal<Out, Bits<32>>,
        ram: Ram<32, 8>,
    }
    impl Logic for RamTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.ram.clock.next = self.clk.val();
            self.ram.write_enable.next = self.we.val();
            self.ram.write_address.next = self.wa.val();
            self.ram.write_data.next = self.wd.val();
            self.ram.read_enable.next = self.re.val();
            self.ram.read_address.next = self.ra.val();
            self.rd.next = self.ram.read_data.val();
        }
    }

    fn ram_top() -> EmittedModule {
        emit_module(RamTop::default(), "prims_ram", "prims", vec![]).unwrap()
    }

    /// iCE40: 256 × 32 is two `SB_RAM40_4K` (256 × 16 each) with the read register inside, one
    /// LUT (yosys' read-enable glue), no flip-flop array.
    #[test]
    fn ram_256x32_maps_to_sb_ram40_4k() {
        let c = cells(&ram_top(), "synth_ice40");
        assert_eq!(c.get("SB_RAM40_4K"), Some(&2), "{c:?}");
        assert_eq!(count(&c, ICE40_FF), 0, "no flop array: {c:?}");
        assert!(count(&c, &["SB_LUT4"]) <= 2, "{c:?}");
    }

    /// ECP5: 256 × 32 is one `DP16KD` (512 × 36 mode) with its output register, nothing else.
    #[test]
    fn ram_256x32_maps_to_dp16kd() {
        let c = cells(&ram_top(), "synth_ecp5");
        assert_eq!(c.get("DP16KD"), Some(&1), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 0, "no flop array: {c:?}");
        assert!(count(&c, &["LUT4"]) <= 2, "{c:?}");
    }

    #[test]
    fn ram_test_top_passes_verilator_lint() {
        lint(&ram_top());
    }
}
