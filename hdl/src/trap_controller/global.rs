//! `GlobalEvents`: the SM-wide causes, step (2) of §7.4 and their consumption at SAVE. Registers
//! GPEND (pending global causes), HTMASK (the warps a HOST_INT targets) and GCAUSE (the cause of
//! the episode). At most one cause is consumed per episode, the highest-priority pending one
//! (§2.4: ECC > TIMEOUT > HOST_INT > CTX_SWITCH > BCAST > UNKNOWN, i.e. the lowest code).

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct GlobalEvents<const W: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// GPEND write-1-to-clear (from the CSR file; 0 unless GPEND is written).
    pub gpend_clr: Signal<In, Bits<16>>,
    /// HINT write: post HOST_INT to these warps (0 unless HINT is written).
    pub hint: Signal<In, Bits<W>>,
    /// `host_int`: HOST_INT to every warp.
    pub host_int: Signal<In, Bit>,
    /// `sm_evt_valid`, `sm_evt_cause`: an SM-wide event.
    pub sm_evt_valid: Signal<In, Bit>,
    pub sm_evt_cause: Signal<In, Bits<4>>,
    /// `bcast_in`: a trap broadcast from another SM.
    pub bcast_in: Signal<In, Bit>,
    /// SAVE this cycle.
    pub save: Signal<In, Bit>,
    /// Some global cause is pending after step (2) (starts an episode in NORM).
    pub gp_any: Signal<Out, Bit>,
    /// Per warp: the cause consumed at this SAVE targets the warp (if it is in P).
    pub gsel: [Signal<Out, Bit>; W],
    /// GCAUSE after the edge (TGID of this SAVE).
    pub gcause_next: Signal<Out, Bits<4>>,
    /// The registers, for the CSR reads and the ESR.
    pub gpend_q: Signal<Out, Bits<16>>,
    pub htmask_q: Signal<Out, Bits<W>>,
    pub gcause_q: Signal<Out, Bits<4>>,
    /// Sticky bits raised here (ERR_SPUR, ERR_UNK).
    pub st: Signal<Out, Bits<16>>,

    gpend: RDff<Bits<16>>,
    htmask: RDff<Bits<W>>,
    gcause: RDff<Bits<4>>,

    k_cause_none: Constant<Bits<4>>,
    k_cause_ecc: Constant<Bits<4>>,
    k_cause_timeout: Constant<Bits<4>>,
    k_cause_host_int: Constant<Bits<4>>,
    k_cause_ctx_switch: Constant<Bits<4>>,
    k_cause_bcast: Constant<Bits<4>>,
    k_cause_unknown: Constant<Bits<4>>,
    // GPEND bit of each global cause (1 << cause)
    k_gpend_ecc: Constant<Bits<16>>,
    k_gpend_timeout: Constant<Bits<16>>,
    k_gpend_host_int: Constant<Bits<16>>,
    k_gpend_ctx_switch: Constant<Bits<16>>,
    k_gpend_bcast: Constant<Bits<16>>,
    k_gpend_unknown: Constant<Bits<16>>,
    k_mask_gpend: Constant<Bits<16>>,
    k_sticky_err_spur: Constant<Bits<16>>,
    k_sticky_err_unk: Constant<Bits<16>>,
    k_all_warps: Constant<Bits<W>>,

    /// GPEND and HTMASK after step (2) (the golden model's `gp`, `ht`).
    gp: Signal<Local, Bits<16>>,
    ht: Signal<Local, Bits<W>>,
    /// The highest-priority pending cause and its GPEND bit.
    g: Signal<Local, Bits<4>>,
    g_bit: Signal<Local, Bits<16>>,
}

impl<const W: usize> Default for GlobalEvents<W> {
    fn default() -> Self {
        use enc::{cause, mask, sticky};
        let k4 = |v: u64| Constant::new(Bits::<4>::from(v));
        let bit = |c: u64| Constant::new(Bits::<16>::from(1 << c));
        let all = if W >= 64 { u64::MAX } else { (1u64 << W) - 1 };
        Self {
            clk: Default::default(),
            rst: Default::default(),
            gpend_clr: Default::default(),
            hint: Default::default(),
            host_int: Default::default(),
            sm_evt_valid: Default::default(),
            sm_evt_cause: Default::default(),
            bcast_in: Default::default(),
            save: Default::default(),
            gp_any: Default::default(),
            gsel: std::array::from_fn(|_| Default::default()),
            gcause_next: Default::default(),
            gpend_q: Default::default(),
            htmask_q: Default::default(),
            gcause_q: Default::default(),
            st: Default::default(),
            gpend: Default::default(),
            htmask: Default::default(),
            gcause: Default::default(),
            k_cause_none: k4(cause::NONE),
            k_cause_ecc: k4(cause::ECC),
            k_cause_timeout: k4(cause::TIMEOUT),
            k_cause_host_int: k4(cause::HOST_INT),
            k_cause_ctx_switch: k4(cause::CTX_SWITCH),
            k_cause_bcast: k4(cause::BCAST),
            k_cause_unknown: k4(cause::UNKNOWN),
            k_gpend_ecc: bit(cause::ECC),
            k_gpend_timeout: bit(cause::TIMEOUT),
            k_gpend_host_int: bit(cause::HOST_INT),
            k_gpend_ctx_switch: bit(cause::CTX_SWITCH),
            k_gpend_bcast: bit(cause::BCAST),
            k_gpend_unknown: bit(cause::UNKNOWN),
            k_mask_gpend: Constant::new(mask::GPEND.into()),
            k_sticky_err_spur: Constant::new(sticky::ERR_SPUR.into()),
            k_sticky_err_unk: Constant::new(sticky::ERR_UNK.into()),
            k_all_warps: Constant::new(all.into()),
            gp: Default::default(),
            ht: Default::default(),
            g: Default::default(),
            g_bit: Default::default(),
        }
    }
}

impl<const W: usize> Logic for GlobalEvents<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, gpend, htmask, gcause);
        self.gpend.rst.next = self.rst.val();
        self.htmask.rst.next = self.rst.val();
        self.gcause.rst.next = self.rst.val();
        self.gpend_q.next = self.gpend.q.val();
        self.htmask_q.next = self.htmask.q.val();
        self.gcause_q.next = self.gcause.q.val();

        // (2) global events: clear first, then set
        self.st.next = 0.into();
        self.gp.next = self.gpend.q.val() & !self.gpend_clr.val();
        self.ht.next = self.htmask.q.val();
        if self.host_int.val() {
            self.gp.next = self.gp.val() | self.k_gpend_host_int.val();
            self.ht.next = self.k_all_warps.val();
        }
        if self.hint.val().any() {
            self.gp.next = self.gp.val() | self.k_gpend_host_int.val();
            self.ht.next = self.ht.val() | self.hint.val();
        }
        if self.sm_evt_valid.val() {
            // gmap: ECC, TIMEOUT, CTX_SWITCH as given, 0 spurious, anything else UNKNOWN
            if self.sm_evt_cause.val() == self.k_cause_none.val() {
                self.st.next = self.st.val() | self.k_sticky_err_spur.val();
            } else if self.sm_evt_cause.val() == self.k_cause_ecc.val() {
                self.gp.next = self.gp.val() | self.k_gpend_ecc.val();
            } else if self.sm_evt_cause.val() == self.k_cause_timeout.val() {
                self.gp.next = self.gp.val() | self.k_gpend_timeout.val();
            } else if self.sm_evt_cause.val() == self.k_cause_ctx_switch.val() {
                self.gp.next = self.gp.val() | self.k_gpend_ctx_switch.val();
            } else {
                self.gp.next = self.gp.val() | self.k_gpend_unknown.val();
                self.st.next = self.st.val() | self.k_sticky_err_unk.val();
            }
        }
        if self.bcast_in.val() {
            self.gp.next = self.gp.val() | self.k_gpend_bcast.val();
        }
        if !(self.gp.val() & self.k_gpend_host_int.val()).any() {
            self.ht.next = 0.into();
        }
        // `gp.any()` written flat from the sources (it starts an episode in the same cycle, so it is
        // on MODE's path): what is left of GPEND after the clear, or any cause set now (an SM
        // event sets a bit unless its cause is NONE). The same function as `gp.any()` above.
        self.gp_any.next = (self.gpend.q.val() & !self.gpend_clr.val()).any()
            || self.host_int.val()
            || self.hint.val().any()
            || (self.sm_evt_valid.val() && self.sm_evt_cause.val() != self.k_cause_none.val())
            || self.bcast_in.val();

        // the cause a SAVE now would consume (GPEND holds only GPEND_MASK causes)
        self.g.next = self.k_cause_none.val();
        self.g_bit.next = 0.into();
        if (self.gp.val() & self.k_gpend_ecc.val()).any() {
            self.g.next = self.k_cause_ecc.val();
            self.g_bit.next = self.k_gpend_ecc.val();
        } else if (self.gp.val() & self.k_gpend_timeout.val()).any() {
            self.g.next = self.k_cause_timeout.val();
            self.g_bit.next = self.k_gpend_timeout.val();
        } else if (self.gp.val() & self.k_gpend_host_int.val()).any() {
            self.g.next = self.k_cause_host_int.val();
            self.g_bit.next = self.k_gpend_host_int.val();
        } else if (self.gp.val() & self.k_gpend_ctx_switch.val()).any() {
            self.g.next = self.k_cause_ctx_switch.val();
            self.g_bit.next = self.k_gpend_ctx_switch.val();
        } else if (self.gp.val() & self.k_gpend_bcast.val()).any() {
            self.g.next = self.k_cause_bcast.val();
            self.g_bit.next = self.k_gpend_bcast.val();
        } else if (self.gp.val() & self.k_gpend_unknown.val()).any() {
            self.g.next = self.k_cause_unknown.val();
            self.g_bit.next = self.k_gpend_unknown.val();
        }
        // HOST_INT targets HTMASK, the other causes every warp
        for i in 0..W {
            self.gsel[i].next =
                self.gp_any.val() && (self.g.val() != self.k_cause_host_int.val() || self.ht.val().get_bit(i));
        }

        // (6) SAVE consumes the cause; (7) commit
        self.gcause_next.next = self.gcause.q.val();
        self.gpend.d.next = self.gp.val() & self.k_mask_gpend.val();
        self.htmask.d.next = self.ht.val();
        if self.save.val() {
            self.gcause_next.next = self.g.val();
            self.gpend.d.next = self.gp.val() & !self.g_bit.val() & self.k_mask_gpend.val();
            if self.g.val() == self.k_cause_host_int.val() {
                self.htmask.d.next = 0.into();
            }
        }
        self.gcause.d.next = self.gcause_next.val();
    }
}
