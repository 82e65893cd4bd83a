//! `Delay`: an n-cycle delay line of `RDff` registers (n ≥ 1, chosen at generation time, e.g.
//! from a block's `pipe`/`lat` config), cleared by a synchronous reset.
//!
//! Maps to n × width flip-flops on every target (iCE40 `SB_DFFSR`, ECP5 `TRELLIS_FF`), no logic
//! between them. A zero-length delay would be a wire that leaves `clock` and `rst` unread, which
//! `verilator -Wall` (scripts/lint.sh) rejects, so a zero length is refused: a block whose delay
//! may be zero branches at generation time instead.

use super::RDff;
use rust_hdl::prelude::*;

/// `q` is `d` delayed by `n` rising edges of `clock`: after edge k, `q` equals the `d` seen at
/// edge k - n + 1 (so with n = 1 it is a plain register), or zero if a `rst` edge came in between
/// (a reset edge clears every stage).
#[derive(LogicBlock)]
pub struct Delay<T: Synth> {
    /// Clock; `q` changes only at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every stage is zero after an edge where `rst` is high.
    pub rst: Signal<In, Bit>,
    /// Input, sampled at each rising edge.
    pub d: Signal<In, T>,
    /// `d` of n edges ago (the last register of the line).
    pub q: Signal<Out, T>,
    regs: Vec<RDff<T>>,
    _n: usize,
}

impl<T: Synth> Delay<T> {
    /// A delay line of `n` ≥ 1 registers.
    pub fn new(n: usize) -> Self {
        assert!(n >= 1, "Delay needs n >= 1 (a zero-length delay is a wire)");
        Self {
            clock: Default::default(),
            rst: Default::default(),
            d: Default::default(),
            q: Default::default(),
            regs: (0..n).map(|_| RDff::default()).collect(),
            _n: n,
        }
    }
}

impl<T: Synth> Logic for Delay<T> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._n {
            self.regs[i].clock.next = self.clock.val();
            self.regs[i].rst.next = self.rst.val();
        }
        self.regs[0].d.next = self.d.val();
        for i in 1..self._n {
            self.regs[i].d.next = self.regs[i - 1].q.val();
        }
        for i in (self._n - 1)..self._n {
            self.q.next = self.regs[i].q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::VecDeque;

    /// Reference from the contract: a queue of the last n inputs, all zero after a reset edge.
    fn check(n: usize, seed: u32) {
        let mut dl: Delay<Bits<8>> = Delay::new(n);
        dl.connect_all();
        let mut rng = StdRng::seed_from_u64(seed as u64);
        let mut line: VecDeque<u64> = std::iter::repeat(0).take(n).collect();
        let mut resets = 0;
        for cycle in 0..300 {
            let state: u32 = rng.gen();
            let d = (state & 0xff) as u64;
            let rst = cycle < 2 || state >> 27 == 0;
            dl.clock.next = Clock { clk: false };
            dl.d.next = d.to_bits();
            dl.rst.next = rst;
            assert!(simulate(&mut dl, 100));
            assert_eq!(dl.q.val().index() as u64, line[0], "n={n}: low phase of cycle {cycle}");
            dl.clock.next = Clock { clk: true };
            assert!(simulate(&mut dl, 100));
            if rst {
                line.iter_mut().for_each(|v| *v = 0);
            } else {
                line.pop_front();
                line.push_back(d);
            }
            resets += rst as u32;
            assert_eq!(dl.q.val().index() as u64, line[0], "n={n}: after the edge of cycle {cycle}");
        }
        assert!(resets > 5 && resets < 60, "{resets} resets");
    }

    #[test]
    fn delay_line_delays_by_n_and_resets_every_stage() {
        check(1, 0x2545_f491);
        check(2, 0x9e37_79b9);
        check(5, 0x1234_5679);
    }

    #[test]
    #[should_panic(expected = "n >= 1")]
    fn delay_of_zero_is_refused() {
        let _ = Delay::<Bit>::new(0);
    }

    /// Test top: an 8-bit, 3-deep delay line.
    #[derive(LogicBlock)]
    struct DelayTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        d: Signal<In, Bits<8>>,
        q: Signal<Out, Bits<8>>,
        dl: Delay<Bits<8>>,
    }
    impl Logic for DelayTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.dl.clock.next = self.clk.val();
            self.dl.rst.next = self.rst.val();
            self.dl.d.next = self.d.val();
            self.q.next = self.dl.q.val();
        }
    }
    fn top() -> crate::emit::EmittedModule {
        let t = DelayTop { clk: Default::default(), rst: Default::default(), d: Default::default(), q: Default::default(), dl: Delay::new(3) };
        crate::emit::emit_module(t, "prims_delay", "prims", vec![]).unwrap()
    }

    /// 3 × 8 reset flops and nothing else on both families; lint-clean.
    #[test]
    fn delay_maps_to_reset_flops_only() {
        use crate::prims::synth_check::{cells, lint};
        let t = top();
        lint(&t);
        let c = cells(&t, "synth_ice40");
        assert_eq!(c.get("SB_DFFSR"), Some(&24), "{c:?}");
        assert_eq!(c.values().sum::<u64>(), 24, "{c:?}");
        let c = cells(&t, "synth_ecp5");
        assert_eq!(c.get("TRELLIS_FF"), Some(&24), "{c:?}");
        assert_eq!(c.values().sum::<u64>(), 24, "{c:?}");
    }
}
