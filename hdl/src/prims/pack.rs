//! `Pack`: n equal slots wired side by side into one wide bus (slot 0 in the low bits). Pure
//! wiring, no cells on any target.
//!
//! Hand-written Verilog (a leaf rust-hdl cannot express: a concatenation; hdl_gen has neither
//! `{a, b}` nor a slice assignment), named in the README. In hdl_gen a wide bus is built by
//! shifting slots in, which Verilator 5.006 turns into one generic wide shift per slot
//! (`VL_SHIFTL_WWI`), re-run on every `eval()` because it sits downstream of top inputs: the
//! branch unit's debug buses (`dbg_stk`, `dbg_cnt`) took 60% of its co-sim time that way. A
//! concatenation of constant positions Verilator expands into plain word moves.

use rust_hdl::prelude::*;

/// `bus[j*W .. (j+1)*W]` = `slot[j]`; bits at or above `n*W` are zero. The last slot may stick
/// out above `OW`: its top bits are dropped (a bus of unequal sections, e.g. `dbg_stk`).
#[derive(LogicBlock)]
pub struct Pack<const W: usize, const OW: usize> {
    /// The slots, slot 0 in the low bits.
    pub slot: Vec<Signal<In, Bits<W>>>,
    /// All slots side by side.
    pub bus: Signal<Out, Bits<OW>>,
}

impl<const W: usize, const OW: usize> Pack<W, OW> {
    /// `n` ≥ 1 slots of `W` bits; every slot starts below `OW` (`(n-1)*W < OW`).
    pub fn new(n: usize) -> Self {
        assert!(n >= 1 && (n - 1) * W < OW, "Pack: {n} slots of {W} bits do not fit {OW}");
        Self {
            slot: (0..n).map(|_| Default::default()).collect(),
            bus: Default::default(),
        }
    }
}

impl<const W: usize, const OW: usize> Logic for Pack<W, OW> {
    fn update(&mut self) {
        let mut acc = Bits::<OW>::default();
        for (j, s) in self.slot.iter().enumerate() {
            for b in (0..W).filter(|b| j * W + b < OW) {
                acc = acc.replace_bit(j * W + b, s.val().get_bit(b));
            }
        }
        self.bus.next = acc;
    }
    fn connect(&mut self) {
        self.bus.connect();
    }
    fn hdl(&self) -> Verilog {
        let n = self.slot.len();
        let mut parts: Vec<String> = (0..n).rev().map(|j| format!("slot${j}")).collect();
        if n * W > OW {
            parts[0] = format!("slot${}[{}:0]", n - 1, OW - (n - 1) * W - 1);
        } else if n * W < OW {
            parts.insert(0, format!("{}'b0", OW - n * W));
        }
        Verilog::Custom(format!("always @(*) bus = {{{}}};\n", parts.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference from the contract: slot j at bits [j*W, (j+1)*W), zero above.
    fn check<const W: usize, const OW: usize>(n: usize, seed: u64) {
        let mut p: Pack<W, OW> = Pack::new(n);
        p.connect_all();
        let mut s = seed;
        for _ in 0..50 {
            let mut want = Bits::<OW>::default();
            for j in 0..n {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let v = s & ((1u64 << W) - 1);
                p.slot[j].next = v.to_bits();
                for b in (0..W).filter(|b| j * W + b < OW) {
                    want = want.replace_bit(j * W + b, v >> b & 1 == 1);
                }
            }
            // settle: Pack is combinational
            for _ in 0..4 {
                p.update_all();
            }
            assert_eq!(p.bus.val(), want, "n={n} W={W} OW={OW}");
        }
    }

    #[test]
    fn pack_places_slot_j_at_bits_j_times_w() {
        check::<5, 15>(3, 1);
        check::<5, 20>(3, 2); // top bits stay zero
        check::<20, 300>(15, 3); // wider than 128: several words
        check::<7, 7>(1, 4);
        check::<20, 70>(4, 5); // the last slot cut to 10 bits
    }

    #[test]
    fn pack_is_wires_only() {
        let mut p: Pack<8, 32> = Pack::new(4);
        p.connect_all();
        let v = generate_verilog(&p);
        assert!(!v.contains("posedge"), "Pack must have no registers:\n{v}");
        assert!(v.contains("bus = {slot$3, slot$2, slot$1, slot$0};"), "{v}");
        let mut q: Pack<8, 40> = Pack::new(4);
        q.connect_all();
        assert!(generate_verilog(&q).contains("bus = {8'b0, slot$3,"), "zero pad above the slots");
        let mut r: Pack<8, 28> = Pack::new(4);
        r.connect_all();
        assert!(generate_verilog(&r).contains("bus = {slot$3[3:0], slot$2,"), "last slot cut");
    }

    /// Test top: 3 slots of 5 bits into 16 (one zero bit on top), inputs straight to the slots,
    /// the bus into a register (a block has `clk` and `rst`).
    #[derive(LogicBlock)]
    struct PackTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        a: Signal<In, Bits<5>>,
        b: Signal<In, Bits<5>>,
        c: Signal<In, Bits<5>>,
        bus: Signal<Out, Bits<16>>,
        p: Pack<5, 16>,
        r: super::super::RDff<Bits<16>>,
    }
    impl Logic for PackTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.p.slot[0].next = self.a.val();
            self.p.slot[1].next = self.b.val();
            self.p.slot[2].next = self.c.val();
            self.r.clock.next = self.clk.val();
            self.r.rst.next = self.rst.val();
            self.r.d.next = self.p.bus.val();
            self.bus.next = self.r.q.val();
        }
    }

    /// Lint-clean, and wires only on both families: the register's 15 used flops (the zero bit
    /// on top is a constant) and no other cell.
    #[test]
    fn pack_maps_to_no_cells() {
        use crate::prims::synth_check::{cells, lint};
        let t = PackTop { clk: Default::default(), rst: Default::default(), a: Default::default(), b: Default::default(), c: Default::default(), bus: Default::default(), p: Pack::new(3), r: Default::default() };
        let t = crate::emit::emit_module(t, "prims_pack", "prims", vec![]).unwrap();
        lint(&t);
        for (flow, ff) in [("synth_ice40", "SB_DFFSR"), ("synth_ecp5", "TRELLIS_FF")] {
            let c = cells(&t, flow);
            assert_eq!(c.values().sum::<u64>(), c.get(ff).copied().unwrap_or(0), "{flow}: {c:?}");
            assert!((15..=16).contains(c.get(ff).unwrap_or(&0)), "{flow}: {c:?}");
        }
    }
}
