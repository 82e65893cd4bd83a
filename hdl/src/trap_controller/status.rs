//! `Status`: the sticky bits of GSTATUS (§7.2) and `host_irq`. Every part of the step reports the
//! bits it raises; step (7) commits `(STICKY & !W1C | raised) & STICKY_MASK`. The two errors
//! that need all warps' answers are decided here: ERR_SR (an SR write no warp accepted) and
//! ERR_CSR for a WEPC/WEMASK write whose window warp is not PAUSED/PARKED (or WSEL >= W).

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Status<const W: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Sticky bits raised by each warp.
    pub warp_st: [Signal<In, Bits<16>>; W],
    /// Sticky bits raised by the CSR write, the global events, the episode, the mode.
    pub csr_st: Signal<In, Bits<16>>,
    pub global_st: Signal<In, Bits<16>>,
    pub episode_st: Signal<In, Bits<16>>,
    pub mode_st: Signal<In, Bits<16>>,
    /// GSTATUS write-1-to-clear bits (0 unless GSTATUS is written).
    pub sticky_clr: Signal<In, Bits<16>>,
    /// `sr_valid` and `sr_we`: an SR write; per warp: it was legal for that warp.
    pub sr_valid: Signal<In, Bit>,
    pub sr_we: Signal<In, Bit>,
    pub sr_ok: [Signal<In, Bit>; W],
    /// A WEPC/WEMASK write; per warp: it was legal for that warp.
    pub win_we: Signal<In, Bit>,
    pub win_ok: [Signal<In, Bit>; W],
    /// IRQ_EN (state).
    pub irq_en: Signal<In, Bits<16>>,
    /// STICKY (state).
    pub sticky_q: Signal<Out, Bits<16>>,
    /// `host_irq`: (STICKY & IRQ_EN & STICKY_MASK) != 0.
    pub host_irq: Signal<Out, Bit>,

    sticky: RDff<Bits<16>>,

    k_mask_sticky: Constant<Bits<16>>,
    k_sticky_err_sr: Constant<Bits<16>>,
    k_sticky_err_csr: Constant<Bits<16>>,

    raised: Signal<Local, Bits<16>>,
    any_sr_ok: Signal<Local, Bit>,
    any_win_ok: Signal<Local, Bit>,
}

impl<const W: usize> Default for Status<W> {
    fn default() -> Self {
        use enc::{mask, sticky};
        Self {
            clk: Default::default(),
            rst: Default::default(),
            warp_st: std::array::from_fn(|_| Default::default()),
            csr_st: Default::default(),
            global_st: Default::default(),
            episode_st: Default::default(),
            mode_st: Default::default(),
            sticky_clr: Default::default(),
            sr_valid: Default::default(),
            sr_we: Default::default(),
            sr_ok: std::array::from_fn(|_| Default::default()),
            win_we: Default::default(),
            win_ok: std::array::from_fn(|_| Default::default()),
            irq_en: Default::default(),
            sticky_q: Default::default(),
            host_irq: Default::default(),
            sticky: Default::default(),
            k_mask_sticky: Constant::new(mask::STICKY.into()),
            k_sticky_err_sr: Constant::new(sticky::ERR_SR.into()),
            k_sticky_err_csr: Constant::new(sticky::ERR_CSR.into()),
            raised: Default::default(),
            any_sr_ok: Default::default(),
            any_win_ok: Default::default(),
        }
    }
}

impl<const W: usize> Logic for Status<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, sticky);
        self.sticky.rst.next = self.rst.val();
        self.sticky_q.next = self.sticky.q.val();
        self.host_irq.next = (self.sticky.q.val() & self.irq_en.val() & self.k_mask_sticky.val()).any();

        self.raised.next = self.csr_st.val() | self.global_st.val() | self.episode_st.val() | self.mode_st.val();
        self.any_sr_ok.next = false;
        self.any_win_ok.next = false;
        for i in 0..W {
            self.raised.next = self.raised.val() | self.warp_st[i].val();
            self.any_sr_ok.next = self.any_sr_ok.val() || self.sr_ok[i].val();
            self.any_win_ok.next = self.any_win_ok.val() || self.win_ok[i].val();
        }
        if self.sr_valid.val() && self.sr_we.val() && !self.any_sr_ok.val() {
            self.raised.next = self.raised.val() | self.k_sticky_err_sr.val();
        }
        if self.win_we.val() && !self.any_win_ok.val() {
            self.raised.next = self.raised.val() | self.k_sticky_err_csr.val();
        }
        // (7) commit: a bit set in the same cycle wins over its W1C clear
        self.sticky.d.next = ((self.sticky.q.val() & !self.sticky_clr.val()) | self.raised.val()) & self.k_mask_sticky.val();
    }
}
