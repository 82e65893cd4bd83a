//! `ModeCtl`: the global mode (§2.4) and step (6) of §7.4: episode start in NORM (a local
//! exception, a pending global cause with a RUN warp, or single-step completion), DRAIN -> ENTER
//! at SAVE, ENTER -> HANDLER, and HANDLER -> NORM at the exit (`save` and `exit` come from
//! `SaveExit`). Registers MODE, SS_TRIG and BCAST_Q; it derives `drain_req`, `trap_mode` and
//! `bcast_out` from them.

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ModeCtl<const W: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// SAVE this cycle (DRAIN and `quiesced`, from `SaveExit`).
    pub save: Signal<In, Bit>,
    /// Exit this cycle (HANDLER, no warp TRAP after step (3), from `SaveExit`).
    pub exit: Signal<In, Bit>,
    /// CTRL.TRAP_EN, HAS_SSTEP and CTRL.SSTEP_EN, CTRL.BCAST_EN.
    pub trap_en: Signal<In, Bit>,
    pub ss_en: Signal<In, Bit>,
    pub bcast_en: Signal<In, Bit>,
    /// A global cause is pending after step (2).
    pub gp_any: Signal<In, Bit>,
    /// Per warp, from step (3), in NORM with TRAP_EN (and SSTEP_EN for the single-step terms) and
    /// as if the host did not kill the warp in this cycle (`WarpStep`): live, accepting an
    /// exception, eligible for single-step, not holding single-step completion back.
    pub nm_live: [Signal<In, Bit>; W],
    pub nm_acc: [Signal<In, Bit>; W],
    pub ss_elig: [Signal<In, Bit>; W],
    pub ss_done: [Signal<In, Bit>; W],
    /// A KILL write this cycle, and its warp mask (`csr_wdata`, meaningful with `kill_wr`).
    pub kill_wr: Signal<In, Bit>,
    pub kill_mask: Signal<In, Bits<W>>,
    /// MODE (state).
    pub mode_q: Signal<Out, Bits<2>>,
    /// SS_TRIG (state).
    pub ss_trig_q: Signal<Out, Bit>,
    /// `drain_req`, `trap_mode`, `bcast_out` (§7.4 `outputs`).
    pub drain_req: Signal<Out, Bit>,
    pub trap_mode: Signal<Out, Bit>,
    pub bcast_out: Signal<Out, Bit>,
    /// Sticky bits raised here (TRAP_TAKEN).
    pub st: Signal<Out, Bits<16>>,

    mode: RDff<Bits<2>>,
    ss_trig: RDff<Bit>,
    bcast_q: RDff<Bit>,

    k_mode_norm: Constant<Bits<2>>,
    k_mode_drain: Constant<Bits<2>>,
    k_mode_enter: Constant<Bits<2>>,
    k_mode_handler: Constant<Bits<2>>,
    k_sticky_trap_taken: Constant<Bits<16>>,

    // the reductions over the warps without a KILL write (0) and with one (1), see `update`
    acc0: Signal<Local, Bit>,
    acc1: Signal<Local, Bit>,
    live0: Signal<Local, Bit>,
    live1: Signal<Local, Bit>,
    elig0: Signal<Local, Bit>,
    elig1: Signal<Local, Bit>,
    stp0: Signal<Local, Bit>,
    stp1: Signal<Local, Bit>,
    gs0: Signal<Local, Bit>,
    gs1: Signal<Local, Bit>,
    ssr0: Signal<Local, Bit>,
    ssr1: Signal<Local, Bit>,
    any_accepted: Signal<Local, Bit>,
    g_start: Signal<Local, Bit>,
    ss_raw: Signal<Local, Bit>,
    ss_fire: Signal<Local, Bit>,
}

impl<const W: usize> Default for ModeCtl<W> {
    fn default() -> Self {
        use enc::{mode, sticky};
        let k2 = |v: u64| Constant::new(Bits::<2>::from(v));
        Self {
            clk: Default::default(),
            rst: Default::default(),
            save: Default::default(),
            exit: Default::default(),
            trap_en: Default::default(),
            ss_en: Default::default(),
            bcast_en: Default::default(),
            gp_any: Default::default(),
            nm_live: std::array::from_fn(|_| Default::default()),
            nm_acc: std::array::from_fn(|_| Default::default()),
            ss_elig: std::array::from_fn(|_| Default::default()),
            ss_done: std::array::from_fn(|_| Default::default()),
            kill_wr: Default::default(),
            kill_mask: Default::default(),
            mode_q: Default::default(),
            ss_trig_q: Default::default(),
            drain_req: Default::default(),
            trap_mode: Default::default(),
            bcast_out: Default::default(),
            st: Default::default(),
            mode: Default::default(),
            ss_trig: Default::default(),
            bcast_q: Default::default(),
            k_mode_norm: k2(mode::NORM),
            k_mode_drain: k2(mode::DRAIN),
            k_mode_enter: k2(mode::ENTER),
            k_mode_handler: k2(mode::HANDLER),
            k_sticky_trap_taken: Constant::new(sticky::TRAP_TAKEN.into()),
            acc0: Default::default(),
            acc1: Default::default(),
            live0: Default::default(),
            live1: Default::default(),
            elig0: Default::default(),
            elig1: Default::default(),
            stp0: Default::default(),
            stp1: Default::default(),
            gs0: Default::default(),
            gs1: Default::default(),
            ssr0: Default::default(),
            ssr1: Default::default(),
            any_accepted: Default::default(),
            g_start: Default::default(),
            ss_raw: Default::default(),
            ss_fire: Default::default(),
        }
    }
}

impl<const W: usize> Logic for ModeCtl<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, mode, ss_trig, bcast_q);
        self.mode.rst.next = self.rst.val();
        self.ss_trig.rst.next = self.rst.val();
        self.bcast_q.rst.next = self.rst.val();
        self.mode_q.next = self.mode.q.val();
        self.ss_trig_q.next = self.ss_trig.q.val();
        self.drain_req.next = self.mode.q.val() == self.k_mode_drain.val();
        self.trap_mode.next = self.mode.q.val() != self.k_mode_norm.val();
        self.bcast_out.next = self.bcast_q.q.val();

        // The host's KILL write reaches every warp's step, and through it the episode start and
        // single-step completion, in the same cycle; its address decode is the deepest input of
        // MODE's next state. So the reductions are computed twice from the warps' no-KILL terms,
        // for no KILL write (0: no warp killed) and for one (1: warp i killed iff `kill_mask[i]`),
        // and the decode `kill_wr` selects between them last (one mux level). A killed warp is
        // neither accepting nor live nor eligible (KILL comes before RUN in the step's chain), so
        // each reduction with KILL masks the warp's term by `!kill_mask[i]`, and "every eligible
        // warp has stepped" holds for a killed warp. The warps' terms assume NORM and TRAP_EN (and
        // SSTEP_EN for single-step): the start below is read only in NORM, and the factors
        // `trap_en` (and `ss_en`) are applied here once.
        self.acc0.next = false;
        self.acc1.next = false;
        self.live0.next = false;
        self.live1.next = false;
        self.elig0.next = false;
        self.elig1.next = false;
        self.stp0.next = true;
        self.stp1.next = true;
        for i in 0..W {
            self.acc0.next = self.acc0.val() || self.nm_acc[i].val();
            self.acc1.next = self.acc1.val() || (self.nm_acc[i].val() && !self.kill_mask.val().get_bit(i));
            self.live0.next = self.live0.val() || self.nm_live[i].val();
            self.live1.next = self.live1.val() || (self.nm_live[i].val() && !self.kill_mask.val().get_bit(i));
            self.elig0.next = self.elig0.val() || self.ss_elig[i].val();
            self.elig1.next = self.elig1.val() || (self.ss_elig[i].val() && !self.kill_mask.val().get_bit(i));
            self.stp0.next = self.stp0.val() && self.ss_done[i].val();
            self.stp1.next = self.stp1.val() && (self.kill_mask.val().get_bit(i) || self.ss_done[i].val());
        }
        // a local exception (TRAP_EN: without it the warp parks); a pending global cause with a
        // live warp; single-step completion (every eligible warp has stepped, and one is
        // eligible) before the priority of the other two
        self.acc0.next = self.acc0.val() && self.trap_en.val();
        self.acc1.next = self.acc1.val() && self.trap_en.val();
        self.gs0.next = self.trap_en.val() && self.gp_any.val() && self.live0.val();
        self.gs1.next = self.trap_en.val() && self.gp_any.val() && self.live1.val();
        self.ssr0.next = self.trap_en.val() && self.ss_en.val() && self.elig0.val() && self.stp0.val();
        self.ssr1.next = self.trap_en.val() && self.ss_en.val() && self.elig1.val() && self.stp1.val();
        if self.kill_wr.val() {
            self.any_accepted.next = self.acc1.val();
            self.g_start.next = self.gs1.val();
            self.ss_raw.next = self.ssr1.val();
        } else {
            self.any_accepted.next = self.acc0.val();
            self.g_start.next = self.gs0.val();
            self.ss_raw.next = self.ssr0.val();
        }

        self.st.next = 0.into();
        self.bcast_q.d.next = false;
        // single-step completion starts an episode only if a local exception or a global cause
        // in the same cycle does not (they win); the start itself is the OR of the three
        self.ss_fire.next = !self.any_accepted.val() && !self.g_start.val() && self.ss_raw.val();
        if self.mode.q.val() == self.k_mode_norm.val() {
            if self.any_accepted.val() || self.g_start.val() || self.ss_raw.val() {
                self.mode.d.next = self.k_mode_drain.val();
                self.st.next = self.k_sticky_trap_taken.val();
                self.ss_trig.d.next = self.ss_fire.val();
                // broadcast only episodes started here by a local event, never by a global one
                self.bcast_q.d.next = self.bcast_en.val() && (self.any_accepted.val() || self.ss_fire.val());
            }
        } else if self.save.val() {
            self.mode.d.next = self.k_mode_enter.val();
            self.ss_trig.d.next = false;
        } else if self.mode.q.val() == self.k_mode_enter.val() {
            self.mode.d.next = self.k_mode_handler.val();
        } else if self.exit.val() {
            self.mode.d.next = self.k_mode_norm.val();
        }
    }
}
