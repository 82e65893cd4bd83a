//! trap_controller: the SM trap handler controller of spec trap-controller.md (§2.4, §7).
//!
//! One module, `eu_trap_controller`. All warps of the SM trap together and return together: the
//! global mode (NORM, DRAIN, ENTER, HANDLER) and the per-warp states (IDLE, RUN, TRAP, RETW,
//! PAUSED, PARKED, RSTR, KILLED) follow the step function of §7.4 statement by statement, so the
//! next-state logic below reads in the same order (1) CSR write, (2) global events, (3) per-warp,
//! (4) SR write, (5) first-exception bookkeeping, (6) mode, (7) commit.
//!
//! rust-hdl notes: per-warp state lives in arrays of DFFs; every next-state value is first built
//! in a `Local` signal (blocking semantics, like the golden model's `n`) and copied to the DFF
//! inputs at the end, after which `rst` overrides everything. Width constants that must appear in
//! a slice offset come in as single-iteration loop variables (`kpc`, `kt`), because hdl_gen only
//! substitutes loop variables in expressions. Small binary indices (warp id, cause number) are
//! produced by a counter `Local` that is stepped once per unrolled iteration (constant-folded).

/// The encodings tables (mode, warp state, cause, sticky bits, CSR/SR addresses, ...): the source
/// for eu_trap_controller_defs.vh, the docs and the golden model's names (a test ties them).
pub mod enc;

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use rust_hdl::prelude::*;
use serde::{Deserialize, Serialize};

/// `[trap_controller]` section. Defaults are the spec's (§4) except `warps`, whose co-sim
/// default is the spec's W=8.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// W: warps per SM, one of {1, 2, 4, 8, 16, 32}.
    pub warps: usize,
    /// T: threads per warp (active-mask width). Only 32 is built (see docs/trap_controller.md).
    pub threads: usize,
    /// PC_W: PC / address width. Only 32 is built (see docs/trap_controller.md).
    pub pc_width: usize,
    /// HADDR_RESET: reset value of HADDR/HLAT (must fit PC_W bits).
    pub haddr_reset: u64,
    /// HAS_SSTEP: single-step hardware present.
    pub has_sstep: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self { warps: 8, threads: 32, pc_width: 32, haddr_reset: 0, has_sstep: true }
    }
}

impl Config {
    pub fn with_warps(warps: usize) -> Self {
        Self { warps, ..Default::default() }
    }
    /// WID_W = max(1, ceil(log2 W)).
    pub fn wid_w(&self) -> usize {
        let mut b = 0;
        while (1usize << b) < self.warps {
            b += 1;
        }
        b.max(1)
    }
}

/// The controller. `W` warps, `WIDW` = WID_W, `WC` = 4·W, `WT` = T·W, `WPC` = PC_W·W
/// (rust-hdl cannot do width arithmetic, so the products are passed in).
#[derive(LogicBlock)]
pub struct TrapCtl<
    const W: usize,
    const WIDW: usize,
    const WC: usize,
    const WT: usize,
    const WPC: usize,
    const T: usize,
    const PCW: usize,
> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub warp_valid: Signal<In, Bits<W>>,
    pub exc_valid: Signal<In, Bits<W>>,
    pub exc_cause: Signal<In, Bits<WC>>,
    pub exc_pc: Signal<In, Bits<WPC>>,
    pub exc_mask: Signal<In, Bits<WT>>,
    pub ret_valid: Signal<In, Bits<W>>,
    pub pause_valid: Signal<In, Bits<W>>,
    pub warp_pc: Signal<In, Bits<WPC>>,
    pub warp_mask: Signal<In, Bits<WT>>,
    pub quiesced: Signal<In, Bit>,
    pub bar_wait: Signal<In, Bits<W>>,
    pub issue_valid: Signal<In, Bit>,
    pub issue_wid: Signal<In, Bits<WIDW>>,
    pub host_int: Signal<In, Bit>,
    pub sm_evt_valid: Signal<In, Bit>,
    pub sm_evt_cause: Signal<In, Bits<4>>,
    pub bcast_in: Signal<In, Bit>,
    pub sr_valid: Signal<In, Bit>,
    pub sr_wid: Signal<In, Bits<WIDW>>,
    pub sr_sel: Signal<In, Bits<3>>,
    pub sr_we: Signal<In, Bit>,
    pub sr_wdata: Signal<In, Bits<32>>,
    pub csr_valid: Signal<In, Bit>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,

    pub warp_halt: Signal<Out, Bits<W>>,
    pub drain_req: Signal<Out, Bit>,
    pub trap_mode: Signal<Out, Bit>,
    pub redir_valid: Signal<Out, Bits<W>>,
    pub redir_pc: Signal<Out, Bits<WPC>>,
    pub redir_mask: Signal<Out, Bits<WT>>,
    pub warp_kill: Signal<Out, Bits<W>>,
    pub host_irq: Signal<Out, Bit>,
    pub bcast_out: Signal<Out, Bit>,
    pub vt_base: Signal<Out, Bits<PCW>>,
    pub sr_rdata: Signal<Out, Bits<32>>,
    pub csr_rdata: Signal<Out, Bits<32>>,

    // ---- state (§7.2) ----
    mode: DFF<Bits<2>>,
    ws: [DFF<Bits<3>>; W],
    lcause: [DFF<Bits<4>>; W],
    ncause: [DFF<Bits<4>>; W],
    gpw: [DFF<Bit>; W],
    stepped: [DFF<Bit>; W],
    epc: [DFF<Bits<PCW>>; W],
    emask: [DFF<Bits<T>>; W],
    gcause: DFF<Bits<4>>,
    gpend: DFF<Bits<16>>,
    htmask: DFF<Bits<W>>,
    haddr: DFF<Bits<PCW>>,
    hlat: DFF<Bits<PCW>>,
    vtbase: DFF<Bits<PCW>>,
    ctrl: DFF<Bits<3>>,
    irq_en: DFF<Bits<16>>,
    sticky: DFF<Bits<16>>,
    tgid: DFF<Bits<32>>,
    fvalid: DFF<Bit>,
    fwid: DFF<Bits<WIDW>>,
    hmask: DFF<Bits<16>>,
    wsel: DFF<Bits<WIDW>>,
    bcast_q: DFF<Bit>,
    ss_trig: DFF<Bit>,

    // ---- generation-time constants ----
    c_haddr_rst: Constant<Bits<PCW>>,
    c_ctrl_wmask: Constant<Bits<3>>,
    c_params: Constant<Bits<32>>,
    c_has_sstep: Constant<Bit>,
    c_wm: Constant<Bits<W>>,
    c_pcw: Constant<Bits<8>>,
    c_t: Constant<Bits<8>>,
    c_tg_loc: Constant<Bits<32>>,
    c_tg_ss: Constant<Bits<32>>,
    c_tg_ext: Constant<Bits<32>>,

    // ---- next-state values (golden model's `n`) ----
    n_ws: [Signal<Local, Bits<3>>; W],
    n_lc: [Signal<Local, Bits<4>>; W],
    n_nc: [Signal<Local, Bits<4>>; W],
    n_gpw: [Signal<Local, Bit>; W],
    n_stp: [Signal<Local, Bit>; W],
    n_epc: [Signal<Local, Bits<PCW>>; W],
    n_em: [Signal<Local, Bits<T>>; W],
    n_sticky: Signal<Local, Bits<16>>,
    n_fvalid: Signal<Local, Bit>,
    n_fwid: Signal<Local, Bits<WIDW>>,

    // ---- temporaries ----
    wid_c: Signal<Local, Bits<WIDW>>,
    k_c: Signal<Local, Bits<4>>,
    ss_on: Signal<Local, Bit>,
    rp: Signal<Local, Bits<PCW>>,
    rm: Signal<Local, Bits<T>>,
    bm_trap: Signal<Local, Bits<W>>,
    bm_paused: Signal<Local, Bits<W>>,
    bm_parked: Signal<Local, Bits<W>>,
    bm_run: Signal<Local, Bits<W>>,
    sr_hit: Signal<Local, Bit>,
    sr_esr: Signal<Local, Bits<32>>,
    sr_epc: Signal<Local, Bits<PCW>>,
    sr_em: Signal<Local, Bits<T>>,
    win_hit: Signal<Local, Bit>,
    win_ws: Signal<Local, Bits<3>>,
    win_lc: Signal<Local, Bits<4>>,
    win_nc: Signal<Local, Bits<4>>,
    win_gpw: Signal<Local, Bit>,
    win_stp: Signal<Local, Bit>,
    win_epc: Signal<Local, Bits<PCW>>,
    win_em: Signal<Local, Bits<T>>,
    cw: Signal<Local, Bit>,
    st: Signal<Local, Bits<16>>,
    gclr: Signal<Local, Bits<16>>,
    hint: Signal<Local, Bits<W>>,
    resume: Signal<Local, Bits<W>>,
    kill: Signal<Local, Bits<W>>,
    wx_we: Signal<Local, Bit>,
    wx_ok: Signal<Local, Bit>,
    gp: Signal<Local, Bits<16>>,
    ht: Signal<Local, Bits<W>>,
    trap_en: Signal<Local, Bit>,
    ss_en: Signal<Local, Bit>,
    acc: Signal<Local, Bits<W>>,
    pbits: Signal<Local, Bits<W>>,
    x: Signal<Local, Bit>,
    r: Signal<Local, Bit>,
    pz: Signal<Local, Bit>,
    cz: Signal<Local, Bits<4>>,
    cmap: Signal<Local, Bits<4>>,
    cunk: Signal<Local, Bit>,
    spur: Signal<Local, Bit>,
    dbl: Signal<Local, Bit>,
    sr_wok: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    any_elig: Signal<Local, Bit>,
    all_stp: Signal<Local, Bit>,
    g_start: Signal<Local, Bit>,
    ss_fire: Signal<Local, Bit>,
    g: Signal<Local, Bits<4>>,
    tgt: Signal<Local, Bits<W>>,
    tw: Signal<Local, Bits<WIDW>>,
    tc: Signal<Local, Bits<4>>,
    tss: Signal<Local, Bit>,
    any_trap: Signal<Local, Bit>,
}

impl<
        const W: usize,
        const WIDW: usize,
        const WC: usize,
        const WT: usize,
        const WPC: usize,
        const T: usize,
        const PCW: usize,
    > TrapCtl<W, WIDW, WC, WT, WPC, T, PCW>
{
    pub fn new(cfg: &Config) -> Self {
        assert!(WC == 4 * W && WT == T * W && WPC == PCW * W && WIDW == cfg.wid_w());
        assert!(cfg.warps == W && cfg.threads == T && cfg.pc_width == PCW);
        let params = W as u64 | (T as u64) << 6 | (PCW as u64) << 12 | (cfg.has_sstep as u64) << 18;
        let wm = if W >= 64 { u64::MAX } else { (1u64 << W) - 1 };
        Self {
            clk: Default::default(),
            rst: Default::default(),
            warp_valid: Default::default(),
            exc_valid: Default::default(),
            exc_cause: Default::default(),
            exc_pc: Default::default(),
            exc_mask: Default::default(),
            ret_valid: Default::default(),
            pause_valid: Default::default(),
            warp_pc: Default::default(),
            warp_mask: Default::default(),
            quiesced: Default::default(),
            bar_wait: Default::default(),
            issue_valid: Default::default(),
            issue_wid: Default::default(),
            host_int: Default::default(),
            sm_evt_valid: Default::default(),
            sm_evt_cause: Default::default(),
            bcast_in: Default::default(),
            sr_valid: Default::default(),
            sr_wid: Default::default(),
            sr_sel: Default::default(),
            sr_we: Default::default(),
            sr_wdata: Default::default(),
            csr_valid: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            warp_halt: Default::default(),
            drain_req: Default::default(),
            trap_mode: Default::default(),
            redir_valid: Default::default(),
            redir_pc: Default::default(),
            redir_mask: Default::default(),
            warp_kill: Default::default(),
            host_irq: Default::default(),
            bcast_out: Default::default(),
            vt_base: Default::default(),
            sr_rdata: Default::default(),
            csr_rdata: Default::default(),
            mode: Default::default(),
            ws: std::array::from_fn(|_| Default::default()),
            lcause: std::array::from_fn(|_| Default::default()),
            ncause: std::array::from_fn(|_| Default::default()),
            gpw: std::array::from_fn(|_| Default::default()),
            stepped: std::array::from_fn(|_| Default::default()),
            epc: std::array::from_fn(|_| Default::default()),
            emask: std::array::from_fn(|_| Default::default()),
            gcause: Default::default(),
            gpend: Default::default(),
            htmask: Default::default(),
            haddr: Default::default(),
            hlat: Default::default(),
            vtbase: Default::default(),
            ctrl: Default::default(),
            irq_en: Default::default(),
            sticky: Default::default(),
            tgid: Default::default(),
            fvalid: Default::default(),
            fwid: Default::default(),
            hmask: Default::default(),
            wsel: Default::default(),
            bcast_q: Default::default(),
            ss_trig: Default::default(),
            c_haddr_rst: Constant::new(bits::<PCW>(cfg.haddr_reset)),
            c_ctrl_wmask: Constant::new(bits::<3>(if cfg.has_sstep { 0b111 } else { 0b011 })),
            c_params: Constant::new(bits::<32>(params)),
            c_has_sstep: Constant::new(cfg.has_sstep),
            c_wm: Constant::new(bits::<W>(wm)),
            c_pcw: Constant::new(bits::<8>(PCW as u64)),
            c_t: Constant::new(bits::<8>(T as u64)),
            c_tg_loc: Constant::new(bits::<32>(1 << 31)),
            c_tg_ss: Constant::new(bits::<32>(1 << 31 | 7 << 8)),
            c_tg_ext: Constant::new(bits::<32>(1 << 31 | 1 << 30)),
            n_ws: std::array::from_fn(|_| Default::default()),
            n_lc: std::array::from_fn(|_| Default::default()),
            n_nc: std::array::from_fn(|_| Default::default()),
            n_gpw: std::array::from_fn(|_| Default::default()),
            n_stp: std::array::from_fn(|_| Default::default()),
            n_epc: std::array::from_fn(|_| Default::default()),
            n_em: std::array::from_fn(|_| Default::default()),
            n_sticky: Default::default(),
            n_fvalid: Default::default(),
            n_fwid: Default::default(),
            wid_c: Default::default(),
            k_c: Default::default(),
            ss_on: Default::default(),
            rp: Default::default(),
            rm: Default::default(),
            bm_trap: Default::default(),
            bm_paused: Default::default(),
            bm_parked: Default::default(),
            bm_run: Default::default(),
            sr_hit: Default::default(),
            sr_esr: Default::default(),
            sr_epc: Default::default(),
            sr_em: Default::default(),
            win_hit: Default::default(),
            win_ws: Default::default(),
            win_lc: Default::default(),
            win_nc: Default::default(),
            win_gpw: Default::default(),
            win_stp: Default::default(),
            win_epc: Default::default(),
            win_em: Default::default(),
            cw: Default::default(),
            st: Default::default(),
            gclr: Default::default(),
            hint: Default::default(),
            resume: Default::default(),
            kill: Default::default(),
            wx_we: Default::default(),
            wx_ok: Default::default(),
            gp: Default::default(),
            ht: Default::default(),
            trap_en: Default::default(),
            ss_en: Default::default(),
            acc: Default::default(),
            pbits: Default::default(),
            x: Default::default(),
            r: Default::default(),
            pz: Default::default(),
            cz: Default::default(),
            cmap: Default::default(),
            cunk: Default::default(),
            spur: Default::default(),
            dbl: Default::default(),
            sr_wok: Default::default(),
            found: Default::default(),
            any_elig: Default::default(),
            all_stp: Default::default(),
            g_start: Default::default(),
            ss_fire: Default::default(),
            g: Default::default(),
            tgt: Default::default(),
            tw: Default::default(),
            tc: Default::default(),
            tss: Default::default(),
            any_trap: Default::default(),
        }
    }
}

// Encodings (§2.4, §4, §7.2), as literals in the kernel below:
// mode NORM 0, DRAIN 1, ENTER 2, HANDLER 3; ws IDLE 0, RUN 1, TRAP 2, RETW 3, PAUSED 4,
// PARKED 5, RSTR 6, KILLED 7. Sticky: TRAP_TAKEN 0x10, PAUSE 0x20, DBLF 0x40, FATAL 0x80,
// MULTI 0x100, ERR_BADRET 0x200, ERR_SPUR 0x400, ERR_UNK 0x800, SUPPR 0x1000, GDROP 0x2000,
// ERR_SR 0x4000, ERR_CSR 0x8000; STICKY_MASK 0xFFF0; GPEND_MASK 0x9F00.

impl<
        const W: usize,
        const WIDW: usize,
        const WC: usize,
        const WT: usize,
        const WPC: usize,
        const T: usize,
        const PCW: usize,
    > Logic for TrapCtl<W, WIDW, WC, WT, WPC, T, PCW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, mode, gcause, gpend, htmask, haddr, hlat, vtbase, ctrl, irq_en, sticky, tgid, fvalid,
            fwid, hmask, wsel, bcast_q, ss_trig
        );
        for i in 0..W {
            self.ws[i].clock.next = self.clk.val();
            self.lcause[i].clock.next = self.clk.val();
            self.ncause[i].clock.next = self.clk.val();
            self.gpw[i].clock.next = self.clk.val();
            self.stepped[i].clock.next = self.clk.val();
            self.epc[i].clock.next = self.clk.val();
            self.emask[i].clock.next = self.clk.val();
        }

        // defaults for every temporary that is only written on some paths (no latches)
        self.found.next = false;
        self.any_elig.next = false;
        self.all_stp.next = true;
        self.g_start.next = false;
        self.ss_fire.next = false;
        self.any_trap.next = false;
        self.g.next = 0.into();
        self.k_c.next = 0.into();
        self.tc.next = 0.into();
        self.tgt.next = 0.into();
        self.tss.next = false;
        self.tw.next = 0.into();

        // ================= outputs (§7.4 `outputs`) =================
        self.ss_on.next = self.c_has_sstep.val() && self.ctrl.q.val().get_bit(2);
        self.warp_halt.next = 0.into();
        self.redir_valid.next = 0.into();
        self.warp_kill.next = 0.into();
        self.redir_pc.next = 0.into();
        self.redir_mask.next = 0.into();
        self.bm_trap.next = 0.into();
        self.bm_paused.next = 0.into();
        self.bm_parked.next = 0.into();
        self.bm_run.next = 0.into();
        self.sr_hit.next = false;
        self.sr_esr.next = 0.into();
        self.sr_epc.next = 0.into();
        self.sr_em.next = 0.into();
        self.win_hit.next = false;
        self.win_ws.next = 0.into();
        self.win_lc.next = 0.into();
        self.win_nc.next = 0.into();
        self.win_gpw.next = false;
        self.win_stp.next = false;
        self.win_epc.next = 0.into();
        self.win_em.next = 0.into();
        self.wid_c.next = 0.into();
        for i in 0..W {
            self.warp_halt.next = self.warp_halt.val().replace_bit(
                i,
                !((self.mode.q.val() == 0
                    && (self.ws[i].q.val() == 0 || self.ws[i].q.val() == 1)
                    && !(self.ss_on.val() && self.stepped[i].q.val()))
                    || (self.mode.q.val() == 3 && self.ws[i].q.val() == 2)),
            );
            self.redir_valid.next = self.redir_valid.val().replace_bit(
                i,
                (self.mode.q.val() == 2 && self.ws[i].q.val() == 2) || self.ws[i].q.val() == 6,
            );
            self.warp_kill.next = self.warp_kill.val().replace_bit(i, self.ws[i].q.val() == 7);
            self.bm_trap.next = self.bm_trap.val().replace_bit(i, self.ws[i].q.val() == 2);
            self.bm_paused.next = self.bm_paused.val().replace_bit(i, self.ws[i].q.val() == 4);
            self.bm_parked.next = self.bm_parked.val().replace_bit(i, self.ws[i].q.val() == 5);
            self.bm_run.next = self.bm_run.val().replace_bit(i, self.ws[i].q.val() == 1);
            // handler SR read port: select warp sr_wid
            if self.sr_wid.val() == self.wid_c.val() {
                self.sr_hit.next = true;
                if self.ws[i].q.val() == 2 {
                    self.tc.next = self.lcause[i].q.val();
                    self.sr_esr.next = bit_cast::<32, 4>(self.tc.val());
                    if self.gpw[i].q.val() {
                        self.sr_esr.next =
                            self.sr_esr.val() | (bit_cast::<32, 4>(self.gcause.q.val()) << 4);
                    }
                    self.sr_epc.next = self.epc[i].q.val();
                    self.sr_em.next = self.emask[i].q.val();
                }
            }
            // host window: select warp WSEL
            if self.wsel.q.val() == self.wid_c.val() {
                self.win_hit.next = true;
                self.win_ws.next = self.ws[i].q.val();
                self.win_lc.next = self.lcause[i].q.val();
                self.win_nc.next = self.ncause[i].q.val();
                self.win_gpw.next = self.gpw[i].q.val();
                self.win_stp.next = self.stepped[i].q.val();
                self.win_epc.next = self.epc[i].q.val();
                self.win_em.next = self.emask[i].q.val();
            }
            self.wid_c.next = self.wid_c.val() + 1;
        }
        // redirect buses, assembled from the highest warp down (shift in one lane per warp)
        for wm1 in (W - 1)..W {
            for j in 0..W {
                self.rp.next = 0.into();
                self.rm.next = 0.into();
                if self.mode.q.val() == 2 && self.ws[wm1 - j].q.val() == 2 {
                    self.rp.next = self.hlat.q.val();
                    self.rm.next = self.emask[wm1 - j].q.val();
                }
                if self.ws[wm1 - j].q.val() == 6 {
                    self.rp.next = self.epc[wm1 - j].q.val();
                    self.rm.next = self.emask[wm1 - j].q.val();
                }
                self.redir_pc.next =
                    (self.redir_pc.val() << self.c_pcw.val()) | bit_cast::<WPC, PCW>(self.rp.val());
                self.redir_mask.next =
                    (self.redir_mask.val() << self.c_t.val()) | bit_cast::<WT, T>(self.rm.val());
            }
        }
        self.drain_req.next = self.mode.q.val() == 1;
        self.trap_mode.next = self.mode.q.val() != 0;
        self.bcast_out.next = self.bcast_q.q.val();
        self.vt_base.next = self.vtbase.q.val();
        self.host_irq.next = (self.sticky.q.val() & self.irq_en.q.val() & 0xFFF0).any();
        self.sr_rdata.next = 0.into();
        if self.sr_valid.val() && !self.sr_we.val() && self.sr_hit.val() {
            match self.sr_sel.val().index() {
                0 => {
                    self.sr_rdata.next = self.sr_esr.val();
                }
                1 => {
                    self.sr_rdata.next = bit_cast::<32, PCW>(self.sr_epc.val());
                }
                2 => {
                    self.sr_rdata.next = bit_cast::<32, T>(self.sr_em.val());
                }
                3 => {
                    self.sr_rdata.next = self.tgid.q.val();
                }
                _ => {}
            }
        }
        self.csr_rdata.next = 0.into();
        if self.csr_valid.val() && !self.csr_we.val() {
            match self.csr_addr.val().index() {
                0 => {
                    self.csr_rdata.next = bit_cast::<32, 3>(self.ctrl.q.val());
                }
                4 => {
                    self.csr_rdata.next = bit_cast::<32, PCW>(self.haddr.q.val());
                }
                8 => {
                    self.csr_rdata.next =
                        bit_cast::<32, 16>(self.sticky.q.val()) | bit_cast::<32, 2>(self.mode.q.val());
                }
                12 => {
                    self.csr_rdata.next = bit_cast::<32, 16>(self.irq_en.q.val());
                }
                16 => {
                    self.csr_rdata.next = self.tgid.q.val();
                }
                20 => {
                    self.csr_rdata.next = bit_cast::<32, 16>(self.gpend.q.val());
                }
                24 => {
                    self.csr_rdata.next = bit_cast::<32, W>(self.htmask.q.val());
                }
                36 => {
                    self.csr_rdata.next = bit_cast::<32, 16>(self.hmask.q.val());
                }
                40 => {
                    self.csr_rdata.next = bit_cast::<32, W>(self.bm_trap.val());
                }
                44 => {
                    self.csr_rdata.next = bit_cast::<32, W>(self.bm_paused.val());
                }
                48 => {
                    self.csr_rdata.next = bit_cast::<32, W>(self.bm_parked.val());
                }
                52 => {
                    self.csr_rdata.next = bit_cast::<32, W>(self.bm_run.val());
                }
                56 => {
                    self.csr_rdata.next = bit_cast::<32, WIDW>(self.wsel.q.val());
                }
                60 => {
                    if self.win_hit.val() {
                        self.csr_rdata.next = bit_cast::<32, 3>(self.win_ws.val())
                            | (bit_cast::<32, 4>(self.win_lc.val()) << 4)
                            | (bit_cast::<32, 4>(self.win_nc.val()) << 8);
                        if self.win_gpw.val() {
                            self.csr_rdata.next = self.csr_rdata.val() | 0x1000;
                        }
                        if self.win_stp.val() {
                            self.csr_rdata.next = self.csr_rdata.val() | 0x2000;
                        }
                    }
                }
                64 => {
                    if self.win_hit.val() {
                        self.csr_rdata.next = bit_cast::<32, PCW>(self.win_epc.val());
                    }
                }
                68 => {
                    if self.win_hit.val() {
                        self.csr_rdata.next = bit_cast::<32, T>(self.win_em.val());
                    }
                }
                72 => {
                    self.csr_rdata.next = bit_cast::<32, PCW>(self.vtbase.q.val());
                }
                76 => {
                    self.csr_rdata.next = bit_cast::<32, 4>(self.gcause.q.val());
                }
                80 => {
                    self.csr_rdata.next = self.c_params.val();
                }
                _ => {}
            }
        }

        // ================= next state (§7.4 `step`) =================
        self.trap_en.next = self.ctrl.q.val().get_bit(0);
        self.ss_en.next = self.c_has_sstep.val() && self.ctrl.q.val().get_bit(2);
        self.st.next = 0.into();
        self.n_sticky.next = self.sticky.q.val();
        self.n_fvalid.next = self.fvalid.q.val();
        self.n_fwid.next = self.fwid.q.val();
        self.bcast_q.d.next = false;

        // (1) host CSR write
        self.cw.next = self.csr_valid.val() && self.csr_we.val();
        self.gclr.next = 0.into();
        self.hint.next = 0.into();
        self.resume.next = 0.into();
        self.kill.next = 0.into();
        self.wx_we.next = false;
        if self.cw.val() {
            match self.csr_addr.val().index() {
                0 => {
                    self.ctrl.d.next = self.csr_wdata.val().get_bits::<3>(0) & self.c_ctrl_wmask.val();
                }
                4 => {
                    self.haddr.d.next = self.csr_wdata.val().get_bits::<PCW>(0);
                }
                8 => {
                    self.n_sticky.next = self.sticky.q.val() & !self.csr_wdata.val().get_bits::<16>(0) & 0xFFF0;
                }
                12 => {
                    self.irq_en.d.next = self.csr_wdata.val().get_bits::<16>(0) & 0xFFF0;
                }
                20 => {
                    self.gclr.next = self.csr_wdata.val().get_bits::<16>(0) & 0x9F00;
                }
                24 => {
                    self.hint.next = self.csr_wdata.val().get_bits::<W>(0);
                }
                28 => {
                    self.resume.next = self.csr_wdata.val().get_bits::<W>(0);
                }
                32 => {
                    self.kill.next = self.csr_wdata.val().get_bits::<W>(0);
                }
                36 => {
                    self.hmask.d.next = self.csr_wdata.val().get_bits::<16>(0);
                }
                56 => {
                    self.wsel.d.next = self.csr_wdata.val().get_bits::<WIDW>(0);
                }
                72 => {
                    self.vtbase.d.next = self.csr_wdata.val().get_bits::<PCW>(0);
                }
                64 => {
                    self.wx_we.next = true;
                }
                68 => {
                    self.wx_we.next = true;
                }
                _ => {
                    self.st.next = self.st.val() | 0x8000;
                }
            }
        }

        // (2) global events (clear first, then set)
        self.gp.next = self.gpend.q.val() & !self.gclr.val();
        self.ht.next = self.htmask.q.val();
        if self.host_int.val() {
            self.gp.next = self.gp.val() | 0x400;
            self.ht.next = self.c_wm.val();
        }
        if self.hint.val().any() {
            self.gp.next = self.gp.val() | 0x400;
            self.ht.next = self.ht.val() | self.hint.val();
        }
        if self.sm_evt_valid.val() {
            match self.sm_evt_cause.val().index() {
                0 => {
                    self.st.next = self.st.val() | 0x400;
                }
                8 => {
                    self.gp.next = self.gp.val() | 0x100;
                }
                9 => {
                    self.gp.next = self.gp.val() | 0x200;
                }
                11 => {
                    self.gp.next = self.gp.val() | 0x800;
                }
                _ => {
                    self.gp.next = self.gp.val() | 0x8000;
                    self.st.next = self.st.val() | 0x800;
                }
            }
        }
        if self.bcast_in.val() {
            self.gp.next = self.gp.val() | 0x1000;
        }
        if !self.gp.val().get_bit(10) {
            self.ht.next = 0.into();
        }

        // (3) per-warp, with the host window write of (1) and the SR write of (4) folded in
        self.acc.next = 0.into();
        self.pbits.next = 0.into();
        self.wx_ok.next = false;
        self.sr_wok.next = false;
        self.wid_c.next = 0.into();
        for kpc in PCW..(PCW + 1) {
            for kt in T..(T + 1) {
                for i in 0..W {
                    self.n_ws[i].next = self.ws[i].q.val();
                    self.n_lc[i].next = self.lcause[i].q.val();
                    self.n_nc[i].next = self.ncause[i].q.val();
                    self.n_gpw[i].next = self.gpw[i].q.val();
                    self.n_stp[i].next = self.stepped[i].q.val();
                    self.n_epc[i].next = self.epc[i].q.val();
                    self.n_em[i].next = self.emask[i].q.val();
                    // (1) WEPC / WEMASK write to the window warp
                    if self.wx_we.val()
                        && self.wsel.q.val() == self.wid_c.val()
                        && (self.ws[i].q.val() == 4 || self.ws[i].q.val() == 5)
                    {
                        self.wx_ok.next = true;
                        if self.csr_addr.val().get_bit(2) {
                            self.n_em[i].next = self.csr_wdata.val().get_bits::<T>(0);
                        } else {
                            self.n_epc[i].next = self.csr_wdata.val().get_bits::<PCW>(0);
                        }
                    }
                    // inputs of this warp and the cause mapping (lmap)
                    self.x.next = self.exc_valid.val().get_bit(i);
                    self.r.next = self.ret_valid.val().get_bit(i);
                    self.pz.next = self.pause_valid.val().get_bit(i);
                    self.cz.next = self.exc_cause.val().get_bits::<4>(i * 4);
                    self.cmap.next = self.cz.val();
                    self.cunk.next = false;
                    if self.cz.val() > 6 {
                        self.cmap.next = 15.into();
                        self.cunk.next = true;
                    }
                    self.spur.next = false;
                    self.dbl.next = false;
                    if !self.warp_valid.val().get_bit(i) {
                        self.spur.next = true;
                        self.n_ws[i].next = 0.into();
                        self.n_lc[i].next = 0.into();
                        self.n_nc[i].next = 0.into();
                        self.n_gpw[i].next = false;
                        self.n_stp[i].next = false;
                        self.n_epc[i].next = 0.into();
                        self.n_em[i].next = 0.into();
                    } else if self.ws[i].q.val() == 0 {
                        self.spur.next = true;
                        self.n_ws[i].next = 1.into();
                    } else if self.ws[i].q.val() == 7 {
                        self.spur.next = true;
                    } else if self.kill.val().get_bit(i) {
                        self.n_ws[i].next = 7.into();
                    } else if self.ws[i].q.val() == 1 {
                        if self.r.val() || self.pz.val() {
                            self.st.next = self.st.val() | 0x200;
                        }
                        if self.x.val() {
                            if self.cz.val() == 0 {
                                self.st.next = self.st.val() | 0x400;
                            } else if self.mode.q.val() == 0
                                || (self.mode.q.val() == 1 && self.lcause[i].q.val() == 0)
                            {
                                if self.cunk.val() {
                                    self.st.next = self.st.val() | 0x800;
                                }
                                self.n_lc[i].next = self.cmap.val();
                                self.n_epc[i].next = self.exc_pc.val().get_bits::<PCW>(i * kpc);
                                self.n_em[i].next = self.exc_mask.val().get_bits::<T>(i * kt);
                                if self.mode.q.val() == 0 && !self.trap_en.val() {
                                    self.n_ws[i].next = 5.into();
                                    self.st.next = self.st.val() | 0x80;
                                } else {
                                    self.acc.next = self.acc.val().replace_bit(i, true);
                                }
                            } else {
                                self.st.next = self.st.val() | 0x400;
                            }
                        }
                        if self.mode.q.val() == 0
                            && self.ss_en.val()
                            && self.issue_valid.val()
                            && self.issue_wid.val() == self.wid_c.val()
                            && self.n_ws[i].val() == 1
                        {
                            self.n_stp[i].next = true;
                        }
                    } else if self.ws[i].q.val() == 2 && self.mode.q.val() == 3 {
                        if self.x.val() {
                            if self.cz.val() == 0 {
                                self.st.next = self.st.val() | 0x400;
                            } else {
                                if self.cunk.val() {
                                    self.st.next = self.st.val() | 0x800;
                                }
                                if self.hmask.q.val().get_bit(self.cmap.val().index()) {
                                    self.st.next = self.st.val() | 0x1000;
                                } else {
                                    self.n_ws[i].next = 5.into();
                                    self.n_nc[i].next = self.cmap.val();
                                    self.st.next = self.st.val() | 0x40;
                                    if self.r.val() || self.pz.val() {
                                        self.st.next = self.st.val() | 0x200;
                                    }
                                    self.dbl.next = true;
                                }
                            }
                        }
                        if !self.dbl.val() {
                            if self.pz.val() {
                                self.n_ws[i].next = 4.into();
                                self.st.next = self.st.val() | 0x20;
                                if self.r.val() {
                                    self.st.next = self.st.val() | 0x200;
                                }
                            } else if self.r.val() {
                                self.n_ws[i].next = 3.into();
                            }
                        }
                    } else if self.ws[i].q.val() == 2 || self.ws[i].q.val() == 3 {
                        self.spur.next = true;
                    } else if self.ws[i].q.val() == 4 || self.ws[i].q.val() == 5 {
                        self.spur.next = true;
                        if self.resume.val().get_bit(i) {
                            if self.mode.q.val() == 3 {
                                self.n_ws[i].next = 3.into();
                            } else {
                                self.n_ws[i].next = 6.into();
                            }
                        }
                    } else {
                        // RSTR
                        self.spur.next = true;
                        self.n_ws[i].next = 1.into();
                        self.n_lc[i].next = 0.into();
                        self.n_nc[i].next = 0.into();
                        self.n_gpw[i].next = false;
                    }
                    if self.spur.val() {
                        if self.x.val() {
                            self.st.next = self.st.val() | 0x400;
                        }
                        if self.r.val() || self.pz.val() {
                            self.st.next = self.st.val() | 0x200;
                        }
                    }
                    // (4) handler SR write, overriding step 3
                    if self.sr_valid.val()
                        && self.sr_we.val()
                        && self.sr_wid.val() == self.wid_c.val()
                        && self.mode.q.val() == 3
                        && self.ws[i].q.val() == 2
                        && self.warp_valid.val().get_bit(i)
                        && self.sr_sel.val() <= 2
                    {
                        self.sr_wok.next = true;
                        if self.sr_sel.val() == 0 {
                            self.n_lc[i].next = 0.into();
                            self.n_gpw[i].next = false;
                        } else if self.sr_sel.val() == 1 {
                            self.n_epc[i].next = self.sr_wdata.val().get_bits::<PCW>(0);
                        } else {
                            self.n_em[i].next = self.sr_wdata.val().get_bits::<T>(0);
                        }
                    }
                    self.pbits.next = self
                        .pbits
                        .val()
                        .replace_bit(i, self.ws[i].q.val() == 1 && self.n_ws[i].val() == 1);
                    self.wid_c.next = self.wid_c.val() + 1;
                }
            }
        }
        if self.wx_we.val() && !self.wx_ok.val() {
            self.st.next = self.st.val() | 0x8000;
        }
        if self.sr_valid.val() && self.sr_we.val() && !self.sr_wok.val() {
            self.st.next = self.st.val() | 0x4000;
        }

        // (5) first-exception bookkeeping
        if self.acc.val().any() {
            if self.fvalid.q.val() || (self.acc.val() & (self.acc.val() - 1)).any() {
                self.st.next = self.st.val() | 0x100;
            }
            if !self.fvalid.q.val() {
                self.n_fvalid.next = true;
                self.found.next = false;
                self.wid_c.next = 0.into();
                for i in 0..W {
                    if !self.found.val() && self.acc.val().get_bit(i) {
                        self.found.next = true;
                        self.n_fwid.next = self.wid_c.val();
                    }
                    self.wid_c.next = self.wid_c.val() + 1;
                }
            }
        }

        // (6) mode
        self.mode.d.next = self.mode.q.val();
        if self.mode.q.val() == 0 {
            self.any_elig.next = false;
            self.all_stp.next = true;
            for i in 0..W {
                if self.pbits.val().get_bit(i) && !self.bar_wait.val().get_bit(i) {
                    self.any_elig.next = true;
                    if !self.n_stp[i].val() {
                        self.all_stp.next = false;
                    }
                }
            }
            self.g_start.next = self.trap_en.val() && self.gp.val().any() && self.pbits.val().any();
            self.ss_fire.next = !self.acc.val().any()
                && !self.g_start.val()
                && self.trap_en.val()
                && self.ss_en.val()
                && self.any_elig.val()
                && self.all_stp.val();
            if self.acc.val().any() || self.g_start.val() || self.ss_fire.val() {
                self.mode.d.next = 1.into();
                self.st.next = self.st.val() | 0x10;
                self.ss_trig.d.next = self.ss_fire.val();
                self.bcast_q.d.next =
                    self.ctrl.q.val().get_bit(1) && (self.acc.val().any() || self.ss_fire.val());
            }
        } else if self.mode.q.val() == 1 {
            if self.quiesced.val() {
                // SAVE
                self.tss.next = false;
                self.tw.next = 0.into();
                self.wid_c.next = 0.into();
                for kpc in PCW..(PCW + 1) {
                    for kt in T..(T + 1) {
                        for i in 0..W {
                            if self.pbits.val().get_bit(i) {
                                if self.n_lc[i].val() == 0 {
                                    self.n_epc[i].next = self.warp_pc.val().get_bits::<PCW>(i * kpc);
                                    self.n_em[i].next = self.warp_mask.val().get_bits::<T>(i * kt);
                                    if self.ss_trig.q.val() && self.n_stp[i].val() {
                                        self.n_lc[i].next = 7.into();
                                    }
                                }
                                self.n_ws[i].next = 2.into();
                                if !self.tss.val() && self.n_lc[i].val() == 7 {
                                    self.tss.next = true;
                                    self.tw.next = self.wid_c.val();
                                }
                            }
                            self.n_stp[i].next = false;
                            self.wid_c.next = self.wid_c.val() + 1;
                        }
                    }
                }
                // the highest-priority (lowest-coded) pending global cause
                self.tgt.next = 0.into();
                self.g.next = 0.into();
                if self.gp.val().any() {
                    self.found.next = false;
                    self.k_c.next = 0.into();
                    for k in 0..16 {
                        if !self.found.val() && self.gp.val().get_bit(k) {
                            self.found.next = true;
                            self.g.next = self.k_c.val();
                            self.gp.next = self.gp.val().replace_bit(k, false);
                        }
                        self.k_c.next = self.k_c.val() + 1;
                    }
                    if self.g.val() == 10 {
                        self.tgt.next = self.pbits.val() & self.ht.val();
                        self.ht.next = 0.into();
                    } else {
                        self.tgt.next = self.pbits.val();
                    }
                    for i in 0..W {
                        if self.tgt.val().get_bit(i) {
                            self.n_gpw[i].next = true;
                        }
                    }
                    if !self.tgt.val().any() {
                        self.st.next = self.st.val() | 0x2000;
                    }
                }
                self.gcause.d.next = self.g.val();
                self.hlat.d.next = self.haddr.q.val();
                // TGID
                if self.n_fvalid.val() {
                    self.tc.next = 0.into();
                    self.wid_c.next = 0.into();
                    for i in 0..W {
                        if self.n_fwid.val() == self.wid_c.val() {
                            self.tc.next = self.n_lc[i].val();
                        }
                        self.wid_c.next = self.wid_c.val() + 1;
                    }
                    self.tgid.d.next = (bit_cast::<32, 4>(self.tc.val()) << 8)
                        | bit_cast::<32, WIDW>(self.n_fwid.val())
                        | self.c_tg_loc.val();
                } else if self.ss_trig.q.val() && self.tss.val() {
                    self.tgid.d.next = bit_cast::<32, WIDW>(self.tw.val()) | self.c_tg_ss.val();
                } else if self.g.val() != 0 {
                    self.tw.next = 0.into();
                    self.found.next = false;
                    self.wid_c.next = 0.into();
                    for i in 0..W {
                        if !self.found.val() && self.tgt.val().get_bit(i) {
                            self.found.next = true;
                            self.tw.next = self.wid_c.val();
                        }
                        self.wid_c.next = self.wid_c.val() + 1;
                    }
                    self.tgid.d.next = (bit_cast::<32, 4>(self.g.val()) << 8)
                        | bit_cast::<32, WIDW>(self.tw.val())
                        | self.c_tg_ext.val();
                } else {
                    self.tgid.d.next = self.c_tg_ext.val();
                }
                self.n_fvalid.next = false;
                self.n_fwid.next = 0.into();
                self.ss_trig.d.next = false;
                self.mode.d.next = 2.into();
            }
        } else if self.mode.q.val() == 2 {
            self.mode.d.next = 3.into();
        } else {
            self.any_trap.next = false;
            for i in 0..W {
                if self.n_ws[i].val() == 2 {
                    self.any_trap.next = true;
                }
            }
            if !self.any_trap.val() {
                for i in 0..W {
                    if self.n_ws[i].val() == 3 {
                        self.n_ws[i].next = 6.into();
                    }
                }
                self.mode.d.next = 0.into();
            }
        }

        // (7) commit
        self.gpend.d.next = self.gp.val() & 0x9F00;
        self.htmask.d.next = self.ht.val();
        self.sticky.d.next = (self.n_sticky.val() | self.st.val()) & 0xFFF0;
        self.fvalid.d.next = self.n_fvalid.val();
        self.fwid.d.next = self.n_fwid.val();
        for i in 0..W {
            self.ws[i].d.next = self.n_ws[i].val();
            self.lcause[i].d.next = self.n_lc[i].val();
            self.ncause[i].d.next = self.n_nc[i].val();
            self.gpw[i].d.next = self.n_gpw[i].val();
            self.stepped[i].d.next = self.n_stp[i].val();
            self.epc[i].d.next = self.n_epc[i].val();
            self.emask[i].d.next = self.n_em[i].val();
        }

        // synchronous reset of every state element (§7.2 reset values)
        if self.rst.val() {
            self.mode.d.next = 0.into();
            self.gcause.d.next = 0.into();
            self.gpend.d.next = 0.into();
            self.htmask.d.next = 0.into();
            self.haddr.d.next = self.c_haddr_rst.val();
            self.hlat.d.next = self.c_haddr_rst.val();
            self.vtbase.d.next = 0.into();
            self.ctrl.d.next = 1.into();
            self.irq_en.d.next = 0xE0.into();
            self.sticky.d.next = 0.into();
            self.tgid.d.next = 0.into();
            self.fvalid.d.next = false;
            self.fwid.d.next = 0.into();
            self.hmask.d.next = 0x40.into();
            self.wsel.d.next = 0.into();
            self.bcast_q.d.next = false;
            self.ss_trig.d.next = false;
            for i in 0..W {
                self.ws[i].d.next = 0.into();
                self.lcause[i].d.next = 0.into();
                self.ncause[i].d.next = 0.into();
                self.gpw[i].d.next = false;
                self.stepped[i].d.next = false;
                self.epc[i].d.next = 0.into();
                self.emask[i].d.next = 0.into();
            }
        }
    }
}

pub struct Block;

const SECTION: &str = "trap_controller";

fn build<
    const W: usize,
    const WIDW: usize,
    const WC: usize,
    const WT: usize,
    const WPC: usize,
    const T: usize,
    const PCW: usize,
>(
    cfg: &Config,
) -> Result<EmittedModule, EmitError> {
    let mut m = emit_module(
        TrapCtl::<W, WIDW, WC, WT, WPC, T, PCW>::new(cfg),
        "eu_trap_controller",
        SECTION,
        crate::params!(
            "W" => W, "T" => T, "PC_W" => PCW, "WID_W" => WIDW,
            "HADDR_RESET" => format!("{:#x}", cfg.haddr_reset), "HAS_SSTEP" => cfg.has_sstep as u8
        ),
    )?;
    if W == 1 {
        m.verilog = strip_scalar_selects(&m.verilog);
    }
    Ok(m)
}

/// rust-hdl declares a `Bits<1>` without a range but still emits `x[0]` for `get_bit(0)`, which
/// is illegal on a scalar. For W = 1 every per-warp mask is such a scalar: rewrite `x[0]` to `x`
/// for the scalars declared in the top module (the first module of the file).
fn strip_scalar_selects(v: &str) -> String {
    let top_end = v.find("endmodule").unwrap_or(v.len());
    let mut scalars: Vec<String> = Vec::new();
    for line in v[..top_end].lines() {
        let t = line.trim();
        if !t.ends_with(';') || t.contains('[') || t.contains('=') {
            continue;
        }
        let mut words = t.trim_end_matches(';').split_whitespace();
        let kind: Vec<&str> = words.by_ref().take_while(|w| !w.is_empty()).collect();
        if kind.len() >= 2 && ["input", "output", "reg", "wire"].contains(&kind[0]) {
            scalars.push(kind[kind.len() - 1].to_string());
        }
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(pos) = rest.find("[0]") {
        let head = &rest[..pos];
        let start = head.rfind(|c: char| !is_ident(c)).map_or(0, |p| p + 1);
        let name = &head[start..];
        out.push_str(head);
        if !scalars.iter().any(|s| s == name) {
            out.push_str("[0]");
        }
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out
}

impl BlockGen for Block {
    const NAME: &'static str = SECTION;
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] = enc::TABLES;
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of(SECTION, "warps", cfg.warps, &[1, 2, 4, 8, 16, 32])?;
        check_one_of(SECTION, "threads", cfg.threads, &[32])?;
        check_one_of(SECTION, "pc_width", cfg.pc_width, &[32])?;
        check_range(SECTION, "haddr_reset", cfg.haddr_reset, 0, (1u64 << cfg.pc_width) - 1)?;
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let m = match cfg.warps {
            1 => build::<1, 1, 4, 32, 32, 32, 32>(cfg)?,
            2 => build::<2, 1, 8, 64, 64, 32, 32>(cfg)?,
            4 => build::<4, 2, 16, 128, 128, 32, 32>(cfg)?,
            8 => build::<8, 3, 32, 256, 256, 32, 32>(cfg)?,
            16 => build::<16, 4, 64, 512, 512, 32, 32>(cfg)?,
            32 => build::<32, 5, 128, 1024, 1024, 32, 32>(cfg)?,
            w => unreachable!("validate rejects warps = {w}"),
        };
        Ok(vec![m])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        vec![
            ("w1", Config::with_warps(1)),
            ("w4", Config::with_warps(4)),
            ("w16", Config::with_warps(16)),
            ("w32", Config::with_warps(32)),
        ]
    }
}
