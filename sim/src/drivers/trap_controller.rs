//! Lock-step co-simulation driver for `eu_trap_controller` (shared by tests/trap_controller.rs
//! and the soak command `eu-soak`): the Verilated model against the golden step function of spec
//! trap-controller.md §7.4 behind the `pipe` input delay, every output port and the whole §7.2
//! state (the RTL's `dbg_*` state tap) every cycle, the seven invariants on the golden state
//! after every cycle and on the RTL's state before every compare; and the bulk random stimulus (`RandomTrap`)
//! with its exception accounting.

use crate::cosim::{Dut, Expected};
use crate::golden::trap_controller::*;
use crate::ports::EuTrapController;
use hdl::trap_controller::enc::{csr, sr};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const F: u32 = 0xFFFF_FFFF;

/// DUT + golden model in lock step.
pub struct TrapBench {
    pub dut: Dut,
    pub p: Params,
    /// The spec's state after every input given so far (what the tests assert on, whatever
    /// `pipe`).
    pub s: State,
    /// The cycle model the DUT is compared with every cycle (the step behind the `pipe` input
    /// delay, timing-closure §3.3).
    pub cyc: Cycle,
    /// Every port by its spec name (generated bindings); `pi` for the inputs, `po` for the
    /// outputs, to read like the spec's two port tables.
    pub pi: EuTrapController,
    pub po: EuTrapController,
    pub prev: Inputs,
    pub exp: Expected,
    pub cycles: u64,
}

impl TrapBench {
    /// The co-simulated W (`w<W>`, pipe 0) or its pipe-1 twin (`w<W>_p`).
    pub fn new(w: usize, pipe: u32) -> Self {
        let twin = if pipe == 1 { "_p" } else { "" };
        Self::variant(&format!("w{w}{twin}"))
    }

    /// Any co-simulation variant of `hdl::trap_controller` (its `cosim_configs` name): the golden
    /// model's parameters come from that config, and the model's Verilog parameters must agree.
    pub fn variant(v: &str) -> Self {
        let cfg = hdl::registry::cosim_config::<hdl::trap_controller::Block>(v);
        let dut = Dut::new(&format!("trap_controller_{v}/eu_trap_controller"));
        let pi = EuTrapController::of(&dut);
        let po = pi;
        let (w, pipe) = (cfg.warps, cfg.pipe);
        let p = Params { has_sstep: cfg.has_sstep, haddr_reset: cfg.haddr_reset as u32, ..Params::new(w) };
        let got = (dut.param("W"), dut.param("PIPE"), dut.param("HAS_SSTEP"), dut.param("HADDR_RESET"));
        let want = (w.to_string(), pipe.to_string(), (cfg.has_sstep as u8).to_string(), format!("{:#x}", cfg.haddr_reset));
        assert_eq!(got, (want.0.as_str(), want.1.as_str(), want.2.as_str(), want.3.as_str()), "variant {v}");
        let exp = dut.expected();
        let mut tb = TrapBench { dut, p, s: reset_state(&p), cyc: Cycle::new(p, pipe), pi, po, prev: Inputs::default(), exp, cycles: 0 };
        tb.drive_all(&Inputs::default());
        tb.reset();
        tb
    }

    pub fn reset(&mut self) {
        self.dut.reset(1);
        self.s = reset_state(&self.p);
        self.cyc.reset();
    }

    pub fn drive_all(&mut self, i: &Inputs) {
        self.prev = *i;
        self.prev.warp_valid ^= 1; // force every field to be written once
        self.prev.exc_cause[0] ^= 1;
        self.prev.exc_pc[0] ^= 1;
        self.prev.exc_mask[0] ^= 1;
        self.prev.warp_pc[0] ^= 1;
        self.prev.warp_mask[0] ^= 1;
        let mut j = *i;
        for w in 0..self.p.w {
            self.prev.exc_cause[w] = !i.exc_cause[w];
            self.prev.exc_pc[w] = !i.exc_pc[w];
            self.prev.exc_mask[w] = !i.exc_mask[w];
            self.prev.warp_pc[w] = !i.warp_pc[w];
            self.prev.warp_mask[w] = !i.warp_mask[w];
        }
        j.warp_valid = i.warp_valid;
        self.drive(&j);
    }

    /// Drives the inputs (only the per-warp fields that changed are rewritten).
    pub fn drive(&mut self, i: &Inputs) {
        let (d, pi, w) = (&mut self.dut, &self.pi, self.p.w);
        let wm = self.p.wm() as u64;
        d.set(pi.warp_valid, i.warp_valid as u64 & wm);
        d.set(pi.exc_valid, i.exc_valid as u64 & wm);
        d.set(pi.ret_valid, i.ret_valid as u64 & wm);
        d.set(pi.pause_valid, i.pause_valid as u64 & wm);
        d.set(pi.bar_wait, i.bar_wait as u64 & wm);
        for k in 0..w {
            if i.exc_cause[k] != self.prev.exc_cause[k] {
                d.set_field(pi.exc_cause, 4 * k, 4, i.exc_cause[k] as u64 & 15);
            }
            if i.exc_pc[k] != self.prev.exc_pc[k] {
                d.set_field(pi.exc_pc, 32 * k, 32, i.exc_pc[k] as u64);
            }
            if i.exc_mask[k] != self.prev.exc_mask[k] {
                d.set_field(pi.exc_mask, 32 * k, 32, i.exc_mask[k] as u64);
            }
            if i.warp_pc[k] != self.prev.warp_pc[k] {
                d.set_field(pi.warp_pc, 32 * k, 32, i.warp_pc[k] as u64);
            }
            if i.warp_mask[k] != self.prev.warp_mask[k] {
                d.set_field(pi.warp_mask, 32 * k, 32, i.warp_mask[k] as u64);
            }
        }
        d.set(pi.quiesced, i.quiesced as u64);
        d.set(pi.issue_valid, i.issue_valid as u64);
        d.set(pi.issue_wid, i.issue_wid as u64);
        d.set(pi.host_int, i.host_int as u64);
        d.set(pi.sm_evt_valid, i.sm_evt_valid as u64);
        d.set(pi.sm_evt_cause, i.sm_evt_cause as u64);
        d.set(pi.bcast_in, i.bcast_in as u64);
        d.set(pi.sr_valid, i.sr_valid as u64);
        d.set(pi.sr_wid, i.sr_wid as u64);
        d.set(pi.sr_sel, i.sr_sel as u64);
        d.set(pi.sr_we, i.sr_we as u64);
        d.set(pi.sr_wdata, i.sr_wdata as u64);
        d.set(pi.csr_valid, i.csr_valid as u64);
        d.set(pi.csr_we, i.csr_we as u64);
        d.set(pi.csr_addr, i.csr_addr as u64);
        d.set(pi.csr_wdata, i.csr_wdata as u64);
        self.prev = *i;
    }

    /// One clock cycle: drive, compare every output with the cycle model before the edge, clock,
    /// advance. Returns the spec's outputs for these inputs: with pipe 0 those of this cycle,
    /// with pipe 1 those the DUT shows in the next cycle, which are compared right after the
    /// edge (with pipe 1 no output depends on the inputs of its cycle, so whatever is driven
    /// next cannot change them).
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        self.drive(i);
        self.dut.settle();
        self.check(i);
        self.dut.tick();
        let o = self.cyc.tick(i);
        let o = if self.cyc.pipe() == 0 {
            self.s = self.cyc.s;
            o
        } else {
            let (n, o) = step(&self.p, &self.s, i);
            self.s = n;
            self.check(i);
            o
        };
        self.cycles += 1;
        if let Err(m) = check_invariants(&self.p, &self.s) {
            panic!("invariant {m} after cycle {} (W={})", self.cycles, self.p.w);
        }
        o
    }

    /// The RTL's §7.2 state, read from its state tap (the `dbg_*` ports; PC_W = T = 32 as in
    /// every co-simulated config).
    pub fn rtl_state(&self) -> State {
        let (d, po) = (&self.dut, &self.po);
        let mut s = reset_state(&self.p);
        for w in 0..self.p.w {
            s.ws[w] = d.get_field(po.dbg_ws, 4 * w, 4) as u8;
            s.lcause[w] = d.get_field(po.dbg_lcause, 4 * w, 4) as u8;
            s.ncause[w] = d.get_field(po.dbg_ncause, 4 * w, 4) as u8;
            s.gpw[w] = d.get_field(po.dbg_gpw, w, 1) == 1;
            s.stepped[w] = d.get_field(po.dbg_stepped, w, 1) == 1;
            s.epc[w] = d.get_field(po.dbg_epc, 32 * w, 32) as u32;
            s.emask[w] = d.get_field(po.dbg_emask, 32 * w, 32) as u32;
        }
        let g = |slot: usize| d.get_field(po.dbg_global, 32 * slot, 32);
        s.mode = g(0) as u8;
        s.gcause = g(1) as u8;
        s.gpend = g(2) as u16;
        s.htmask = g(3) as u32;
        s.haddr = g(4) as u32;
        s.hlat = g(5) as u32;
        s.vtbase = g(6) as u32;
        s.ctrl = g(7) as u8;
        s.irq_en = g(8) as u16;
        s.sticky = g(9) as u16;
        s.tgid = g(10) as u32;
        s.fvalid = g(11) == 1;
        s.fwid = g(12) as usize;
        s.hmask = g(13) as u16;
        s.wsel = g(14) as u32;
        s.bcast_q = g(15) == 1;
        s.ss_trig = g(16) == 1;
        s
    }

    /// Compares every output port of the DUT with the cycle model's outputs for inputs `i`,
    /// and the RTL's whole §7.2 state (the state tap) with the cycle model's state, after
    /// checking the seven §7.4 invariants on the RTL's state itself (so a broken invariant is
    /// named as such, not only as a differing register).
    pub fn check(&mut self, i: &Inputs) {
        if let Err(m) = check_invariants(&self.p, &self.rtl_state()) {
            panic!("RTL state breaks invariant {m} in cycle {} (W={})", self.cycles, self.p.w);
        }
        let st = self.cyc.s;
        let o = self.cyc.outputs(i);
        let (e, po) = (&mut self.exp, &self.po);
        e.set(po.warp_halt, o.warp_halt as u64)
            .set(po.drain_req, o.drain_req as u64)
            .set(po.trap_mode, o.trap_mode as u64)
            .set(po.redir_valid, o.redir_valid as u64)
            .set(po.warp_kill, o.warp_kill as u64)
            .set(po.host_irq, o.host_irq as u64)
            .set(po.bcast_out, o.bcast_out as u64)
            .set(po.vt_base, o.vt_base as u64)
            .set(po.sr_rdata, o.sr_rdata as u64)
            .set(po.csr_rdata, o.csr_rdata as u64);
        for w in 0..self.p.w {
            e.set_field(po.redir_pc, 32 * w, 32, o.redir_pc[w] as u64);
            e.set_field(po.redir_mask, 32 * w, 32, o.redir_mask[w] as u64);
            e.set_field(po.dbg_ws, 4 * w, 4, st.ws[w] as u64)
                .set_field(po.dbg_lcause, 4 * w, 4, st.lcause[w] as u64)
                .set_field(po.dbg_ncause, 4 * w, 4, st.ncause[w] as u64)
                .set_field(po.dbg_gpw, w, 1, st.gpw[w] as u64)
                .set_field(po.dbg_stepped, w, 1, st.stepped[w] as u64)
                .set_field(po.dbg_epc, 32 * w, 32, st.epc[w] as u64)
                .set_field(po.dbg_emask, 32 * w, 32, st.emask[w] as u64);
        }
        let global: [u64; 17] = [
            st.mode as u64,
            st.gcause as u64,
            st.gpend as u64,
            st.htmask as u64,
            st.haddr as u64,
            st.hlat as u64,
            st.vtbase as u64,
            st.ctrl as u64,
            st.irq_en as u64,
            st.sticky as u64,
            st.tgid as u64,
            st.fvalid as u64,
            st.fwid as u64,
            st.hmask as u64,
            st.wsel as u64,
            st.bcast_q as u64,
            st.ss_trig as u64,
        ];
        for (slot, v) in global.into_iter().enumerate() {
            e.set_field(po.dbg_global, 32 * slot, 32, v);
        }
        self.dut.check(&self.exp);
    }

}


/// Every implemented CSR address (§7.3).
pub fn csr_addrs() -> Vec<u8> {
    csr::TABLE.codes.iter().map(|c| c.value as u8).collect()
}

/// Exception accounting: every accepted exception is reported exactly once (ESR read by the
/// handler, or FATAL park), or retired by KILL / warp_valid=0.
#[derive(Default, Debug)]
pub struct Acct {
    pub pending: [Option<u8>; MAXW],
    pub read_this_episode: [bool; MAXW],
    pub raised: u64,
    pub reported: u64,
    pub fatal: u64,
    pub retired: u64,
    pub episodes: u64,
    pub mismatched_reports: u64,
}

/// The bulk random run: random warps, exceptions, handler software (ESR reads, returns,
/// pauses), host CSR traffic, SM events and rare resets, with the exception accounting checked
/// every cycle. `step(false)` runs one random cycle; `finish` lets the run settle (no new
/// exceptions, trapping on) until every exception is accounted for.
pub struct RandomTrap {
    pub tb: TrapBench,
    rng: StdRng,
    pub a: Acct,
    i: Inputs,
    /// Cycles spent in each mode (NORM, DRAIN, ENTER, HANDLER).
    pub stats: [u64; 4],
    csr_addrs: Vec<u8>,
    /// Random cycles run so far (`step` calls).
    pub c: u64,
}

impl RandomTrap {
    /// The co-simulated W and pipe (`TrapBench::new`), stimulus from `seed`.
    pub fn new(w: usize, pipe: u32, seed: u64) -> Self {
        Self::on(TrapBench::new(w, pipe), seed)
    }

    pub fn on(tb: TrapBench, seed: u64) -> Self {
        let wm = tb.p.wm();
        RandomTrap {
            tb,
            rng: StdRng::seed_from_u64(seed),
            a: Acct::default(),
            i: Inputs { warp_valid: wm, ..Default::default() },
            stats: [0; 4],
            csr_addrs: csr_addrs(),
            c: 0,
        }
    }

    /// One random cycle; `finishing`: no new exceptions, pauses, kills or single-step, so that
    /// the run drains.
    pub fn step(&mut self, finishing: bool) {
        let RandomTrap { tb, rng, a, i, stats, csr_addrs, c } = self;
        let p = tb.p;
        let w = p.w;
        let wm = p.wm();
        *c += 1;
        let c = *c;
        let s = tb.s;
        stats[s.mode as usize] += 1;
        // ---- stimulus ----
        i.exc_valid = 0;
        i.ret_valid = 0;
        i.pause_valid = 0;
        i.host_int = false;
        i.sm_evt_valid = false;
        i.bcast_in = false;
        i.sr_valid = false;
        i.sr_we = false;
        i.csr_valid = false;
        i.csr_we = false;
        i.issue_valid = false;
        i.quiesced = false;
        if rng.gen_ratio(1, 2000) {
            i.warp_valid ^= 1 << rng.gen_range(0..w);
        } else if i.warp_valid != wm && rng.gen_ratio(1, 20) {
            i.warp_valid = wm;
        }
        let exc_p = if finishing { 0.0 } else { 0.3 / w as f64 };
        // the handler software: read ESR of one TRAP warp that has not read it yet
        let mut handler_sr = false;
        if s.mode == HANDLER {
            let todo: Vec<usize> = (0..w).filter(|&k| s.ws[k] == TRAP && !a.read_this_episode[k]).collect();
            if !todo.is_empty() && rng.gen_bool(0.7) {
                let k = todo[rng.gen_range(0..todo.len())];
                i.sr_valid = true;
                i.sr_we = false;
                i.sr_wid = k as u32;
                i.sr_sel = sr::ESR as u8;
                handler_sr = true;
            }
        }
        for k in 0..w {
            let st = s.ws[k];
            let in_handler_done = s.mode == HANDLER && st == TRAP && a.read_this_episode[k];
            if in_handler_done {
                if rng.gen_bool(0.12) {
                    i.ret_valid |= 1 << k;
                }
                if rng.gen_bool(if finishing { 0.0 } else { 0.015 }) {
                    i.pause_valid |= 1 << k;
                }
                if rng.gen_bool(exc_p * 0.2) {
                    i.exc_valid |= 1 << k; // double fault or suppressed
                }
            } else if st == RUN && (s.mode == NORM || s.mode == DRAIN) {
                if rng.gen_bool(exc_p) {
                    i.exc_valid |= 1 << k;
                }
            } else if st != TRAP && rng.gen_bool(0.002) {
                i.exc_valid |= 1 << k; // from a halted warp (bad input)
            }
            if st != TRAP && rng.gen_bool(0.002) {
                if rng.gen() {
                    i.ret_valid |= 1 << k
                } else {
                    i.pause_valid |= 1 << k
                }
            }
            if i.exc_valid >> k & 1 == 1 {
                let r = rng.gen_range(0..20);
                i.exc_cause[k] = if r < 16 { 1 + r % 6 } else if r < 18 { rng.gen_range(7..16) } else { 0 };
                i.exc_pc[k] = rng.gen();
                i.exc_mask[k] = rng.gen();
            }
        }
        if s.mode == DRAIN && rng.gen_bool(0.3) {
            i.quiesced = true;
            for k in 0..w {
                i.warp_pc[k] = rng.gen();
                i.warp_mask[k] = if rng.gen_bool(0.5) { F } else { rng.gen() };
            }
        } else if rng.gen_ratio(1, 50) {
            i.quiesced = true; // outside DRAIN: no effect
        }
        i.bar_wait = if rng.gen_bool(0.2) { rng.gen::<u32>() & wm } else { 0 };
        if rng.gen_bool(0.6) {
            i.issue_valid = true;
            i.issue_wid = rng.gen_range(0..(1u32 << p.wid_w()));
        }
        if !finishing {
            i.host_int = rng.gen_ratio(1, 400);
            if rng.gen_ratio(1, 400) {
                i.sm_evt_valid = true;
                i.sm_evt_cause = rng.gen_range(0..16);
            }
            i.bcast_in = rng.gen_ratio(1, 600);
        }
        if !handler_sr && rng.gen_bool(0.5) {
            i.sr_valid = true;
            i.sr_wid = rng.gen_range(0..(1u32 << p.wid_w()));
            i.sr_sel = rng.gen_range(0..8);
            i.sr_we = rng.gen_bool(0.1);
            i.sr_wdata = rng.gen();
            let k = i.sr_wid as usize;
            // the handler clears its ESR only after reading it
            if i.sr_we && i.sr_sel as u64 == sr::ESR && k < w && !a.read_this_episode[k] {
                i.sr_we = false;
            }
        }
        // host
        let resumable: u32 = (0..w).filter(|&k| s.ws[k] == PAUSED || s.ws[k] == PARKED).fold(0, |m, k| m | 1 << k);
        if resumable != 0 && rng.gen_bool(if finishing { 0.2 } else { 0.02 }) {
            i.csr_valid = true;
            i.csr_we = true;
            i.csr_addr = csr::RESUME as u8;
            i.csr_wdata = if rng.gen_bool(0.8) { resumable } else { rng.gen() };
        } else if rng.gen_bool(0.9) {
            i.csr_valid = true;
            if rng.gen_bool(0.92) || finishing {
                i.csr_addr = if rng.gen_bool(0.97) { csr_addrs[rng.gen_range(0..csr_addrs.len())] } else { rng.gen() };
                i.csr_wdata = 0;
            } else {
                i.csr_we = true;
                i.csr_wdata = rng.gen();
                i.csr_addr = match rng.gen_range(0..16) {
                    0 | 1 => {
                        // CTRL: mostly trapping on; sometimes single-step, broadcast, or off
                        i.csr_wdata = if rng.gen_bool(0.9) { 1 } else { 0 }
                            | if rng.gen_bool(0.3) { 2 } else { 0 }
                            | if rng.gen_bool(0.15) { 4 } else { 0 };
                        csr::CTRL as u8
                    }
                    2 => csr::HADDR as u8,
                    3 => csr::GSTATUS as u8,
                    4 => csr::IRQ_EN as u8,
                    5 => csr::GPEND as u8,
                    6 => {
                        i.csr_wdata &= wm;
                        csr::HINT as u8
                    }
                    7 => {
                        if rng.gen_bool(0.2) {
                            i.csr_wdata = 1 << rng.gen_range(0..w);
                            csr::KILL as u8
                        } else {
                            csr::RESUME as u8
                        }
                    }
                    8 => csr::HMASK as u8,
                    9 => {
                        i.csr_wdata = rng.gen_range(0..(1u32 << p.wid_w()) + 2);
                        csr::WSEL as u8
                    }
                    10 => csr::WEPC as u8,
                    11 => csr::WEMASK as u8,
                    12 => csr::VTBASE as u8,
                    13 => csr_addrs[rng.gen_range(0..csr_addrs.len())],
                    _ => rng.gen(),
                };
            }
        }
        if finishing {
            // let the run settle: trapping on, no single-step stalls, no kills
            if i.csr_we && [csr::CTRL, csr::KILL].contains(&(i.csr_addr as u64)) {
                i.csr_we = false;
            }
            if s.ctrl & SSTEP_EN != 0 {
                i.csr_valid = true;
                i.csr_we = true;
                i.csr_addr = csr::CTRL as u8;
                i.csr_wdata = TRAP_EN as u32;
            }
        }
        let reset = rng.gen_ratio(1, 200_000);

        // ---- exception accounting (classification from the spec rules on the pre-edge state) ----
        let kill = if i.csr_valid && i.csr_we && i.csr_addr as u64 == csr::KILL { i.csr_wdata & wm } else { 0 };
        let mut retire = 0u32;
        for k in 0..w {
            let valid = i.warp_valid >> k & 1 == 1;
            if !valid || (kill >> k & 1 == 1 && s.ws[k] != IDLE && s.ws[k] != KILLED) {
                retire |= 1 << k; // after this cycle's ESR read, if any
                continue;
            }
            let x = i.exc_valid >> k & 1 == 1;
            let cause = i.exc_cause[k];
            if x
                && cause != NONE
                && s.ws[k] == RUN
                && (s.mode == NORM || (s.mode == DRAIN && s.lcause[k] == NONE))
            {
                assert!(a.pending[k].is_none(), "W={w} cycle {c}: warp {k} raised twice");
                let c2 = if cause <= REG_RANGE { cause } else { UNKNOWN };
                a.raised += 1;
                if s.mode == NORM && s.ctrl & TRAP_EN == 0 {
                    a.fatal += 1; // parked, FATAL to the host
                } else {
                    a.pending[k] = Some(c2);
                }
            }
        }
        let o = tb.step(&i);
        if handler_sr {
            let k = i.sr_wid as usize;
            let dut_esr = o.sr_rdata; // the DUT's sr_rdata was checked equal before the edge
            a.read_this_episode[k] = true;
            let local = (dut_esr & 0xF) as u8;
            match a.pending[k].take() {
                Some(want) => {
                    assert_eq!(local, want, "W={w} cycle {c}: warp {k} ESR");
                    a.reported += 1;
                }
                None => {
                    if local != 0 && local != SSTEP {
                        if a.mismatched_reports == 0 {
                            eprintln!("unexpected ESR {dut_esr:#x} warp {k} cycle {c}: pre-state ws {:?} lcause {:?} mode {} tgid {:#x}", &s.ws[..w], &s.lcause[..w], s.mode, s.tgid);
                        }
                        a.mismatched_reports += 1;
                    }
                }
            }
        }
        for k in 0..w {
            if retire >> k & 1 == 1 && a.pending[k].take().is_some() {
                a.retired += 1;
            }
            if tb.s.ws[k] != TRAP {
                a.read_this_episode[k] = false;
            }
            // a pending exception waits in RUN for the SAVE, or in TRAP for its ESR read
            if let Some(cause) = a.pending[k] {
                let ok = (tb.s.ws[k] == RUN && tb.s.mode != NORM) || tb.s.ws[k] == TRAP;
                assert!(ok, "W={w} cycle {c}: warp {k}'s exception {cause:#x} was lost (ws {})", tb.s.ws[k]);
                assert_eq!(tb.s.lcause[k], cause, "W={w} cycle {c}: warp {k} LCAUSE");
            }
        }
        if s.mode == DRAIN && tb.s.mode == ENTER {
            a.episodes += 1;
        }
        if reset {
            tb.reset();
            for k in 0..w {
                if a.pending[k].take().is_some() {
                    a.retired += 1;
                }
                a.read_this_episode[k] = false;
            }
        }
    }

    /// Finishing cycles until the controller is back in NORM with every exception accounted for
    /// (at least 9; at most 20 000).
    pub fn finish(&mut self) {
        let mut k = 0u64;
        loop {
            if self.tb.s.mode == NORM && self.a.pending.iter().all(|x| x.is_none()) && k > 8 {
                break;
            }
            assert!(k < 20_000, "the run did not drain: {:?} mode {}", self.a, self.tb.s.mode);
            self.step(true);
            k += 1;
        }
    }

    /// The accounting's own checks at the end of a run: no ESR showed a cause nobody raised, and
    /// every exception was reported exactly once (read by the handler, FATAL, or retired).
    pub fn check_accounting(&self) {
        let a = &self.a;
        assert_eq!(a.mismatched_reports, 0, "an ESR showed a local cause nobody raised");
        assert_eq!(a.raised, a.reported + a.fatal + a.retired, "every exception is reported exactly once");
    }
}
