//! `WarpStep`: one warp's next state after steps (1), (3) and (4) of §7.4 (the golden model's
//! `n` for this warp, before SAVE and the exit; EPC/EMASK as a write enable and the value
//! written, `epc_en`/`emask_en`/`cx_pc`/`cx_mask`), from the warp's registers and its inputs: the
//! host window write (WEPC/WEMASK), the step-(3) FSM (exceptions, RETURN/PAUSE, RESUME, KILL,
//! single-step) and the handler SR write over it; plus what the global logic reduces over the
//! warps (`accepted`, `live`, `trap_next`, sticky flags) and the same terms written flat for the
//! one case each consumer reads them in: the NORM episode start (`nm_*`, `ss_*`, without KILL,
//! which `ModeCtl` applies last) and SAVE in DRAIN (`sv_*`); docs/trap_controller.md, "Timing".
//!
//! Purely combinational and apart from `WarpFsm`, which applies SAVE and the exit to these
//! results: `exit` reads every warp's `trap_next`, so the block computing `trap_next` must not
//! read `exit` (else Verilator sees a loop, UNOPTFLAT, and iterates).

use super::enc;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarpStep<const WIDW: usize, const T: usize, const PCW: usize> {
    // ---- this warp's registers (state before the edge)
    pub ws: Signal<In, Bits<3>>,
    pub lcause: Signal<In, Bits<4>>,
    pub ncause: Signal<In, Bits<4>>,
    pub gpw: Signal<In, Bit>,
    pub stepped: Signal<In, Bit>,
    // ---- this warp's slice of the core inputs (§7.1), see `WarpFsm`
    pub warp_valid: Signal<In, Bit>,
    pub exc_valid: Signal<In, Bit>,
    pub exc_cause: Signal<In, Bits<4>>,
    pub exc_pc: Signal<In, Bits<PCW>>,
    pub exc_mask: Signal<In, Bits<T>>,
    pub ret_valid: Signal<In, Bit>,
    pub pause_valid: Signal<In, Bit>,
    /// `warp_pc[w]`, `warp_mask[w]`: the scheduler's resume context (what SAVE stores).
    pub warp_pc: Signal<In, Bits<PCW>>,
    pub warp_mask: Signal<In, Bits<T>>,
    pub bar_wait: Signal<In, Bit>,
    pub issue_valid: Signal<In, Bit>,
    pub issue_wid: Signal<In, Bits<WIDW>>,
    pub sr_valid: Signal<In, Bit>,
    pub sr_we: Signal<In, Bit>,
    pub sr_wid: Signal<In, Bits<WIDW>>,
    pub sr_sel: Signal<In, Bits<3>>,
    pub sr_wdata: Signal<In, Bits<32>>,
    // ---- from the CSR file and the mode, see `WarpFsm`
    pub trap_en: Signal<In, Bit>,
    pub ss_en: Signal<In, Bit>,
    pub hmask: Signal<In, Bits<16>>,
    pub kill: Signal<In, Bit>,
    pub resume: Signal<In, Bit>,
    pub win_we: Signal<In, Bit>,
    pub win_emask: Signal<In, Bit>,
    pub wsel: Signal<In, Bits<WIDW>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub mode: Signal<In, Bits<2>>,
    /// SS_TRIG (state): the episode was started by single-step (LCAUSE SSTEP at SAVE).
    pub ss_trig: Signal<In, Bit>,
    // ---- next state after steps (1), (3), (4)
    pub n_ws: Signal<Out, Bits<3>>,
    pub n_lcause: Signal<Out, Bits<4>>,
    pub n_ncause: Signal<Out, Bits<4>>,
    pub n_gpw: Signal<Out, Bit>,
    pub n_stepped: Signal<Out, Bit>,
    /// EPC / EMASK (docs/trap_controller.md, "Timing"): not a next value at the end of the
    /// chain but a write enable and the value written, so the registers hold through their
    /// clock enable and SAVE's capture is one more enable term (`WarpFsm`). `epc_en`/`emask_en`:
    /// written by steps (1), (3), (4) this cycle (an empty slot clears them, a host window
    /// write, an exception recorded, a handler SR write); `cx_pc`/`cx_mask`: the value written,
    /// by those steps or by SAVE, chosen by the registers and `exc_nz` only.
    pub epc_en: Signal<Out, Bit>,
    pub emask_en: Signal<Out, Bit>,
    pub cx_pc: Signal<Out, Bits<PCW>>,
    pub cx_mask: Signal<Out, Bits<T>>,
    // ---- results the global logic reduces over the warps
    /// An exception was accepted (bit w of `acc`). `accepted` and `live` feed the mode's next
    /// state (an episode starts) and SAVE in the same cycle, so they are written flat, equal to
    /// what the step's priority chain gives: a RUN warp whose slot is valid and that is not
    /// killed accepts a non-NONE exception in NORM with TRAP_EN (without TRAP_EN it parks: not
    /// live) and in DRAIN as its first; it stays RUN otherwise. The `_nk` forms are the same
    /// without the KILL term: a killed warp neither accepts nor is live (KILL is checked before
    /// RUN in the chain), so `accepted = acc_nk && !kill`, `live = live_nk && !kill`; a killed
    /// warp is not eligible, and its STEPPED is only read through eligibility.
    pub accepted: Signal<Out, Bit>,
    /// RUN before and after step (3): `live(w)` of NORM, member of P at SAVE.
    pub live: Signal<Out, Bit>,
    /// What `ModeCtl` reduces for an episode start, flat and specialised to the case in which it
    /// reads them (mode NORM, TRAP_EN set; SSTEP_EN set for the last two), and as if the host did
    /// not KILL this warp now (`ModeCtl` applies the KILL write last, so its CSR decode is one
    /// mux level before MODE): RUN with a valid slot (`live`), that and a non-NONE exception
    /// (`accepted`), that and not at a barrier (eligible for single-step), and "not eligible, or
    /// STEPPED after step (3)" (this warp does not hold single-step completion back).
    pub nm_live: Signal<Out, Bit>,
    pub nm_acc: Signal<Out, Bit>,
    pub ss_elig: Signal<Out, Bit>,
    pub ss_done: Signal<Out, Bit>,
    /// LCAUSE after the edge *if this cycle is a SAVE* (mode DRAIN), and "member of P whose LCAUSE
    /// is SSTEP after SAVE": what `Episode` reads for TGID, written flat. Meaningful only when
    /// `save` (the only time `Episode` uses them).
    pub sv_lcause: Signal<Out, Bits<4>>,
    pub sv_ss: Signal<Out, Bit>,
    /// At a SAVE: member of P (`sv_live`, this warp's `live` in DRAIN) and its own LCAUSE NONE
    /// after step (3): SAVE stores the scheduler's resume context; `sv_live` enters TRAP.
    pub sv_live: Signal<Out, Bit>,
    pub sv_keep: Signal<Out, Bit>,
    /// At a SAVE: member of P with LCAUSE NONE before the edge (`sv_run0`): SAVE writes its
    /// EPC/EMASK (`cx_pc`/`cx_mask`: the scheduler's context, or the exception's if it records
    /// one now, which `epc_en` covers already).
    pub sv_cap: Signal<Out, Bit>,
    /// TRAP after step (3) (blocks the exit); meaningful in HANDLER only, the one mode that reads it.
    pub trap_next: Signal<Out, Bit>,
    /// Sticky bits raised by this warp.
    pub st: Signal<Out, Bits<16>>,
    /// The SR write was for this warp and legal.
    pub sr_ok: Signal<Out, Bit>,
    /// The WEPC/WEMASK write was for this warp and legal.
    pub win_ok: Signal<Out, Bit>,

    // ---- names (enc)
    k_wid: Constant<Bits<WIDW>>,
    k_mode_norm: Constant<Bits<2>>,
    k_mode_drain: Constant<Bits<2>>,
    k_mode_handler: Constant<Bits<2>>,
    k_ws_idle: Constant<Bits<3>>,
    k_ws_run: Constant<Bits<3>>,
    k_ws_trap: Constant<Bits<3>>,
    k_ws_retw: Constant<Bits<3>>,
    k_ws_paused: Constant<Bits<3>>,
    k_ws_parked: Constant<Bits<3>>,
    k_ws_rstr: Constant<Bits<3>>,
    k_ws_killed: Constant<Bits<3>>,
    k_cause_none: Constant<Bits<4>>,
    k_cause_reg_range: Constant<Bits<4>>,
    k_cause_unknown: Constant<Bits<4>>,
    k_cause_sstep: Constant<Bits<4>>,
    k_sticky_pause: Constant<Bits<16>>,
    k_sticky_dblf: Constant<Bits<16>>,
    k_sticky_fatal: Constant<Bits<16>>,
    k_sticky_err_badret: Constant<Bits<16>>,
    k_sticky_err_spur: Constant<Bits<16>>,
    k_sticky_err_unk: Constant<Bits<16>>,
    k_sticky_suppr: Constant<Bits<16>>,
    k_sr_esr: Constant<Bits<3>>,
    k_sr_emask: Constant<Bits<3>>,

    // ---- temporaries
    m_norm: Signal<Local, Bit>,
    m_drain: Signal<Local, Bit>,
    m_handler: Signal<Local, Bit>,
    // lmap(exc_cause): the recorded cause and whether it was reserved
    cause_map: Signal<Local, Bits<4>>,
    cause_unk: Signal<Local, Bit>,
    spurious: Signal<Local, Bit>,
    double_fault: Signal<Local, Bit>,
    flags: Signal<Local, Bits<16>>,
    /// `sv_live` with LCAUSE NONE (may record a cause)
    sv_run0: Signal<Local, Bit>,
    /// a non-NONE exception is raised
    exc_nz: Signal<Local, Bit>,
    /// `accepted` and `live` without the KILL term
    acc_nk: Signal<Local, Bit>,
    live_nk: Signal<Local, Bit>,
    /// ws PAUSED or PARKED (a host window write's warp)
    r_pp: Signal<Local, Bit>,
    /// EPC/EMASK's write enables and the values written.
    epc_emask: WarpContext<WIDW, T, PCW>,
}

impl<const WIDW: usize, const T: usize, const PCW: usize> WarpStep<WIDW, T, PCW> {
    /// The step of warp `wid`.
    pub fn new(wid: usize) -> Self {
        use enc::{cause, mode, sr, sticky, ws};
        let k2 = |v: u64| Constant::new(Bits::<2>::from(v));
        let k3 = |v: u64| Constant::new(Bits::<3>::from(v));
        let k4 = |v: u64| Constant::new(Bits::<4>::from(v));
        let k16 = |v: u64| Constant::new(Bits::<16>::from(v));
        Self {
            ws: Default::default(),
            lcause: Default::default(),
            ncause: Default::default(),
            gpw: Default::default(),
            stepped: Default::default(),
            warp_valid: Default::default(),
            exc_valid: Default::default(),
            exc_cause: Default::default(),
            exc_pc: Default::default(),
            exc_mask: Default::default(),
            ret_valid: Default::default(),
            pause_valid: Default::default(),
            warp_pc: Default::default(),
            warp_mask: Default::default(),
            bar_wait: Default::default(),
            issue_valid: Default::default(),
            issue_wid: Default::default(),
            sr_valid: Default::default(),
            sr_we: Default::default(),
            sr_wid: Default::default(),
            sr_sel: Default::default(),
            sr_wdata: Default::default(),
            trap_en: Default::default(),
            ss_en: Default::default(),
            hmask: Default::default(),
            kill: Default::default(),
            resume: Default::default(),
            win_we: Default::default(),
            win_emask: Default::default(),
            wsel: Default::default(),
            csr_wdata: Default::default(),
            mode: Default::default(),
            ss_trig: Default::default(),
            n_ws: Default::default(),
            n_lcause: Default::default(),
            n_ncause: Default::default(),
            n_gpw: Default::default(),
            n_stepped: Default::default(),
            epc_en: Default::default(),
            emask_en: Default::default(),
            cx_pc: Default::default(),
            cx_mask: Default::default(),
            accepted: Default::default(),
            live: Default::default(),
            nm_live: Default::default(),
            nm_acc: Default::default(),
            ss_elig: Default::default(),
            ss_done: Default::default(),
            sv_lcause: Default::default(),
            sv_ss: Default::default(),
            sv_live: Default::default(),
            sv_keep: Default::default(),
            sv_cap: Default::default(),
            trap_next: Default::default(),
            st: Default::default(),
            sr_ok: Default::default(),
            win_ok: Default::default(),
            k_wid: Constant::new((wid as u64).into()),
            k_mode_norm: k2(mode::NORM),
            k_mode_drain: k2(mode::DRAIN),
            k_mode_handler: k2(mode::HANDLER),
            k_ws_idle: k3(ws::IDLE),
            k_ws_run: k3(ws::RUN),
            k_ws_trap: k3(ws::TRAP),
            k_ws_retw: k3(ws::RETW),
            k_ws_paused: k3(ws::PAUSED),
            k_ws_parked: k3(ws::PARKED),
            k_ws_rstr: k3(ws::RSTR),
            k_ws_killed: k3(ws::KILLED),
            k_cause_none: k4(cause::NONE),
            k_cause_reg_range: k4(cause::REG_RANGE),
            k_cause_unknown: k4(cause::UNKNOWN),
            k_cause_sstep: k4(cause::SSTEP),
            k_sticky_pause: k16(sticky::PAUSE),
            k_sticky_dblf: k16(sticky::DBLF),
            k_sticky_fatal: k16(sticky::FATAL),
            k_sticky_err_badret: k16(sticky::ERR_BADRET),
            k_sticky_err_spur: k16(sticky::ERR_SPUR),
            k_sticky_err_unk: k16(sticky::ERR_UNK),
            k_sticky_suppr: k16(sticky::SUPPR),
            k_sr_esr: k3(sr::ESR),
            k_sr_emask: k3(sr::EMASK),
            m_norm: Default::default(),
            m_drain: Default::default(),
            m_handler: Default::default(),
            cause_map: Default::default(),
            cause_unk: Default::default(),
            spurious: Default::default(),
            double_fault: Default::default(),
            flags: Default::default(),
            sv_run0: Default::default(),
            exc_nz: Default::default(),
            acc_nk: Default::default(),
            live_nk: Default::default(),
            r_pp: Default::default(),
            epc_emask: WarpContext::new(wid),
        }
    }
}

impl<const WIDW: usize, const T: usize, const PCW: usize> Logic for WarpStep<WIDW, T, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_norm.next = self.mode.val() == self.k_mode_norm.val();
        self.m_drain.next = self.mode.val() == self.k_mode_drain.val();
        self.m_handler.next = self.mode.val() == self.k_mode_handler.val();
        self.n_ws.next = self.ws.val();
        self.n_lcause.next = self.lcause.val();
        self.n_ncause.next = self.ncause.val();
        self.n_gpw.next = self.gpw.val();
        self.flags.next = 0.into();
        self.r_pp.next = self.ws.val() == self.k_ws_paused.val() || self.ws.val() == self.k_ws_parked.val();

        // (1) WEPC / WEMASK: only a PAUSED or PARKED window warp is writable (the write itself is
        // `epc_en`/`emask_en` below)
        self.win_ok.next = self.win_we.val() && self.wsel.val() == self.k_wid.val() && self.r_pp.val();

        // (3) lmap: the local codes up to REG_RANGE are kept, the reserved ones become UNKNOWN
        self.cause_map.next = self.exc_cause.val();
        self.cause_unk.next = self.exc_cause.val() > self.k_cause_reg_range.val();
        if self.cause_unk.val() {
            self.cause_map.next = self.k_cause_unknown.val();
        }
        self.spurious.next = false;
        self.double_fault.next = false;
        if !self.warp_valid.val() {
            // slot empty: context cleared
            self.spurious.next = true;
            self.n_ws.next = self.k_ws_idle.val();
            self.n_lcause.next = self.k_cause_none.val();
            self.n_ncause.next = self.k_cause_none.val();
            self.n_gpw.next = false;
        } else if self.ws.val() == self.k_ws_idle.val() {
            self.spurious.next = true;
            self.n_ws.next = self.k_ws_run.val();
        } else if self.ws.val() == self.k_ws_killed.val() {
            self.spurious.next = true;
        } else if self.kill.val() {
            // the warp's other inputs are ignored, without flags
            self.n_ws.next = self.k_ws_killed.val();
        } else if self.ws.val() == self.k_ws_run.val() {
            if self.ret_valid.val() || self.pause_valid.val() {
                self.flags.next = self.flags.val() | self.k_sticky_err_badret.val();
            }
            if self.exc_valid.val() {
                if self.exc_cause.val() == self.k_cause_none.val() {
                    self.flags.next = self.flags.val() | self.k_sticky_err_spur.val();
                } else if self.m_norm.val() || (self.m_drain.val() && self.lcause.val() == self.k_cause_none.val()) {
                    // the warp's first exception of the episode: recorded
                    if self.cause_unk.val() {
                        self.flags.next = self.flags.val() | self.k_sticky_err_unk.val();
                    }
                    // (EPC/EMASK take `exc_pc`/`exc_mask`: `epc_en` below)
                    self.n_lcause.next = self.cause_map.val();
                    if self.m_norm.val() && !self.trap_en.val() {
                        self.n_ws.next = self.k_ws_parked.val();
                        self.flags.next = self.flags.val() | self.k_sticky_fatal.val();
                    }
                } else {
                    // ENTER/HANDLER, or a second fault in DRAIN
                    self.flags.next = self.flags.val() | self.k_sticky_err_spur.val();
                }
            }
        } else if self.ws.val() == self.k_ws_trap.val() && self.m_handler.val() {
            // inside the handler: exception > PAUSE > RETURN
            if self.exc_valid.val() {
                if self.exc_cause.val() == self.k_cause_none.val() {
                    self.flags.next = self.flags.val() | self.k_sticky_err_spur.val();
                } else {
                    if self.cause_unk.val() {
                        self.flags.next = self.flags.val() | self.k_sticky_err_unk.val();
                    }
                    if self.hmask.val().get_bit(self.cause_map.val().index()) {
                        self.flags.next = self.flags.val() | self.k_sticky_suppr.val();
                    } else {
                        // double fault: parked, the original context kept
                        self.double_fault.next = true;
                        self.n_ws.next = self.k_ws_parked.val();
                        self.n_ncause.next = self.cause_map.val();
                        self.flags.next = self.flags.val() | self.k_sticky_dblf.val();
                        if self.ret_valid.val() || self.pause_valid.val() {
                            self.flags.next = self.flags.val() | self.k_sticky_err_badret.val();
                        }
                    }
                }
            }
            if !self.double_fault.val() {
                if self.pause_valid.val() {
                    self.n_ws.next = self.k_ws_paused.val();
                    self.flags.next = self.flags.val() | self.k_sticky_pause.val();
                    if self.ret_valid.val() {
                        self.flags.next = self.flags.val() | self.k_sticky_err_badret.val();
                    }
                } else if self.ret_valid.val() {
                    self.n_ws.next = self.k_ws_retw.val();
                }
            }
        } else if self.ws.val() == self.k_ws_trap.val() || self.ws.val() == self.k_ws_retw.val() {
            // TRAP here means mode ENTER
            self.spurious.next = true;
        } else if self.ws.val() == self.k_ws_paused.val() || self.ws.val() == self.k_ws_parked.val() {
            self.spurious.next = true;
            if self.resume.val() {
                if self.m_handler.val() {
                    self.n_ws.next = self.k_ws_retw.val();
                } else {
                    self.n_ws.next = self.k_ws_rstr.val();
                }
            }
        } else {
            // RSTR: back to its own code, causes cleared
            self.spurious.next = true;
            self.n_ws.next = self.k_ws_run.val();
            self.n_lcause.next = self.k_cause_none.val();
            self.n_ncause.next = self.k_cause_none.val();
            self.n_gpw.next = false;
        }
        if self.spurious.val() {
            if self.exc_valid.val() {
                self.flags.next = self.flags.val() | self.k_sticky_err_spur.val();
            }
            if self.ret_valid.val() || self.pause_valid.val() {
                self.flags.next = self.flags.val() | self.k_sticky_err_badret.val();
            }
        }

        // (4) handler SR write, after and over step (3): ESR (clears both nibbles), EPC, EMASK
        // (the last two: `epc_en`/`emask_en` below)
        self.sr_ok.next = self.sr_valid.val()
            && self.sr_we.val()
            && self.sr_wid.val() == self.k_wid.val()
            && self.m_handler.val()
            && self.ws.val() == self.k_ws_trap.val()
            && self.warp_valid.val()
            && self.sr_sel.val() <= self.k_sr_emask.val();
        if self.sr_ok.val() && self.sr_sel.val() == self.k_sr_esr.val() {
            self.n_lcause.next = self.k_cause_none.val();
            self.n_gpw.next = false;
        }

        // results the global logic reduces over the warps, flat (see `accepted`)
        self.exc_nz.next = self.exc_valid.val() && self.exc_cause.val() != self.k_cause_none.val();
        self.acc_nk.next = self.ws.val() == self.k_ws_run.val()
            && self.warp_valid.val()
            && self.exc_nz.val()
            && ((self.m_norm.val() && self.trap_en.val())
                || (self.m_drain.val() && self.lcause.val() == self.k_cause_none.val()));
        self.live_nk.next = self.ws.val() == self.k_ws_run.val()
            && self.warp_valid.val()
            && !(self.m_norm.val() && !self.trap_en.val() && self.exc_nz.val());
        self.accepted.next = self.acc_nk.val() && !self.kill.val();
        self.live.next = self.live_nk.val() && !self.kill.val();
        // In NORM with TRAP_EN the terms above are: live_nk = RUN and valid, acc_nk = that and a
        // non-NONE exception. Single-step completion (with SSTEP_EN too): this warp is eligible if
        // live and not at a barrier, and STEPPED after step (3) is `stepped || issues now` for an
        // eligible warp (the issue term of `n_stepped` below is `live && NORM && SSTEP_EN && ...`).
        self.nm_live.next = self.ws.val() == self.k_ws_run.val() && self.warp_valid.val();
        self.nm_acc.next = self.nm_live.val() && self.exc_nz.val();
        self.ss_elig.next = self.nm_live.val() && !self.bar_wait.val();
        self.ss_done.next = !self.ss_elig.val()
            || self.stepped.val()
            || (self.issue_valid.val() && self.issue_wid.val() == self.k_wid.val());
        // STEPPED (single-step completion feeds MODE in the same cycle, so it is flat too): cleared
        // with the slot, set when this live warp issues in NORM with SSTEP_EN, else kept
        self.n_stepped.next = self.warp_valid.val()
            && (self.stepped.val()
                || (self.live.val()
                    && self.m_norm.val()
                    && self.ss_en.val()
                    && self.issue_valid.val()
                    && self.issue_wid.val() == self.k_wid.val()));
        // LCAUSE after a SAVE edge, flat (SAVE happens only in DRAIN, so DRAIN is assumed; `Episode`
        // reads it only when `save`). The chain above in DRAIN: an empty slot clears it; a RSTR
        // warp (not killed: KILL comes first in the chain) clears it; a live (RUN, valid, not
        // killed) warp with LCAUSE NONE records a non-NONE exception (`cause_map`); no SR write
        // (HANDLER only); everything else keeps it. SAVE then gives a live warp whose LCAUSE is
        // still NONE the cause SSTEP if SS_TRIG and STEPPED (in DRAIN `n_stepped` = valid and
        // STEPPED). `warp.rs` computes the same value for the register (`lcause_next`).
        self.sv_live.next = self.ws.val() == self.k_ws_run.val() && self.warp_valid.val() && !self.kill.val();
        self.sv_run0.next = self.sv_live.val() && self.lcause.val() == self.k_cause_none.val();
        // a live warp's LCAUSE after step (3) in DRAIN is NONE iff it was NONE and no exception is
        // recorded now (a recorded cause is never NONE)
        self.sv_keep.next = self.sv_run0.val() && !self.exc_nz.val();
        self.sv_cap.next = self.sv_run0.val();
        self.sv_lcause.next = self.lcause.val();
        if !self.warp_valid.val() || (self.ws.val() == self.k_ws_rstr.val() && !self.kill.val()) {
            self.sv_lcause.next = self.k_cause_none.val();
        } else if self.sv_run0.val() {
            if self.exc_nz.val() {
                self.sv_lcause.next = self.cause_map.val();
            } else if self.ss_trig.val() && self.stepped.val() {
                self.sv_lcause.next = self.k_cause_sstep.val();
            } else {
                self.sv_lcause.next = self.k_cause_none.val();
            }
        }
        // member of P (live in DRAIN) with LCAUSE SSTEP after SAVE: given by SAVE as above, or
        // kept (a recorded cause is never SSTEP: `cause_map` maps 7 to UNKNOWN)
        self.sv_ss.next = self.sv_live.val()
            && ((self.lcause.val() == self.k_cause_none.val()
                && !self.exc_nz.val()
                && self.ss_trig.val()
                && self.stepped.val())
                || self.lcause.val() == self.k_cause_sstep.val());
        // TRAP after step (3), read only in HANDLER (by the exit, every warp's AND, then MODE and
        // every warp's next state: the §7.4 step's global loop). Written flat from the
        // registers and this cycle's inputs instead of comparing `n_ws`, the end of the step's
        // priority chain: in HANDLER a TRAP warp stays TRAP unless its slot empties, the host
        // kills it, it double-faults (an exception whose cause the handler does not mask), pauses
        // or returns; no warp enters TRAP outside SAVE. Equal to `n_ws == TRAP` in HANDLER.
        self.trap_next.next = self.m_handler.val()
            && self.ws.val() == self.k_ws_trap.val()
            && self.warp_valid.val()
            && !self.kill.val()
            && !self.pause_valid.val()
            && !self.ret_valid.val()
            && !(self.exc_valid.val()
                && self.exc_cause.val() != self.k_cause_none.val()
                && !self.hmask.val().get_bit(self.cause_map.val().index()));
        // EPC / EMASK after steps (1), (3), (4): an enable and a value (`WarpContext`)
        self.epc_emask.warp_valid.next = self.warp_valid.val();
        self.epc_emask.ws.next = self.ws.val();
        self.epc_emask.lcause.next = self.lcause.val();
        self.epc_emask.kill.next = self.kill.val();
        self.epc_emask.exc_nz.next = self.exc_nz.val();
        self.epc_emask.m_norm.next = self.m_norm.val();
        self.epc_emask.m_drain.next = self.m_drain.val();
        self.epc_emask.m_handler.next = self.m_handler.val();
        self.epc_emask.win_we.next = self.win_we.val();
        self.epc_emask.win_emask.next = self.win_emask.val();
        self.epc_emask.wsel.next = self.wsel.val();
        self.epc_emask.sr_valid.next = self.sr_valid.val();
        self.epc_emask.sr_we.next = self.sr_we.val();
        self.epc_emask.sr_wid.next = self.sr_wid.val();
        self.epc_emask.sr_sel.next = self.sr_sel.val();
        self.epc_emask.exc_pc.next = self.exc_pc.val();
        self.epc_emask.exc_mask.next = self.exc_mask.val();
        self.epc_emask.warp_pc.next = self.warp_pc.val();
        self.epc_emask.warp_mask.next = self.warp_mask.val();
        self.epc_emask.csr_wdata.next = self.csr_wdata.val();
        self.epc_emask.sr_wdata.next = self.sr_wdata.val();
        self.epc_en.next = self.epc_emask.epc_en.val();
        self.emask_en.next = self.epc_emask.emask_en.val();
        self.cx_pc.next = self.epc_emask.cx_pc.val();
        self.cx_mask.next = self.epc_emask.cx_mask.val();

        self.st.next = self.flags.val();
    }
}

/// EPC / EMASK of one warp after steps (1), (3), (4) of [`WarpStep`], written flat as a clock
/// enable and the value written (docs/trap_controller.md, "Timing"), from the warp's registers,
/// the mode decodes and this cycle's inputs. Purely combinational.
#[derive(LogicBlock)]
pub struct WarpContext<const WIDW: usize, const T: usize, const PCW: usize> {
    /// The warp's registers and slot.
    pub warp_valid: Signal<In, Bit>,
    pub ws: Signal<In, Bits<3>>,
    pub lcause: Signal<In, Bits<4>>,
    /// The host kills the warp now; a non-NONE exception is raised now.
    pub kill: Signal<In, Bit>,
    pub exc_nz: Signal<In, Bit>,
    /// Mode NORM, DRAIN, HANDLER.
    pub m_norm: Signal<In, Bit>,
    pub m_drain: Signal<In, Bit>,
    pub m_handler: Signal<In, Bit>,
    /// The host window write (WEPC/WEMASK) and its warp.
    pub win_we: Signal<In, Bit>,
    pub win_emask: Signal<In, Bit>,
    pub wsel: Signal<In, Bits<WIDW>>,
    /// The handler SR write.
    pub sr_valid: Signal<In, Bit>,
    pub sr_we: Signal<In, Bit>,
    pub sr_wid: Signal<In, Bits<WIDW>>,
    pub sr_sel: Signal<In, Bits<3>>,
    /// The candidate values: the exception's, the scheduler's, the host's, the handler's.
    pub exc_pc: Signal<In, Bits<PCW>>,
    pub exc_mask: Signal<In, Bits<T>>,
    pub warp_pc: Signal<In, Bits<PCW>>,
    pub warp_mask: Signal<In, Bits<T>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    pub sr_wdata: Signal<In, Bits<32>>,
    /// [`WarpStep`]'s `epc_en`, `emask_en`, `cx_pc`, `cx_mask`.
    pub epc_en: Signal<Out, Bit>,
    pub emask_en: Signal<Out, Bit>,
    pub cx_pc: Signal<Out, Bits<PCW>>,
    pub cx_mask: Signal<Out, Bits<T>>,
    k_wid: Constant<Bits<WIDW>>,
    k_ws_run: Constant<Bits<3>>,
    k_ws_trap: Constant<Bits<3>>,
    k_ws_paused: Constant<Bits<3>>,
    k_ws_parked: Constant<Bits<3>>,
    k_cause_none: Constant<Bits<4>>,
    k_sr_epc: Constant<Bits<3>>,
    k_sr_emask: Constant<Bits<3>>,
    /// ws RUN, and PAUSED or PARKED (registers only: the select of `cx_pc`/`cx_mask`)
    r_run: Signal<Local, Bit>,
    r_pp: Signal<Local, Bit>,
    /// RUN, not killed, and records a non-NONE exception now (NORM, or DRAIN as its first) if valid
    acc_rec: Signal<Local, Bit>,
}

impl<const WIDW: usize, const T: usize, const PCW: usize> WarpContext<WIDW, T, PCW> {
    pub fn new(wid: usize) -> Self {
        use enc::{cause, sr, ws};
        let k3 = |v: u64| Constant::new(Bits::<3>::from(v));
        Self {
            warp_valid: Default::default(),
            ws: Default::default(),
            lcause: Default::default(),
            kill: Default::default(),
            exc_nz: Default::default(),
            m_norm: Default::default(),
            m_drain: Default::default(),
            m_handler: Default::default(),
            win_we: Default::default(),
            win_emask: Default::default(),
            wsel: Default::default(),
            sr_valid: Default::default(),
            sr_we: Default::default(),
            sr_wid: Default::default(),
            sr_sel: Default::default(),
            exc_pc: Default::default(),
            exc_mask: Default::default(),
            warp_pc: Default::default(),
            warp_mask: Default::default(),
            csr_wdata: Default::default(),
            sr_wdata: Default::default(),
            epc_en: Default::default(),
            emask_en: Default::default(),
            cx_pc: Default::default(),
            cx_mask: Default::default(),
            k_wid: Constant::new((wid as u64).into()),
            k_ws_run: k3(ws::RUN),
            k_ws_trap: k3(ws::TRAP),
            k_ws_paused: k3(ws::PAUSED),
            k_ws_parked: k3(ws::PARKED),
            k_cause_none: Constant::new(Bits::<4>::from(cause::NONE)),
            k_sr_epc: k3(sr::EPC),
            k_sr_emask: k3(sr::EMASK),
            r_run: Default::default(),
            r_pp: Default::default(),
            acc_rec: Default::default(),
        }
    }
}

impl<const WIDW: usize, const T: usize, const PCW: usize> Logic for WarpContext<WIDW, T, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.r_run.next = self.ws.val() == self.k_ws_run.val();
        self.r_pp.next = self.ws.val() == self.k_ws_paused.val() || self.ws.val() == self.k_ws_parked.val();
        // EPC / EMASK after steps (1), (3), (4), written flat as an enable and a value (SAVE's
        // capture is one more enable term in `WarpFsm`). Every write of the chain above has its
        // own `ws`, so at most one applies and which one is known from the registers: an empty
        // slot clears them (whatever `ws`); else a PAUSED/PARKED warp takes a host window write
        // (WEPC/WEMASK, `win_ok`), a RUN warp that is not killed records a non-NONE exception
        // (`exc_pc`/`exc_mask`) in NORM or, as its first, in DRAIN, and a TRAP warp in HANDLER
        // takes a handler SR write (`sr_ok`, EPC or EMASK). Nothing else writes them (KILL comes
        // before RUN in the chain; IDLE, KILLED, RETW, RSTR and TRAP outside HANDLER keep them).
        // The value is selected by `ws` (a register) and `exc_nz` only: a RUN warp writes the
        // exception's context if it raises one now and otherwise the scheduler's (the value SAVE
        // stores), so the late terms (KILL decode, the slot, SAVE) reach only the enable, one
        // net per register into the flip-flops' clock enable instead of a select fanned out to
        // every bit's data mux (the worst path of issue 17 after 8826338).
        // The enables are written as one flat sum of products of the registers' decodes (`r_pp`
        // with the warp id, `r_run` with the mode and LCAUSE, TRAP in HANDLER) and this cycle's
        // inputs, not from `win_ok`/`sr_ok`/`sv_live`, which other cones share: built from those,
        // yosys/ABC mapped the enable as a chain through the shared LUTs (9 LUT levels in the
        // BIST top against 8 written flat; docs, "Timing"). `warp_valid` is left out of the
        // terms after `!warp_valid`, the SR term needs no `sr_sel <= EMASK`.
        self.acc_rec.next = self.r_run.val()
            && !self.kill.val()
            && self.exc_nz.val()
            && (self.m_norm.val() || (self.m_drain.val() && self.lcause.val() == self.k_cause_none.val()));
        self.epc_en.next = !self.warp_valid.val()
            || (self.r_pp.val() && self.wsel.val() == self.k_wid.val() && self.win_we.val() && !self.win_emask.val())
            || self.acc_rec.val()
            || (self.ws.val() == self.k_ws_trap.val()
                && self.m_handler.val()
                && self.sr_valid.val()
                && self.sr_we.val()
                && self.sr_wid.val() == self.k_wid.val()
                && self.sr_sel.val() == self.k_sr_epc.val());
        self.emask_en.next = !self.warp_valid.val()
            || (self.r_pp.val() && self.wsel.val() == self.k_wid.val() && self.win_we.val() && self.win_emask.val())
            || self.acc_rec.val()
            || (self.ws.val() == self.k_ws_trap.val()
                && self.m_handler.val()
                && self.sr_valid.val()
                && self.sr_we.val()
                && self.sr_wid.val() == self.k_wid.val()
                && self.sr_sel.val() == self.k_sr_emask.val());
        if !self.warp_valid.val() {
            self.cx_pc.next = 0.into();
            self.cx_mask.next = 0.into();
        } else if self.r_run.val() {
            if self.exc_nz.val() {
                self.cx_pc.next = self.exc_pc.val();
                self.cx_mask.next = self.exc_mask.val();
            } else {
                self.cx_pc.next = self.warp_pc.val();
                self.cx_mask.next = self.warp_mask.val();
            }
        } else if self.r_pp.val() {
            self.cx_pc.next = self.csr_wdata.val().get_bits::<PCW>(0);
            self.cx_mask.next = self.csr_wdata.val().get_bits::<T>(0);
        } else {
            self.cx_pc.next = self.sr_wdata.val().get_bits::<PCW>(0);
            self.cx_mask.next = self.sr_wdata.val().get_bits::<T>(0);
        }

    }
}
