//! `StageReg`: a pipeline register that a block's `pipe` parameter may turn into a wire.
//!
//! A block whose depth is a config value (the region address generator's `pipe`) writes its
//! datapath once, as sections joined by `StageReg`s, and chooses at generation time which joins
//! are registers. A registered `StageReg` loads `d` when `en` is high and holds otherwise (an
//! enable flop: `SB_DFFESR` on iCE40, `TRELLIS_FF` with CE on ECP5), cleared by a synchronous
//! reset; an unregistered one is `q = d` and its flop has no reader, so synthesis removes it.

use super::RDff;
use rust_hdl::prelude::*;

/// `q` is either the register loaded from `d` at each rising edge with `en` high (registered),
/// or `d` itself (not registered), as chosen by [`StageReg::new`].
#[derive(LogicBlock)]
pub struct StageReg<T: Synth> {
    /// Clock of the register.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the register is zero after an edge where `rst` is high.
    pub rst: Signal<In, Bit>,
    /// Load enable: the register takes `d` at an edge where `en` is high, else holds.
    pub en: Signal<In, Bit>,
    /// Data in.
    pub d: Signal<In, T>,
    /// The register (registered) or `d` (not registered).
    pub q: Signal<Out, T>,
    flop: RDff<T>,
    k_registered: Constant<Bit>,
}

impl<T: Synth> StageReg<T> {
    /// A register if `registered`, else a wire.
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            d: Default::default(),
            q: Default::default(),
            flop: Default::default(),
            k_registered: Constant::new(registered),
        }
    }
}

impl<T: Synth> Logic for StageReg<T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.flop.clock.next = self.clock.val();
        self.flop.rst.next = self.rst.val();
        self.flop.d.next = self.flop.q.val();
        if self.en.val() {
            self.flop.d.next = self.d.val();
        }
        self.q.next = self.d.val();
        if self.k_registered.val() {
            self.q.next = self.flop.q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn edge(s: &mut StageReg<Bits<8>>, d: u64, en: bool, rst: bool) {
        s.d.next = d.to_bits();
        s.en.next = en;
        s.rst.next = rst;
        s.clock.next = Clock { clk: false };
        assert!(simulate(s, 100));
        s.clock.next = Clock { clk: true };
        assert!(simulate(s, 100));
    }

    /// Registered: loads on `en`, holds without it, clears on `rst`; unregistered: `q = d` at once.
    #[test]
    fn registered_loads_on_enable_and_unregistered_is_a_wire() {
        let mut rng = StdRng::seed_from_u64(0x1234_5678);
        for registered in [true, false] {
            let mut s: StageReg<Bits<8>> = StageReg::new(registered);
            s.connect_all();
            let mut want = 0u64;
            for cycle in 0..400 {
                let state: u32 = rng.gen();
                let (d, en, rst) = ((state & 0xff) as u64, state >> 31 == 1, cycle < 2 || state >> 26 == 0);
                edge(&mut s, d, en, rst);
                if registered {
                    want = if rst { 0 } else if en { d } else { want };
                } else {
                    want = d;
                }
                assert_eq!(s.q.val().index() as u64, want, "registered {registered}, cycle {cycle}");
                if !registered {
                    // a wire follows d between edges too
                    s.d.next = (d ^ 0x5a).to_bits();
                    assert!(simulate(&mut s, 100));
                    assert_eq!(s.q.val().index() as u64, d ^ 0x5a);
                }
            }
        }
    }
}
