//! Latency-aware co-simulation: cycle wrappers that turn a transaction-level golden model into
//! the cycle-exact model of a pipelined block (timing-closure.md §2.1: latency is a parameter of
//! the wrapper, never of the arithmetic).
//!
//! The golden model computes one response per transaction, with no notion of time. A wrapper
//! says *when* that response appears on the block's output ports:
//!
//! * [`FixedLatency`]: no back-pressure; whatever the block computes from the inputs of the cycle
//!   before edge `t` is on its outputs after edge `t + L − 1` (L ≥ 1 registered stages). The
//!   tanh/sigmoid unit (`lat`), the branch unit (LAT = 1 + pipe) and the trap controller's input
//!   delay (`pipe` = 1) are of this kind.
//! * [`Elastic`]: a valid/ready stream through S registered stages (timing-closure §3.1): a
//!   transfer happens when valid ∧ ready; order kept, nothing lost or duplicated; the output
//!   holds while `out_valid ∧ ¬out_ready`; a stage moves forward whenever the one after it is
//!   empty or moving, so bubbles close up and `in_ready` falls only when every stage is full and
//!   `out_ready` is low. With S = 1 it is exactly `in_ready = !out_valid || out_ready` of the
//!   region address generator's pipe = 0 (spec §6.3). Latency from accept to `out_valid` is S
//!   cycles when `out_ready` stays high.
//!
//! Both are generic over the response type, so every block's co-simulation compares its
//! pipelined Verilog with the same golden model, every output port every cycle.

use std::collections::VecDeque;

/// A delay line of `L` registered stages for a block without back-pressure.
///
/// Each cycle the caller passes what the golden model computes from this cycle's inputs (the
/// response of a transaction, or the block's idle output when nothing is valid) and gets what the
/// block's outputs show after the edge: the value passed `L` cycles earlier (`idle` until then).
#[derive(Clone, Debug)]
pub struct FixedLatency<R> {
    line: VecDeque<R>,
    idle: R,
}

impl<R: Clone> FixedLatency<R> {
    /// `latency` ≥ 1: the block's outputs are registered.
    pub fn new(latency: usize, idle: R) -> Self {
        assert!(latency >= 1, "a registered block has a latency of at least one cycle");
        Self { line: std::iter::repeat(idle.clone()).take(latency).collect(), idle }
    }
    pub fn latency(&self) -> usize {
        self.line.len()
    }
    /// Synchronous reset: every stage back to `idle`.
    pub fn reset(&mut self) {
        for r in self.line.iter_mut() {
            *r = self.idle.clone();
        }
    }
    /// One clock edge with `now` computed from this cycle's inputs; returns the outputs after it.
    pub fn tick(&mut self, now: R) -> &R {
        self.line.pop_back();
        self.line.push_front(now);
        self.line.back().expect("latency >= 1")
    }
    /// The outputs as they are now (after the last edge).
    pub fn out(&self) -> &R {
        self.line.back().expect("latency >= 1")
    }
}

/// A valid/ready stream through `S` registered stages (see the module docs for the contract).
#[derive(Clone, Debug)]
pub struct Elastic<R> {
    /// `stages[0]` takes the input; `stages[S-1]` drives the outputs.
    stages: Vec<Option<R>>,
}

impl<R: Clone> Elastic<R> {
    /// `stages` ≥ 1 (the latency with `out_ready` high).
    pub fn new(stages: usize) -> Self {
        assert!(stages >= 1, "an elastic pipeline has at least its output register");
        Self { stages: vec![None; stages] }
    }
    pub fn stages(&self) -> usize {
        self.stages.len()
    }
    /// Synchronous reset: the pipeline empties.
    pub fn reset(&mut self) {
        self.stages.iter_mut().for_each(|s| *s = None);
    }
    /// `out_valid` and `out_*`: the last stage (registered, so it does not depend on this
    /// cycle's inputs).
    pub fn out(&self) -> Option<&R> {
        self.stages.last().expect("stages >= 1").as_ref()
    }
    /// How many transactions are in flight.
    pub fn occupancy(&self) -> usize {
        self.stages.iter().filter(|s| s.is_some()).count()
    }
    /// `in_ready` for this cycle's `out_ready`: the first stage is empty or moves on. Low only
    /// when every stage is full and `out_ready` is low.
    pub fn in_ready(&self, out_ready: bool) -> bool {
        out_ready || self.stages.iter().any(|s| s.is_none())
    }
    /// One clock edge. `input` is `Some(response)` when `in_valid` is high (the golden model's
    /// response to the transaction offered); it is taken when `in_ready` is high. Returns whether
    /// it was taken.
    pub fn tick(&mut self, input: Option<R>, out_ready: bool) -> bool {
        let taken = input.is_some() && self.in_ready(out_ready);
        // From the output back: the last stage's content leaves when out_ready; any other
        // stage's moves on when the next stage is empty by then (it was empty, or its own
        // content has just moved on), so bubbles close up.
        let n = self.stages.len();
        for i in (0..n).rev() {
            let moves = if i + 1 == n { out_ready } else { self.stages[i + 1].is_none() };
            if moves {
                let v = self.stages[i].take();
                if i + 1 < n {
                    self.stages[i + 1] = v;
                }
            }
        }
        if taken {
            debug_assert!(self.stages[0].is_none());
            self.stages[0] = input;
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn fixed_latency_delays_by_exactly_l() {
        for l in 1..6 {
            let mut p = FixedLatency::new(l, 0u32);
            for t in 1..50u32 {
                let shown = *p.tick(t);
                assert_eq!(shown, if t as usize >= l { t + 1 - l as u32 } else { 0 }, "L {l} t {t}");
            }
            p.reset();
            assert_eq!(*p.out(), 0);
        }
    }

    /// The §3.1 stream contract under random valid/ready, for 1..5 stages.
    #[test]
    fn elastic_keeps_order_loses_nothing_holds_and_stalls_only_when_full() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for s in 1..=5 {
            let mut p = Elastic::new(s);
            let (mut next_in, mut next_out, mut prev_out): (u32, u32, Option<(u32, bool)>) = (0, 0, None);
            for _ in 0..20_000 {
                let valid = rng.gen_bool(0.7);
                let out_ready = rng.gen_bool(0.6);
                // outputs are registered: what was shown and not taken is shown again, unchanged
                if let Some((v, false)) = prev_out {
                    assert_eq!(p.out(), Some(&v), "S {s}: output changed under back-pressure");
                }
                let ready = p.in_ready(out_ready);
                assert_eq!(ready, !(p.occupancy() == s && !out_ready), "S {s}: in_ready falls only when full and out_ready low");
                let shown = p.out().copied();
                if let Some(v) = shown {
                    if out_ready {
                        assert_eq!(v, next_out, "S {s}: order");
                        next_out += 1;
                    }
                }
                prev_out = shown.map(|v| (v, out_ready));
                if p.tick(valid.then_some(next_in), out_ready) {
                    next_in += 1;
                }
                assert!(p.occupancy() <= s);
            }
            assert_eq!(next_in - next_out, p.occupancy() as u32, "S {s}: nothing lost or duplicated");
        }
    }

    /// With out_ready high, back-to-back transactions come out S cycles after they enter, one
    /// per cycle; a full pipeline drains one per cycle once out_ready rises.
    #[test]
    fn elastic_latency_throughput_and_drain() {
        for s in 1..=5 {
            let mut p = Elastic::new(s);
            for t in 0..20u32 {
                assert!(p.tick(Some(t), true));
                let want = (t + 1).checked_sub(s as u32);
                assert_eq!(p.out().copied(), want, "S {s}, edge {t}");
            }
            // stall until full, then drain
            let mut p = Elastic::new(s);
            let mut k = 0;
            while p.tick(Some(k), false) {
                k += 1;
            }
            assert_eq!((k as usize, p.occupancy()), (s, s));
            for t in 0..s as u32 {
                assert_eq!(p.out().copied(), Some(t));
                p.tick(None, true);
            }
            assert_eq!(p.occupancy(), 0);
        }
    }
}
