//! Trap controller cycle models for the BIST top `hdl::bist::trap_controller`.

use super::{all, bits, Words};
use crate::bist::{CycleModel, Layout};
use crate::golden::trap_controller::{Cycle, Inputs, Params, NORM};
use hdl::trap_controller::enc::sticky;

/// The golden step function of spec §7.4 on the raw ports (its outputs are already the Mealy
/// view: registered ones from the state, `sr_rdata`/`csr_rdata` also from the inputs), behind the
/// config's `pipe` input delay (`golden::trap_controller::Cycle`).
pub struct TrapCycles {
    pub p: Params,
    /// The step's state and input delay.
    pub cyc: Cycle,
    w: Words,
    /// Cycles per global mode (NORM, DRAIN, ENTER, HANDLER) and handler entries (coverage).
    pub mode_cycles: [u64; 4],
    pub entries: u64,
    /// Cycles with at least one sticky error bit (ERR_BADRET .. ERR_CSR) newly raised.
    pub err_cycles: u64,
    pub cycles: u64,
    /// Also predict the state tap (`dbg_*`), for a check against the plain DUT; off for the BIST
    /// signature, whose top reads only the spec's outputs (the tap's words stay 0 there).
    pub state_tap: bool,
}

impl TrapCycles {
    pub fn new(cfg: &hdl::trap_controller::Config) -> Self {
        let dut = hdl::bist::trap_controller::dut_module(cfg);
        let p = Params {
            w: cfg.warps,
            t: cfg.threads,
            pc_w: cfg.pc_width,
            has_sstep: cfg.has_sstep,
            haddr_reset: cfg.haddr_reset as u32,
        };
        TrapCycles {
            p,
            cyc: Cycle::new(p, cfg.pipe),
            w: Words::of(&Layout::of(&dut)),
            mode_cycles: [0; 4],
            entries: 0,
            err_cycles: 0,
            cycles: 0,
            state_tap: false,
        }
    }

    /// The same, predicting the state tap too ([`TrapCycles::state_tap`]).
    pub fn with_state_tap(cfg: &hdl::trap_controller::Config) -> Self {
        TrapCycles { state_tap: true, ..Self::new(cfg) }
    }
}

impl CycleModel for TrapCycles {
    fn reset(&mut self) {
        self.cyc.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let w = &self.w;
        let nw = self.p.w;
        let g = |n: &str| i[w.i(n)];
        let per = |n: &str, k: usize, width: u32| -> u32 {
            // Field k of a per-warp vector port (width ≤ 32, packed LSB first).
            let bit = k * width as usize;
            let x = i[w.i(n) + bit / 32];
            if width == 32 {
                x
            } else {
                bits(x, (bit % 32) as u32, width)
            }
        };
        let mut inp = Inputs {
            warp_valid: g("warp_valid"),
            exc_valid: g("exc_valid"),
            ret_valid: g("ret_valid"),
            pause_valid: g("pause_valid"),
            quiesced: g("quiesced") & 1 == 1,
            bar_wait: g("bar_wait"),
            issue_valid: g("issue_valid") & 1 == 1,
            issue_wid: g("issue_wid"),
            host_int: g("host_int") & 1 == 1,
            sm_evt_valid: g("sm_evt_valid") & 1 == 1,
            sm_evt_cause: g("sm_evt_cause") as u8,
            bcast_in: g("bcast_in") & 1 == 1,
            sr_valid: g("sr_valid") & 1 == 1,
            sr_wid: g("sr_wid"),
            sr_sel: g("sr_sel") as u8,
            sr_we: g("sr_we") & 1 == 1,
            sr_wdata: g("sr_wdata"),
            csr_valid: g("csr_valid") & 1 == 1,
            csr_we: g("csr_we") & 1 == 1,
            csr_addr: g("csr_addr") as u8,
            csr_wdata: g("csr_wdata"),
            ..Default::default()
        };
        for k in 0..nw {
            inp.exc_cause[k] = per("exc_cause", k, 4) as u8;
            inp.exc_pc[k] = per("exc_pc", k, 32);
            inp.exc_mask[k] = per("exc_mask", k, 32);
            inp.warp_pc[k] = per("warp_pc", k, 32);
            inp.warp_mask[k] = per("warp_mask", k, 32);
        }
        let before = self.cyc.s;
        self.mode_cycles[before.mode as usize & 3] += 1;
        let out = self.cyc.tick(&inp);
        let s2 = &self.cyc.s;
        self.cycles += 1;
        self.entries += (before.mode == NORM && s2.mode != NORM) as u64;
        let errors = sticky::ERR_BADRET | sticky::ERR_SPUR | sticky::ERR_UNK | sticky::SUPPR | sticky::GDROP | sticky::ERR_SR | sticky::ERR_CSR;
        self.err_cycles += ((s2.sticky & !before.sticky) as u64 & errors != 0) as u64;
        o[w.o("warp_halt")] = out.warp_halt;
        o[w.o("drain_req")] = out.drain_req as u32;
        o[w.o("trap_mode")] = out.trap_mode as u32;
        o[w.o("redir_valid")] = out.redir_valid;
        for k in 0..nw {
            o[w.o("redir_pc") + k] = out.redir_pc[k];
            o[w.o("redir_mask") + k] = out.redir_mask[k];
        }
        o[w.o("warp_kill")] = out.warp_kill;
        o[w.o("host_irq")] = out.host_irq as u32;
        o[w.o("bcast_out")] = out.bcast_out as u32;
        o[w.o("vt_base")] = out.vt_base;
        o[w.o("sr_rdata")] = out.sr_rdata;
        o[w.o("csr_rdata")] = out.csr_rdata;
        // The state tap (`dbg_*`, not spec ports): the registers before this edge, as the RTL
        // shows them in this cycle (one word per 32 bits; W ≤ 8 so the 4-bit fields fit a word).
        if !self.state_tap {
            return;
        }
        assert!(nw <= 8, "the state-tap packing here is written for W <= 8");
        let pack4 = |f: &dyn Fn(usize) -> u32| (0..nw).fold(0u32, |a, k| a | (f(k) & 15) << (4 * k));
        let pack1 = |f: &dyn Fn(usize) -> bool| (0..nw).fold(0u32, |a, k| a | (f(k) as u32) << k);
        o[w.o("dbg_ws")] = pack4(&|k| before.ws[k] as u32);
        o[w.o("dbg_lcause")] = pack4(&|k| before.lcause[k] as u32);
        o[w.o("dbg_ncause")] = pack4(&|k| before.ncause[k] as u32);
        o[w.o("dbg_gpw")] = pack1(&|k| before.gpw[k]);
        o[w.o("dbg_stepped")] = pack1(&|k| before.stepped[k]);
        for k in 0..nw {
            o[w.o("dbg_epc") + k] = before.epc[k];
            o[w.o("dbg_emask") + k] = before.emask[k];
        }
        let b = &before;
        let global = [
            b.mode as u32, b.gcause as u32, b.gpend as u32, b.htmask, b.haddr, b.hlat, b.vtbase, b.ctrl as u32,
            b.irq_en as u32, b.sticky as u32, b.tgid, b.fvalid as u32, b.fwid as u32, b.hmask as u32, b.wsel,
            b.bcast_q as u32, b.ss_trig as u32,
        ];
        for (slot, v) in global.into_iter().enumerate() {
            o[w.o("dbg_global") + slot] = v;
        }
    }
}

/// The BIST top's stimulus shaping (module docs of `hdl::bist::trap_controller`), then [`TrapCycles`].
pub struct TrapBist {
    pub inner: TrapCycles,
    buf: Vec<u32>,
}

impl TrapBist {
    pub fn new(cfg: &hdl::trap_controller::Config) -> Self {
        assert!(cfg.warps == 4 && cfg.threads == 32, "the BIST shaping is written for W = 4, T = 32");
        TrapBist { inner: TrapCycles::new(cfg), buf: Vec::new() }
    }
}

impl CycleModel for TrapBist {
    fn reset(&mut self) {
        self.inner.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let mut b = super::shaping_copy(&mut self.buf, i);
        let w = &self.inner.w;
        // c = warp_mask[127:64] = warps 2 and 3's masks.
        let wm = w.i("warp_mask");
        let c = i[wm + 2] as u64 | (i[wm + 3] as u64) << 32;
        let bit = |k: u32| (c >> k) & 1 == 1;
        let trap_mode = self.inner.cyc.s.mode != NORM;
        if !all(c, 0, 5) {
            b[w.i("warp_valid")] = 0xF;
        }
        if !all(c, 5, 4) {
            b[w.i("exc_valid")] = 0;
        }
        if !bit(9) {
            b[w.i("exc_cause")] &= 0x7777;
        }
        let g_ret = if trap_mode { bit(10) } else { all(c, 10, 4) };
        if !g_ret {
            b[w.i("ret_valid")] = 0;
        }
        if !(trap_mode && all(c, 14, 4)) {
            b[w.i("pause_valid")] = 0;
        }
        b[w.i("quiesced")] |= bit(18) as u32;
        b[w.i("host_int")] &= all(c, 19, 5) as u32;
        b[w.i("sm_evt_valid")] &= all(c, 24, 5) as u32;
        b[w.i("bcast_in")] &= all(c, 29, 5) as u32;
        b[w.i("sr_valid")] &= (bit(34) && bit(35)) as u32;
        b[w.i("csr_valid")] &= (bit(36) && bit(37)) as u32;
        if !bit(38) {
            b[w.i("csr_addr")] = bits(i[w.i("csr_addr")], 0, 5) << 2;
        }
        self.inner.step(&b, o);
        self.buf = b;
    }
}

/// This block's entry in the BIST registry (`super::registry`).
pub fn entry() -> super::BistEntry {
    super::entry_of("trap_controller", &["small"], |all| all.trap_controller, hdl::bist::trap_controller::dut_module, |c| Box::new(TrapBist::new(c)), hdl::bist::trap_controller::emit)
}
