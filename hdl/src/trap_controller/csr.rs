//! The host CSR port (§7.3): `CsrRegs`, the host-programmable registers and the write decode of
//! step (1) of §7.4, and `CsrRead`, the read multiplexer over the pre-edge state. Writes that act
//! elsewhere (GSTATUS/GPEND clears, HINT, RESUME, KILL, WEPC/WEMASK) leave as strobes and masks.

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CsrRegs<const W: usize, const WIDW: usize, const PCW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// `csr_valid`, `csr_we`, `csr_addr`, `csr_wdata`.
    pub csr_valid: Signal<In, Bit>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// The registers.
    pub ctrl_q: Signal<Out, Bits<3>>,
    pub haddr_q: Signal<Out, Bits<PCW>>,
    pub irq_en_q: Signal<Out, Bits<16>>,
    pub hmask_q: Signal<Out, Bits<16>>,
    pub wsel_q: Signal<Out, Bits<WIDW>>,
    pub vtbase_q: Signal<Out, Bits<PCW>>,
    /// CTRL decoded: TRAP_EN, BCAST_EN, and SSTEP_EN with HAS_SSTEP.
    pub trap_en: Signal<Out, Bit>,
    pub bcast_en: Signal<Out, Bit>,
    pub ss_en: Signal<Out, Bit>,
    /// Write strobes, 0 unless that CSR is written: GSTATUS and GPEND bits to clear, HINT,
    /// RESUME and KILL warp masks, a WEPC/WEMASK write (and which).
    pub sticky_clr: Signal<Out, Bits<16>>,
    pub gpend_clr: Signal<Out, Bits<16>>,
    pub hint: Signal<Out, Bits<W>>,
    pub resume: Signal<Out, Bits<W>>,
    pub kill: Signal<Out, Bits<W>>,
    /// A KILL write (its warp mask is `csr_wdata`): `ModeCtl` selects with it last.
    pub kill_wr: Signal<Out, Bit>,
    pub win_we: Signal<Out, Bit>,
    pub win_emask: Signal<Out, Bit>,
    /// Sticky bits raised here (ERR_CSR: write to a read-only or unmapped address).
    pub st: Signal<Out, Bits<16>>,

    ctrl: RDff<Bits<3>>,
    haddr: RDff<Bits<PCW>>,
    irq_en: RDff<Bits<16>>,
    hmask: RDff<Bits<16>>,
    wsel: RDff<Bits<WIDW>>,
    vtbase: RDff<Bits<PCW>>,

    k_csr_ctrl: Constant<Bits<8>>,
    k_csr_haddr: Constant<Bits<8>>,
    k_csr_gstatus: Constant<Bits<8>>,
    k_csr_irq_en: Constant<Bits<8>>,
    k_csr_gpend: Constant<Bits<8>>,
    k_csr_hint: Constant<Bits<8>>,
    k_csr_resume: Constant<Bits<8>>,
    k_csr_kill: Constant<Bits<8>>,
    k_csr_hmask: Constant<Bits<8>>,
    k_csr_wsel: Constant<Bits<8>>,
    k_csr_wepc: Constant<Bits<8>>,
    k_csr_wemask: Constant<Bits<8>>,
    k_csr_vtbase: Constant<Bits<8>>,
    k_ctrl_trap_en: Constant<Bits<3>>,
    k_ctrl_bcast_en: Constant<Bits<3>>,
    k_ctrl_sstep_en: Constant<Bits<3>>,
    /// The CTRL bits that exist (SSTEP_EN only with HAS_SSTEP).
    k_ctrl_writable: Constant<Bits<3>>,
    k_mask_sticky: Constant<Bits<16>>,
    k_mask_gpend: Constant<Bits<16>>,
    k_sticky_err_csr: Constant<Bits<16>>,

    write: Signal<Local, Bit>,
    mapped: Signal<Local, Bit>,
}

impl<const W: usize, const WIDW: usize, const PCW: usize> CsrRegs<W, WIDW, PCW> {
    pub fn new(haddr_reset: u64, has_sstep: bool) -> Self {
        use enc::{csr, ctrl, mask, reset, sticky};
        let a = |v: u64| Constant::new(Bits::<8>::from(v));
        let c = |v: u64| Constant::new(Bits::<3>::from(v));
        let writable = ctrl::TRAP_EN | ctrl::BCAST_EN | if has_sstep { ctrl::SSTEP_EN } else { 0 };
        Self {
            clk: Default::default(),
            rst: Default::default(),
            csr_valid: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            ctrl_q: Default::default(),
            haddr_q: Default::default(),
            irq_en_q: Default::default(),
            hmask_q: Default::default(),
            wsel_q: Default::default(),
            vtbase_q: Default::default(),
            trap_en: Default::default(),
            bcast_en: Default::default(),
            ss_en: Default::default(),
            sticky_clr: Default::default(),
            gpend_clr: Default::default(),
            hint: Default::default(),
            resume: Default::default(),
            kill: Default::default(),
            kill_wr: Default::default(),
            win_we: Default::default(),
            win_emask: Default::default(),
            st: Default::default(),
            ctrl: RDff::with_reset(reset::CTRL.into()),
            haddr: RDff::with_reset(haddr_reset.into()),
            irq_en: RDff::with_reset(reset::IRQ_EN.into()),
            hmask: RDff::with_reset(reset::HMASK.into()),
            wsel: Default::default(),
            vtbase: Default::default(),
            k_csr_ctrl: a(csr::CTRL),
            k_csr_haddr: a(csr::HADDR),
            k_csr_gstatus: a(csr::GSTATUS),
            k_csr_irq_en: a(csr::IRQ_EN),
            k_csr_gpend: a(csr::GPEND),
            k_csr_hint: a(csr::HINT),
            k_csr_resume: a(csr::RESUME),
            k_csr_kill: a(csr::KILL),
            k_csr_hmask: a(csr::HMASK),
            k_csr_wsel: a(csr::WSEL),
            k_csr_wepc: a(csr::WEPC),
            k_csr_wemask: a(csr::WEMASK),
            k_csr_vtbase: a(csr::VTBASE),
            k_ctrl_trap_en: c(ctrl::TRAP_EN),
            k_ctrl_bcast_en: c(ctrl::BCAST_EN),
            k_ctrl_sstep_en: c(ctrl::SSTEP_EN),
            k_ctrl_writable: c(writable),
            k_mask_sticky: Constant::new(mask::STICKY.into()),
            k_mask_gpend: Constant::new(mask::GPEND.into()),
            k_sticky_err_csr: Constant::new(sticky::ERR_CSR.into()),
            write: Default::default(),
            mapped: Default::default(),
        }
    }
}

impl<const W: usize, const WIDW: usize, const PCW: usize> Logic for CsrRegs<W, WIDW, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, ctrl, haddr, irq_en, hmask, wsel, vtbase);
        self.ctrl.rst.next = self.rst.val();
        self.haddr.rst.next = self.rst.val();
        self.irq_en.rst.next = self.rst.val();
        self.hmask.rst.next = self.rst.val();
        self.wsel.rst.next = self.rst.val();
        self.vtbase.rst.next = self.rst.val();
        self.ctrl_q.next = self.ctrl.q.val();
        self.haddr_q.next = self.haddr.q.val();
        self.irq_en_q.next = self.irq_en.q.val();
        self.hmask_q.next = self.hmask.q.val();
        self.wsel_q.next = self.wsel.q.val();
        self.vtbase_q.next = self.vtbase.q.val();
        // SSTEP_EN can only be set with HAS_SSTEP (the write mask), so it needs no second check
        self.trap_en.next = (self.ctrl.q.val() & self.k_ctrl_trap_en.val()).any();
        self.bcast_en.next = (self.ctrl.q.val() & self.k_ctrl_bcast_en.val()).any();
        self.ss_en.next = (self.ctrl.q.val() & self.k_ctrl_sstep_en.val()).any();

        // (1) host CSR write
        self.sticky_clr.next = 0.into();
        self.gpend_clr.next = 0.into();
        self.hint.next = 0.into();
        self.resume.next = 0.into();
        self.kill.next = 0.into();
        self.kill_wr.next = false;
        self.win_we.next = false;
        self.win_emask.next = false;
        self.st.next = 0.into();
        self.write.next = self.csr_valid.val() && self.csr_we.val();
        // One independent decode per address (the addresses are distinct, so this is the same
        // function as an if-else chain, without the chain's priority mux: KILL and RESUME feed
        // every warp's step and, through it, the exit and MODE in the same cycle).
        self.mapped.next = false;
        if self.write.val() && self.csr_addr.val() == self.k_csr_ctrl.val() {
            self.mapped.next = true;
            self.ctrl.d.next = self.csr_wdata.val().get_bits::<3>(0) & self.k_ctrl_writable.val();
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_haddr.val() {
            self.mapped.next = true;
            self.haddr.d.next = self.csr_wdata.val().get_bits::<PCW>(0);
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_gstatus.val() {
            self.mapped.next = true;
            self.sticky_clr.next = self.csr_wdata.val().get_bits::<16>(0) & self.k_mask_sticky.val();
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_irq_en.val() {
            self.mapped.next = true;
            self.irq_en.d.next = self.csr_wdata.val().get_bits::<16>(0) & self.k_mask_sticky.val();
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_gpend.val() {
            self.mapped.next = true;
            self.gpend_clr.next = self.csr_wdata.val().get_bits::<16>(0) & self.k_mask_gpend.val();
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_hint.val() {
            self.mapped.next = true;
            self.hint.next = self.csr_wdata.val().get_bits::<W>(0);
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_resume.val() {
            self.mapped.next = true;
            self.resume.next = self.csr_wdata.val().get_bits::<W>(0);
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_kill.val() {
            self.mapped.next = true;
            self.kill.next = self.csr_wdata.val().get_bits::<W>(0);
            self.kill_wr.next = true;
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_hmask.val() {
            self.mapped.next = true;
            self.hmask.d.next = self.csr_wdata.val().get_bits::<16>(0);
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_wsel.val() {
            self.mapped.next = true;
            self.wsel.d.next = self.csr_wdata.val().get_bits::<WIDW>(0);
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_vtbase.val() {
            self.mapped.next = true;
            self.vtbase.d.next = self.csr_wdata.val().get_bits::<PCW>(0);
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_wepc.val() {
            self.mapped.next = true;
            self.win_we.next = true;
        }
        if self.write.val() && self.csr_addr.val() == self.k_csr_wemask.val() {
            self.mapped.next = true;
            self.win_we.next = true;
            self.win_emask.next = true;
        }
        if self.write.val() && !self.mapped.val() {
            // read-only or unmapped
            self.st.next = self.k_sticky_err_csr.val();
        }
    }
}

/// The read side of §7.3: every CSR of the pre-edge state; 0 for unmapped addresses, for a read
/// with `csr_we` = 1 and when `csr_valid` = 0.
#[derive(LogicBlock)]
pub struct CsrRead<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> {
    /// `csr_valid`, `csr_we`, `csr_addr`.
    pub csr_valid: Signal<In, Bit>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    /// The readable state.
    pub ctrl: Signal<In, Bits<3>>,
    pub haddr: Signal<In, Bits<PCW>>,
    pub mode: Signal<In, Bits<2>>,
    pub sticky: Signal<In, Bits<16>>,
    pub irq_en: Signal<In, Bits<16>>,
    pub tgid: Signal<In, Bits<32>>,
    pub gpend: Signal<In, Bits<16>>,
    pub htmask: Signal<In, Bits<W>>,
    pub hmask: Signal<In, Bits<16>>,
    pub ws_trap: Signal<In, Bits<W>>,
    pub ws_paused: Signal<In, Bits<W>>,
    pub ws_parked: Signal<In, Bits<W>>,
    pub ws_run: Signal<In, Bits<W>>,
    pub wsel: Signal<In, Bits<WIDW>>,
    pub winfo: Signal<In, Bits<32>>,
    pub wepc: Signal<In, Bits<PCW>>,
    pub wemask: Signal<In, Bits<T>>,
    pub vtbase: Signal<In, Bits<PCW>>,
    pub gcause: Signal<In, Bits<4>>,
    /// `csr_rdata`
    pub csr_rdata: Signal<Out, Bits<32>>,

    k_csr_ctrl: Constant<Bits<8>>,
    k_csr_haddr: Constant<Bits<8>>,
    k_csr_gstatus: Constant<Bits<8>>,
    k_csr_irq_en: Constant<Bits<8>>,
    k_csr_tgid: Constant<Bits<8>>,
    k_csr_gpend: Constant<Bits<8>>,
    k_csr_hint: Constant<Bits<8>>,
    k_csr_hmask: Constant<Bits<8>>,
    k_csr_ws_trap: Constant<Bits<8>>,
    k_csr_ws_paused: Constant<Bits<8>>,
    k_csr_ws_parked: Constant<Bits<8>>,
    k_csr_ws_run: Constant<Bits<8>>,
    k_csr_wsel: Constant<Bits<8>>,
    k_csr_winfo: Constant<Bits<8>>,
    k_csr_wepc: Constant<Bits<8>>,
    k_csr_wemask: Constant<Bits<8>>,
    k_csr_vtbase: Constant<Bits<8>>,
    k_csr_gcause: Constant<Bits<8>>,
    k_csr_params: Constant<Bits<8>>,
    /// PARAMS: [5:0] W, [11:6] T, [17:12] PC_W, [18] HAS_SSTEP.
    k_params: Constant<Bits<32>>,
}

impl<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> CsrRead<W, WIDW, PCW, T> {
    pub fn new(has_sstep: bool) -> Self {
        use enc::csr;
        let a = |v: u64| Constant::new(Bits::<8>::from(v));
        let params = W as u64 | (T as u64) << 6 | (PCW as u64) << 12 | (has_sstep as u64) << 18;
        Self {
            csr_valid: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            ctrl: Default::default(),
            haddr: Default::default(),
            mode: Default::default(),
            sticky: Default::default(),
            irq_en: Default::default(),
            tgid: Default::default(),
            gpend: Default::default(),
            htmask: Default::default(),
            hmask: Default::default(),
            ws_trap: Default::default(),
            ws_paused: Default::default(),
            ws_parked: Default::default(),
            ws_run: Default::default(),
            wsel: Default::default(),
            winfo: Default::default(),
            wepc: Default::default(),
            wemask: Default::default(),
            vtbase: Default::default(),
            gcause: Default::default(),
            csr_rdata: Default::default(),
            k_csr_ctrl: a(csr::CTRL),
            k_csr_haddr: a(csr::HADDR),
            k_csr_gstatus: a(csr::GSTATUS),
            k_csr_irq_en: a(csr::IRQ_EN),
            k_csr_tgid: a(csr::TGID),
            k_csr_gpend: a(csr::GPEND),
            k_csr_hint: a(csr::HINT),
            k_csr_hmask: a(csr::HMASK),
            k_csr_ws_trap: a(csr::WS_TRAP),
            k_csr_ws_paused: a(csr::WS_PAUSED),
            k_csr_ws_parked: a(csr::WS_PARKED),
            k_csr_ws_run: a(csr::WS_RUN),
            k_csr_wsel: a(csr::WSEL),
            k_csr_winfo: a(csr::WINFO),
            k_csr_wepc: a(csr::WEPC),
            k_csr_wemask: a(csr::WEMASK),
            k_csr_vtbase: a(csr::VTBASE),
            k_csr_gcause: a(csr::GCAUSE),
            k_csr_params: a(csr::PARAMS),
            k_params: Constant::new(params.into()),
        }
    }
}

impl<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> Logic for CsrRead<W, WIDW, PCW, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.csr_rdata.next = 0.into();
        if self.csr_valid.val() && !self.csr_we.val() {
            if self.csr_addr.val() == self.k_csr_ctrl.val() {
                self.csr_rdata.next = bit_cast::<32, 3>(self.ctrl.val());
            } else if self.csr_addr.val() == self.k_csr_haddr.val() {
                self.csr_rdata.next = bit_cast::<32, PCW>(self.haddr.val());
            } else if self.csr_addr.val() == self.k_csr_gstatus.val() {
                // [1:0] mode, [15:4] sticky
                self.csr_rdata.next = bit_cast::<32, 16>(self.sticky.val()) | bit_cast::<32, 2>(self.mode.val());
            } else if self.csr_addr.val() == self.k_csr_irq_en.val() {
                self.csr_rdata.next = bit_cast::<32, 16>(self.irq_en.val());
            } else if self.csr_addr.val() == self.k_csr_tgid.val() {
                self.csr_rdata.next = self.tgid.val();
            } else if self.csr_addr.val() == self.k_csr_gpend.val() {
                self.csr_rdata.next = bit_cast::<32, 16>(self.gpend.val());
            } else if self.csr_addr.val() == self.k_csr_hint.val() {
                self.csr_rdata.next = bit_cast::<32, W>(self.htmask.val());
            } else if self.csr_addr.val() == self.k_csr_hmask.val() {
                self.csr_rdata.next = bit_cast::<32, 16>(self.hmask.val());
            } else if self.csr_addr.val() == self.k_csr_ws_trap.val() {
                self.csr_rdata.next = bit_cast::<32, W>(self.ws_trap.val());
            } else if self.csr_addr.val() == self.k_csr_ws_paused.val() {
                self.csr_rdata.next = bit_cast::<32, W>(self.ws_paused.val());
            } else if self.csr_addr.val() == self.k_csr_ws_parked.val() {
                self.csr_rdata.next = bit_cast::<32, W>(self.ws_parked.val());
            } else if self.csr_addr.val() == self.k_csr_ws_run.val() {
                self.csr_rdata.next = bit_cast::<32, W>(self.ws_run.val());
            } else if self.csr_addr.val() == self.k_csr_wsel.val() {
                self.csr_rdata.next = bit_cast::<32, WIDW>(self.wsel.val());
            } else if self.csr_addr.val() == self.k_csr_winfo.val() {
                self.csr_rdata.next = self.winfo.val();
            } else if self.csr_addr.val() == self.k_csr_wepc.val() {
                self.csr_rdata.next = bit_cast::<32, PCW>(self.wepc.val());
            } else if self.csr_addr.val() == self.k_csr_wemask.val() {
                self.csr_rdata.next = bit_cast::<32, T>(self.wemask.val());
            } else if self.csr_addr.val() == self.k_csr_vtbase.val() {
                self.csr_rdata.next = bit_cast::<32, PCW>(self.vtbase.val());
            } else if self.csr_addr.val() == self.k_csr_gcause.val() {
                self.csr_rdata.next = bit_cast::<32, 4>(self.gcause.val());
            } else if self.csr_addr.val() == self.k_csr_params.val() {
                self.csr_rdata.next = self.k_params.val();
            }
        }
    }
}
