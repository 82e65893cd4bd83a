//! `LutRam`: a small simple dual-port RAM (16–32 words) with a synchronous write and an
//! **asynchronous (combinational) read**: the shape of ECP5's `TRELLIS_DPR16X4` (16 × 4 LUT-RAM),
//! for per-thread state or small register files read and used in the same cycle.
//!
//! Maps to: ECP5 `TRELLIS_DPR16X4` × ⌈W/4⌉ per 16 words (16 × 8: 2 cells, nothing else; 32 × 8:
//! 4 cells plus 8 `LUT4`s of read multiplexer); iCE40 has no LUT-RAM and no asynchronous-read
//! EBR, so there it is W × 2^A enable flops plus a LUT read multiplexer (16 × 8: 128 `SB_DFFE`,
//! about 108 `SB_LUT4`). Where a registered read is enough use `Ram`: on iCE40 that is EBR, and
//! on ECP5 yosys picks `TRELLIS_DPR16X4` plus output flops for small ones by itself.
//!
//! Hand-written Verilog (a leaf rust-hdl cannot express: memories in `#[hdl_gen]` are flop arrays).

use rust_hdl::prelude::*;

/// LUT-RAM of 2^A words of W bits; timing, exactly:
/// - Write: at a rising edge of `clock` with `write_enable` high, word `write_address` takes
///   `write_data`.
/// - Read: `read_data` is word `read_address` combinationally; a word written at edge k reads
///   new from just after edge k (before it, including while `write_enable` is high for it, the
///   old word).
/// - No reset and no defined initial contents (simulations start at zero): keep valid bits.
#[derive(LogicBlock)]
pub struct LutRam<const W: usize, const A: usize> {
    /// Clock of the write port.
    pub clock: Signal<In, Clock>,
    /// Write `write_data` to `write_address` at the next edge.
    pub write_enable: Signal<In, Bit>,
    /// Word written.
    pub write_address: Signal<In, Bits<A>>,
    /// Data written.
    pub write_data: Signal<In, Bits<W>>,
    /// Word read.
    pub read_address: Signal<In, Bits<A>>,
    /// Word `read_address`, combinationally (no register).
    pub read_data: Signal<Out, Bits<W>>,
    _mem: Vec<Bits<W>>,
}

impl<const W: usize, const A: usize> Default for LutRam<W, A> {
    fn default() -> Self {
        assert!(A <= 6, "LutRam is for small memories (at most 64 words); use Ram");
        Self {
            clock: Default::default(),
            write_enable: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            _mem: vec![Bits::default(); 1 << A],
        }
    }
}

impl<const W: usize, const A: usize> Logic for LutRam<W, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.write_enable.val() {
            self._mem[self.write_address.val().index()] = self.write_data.val();
        }
        self.read_data.next = self._mem[self.read_address.val().index()];
    }
    fn connect(&mut self) {
        self.read_data.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
reg [{msb}:0] mem[0:{last}];

always @(posedge clock) begin
   if (write_enable) mem[write_address] <= write_data;
end

always @(*) read_data = mem[read_address];
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

    /// Reference from the contract: an array written at edges and read combinationally; the read
    /// is checked before the edge (old word), after it (new word) and after an address change
    /// without an edge.
    #[test]
    fn lut_ram_reads_combinationally_and_writes_at_the_edge() {
        let mut r: LutRam<8, 4> = LutRam::default();
        r.connect_all();
        let mut mem = [0u64; 16];
        let mut s = 0x9e37_79b9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        let mut same = 0;
        for cycle in 0..2000 {
            let x = next();
            let we = x & 1 != 0;
            let (wa, ra, ra2) = ((x >> 1) as usize % 16, (x >> 5) as usize % 16, (x >> 9) as usize % 16);
            let wd = ((x >> 13) & 0xff) as u64;
            r.clock.next = Clock { clk: false };
            r.write_enable.next = we;
            r.write_address.next = wa.to_bits();
            r.write_data.next = wd.to_bits();
            r.read_address.next = ra.to_bits();
            assert!(simulate(&mut r, 100));
            assert_eq!(r.read_data.val().index() as u64, mem[ra], "cycle {cycle}: before the edge");
            r.clock.next = Clock { clk: true };
            assert!(simulate(&mut r, 100));
            if we {
                mem[wa] = wd;
                same += (wa == ra) as u32;
            }
            assert_eq!(r.read_data.val().index() as u64, mem[ra], "cycle {cycle}: after the edge");
            r.read_address.next = ra2.to_bits();
            assert!(simulate(&mut r, 100));
            assert_eq!(r.read_data.val().index() as u64, mem[ra2], "cycle {cycle}: address change alone");
        }
        assert!(same > 30, "{same} reads of the word just written");
    }

    /// Test top for a 16 × 8 `LutRam` with the `clk`/`rst` every emitted top has.
    #[derive(LogicBlock, Default)]
    struct LutRamTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        we: Signal<In, Bit>,
        wa: Signal<In, Bits<4>>,
        wd: Signal<In, Bits<8>>,
        ra: Signal<In, Bits<4>>,
        rd: Signal<Out, Bits<8>>,
        ram: LutRam<8, 4>,
    }
    impl Logic for LutRamTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.ram.clock.next = self.clk.val();
            self.ram.write_enable.next = self.we.val();
            self.ram.write_address.next = self.wa.val();
            self.ram.write_data.next = self.wd.val();
            self.ram.read_address.next = self.ra.val();
            self.rd.next = self.ram.read_data.val();
        }
    }

    fn top() -> EmittedModule {
        emit_module(LutRamTop::default(), "prims_lut_ram", "prims", vec![]).unwrap()
    }

    /// ECP5: 16 × 8 is exactly two `TRELLIS_DPR16X4`, no flop, no LUT.
    #[test]
    fn lut_ram_16x8_maps_to_trellis_dpr16x4() {
        let c = cells(&top(), "synth_ecp5");
        assert_eq!(c.get("TRELLIS_DPR16X4"), Some(&2), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 0, "{c:?}");
        assert_eq!(c.values().sum::<u64>(), 2, "nothing but the LUT-RAM: {c:?}");
    }

    /// iCE40 (no LUT-RAM): one enable flop per bit and a LUT read multiplexer, no EBR.
    #[test]
    fn lut_ram_16x8_on_ice40_is_flops_and_luts() {
        let c = cells(&top(), "synth_ice40");
        assert_eq!(c.get("SB_RAM40_4K"), None, "{c:?}");
        assert_eq!(count(&c, ICE40_FF), 128, "{c:?}");
        assert!(count(&c, &["SB_LUT4"]) <= 128, "{c:?}");
    }

    #[test]
    fn lut_ram_test_top_passes_verilator_lint() {
        lint(&top());
    }
}
