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
    /// Per warp, from step (3): exception accepted, RUN before and after, eligible for
    /// single-step, STEPPED.
    pub accepted: [Signal<In, Bit>; W],
    pub live: [Signal<In, Bit>; W],
    pub eligible: [Signal<In, Bit>; W],
    pub stepped_next: [Signal<In, Bit>; W],
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

    any_accepted: Signal<Local, Bit>,
    any_live: Signal<Local, Bit>,
    any_eligible: Signal<Local, Bit>,
    all_stepped: Signal<Local, Bit>,
    g_start: Signal<Local, Bit>,
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
            accepted: std::array::from_fn(|_| Default::default()),
            live: std::array::from_fn(|_| Default::default()),
            eligible: std::array::from_fn(|_| Default::default()),
            stepped_next: std::array::from_fn(|_| Default::default()),
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
            any_accepted: Default::default(),
            any_live: Default::default(),
            any_eligible: Default::default(),
            all_stepped: Default::default(),
            g_start: Default::default(),
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

        self.any_accepted.next = false;
        self.any_live.next = false;
        self.any_eligible.next = false;
        self.all_stepped.next = true;
        for i in 0..W {
            self.any_accepted.next = self.any_accepted.val() || self.accepted[i].val();
            self.any_live.next = self.any_live.val() || self.live[i].val();
            // AND/OR terms, not nested ifs: single-step completion is on the MODE path
            self.any_eligible.next = self.any_eligible.val() || self.eligible[i].val();
            self.all_stepped.next = self.all_stepped.val() && (!self.eligible[i].val() || self.stepped_next[i].val());
        }

        self.st.next = 0.into();
        self.bcast_q.d.next = false;
        self.g_start.next = self.trap_en.val() && self.gp_any.val() && self.any_live.val();
        // single-step completion: every eligible warp has stepped (and one is eligible); a local
        // exception or a global cause in the same cycle wins
        self.ss_fire.next = !self.any_accepted.val()
            && !self.g_start.val()
            && self.trap_en.val()
            && self.ss_en.val()
            && self.any_eligible.val()
            && self.all_stepped.val();
        if self.mode.q.val() == self.k_mode_norm.val() {
            if self.any_accepted.val() || self.g_start.val() || self.ss_fire.val() {
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
