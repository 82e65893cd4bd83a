//! `Episode`: what an episode records once for all warps. Step (5) of §7.4, the first-exception
//! bookkeeping (FVALID, FWID; MULTI when two or more warps record exceptions in one episode),
//! and SAVE's latches in step (6): HLAT <- HADDR and TGID (the first faulting warp, else the
//! lowest single-stepped warp, else EXT with the global cause and its lowest target), and GDROP
//! when the global cause found no target.

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Episode<const W: usize, const WIDW: usize, const PCW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Per warp, from step (3): exception accepted, member of P (at SAVE), LCAUSE after the edge
    /// if this is a SAVE, member of P with LCAUSE SSTEP after SAVE.
    pub accepted: [Signal<In, Bit>; W],
    pub live: [Signal<In, Bit>; W],
    pub sv_lcause: [Signal<In, Bits<4>>; W],
    pub sv_ss: [Signal<In, Bit>; W],
    /// Per warp: the global cause consumed at this SAVE targets it.
    pub gsel: [Signal<In, Bit>; W],
    /// A global cause is pending, and GCAUSE after the edge.
    pub gp_any: Signal<In, Bit>,
    pub gcause_next: Signal<In, Bits<4>>,
    /// SAVE this cycle; SS_TRIG (state).
    pub save: Signal<In, Bit>,
    pub ss_trig: Signal<In, Bit>,
    /// HADDR (state), latched into HLAT at SAVE.
    pub haddr: Signal<In, Bits<PCW>>,
    /// TGID and HLAT (state).
    pub tgid_q: Signal<Out, Bits<32>>,
    pub hlat_q: Signal<Out, Bits<PCW>>,
    /// FVALID and FWID (state; only the state tap reads them from outside).
    pub fvalid_q: Signal<Out, Bit>,
    pub fwid_q: Signal<Out, Bits<WIDW>>,
    /// Sticky bits raised here (MULTI, GDROP).
    pub st: Signal<Out, Bits<16>>,

    fvalid: RDff<Bit>,
    fwid: RDff<Bits<WIDW>>,
    tgid: RDff<Bits<32>>,
    hlat: RDff<Bits<PCW>>,

    k_wid: [Constant<Bits<WIDW>>; W],
    k_cause_none: Constant<Bits<4>>,
    k_cause_sstep: Constant<Bits<4>>,
    k_tgid_valid: Constant<Bits<32>>,
    k_tgid_ext: Constant<Bits<32>>,
    k_sticky_multi: Constant<Bits<16>>,
    k_sticky_gdrop: Constant<Bits<16>>,

    /// FVALID and FWID after step (5).
    n_fvalid: Signal<Local, Bit>,
    n_fwid: Signal<Local, Bits<WIDW>>,
    any_accepted: Signal<Local, Bit>,
    /// The lowest accepting warp.
    first: Signal<Local, Bits<WIDW>>,
    /// TGID's cause for the first faulting warp; the lowest single-stepped and targeted warps in P.
    cause: Signal<Local, Bits<4>>,
    /// Some lower warp accepts an exception now.
    low_acc: Signal<Local, Bit>,
    any_sstep: Signal<Local, Bit>,
    sstep_wid: Signal<Local, Bits<WIDW>>,
    any_target: Signal<Local, Bit>,
    target_wid: Signal<Local, Bits<WIDW>>,
}

impl<const W: usize, const WIDW: usize, const PCW: usize> Episode<W, WIDW, PCW> {
    /// `haddr_reset`: HADDR_RESET, the reset value of HLAT.
    pub fn new(haddr_reset: u64) -> Self {
        use enc::{cause, sticky, tgid};
        Self {
            clk: Default::default(),
            rst: Default::default(),
            accepted: std::array::from_fn(|_| Default::default()),
            live: std::array::from_fn(|_| Default::default()),
            sv_lcause: std::array::from_fn(|_| Default::default()),
            sv_ss: std::array::from_fn(|_| Default::default()),
            gsel: std::array::from_fn(|_| Default::default()),
            gp_any: Default::default(),
            gcause_next: Default::default(),
            save: Default::default(),
            ss_trig: Default::default(),
            haddr: Default::default(),
            tgid_q: Default::default(),
            hlat_q: Default::default(),
            fvalid_q: Default::default(),
            fwid_q: Default::default(),
            st: Default::default(),
            fvalid: Default::default(),
            fwid: Default::default(),
            tgid: Default::default(),
            hlat: RDff::with_reset(haddr_reset.into()),
            k_wid: std::array::from_fn(|w| Constant::new((w as u64).into())),
            k_cause_none: Constant::new(cause::NONE.into()),
            k_cause_sstep: Constant::new(cause::SSTEP.into()),
            k_tgid_valid: Constant::new(tgid::VALID.into()),
            k_tgid_ext: Constant::new(tgid::EXT.into()),
            k_sticky_multi: Constant::new(sticky::MULTI.into()),
            k_sticky_gdrop: Constant::new(sticky::GDROP.into()),
            n_fvalid: Default::default(),
            n_fwid: Default::default(),
            any_accepted: Default::default(),
            first: Default::default(),
            cause: Default::default(),
            low_acc: Default::default(),
            any_sstep: Default::default(),
            sstep_wid: Default::default(),
            any_target: Default::default(),
            target_wid: Default::default(),
        }
    }
}

impl<const W: usize, const WIDW: usize, const PCW: usize> Logic for Episode<W, WIDW, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, fvalid, fwid, tgid, hlat);
        self.fvalid.rst.next = self.rst.val();
        self.fwid.rst.next = self.rst.val();
        self.tgid.rst.next = self.rst.val();
        self.hlat.rst.next = self.rst.val();
        self.tgid_q.next = self.tgid.q.val();
        self.hlat_q.next = self.hlat.q.val();
        self.fvalid_q.next = self.fvalid.q.val();
        self.fwid_q.next = self.fwid.q.val();

        // (5) first-exception bookkeeping: MULTI on a second recording warp in the episode
        self.st.next = 0.into();
        self.any_accepted.next = false;
        self.first.next = 0.into();
        for i in 0..W {
            if self.accepted[i].val() {
                if self.any_accepted.val() || self.fvalid.q.val() {
                    self.st.next = self.k_sticky_multi.val();
                }
                if !self.any_accepted.val() {
                    self.first.next = self.k_wid[i].val();
                }
                self.any_accepted.next = true;
            }
        }
        self.n_fvalid.next = self.fvalid.q.val();
        self.n_fwid.next = self.fwid.q.val();
        if self.any_accepted.val() && !self.fvalid.q.val() {
            self.n_fvalid.next = true;
            self.n_fwid.next = self.first.val();
        }
        self.fvalid.d.next = self.n_fvalid.val();
        self.fwid.d.next = self.n_fwid.val();

        // (6) SAVE: TGID = VALID | EXT | CAUSE << 8 | WID
        // The cause is the first faulting warp's LCAUSE after the edge. It is selected one-hot,
        // from FWID (a register) when FVALID was set before this cycle, else from the lowest
        // warp accepting now, instead of re-decoding `n_fwid` (the priority encoder's output)
        // against every warp id and muxing in a chain: the same warp, fewer levels. The LCAUSE
        // values are the warps' flat SAVE-cycle values (`sv_lcause`, `WarpStep`), equal to the
        // register's next value whenever `save` is set, the only time TGID is written.
        self.cause.next = self.k_cause_none.val();
        self.any_sstep.next = false;
        self.sstep_wid.next = 0.into();
        self.any_target.next = false;
        self.target_wid.next = 0.into();
        self.low_acc.next = false;
        for i in 0..W {
            if (self.fvalid.q.val() && self.fwid.q.val() == self.k_wid[i].val())
                || (!self.fvalid.q.val() && self.accepted[i].val() && !self.low_acc.val())
            {
                self.cause.next = self.cause.val() | self.sv_lcause[i].val();
            }
            self.low_acc.next = self.low_acc.val() || self.accepted[i].val();
            if !self.any_sstep.val() && self.sv_ss[i].val() {
                self.any_sstep.next = true;
                self.sstep_wid.next = self.k_wid[i].val();
            }
            if !self.any_target.val() && self.live[i].val() && self.gsel[i].val() {
                self.any_target.next = true;
                self.target_wid.next = self.k_wid[i].val();
            }
        }
        if self.save.val() {
            self.hlat.d.next = self.haddr.val();
            if self.gp_any.val() && !self.any_target.val() {
                self.st.next = self.st.val() | self.k_sticky_gdrop.val();
            }
            if self.n_fvalid.val() {
                self.tgid.d.next = self.k_tgid_valid.val()
                    | (bit_cast::<32, 4>(self.cause.val()) << 8)
                    | bit_cast::<32, WIDW>(self.n_fwid.val());
            } else if self.ss_trig.val() && self.any_sstep.val() {
                self.tgid.d.next = self.k_tgid_valid.val()
                    | (bit_cast::<32, 4>(self.k_cause_sstep.val()) << 8)
                    | bit_cast::<32, WIDW>(self.sstep_wid.val());
            } else {
                // EXT: the global cause (NONE if there was none) and its lowest target
                self.tgid.d.next = self.k_tgid_valid.val()
                    | self.k_tgid_ext.val()
                    | (bit_cast::<32, 4>(self.gcause_next.val()) << 8)
                    | bit_cast::<32, WIDW>(self.target_wid.val());
            }
            self.fvalid.d.next = false;
            self.fwid.d.next = 0.into();
        }
    }
}
