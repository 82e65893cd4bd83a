//! The multi-threaded, pipelined branch unit of timing-closure §3.2 as a cycle model: one
//! [`State`] per hardware thread, each stepped by the unchanged transaction-level [`step`]
//! (§2.4 / §6.4 per thread), behind a [`FixedLatency`] line of LAT = 1 + `pipe` stages.
//!
//! Cycle contract (what the RTL must show after each clock edge):
//! - A request taken in cycle `c` is answered in cycle `c + LAT` (`rsp_valid`, `rsp_tid`, the
//!   `rsp_*` of its step); a cycle without a response shows zeros on `rsp_*` and `rsp_tid`.
//! - `thr_busy[k]` is 1 while a request of thread `k` is in flight: from the cycle after it was
//!   taken up to and including the cycle before its response (with `pipe` = 0 always 0). Every
//!   request counts, an answered-busy one too (it is in the pipeline like any other).
//! - A request for a busy thread is answered `E_BUSY` (`err::BUSY`, next IP = its IP, masks 0,
//!   event nop, like every §7 error) and changes nothing, not even `fault`.
//! - `thr_lane_mask[k]` (and `lane_mask` with one thread) is `E` of thread `k`'s state as of its
//!   last shown response (the reset state before any: all lanes OFF, `E` = 0).
//! - `dbg_*` and `fault` show the state the last written step left: thread `rsp_tid`'s after
//!   its step; they hold in a cycle without a response and for an E_BUSY answer (which writes
//!   nothing); after reset the reset state. With one thread and `pipe` = 0 all of this is
//!   today's unit (whose `dbg_*` are the state registers).

use super::{step, Cfg, Instr, Out, State};
use crate::golden::branch_unit::{err, ev};
use crate::latency::FixedLatency;
use std::collections::VecDeque;

/// One request: thread, instruction, predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub tid: usize,
    pub instr: Instr,
    pub pred: u64,
}

/// A response on its way through the pipeline: the step's `Out` and the thread's state after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub tid: usize,
    pub out: Out,
    pub state: State,
}

/// Every output port of the unit in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ports {
    /// The response of this cycle, if any (`rsp_valid`, `rsp_tid`, `rsp_*`).
    pub rsp: Option<(usize, Out)>,
    /// `thr_busy`, bit k = thread k.
    pub busy: u64,
    /// `thr_lane_mask` per thread (`lane_mask` with one thread).
    pub lane_masks: Vec<u64>,
    /// The state `dbg_*` and `fault` show (what the last written step left).
    pub dbg: State,
}

/// The threads' golden states behind the LAT-stage line.
pub struct Threads {
    pub cfg: Cfg,
    /// State of each thread after every request taken so far (the transaction-level view).
    pub states: Vec<State>,
    /// State of each thread as of its last shown response (what `thr_lane_mask` and `dbg_*` show).
    shown: Vec<State>,
    line: FixedLatency<Option<Shown>>,
    /// The threads of the requests taken in the last LAT - 1 cycles (newest first): in flight.
    inflight: VecDeque<Option<usize>>,
    /// The thread of the last written step (its shown state is on `dbg_*`).
    last: usize,
}

impl Threads {
    /// `threads` ∈ {1, 2, 4, 8, 16}, LAT = 1 + `pipe`.
    pub fn new(cfg: Cfg, threads: usize, pipe: usize) -> Self {
        assert!([1, 2, 4, 8, 16].contains(&threads), "threads {threads}");
        let r = State::reset(&cfg);
        Self { cfg, states: vec![r.clone(); threads], shown: vec![r; threads], line: FixedLatency::new(1 + pipe, None), inflight: vec![None; pipe].into(), last: 0 }
    }
    pub fn threads(&self) -> usize {
        self.states.len()
    }
    pub fn latency(&self) -> usize {
        self.line.latency()
    }
    /// Synchronous reset: every thread back to the §6.2 reset state, the pipeline empty.
    pub fn reset(&mut self) {
        let r = State::reset(&self.cfg);
        self.states.iter_mut().for_each(|s| *s = r.clone());
        self.shown.iter_mut().for_each(|s| *s = r.clone());
        self.line.reset();
        self.inflight.iter_mut().for_each(|t| *t = None);
        self.last = 0;
    }
    /// `thr_busy` as it is now (before this cycle's edge): the threads with a request in the
    /// line that has not reached its output yet.
    pub fn busy(&self) -> u64 {
        self.inflight.iter().flatten().fold(0, |b, &t| b | 1 << t)
    }
    /// One cycle: `req` (or none) in this cycle, then the clock edge; returns the ports after it.
    pub fn tick(&mut self, req: Option<Request>) -> Ports {
        let now = req.map(|r| {
            assert!(r.tid < self.threads(), "tid {} of {} threads", r.tid, self.threads());
            if self.busy() >> r.tid & 1 == 1 {
                let out = Out { next_ip: r.instr.ip, err: true, err_code: err::BUSY, event: ev::NOP, ..Default::default() };
                Shown { tid: r.tid, out, state: self.states[r.tid].clone() }
            } else {
                let (s2, out) = step(&self.cfg, &self.states[r.tid], &r.instr, r.pred);
                self.states[r.tid] = s2.clone();
                Shown { tid: r.tid, out, state: s2 }
            }
        });
        if !self.inflight.is_empty() {
            self.inflight.pop_back();
            self.inflight.push_front(req.map(|r| r.tid));
        }
        let shown = self.line.tick(now).clone();
        if let Some(s) = &shown {
            // an E_BUSY answer changes nothing (its thread's last step was shown before it)
            if !(s.out.err && s.out.err_code == err::BUSY) {
                self.shown[s.tid] = s.state.clone();
                self.last = s.tid;
            }
        }
        self.ports(shown.as_ref())
    }
    /// The ports as they are now.
    pub fn out(&self) -> Ports {
        let shown = self.line.out().clone();
        self.ports(shown.as_ref())
    }
    fn ports(&self, shown: Option<&Shown>) -> Ports {
        Ports {
            rsp: shown.map(|s| (s.tid, s.out)),
            busy: self.busy(),
            lane_masks: self.shown.iter().map(|s| s.e()).collect(),
            dbg: self.shown[self.last].clone(),
        }
    }
}
