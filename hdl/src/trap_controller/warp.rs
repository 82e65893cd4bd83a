//! `WarpFsm`: one warp's registers (§7.2: `ws`, LCAUSE, NCAUSE, GPW, STEPPED, EPC, EMASK) and
//! every piece of §7.4 that reads or writes them: the warp's outputs (halt, redirect, kill, its
//! SR read values), step (3) for this warp with the host window write of (1) before it and the
//! handler SR write of (4) after it, and this warp's part of SAVE and of the exit of step (6).
//!
//! Steps (1), (3) and (4) are the sub-block `WarpStep` (warp_step.rs); this block applies SAVE
//! and the exit to its results, so the logic that reads `exit` is apart from the logic that
//! computes `trap_next` (which `exit` reads).
//!
//! One instance per warp, so the per-warp logic sits next to the per-warp state and each warp
//! decodes `mode` itself (timing-closure §3.3: no single mode decode fanning out to every warp).
//! The global logic gets from each warp only the step-(3) results it reduces over the warps
//! (`accepted`, `live`, their no-KILL forms, `trap_next`, LCAUSE at SAVE, flags) and
//! answers with `save`, `exit` and `gsel`, which depend on no warp's `exit`-dependent value.

use super::enc;
use super::warp_step::WarpStep;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarpFsm<const WIDW: usize, const T: usize, const PCW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    // ---- this warp's slice of the core inputs (§7.1)
    /// `warp_valid[w]`: the slot holds a live warp.
    pub warp_valid: Signal<In, Bit>,
    /// `exc_valid[w]`: the warp raises a local exception.
    pub exc_valid: Signal<In, Bit>,
    /// `exc_cause[w]`: its cause code.
    pub exc_cause: Signal<In, Bits<4>>,
    /// `exc_pc[w]`: PC of the excepting instruction.
    pub exc_pc: Signal<In, Bits<PCW>>,
    /// `exc_mask[w]`: active mask of the excepting instruction.
    pub exc_mask: Signal<In, Bits<T>>,
    /// `ret_valid[w]`: the warp committed RETURN.
    pub ret_valid: Signal<In, Bit>,
    /// `pause_valid[w]`: the warp committed PAUSE.
    pub pause_valid: Signal<In, Bit>,
    /// `warp_pc[w]`: the scheduler's resume PC (sampled at SAVE).
    pub warp_pc: Signal<In, Bits<PCW>>,
    /// `warp_mask[w]`: the scheduler's active mask (sampled at SAVE).
    pub warp_mask: Signal<In, Bits<T>>,
    /// `bar_wait[w]`: blocked at a sync barrier (single-step eligibility).
    pub bar_wait: Signal<In, Bit>,
    /// `issue_valid`: an instruction of warp `issue_wid` issued.
    pub issue_valid: Signal<In, Bit>,
    /// `issue_wid`
    pub issue_wid: Signal<In, Bits<WIDW>>,
    /// Handler SR port: `sr_valid`, `sr_we`, `sr_wid`, `sr_sel`, `sr_wdata`.
    pub sr_valid: Signal<In, Bit>,
    pub sr_we: Signal<In, Bit>,
    pub sr_wid: Signal<In, Bits<WIDW>>,
    pub sr_sel: Signal<In, Bits<3>>,
    pub sr_wdata: Signal<In, Bits<32>>,
    // ---- from the CSR file
    /// CTRL.TRAP_EN
    pub trap_en: Signal<In, Bit>,
    /// HAS_SSTEP and CTRL.SSTEP_EN
    pub ss_en: Signal<In, Bit>,
    /// HMASK: causes suppressed inside the handler.
    pub hmask: Signal<In, Bits<16>>,
    /// KILL write for this warp.
    pub kill: Signal<In, Bit>,
    /// RESUME write for this warp.
    pub resume: Signal<In, Bit>,
    /// A WEPC or WEMASK write (to warp WSEL).
    pub win_we: Signal<In, Bit>,
    /// ... and it is WEMASK.
    pub win_emask: Signal<In, Bit>,
    /// WSEL: the host window's warp.
    pub wsel: Signal<In, Bits<WIDW>>,
    /// `csr_wdata`
    pub csr_wdata: Signal<In, Bits<32>>,
    // ---- from the global logic
    /// Global mode (state).
    pub mode: Signal<In, Bits<2>>,
    /// SAVE this cycle: mode DRAIN and `quiesced`.
    pub save: Signal<In, Bit>,
    /// SS_TRIG (state): the episode was started by single-step.
    pub ss_trig: Signal<In, Bit>,
    /// Exit this cycle: mode HANDLER and no warp TRAP after step (3).
    pub exit: Signal<In, Bit>,
    /// A global cause is consumed at this SAVE and targets this warp if it is in P.
    pub gsel: Signal<In, Bit>,
    /// GCAUSE (state), for the ESR.
    pub gcause: Signal<In, Bits<4>>,
    /// HLAT (state), the handler entry.
    pub hlat: Signal<In, Bits<PCW>>,
    // ---- outputs (§7.4 `outputs`, this warp), from the state only
    /// `warp_halt[w]`
    pub halt: Signal<Out, Bit>,
    /// `redir_valid[w]`
    pub redir_valid: Signal<Out, Bit>,
    /// `redir_pc[w]`
    pub redir_pc: Signal<Out, Bits<PCW>>,
    /// `redir_mask[w]`
    pub redir_mask: Signal<Out, Bits<T>>,
    /// `warp_kill[w]`
    pub killed: Signal<Out, Bit>,
    /// ESR(w) and, while TRAP, EPC/EMASK (else 0): what an SR read of this warp returns.
    pub esr: Signal<Out, Bits<8>>,
    pub sr_epc: Signal<Out, Bits<PCW>>,
    pub sr_emask: Signal<Out, Bits<T>>,
    /// The registers, for the host window and the state bitmaps.
    pub ws_q: Signal<Out, Bits<3>>,
    pub lcause_q: Signal<Out, Bits<4>>,
    pub ncause_q: Signal<Out, Bits<4>>,
    pub gpw_q: Signal<Out, Bit>,
    pub stepped_q: Signal<Out, Bit>,
    pub epc_q: Signal<Out, Bits<PCW>>,
    pub emask_q: Signal<Out, Bits<T>>,
    // ---- step (3)/(4) results for the global logic
    /// An exception was accepted (bit w of `acc`).
    pub accepted: Signal<Out, Bit>,
    /// RUN before and after step (3): `live(w)` of NORM, member of P at SAVE.
    pub live: Signal<Out, Bit>,
    /// The NORM terms of an episode start, as if this warp were not killed now (`WarpStep`).
    pub nm_live: Signal<Out, Bit>,
    pub nm_acc: Signal<Out, Bit>,
    pub ss_elig: Signal<Out, Bit>,
    pub ss_done: Signal<Out, Bit>,
    /// TRAP after step (3) (blocks the exit).
    pub trap_next: Signal<Out, Bit>,
    /// LCAUSE after the edge if this cycle is a SAVE, and "in P with LCAUSE SSTEP after SAVE"
    /// (TGID's cause and single-stepped warp; `WarpStep`).
    pub sv_lcause: Signal<Out, Bits<4>>,
    pub sv_ss: Signal<Out, Bit>,
    /// Sticky bits raised by this warp.
    pub st: Signal<Out, Bits<16>>,
    /// The SR write was for this warp and legal.
    pub sr_ok: Signal<Out, Bit>,
    /// The WEPC/WEMASK write was for this warp and legal.
    pub win_ok: Signal<Out, Bit>,

    // ---- state (§7.2, per warp)
    ws: RDff<Bits<3>>,
    lcause: RDff<Bits<4>>,
    ncause: RDff<Bits<4>>,
    gpw: RDff<Bit>,
    stepped: RDff<Bit>,
    epc: RDff<Bits<PCW>>,
    emask: RDff<Bits<T>>,

    /// Steps (1), (3), (4) of this warp: the next state before SAVE and the exit.
    step: WarpStep<WIDW, T, PCW>,

    // ---- names (enc)
    k_mode_norm: Constant<Bits<2>>,
    k_mode_enter: Constant<Bits<2>>,
    k_mode_handler: Constant<Bits<2>>,
    k_ws_idle: Constant<Bits<3>>,
    k_ws_run: Constant<Bits<3>>,
    k_ws_trap: Constant<Bits<3>>,
    k_ws_retw: Constant<Bits<3>>,
    k_ws_rstr: Constant<Bits<3>>,
    k_ws_killed: Constant<Bits<3>>,
    k_cause_sstep: Constant<Bits<4>>,

    // ---- temporaries
    m_norm: Signal<Local, Bit>,
    m_handler: Signal<Local, Bit>,
    redirect: Signal<Local, Bit>,
    /// LCAUSE after the edge.
    lcause_next: Signal<Local, Bits<4>>,
}

impl<const WIDW: usize, const T: usize, const PCW: usize> WarpFsm<WIDW, T, PCW> {
    /// The FSM of warp `wid`.
    pub fn new(wid: usize) -> Self {
        use enc::{cause, mode, ws};
        let k2 = |v: u64| Constant::new(Bits::<2>::from(v));
        let k3 = |v: u64| Constant::new(Bits::<3>::from(v));
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
            save: Default::default(),
            ss_trig: Default::default(),
            exit: Default::default(),
            gsel: Default::default(),
            gcause: Default::default(),
            hlat: Default::default(),
            halt: Default::default(),
            redir_valid: Default::default(),
            redir_pc: Default::default(),
            redir_mask: Default::default(),
            killed: Default::default(),
            esr: Default::default(),
            sr_epc: Default::default(),
            sr_emask: Default::default(),
            ws_q: Default::default(),
            lcause_q: Default::default(),
            ncause_q: Default::default(),
            gpw_q: Default::default(),
            stepped_q: Default::default(),
            epc_q: Default::default(),
            emask_q: Default::default(),
            accepted: Default::default(),
            live: Default::default(),
            nm_live: Default::default(),
            nm_acc: Default::default(),
            ss_elig: Default::default(),
            ss_done: Default::default(),
            trap_next: Default::default(),
            sv_lcause: Default::default(),
            sv_ss: Default::default(),
            st: Default::default(),
            sr_ok: Default::default(),
            win_ok: Default::default(),
            ws: Default::default(),
            lcause: Default::default(),
            ncause: Default::default(),
            gpw: Default::default(),
            stepped: Default::default(),
            epc: Default::default(),
            emask: Default::default(),
            step: WarpStep::new(wid),
            k_mode_norm: k2(mode::NORM),
            k_mode_enter: k2(mode::ENTER),
            k_mode_handler: k2(mode::HANDLER),
            k_ws_idle: k3(ws::IDLE),
            k_ws_run: k3(ws::RUN),
            k_ws_trap: k3(ws::TRAP),
            k_ws_retw: k3(ws::RETW),
            k_ws_rstr: k3(ws::RSTR),
            k_ws_killed: k3(ws::KILLED),
            k_cause_sstep: Constant::new(Bits::<4>::from(cause::SSTEP)),
            m_norm: Default::default(),
            m_handler: Default::default(),
            redirect: Default::default(),
            lcause_next: Default::default(),
        }
    }
}

impl<const WIDW: usize, const T: usize, const PCW: usize> Logic for WarpFsm<WIDW, T, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, ws, lcause, ncause, gpw, stepped, epc, emask);
        self.ws.rst.next = self.rst.val();
        self.lcause.rst.next = self.rst.val();
        self.ncause.rst.next = self.rst.val();
        self.gpw.rst.next = self.rst.val();
        self.stepped.rst.next = self.rst.val();
        self.epc.rst.next = self.rst.val();
        self.emask.rst.next = self.rst.val();
        self.m_norm.next = self.mode.val() == self.k_mode_norm.val();
        self.m_handler.next = self.mode.val() == self.k_mode_handler.val();

        // ================= outputs (§7.4 `outputs`): registered state only =================
        self.halt.next = !((self.m_norm.val()
            && (self.ws.q.val() == self.k_ws_idle.val() || self.ws.q.val() == self.k_ws_run.val())
            && !(self.ss_en.val() && self.stepped.q.val()))
            || (self.m_handler.val() && self.ws.q.val() == self.k_ws_trap.val()));
        self.redirect.next = (self.mode.val() == self.k_mode_enter.val() && self.ws.q.val() == self.k_ws_trap.val())
            || self.ws.q.val() == self.k_ws_rstr.val();
        self.redir_valid.next = self.redirect.val();
        self.redir_pc.next = 0.into();
        self.redir_mask.next = 0.into();
        if self.redirect.val() {
            self.redir_mask.next = self.emask.q.val();
            if self.ws.q.val() == self.k_ws_rstr.val() {
                self.redir_pc.next = self.epc.q.val();
            } else {
                self.redir_pc.next = self.hlat.val();
            }
        }
        self.killed.next = self.ws.q.val() == self.k_ws_killed.val();
        // SR reads: ESR = {GPW ? GCAUSE : 0, LCAUSE} (high nibble, low nibble) while TRAP, else 0
        self.esr.next = 0.into();
        self.sr_epc.next = 0.into();
        self.sr_emask.next = 0.into();
        if self.ws.q.val() == self.k_ws_trap.val() {
            self.esr.next = bit_cast::<8, 4>(self.lcause.q.val());
            if self.gpw.q.val() {
                self.esr.next = self.esr.val() | (bit_cast::<8, 4>(self.gcause.val()) << 4);
            }
            self.sr_epc.next = self.epc.q.val();
            self.sr_emask.next = self.emask.q.val();
        }
        self.ws_q.next = self.ws.q.val();
        self.lcause_q.next = self.lcause.q.val();
        self.ncause_q.next = self.ncause.q.val();
        self.gpw_q.next = self.gpw.q.val();
        self.stepped_q.next = self.stepped.q.val();
        self.epc_q.next = self.epc.q.val();
        self.emask_q.next = self.emask.q.val();

        // ================= next state: steps (1), (3), (4) in `step` =================
        self.step.ws.next = self.ws.q.val();
        self.step.lcause.next = self.lcause.q.val();
        self.step.ncause.next = self.ncause.q.val();
        self.step.gpw.next = self.gpw.q.val();
        self.step.stepped.next = self.stepped.q.val();
        self.step.warp_valid.next = self.warp_valid.val();
        self.step.exc_valid.next = self.exc_valid.val();
        self.step.exc_cause.next = self.exc_cause.val();
        self.step.exc_pc.next = self.exc_pc.val();
        self.step.exc_mask.next = self.exc_mask.val();
        self.step.ret_valid.next = self.ret_valid.val();
        self.step.pause_valid.next = self.pause_valid.val();
        self.step.warp_pc.next = self.warp_pc.val();
        self.step.warp_mask.next = self.warp_mask.val();
        self.step.bar_wait.next = self.bar_wait.val();
        self.step.issue_valid.next = self.issue_valid.val();
        self.step.issue_wid.next = self.issue_wid.val();
        self.step.sr_valid.next = self.sr_valid.val();
        self.step.sr_we.next = self.sr_we.val();
        self.step.sr_wid.next = self.sr_wid.val();
        self.step.sr_sel.next = self.sr_sel.val();
        self.step.sr_wdata.next = self.sr_wdata.val();
        self.step.trap_en.next = self.trap_en.val();
        self.step.ss_en.next = self.ss_en.val();
        self.step.hmask.next = self.hmask.val();
        self.step.kill.next = self.kill.val();
        self.step.resume.next = self.resume.val();
        self.step.win_we.next = self.win_we.val();
        self.step.win_emask.next = self.win_emask.val();
        self.step.wsel.next = self.wsel.val();
        self.step.csr_wdata.next = self.csr_wdata.val();
        self.step.mode.next = self.mode.val();
        self.step.ss_trig.next = self.ss_trig.val();
        self.accepted.next = self.step.accepted.val();
        self.live.next = self.step.live.val();
        self.nm_live.next = self.step.nm_live.val();
        self.nm_acc.next = self.step.nm_acc.val();
        self.ss_elig.next = self.step.ss_elig.val();
        self.ss_done.next = self.step.ss_done.val();
        self.sv_lcause.next = self.step.sv_lcause.val();
        self.sv_ss.next = self.step.sv_ss.val();
        self.trap_next.next = self.step.trap_next.val();
        self.st.next = self.step.st.val();
        self.sr_ok.next = self.step.sr_ok.val();
        self.win_ok.next = self.step.win_ok.val();

        // (6) SAVE: every warp in P enters the handler; STEPPED clears everywhere. SAVE happens
        // only in DRAIN, so it reads the step's flat DRAIN-cycle terms (`WarpStep`: `sv_live` =
        // `live`, `sv_keep` = `live` and LCAUSE NONE after step (3)) instead of comparing the end
        // of the step's priority chain (`n_lcause == NONE`), equal to them whenever `save` is set.
        // (LCAUSE's own next value stays `n_lcause` with SSTEP applied: taking `sv_lcause` for it
        // gave yosys an enable on LCAUSE whose dead hold path stays 'x' in the formal AIG.)
        self.ws.d.next = self.step.n_ws.val();
        self.lcause_next.next = self.step.n_lcause.val();
        self.ncause.d.next = self.step.n_ncause.val();
        self.gpw.d.next = self.step.n_gpw.val();
        self.stepped.d.next = self.step.n_stepped.val();
        // EPC/EMASK hold unless written (their clock enable, `WarpStep`): by steps (1), (3), (4)
        // (`epc_en`/`emask_en`) or by SAVE, which stores the context of every member of P whose
        // LCAUSE was NONE (`sv_cap`): the scheduler's resume context (`warp_pc`/`warp_mask`), or
        // the exception's if it records one in this cycle (then `epc_en` is set too and the value
        // is the same). The value `cx_pc`/`cx_mask` does not depend on SAVE, KILL or the slot's
        // `warp_valid` beyond clearing, so those late terms are one AND/OR level before the
        // enable, which the 64 flip-flops of the two registers share per logic tile.
        self.epc.d.next = self.epc.q.val();
        self.emask.d.next = self.emask.q.val();
        if self.step.epc_en.val() || (self.save.val() && self.step.sv_cap.val()) {
            self.epc.d.next = self.step.cx_pc.val();
        }
        if self.step.emask_en.val() || (self.save.val() && self.step.sv_cap.val()) {
            self.emask.d.next = self.step.cx_mask.val();
        }
        if self.save.val() {
            if self.step.sv_keep.val() {
                // a warp without a recorded exception is the single-stepped one if STEPPED (in
                // DRAIN, `n_stepped` = valid and STEPPED)
                if self.ss_trig.val() && self.stepped.q.val() {
                    self.lcause_next.next = self.k_cause_sstep.val();
                }
            }
            if self.step.sv_live.val() {
                self.ws.d.next = self.k_ws_trap.val();
                if self.gsel.val() {
                    self.gpw.d.next = true;
                }
            }
            self.stepped.d.next = false;
        }
        // (6) exit: every RETW warp restores its context
        if self.exit.val() && self.step.n_ws.val() == self.k_ws_retw.val() {
            self.ws.d.next = self.k_ws_rstr.val();
        }
        self.lcause.d.next = self.lcause_next.val();
    }
}
