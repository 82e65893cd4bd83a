//! The registers outside the lanes and stacks: `loop_nest` and `fault` (§2.1), and the response
//! register (§6.3: state and response register on the same edge, latency 1).

use super::enc::{ev, ty, err};
use super::thread_reg::{Storage, ThreadCtl, ViewedReg};
use crate::prims::{Pack, RDff};
use rust_hdl::prelude::*;

/// `loop_nest` and the sticky `fault`.
#[derive(LogicBlock)]
pub struct NestFault<const DW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub tc: Signal<In, ThreadCtl>,
    /// The step commits with this `loop_nest`; INIT clears it and `fault`.
    pub commit: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub ln_next: Signal<In, Bits<DW>>,
    /// A valid request failed.
    pub fail: Signal<In, Bit>,
    pub loop_nest: Signal<Out, Bits<DW>>,
    pub fault: Signal<Out, Bit>,
    /// As the last written step left them (`dbg_loop_nest`, the `fault` port).
    pub loop_nest_view: Signal<Out, Bits<DW>>,
    pub fault_view: Signal<Out, Bit>,
    ln: ViewedReg<DW>,
    fault_r: ViewedReg<1>,
}

impl<const DW: usize> NestFault<DW> {
    pub fn new(storage: Storage) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            commit: Default::default(),
            init: Default::default(),
            ln_next: Default::default(),
            fail: Default::default(),
            loop_nest: Default::default(),
            fault: Default::default(),
            loop_nest_view: Default::default(),
            fault_view: Default::default(),
            ln: ViewedReg::new(storage),
            fault_r: ViewedReg::new(storage),
        }
    }
}

impl<const DW: usize> Logic for NestFault<DW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, ln, fault_r);
        self.ln.rst.next = self.rst.val();
        self.fault_r.rst.next = self.rst.val();
        self.ln.tc.next = self.tc.val();
        self.fault_r.tc.next = self.tc.val();
        self.ln.d.next = self.ln.q.val();
        self.fault_r.d.next = self.fault_r.q.val();
        if self.commit.val() {
            self.ln.d.next = self.ln_next.val();
            if self.init.val() {
                self.ln.d.next = 0.into();
                self.fault_r.d.next = 0.into();
            }
        }
        if self.fail.val() {
            self.fault_r.d.next = 1.into();
        }
        // what the verdict reads: `q_x` (the first step cycle with pipe 2)
        self.loop_nest.next = self.ln.q_x.val();
        self.fault.next = self.fault_r.q_x.val().any();
        self.loop_nest_view.next = self.ln.view.val();
        self.fault_view.next = self.fault_r.view.val().any();
    }
}

/// The response register: a failed step reports its IP and error, masks and event zero (§7);
/// an idle cycle reports all zero.
#[derive(LogicBlock)]
pub struct Response<const N: usize, const IPW: usize, const XW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// `req_valid`, `req_ip`, the error verdict.
    pub valid: Signal<In, Bit>,
    pub ip: Signal<In, Bits<IPW>>,
    pub err: Signal<In, Bit>,
    pub err_code: Signal<In, Bits<5>>,
    pub err_type: Signal<In, Bits<3>>,
    /// The body's next IP and `go_on(j)`: IP+1 if lanes are left enabled, else `go_tgt`.
    pub next_x: Signal<In, Bits<XW>>,
    pub go_on: Signal<In, Bit>,
    pub go_tgt: Signal<In, Bits<XW>>,
    pub tgt_n: Signal<In, Bits<XW>>,
    /// E, E', the predicate mask, warnings and event of the step.
    pub exec: Signal<In, Bits<N>>,
    pub lane: Signal<In, Bits<N>>,
    pub pred_mask: Signal<In, Bits<N>>,
    pub warn: Signal<In, Bits<2>>,
    pub evt: Signal<In, Bits<6>>,
    /// The `rsp_*` ports.
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_next_ip: Signal<Out, Bits<IPW>>,
    pub rsp_exec_mask: Signal<Out, Bits<N>>,
    pub rsp_lane_mask: Signal<Out, Bits<N>>,
    pub rsp_pred_mask: Signal<Out, Bits<N>>,
    pub rsp_err: Signal<Out, Bit>,
    pub rsp_err_code: Signal<Out, Bits<5>>,
    pub rsp_err_type: Signal<Out, Bits<3>>,
    pub rsp_warn: Signal<Out, Bits<2>>,
    pub rsp_event: Signal<Out, Bits<6>>,
    next_res: Signal<Local, Bits<XW>>,
    r_valid: RDff<Bit>,
    r_next_ip: RDff<Bits<IPW>>,
    r_exec: RDff<Bits<N>>,
    r_lane: RDff<Bits<N>>,
    r_pred: RDff<Bits<N>>,
    r_err: RDff<Bit>,
    r_code: RDff<Bits<5>>,
    r_type: RDff<Bits<3>>,
    r_warn: RDff<Bits<2>>,
    r_event: RDff<Bits<6>>,
    k_err_none: Constant<Bits<5>>,
    k_ty_none: Constant<Bits<3>>,
    k_ev_nop: Constant<Bits<6>>,
}

impl<const N: usize, const IPW: usize, const XW: usize> Default for Response<N, IPW, XW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            valid: Default::default(),
            ip: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            err_type: Default::default(),
            next_x: Default::default(),
            go_on: Default::default(),
            go_tgt: Default::default(),
            tgt_n: Default::default(),
            exec: Default::default(),
            lane: Default::default(),
            pred_mask: Default::default(),
            warn: Default::default(),
            evt: Default::default(),
            rsp_valid: Default::default(),
            rsp_next_ip: Default::default(),
            rsp_exec_mask: Default::default(),
            rsp_lane_mask: Default::default(),
            rsp_pred_mask: Default::default(),
            rsp_err: Default::default(),
            rsp_err_code: Default::default(),
            rsp_err_type: Default::default(),
            rsp_warn: Default::default(),
            rsp_event: Default::default(),
            next_res: Default::default(),
            r_valid: Default::default(),
            r_next_ip: Default::default(),
            r_exec: Default::default(),
            r_lane: Default::default(),
            r_pred: Default::default(),
            r_err: Default::default(),
            r_code: Default::default(),
            r_type: Default::default(),
            r_warn: Default::default(),
            r_event: Default::default(),
            k_err_none: Constant::new(err::NONE.into()),
            k_ty_none: Constant::new(ty::NONE.into()),
            k_ev_nop: Constant::new(ev::NOP.into()),
        }
    }
}

impl<const N: usize, const IPW: usize, const XW: usize> Logic for Response<N, IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, r_valid, r_next_ip, r_exec, r_lane, r_pred, r_err, r_code, r_type, r_warn, r_event);
        self.r_valid.rst.next = self.rst.val();
        self.r_next_ip.rst.next = self.rst.val();
        self.r_exec.rst.next = self.rst.val();
        self.r_lane.rst.next = self.rst.val();
        self.r_pred.rst.next = self.rst.val();
        self.r_err.rst.next = self.rst.val();
        self.r_code.rst.next = self.rst.val();
        self.r_type.rst.next = self.rst.val();
        self.r_warn.rst.next = self.rst.val();
        self.r_event.rst.next = self.rst.val();
        self.next_res.next = self.next_x.val();
        if self.go_on.val() {
            if self.lane.val() != 0 {
                self.next_res.next = self.tgt_n.val();
            } else {
                self.next_res.next = self.go_tgt.val();
            }
        }
        self.r_valid.d.next = self.valid.val();
        self.r_next_ip.d.next = 0.into();
        self.r_exec.d.next = 0.into();
        self.r_lane.d.next = 0.into();
        self.r_pred.d.next = 0.into();
        self.r_err.d.next = false;
        self.r_code.d.next = self.k_err_none.val();
        self.r_type.d.next = self.k_ty_none.val();
        self.r_warn.d.next = 0.into();
        self.r_event.d.next = self.k_ev_nop.val();
        if self.valid.val() {
            if self.err.val() {
                self.r_next_ip.d.next = self.ip.val();
                self.r_err.d.next = true;
                self.r_code.d.next = self.err_code.val();
                self.r_type.d.next = self.err_type.val();
            } else {
                self.r_next_ip.d.next = bit_cast::<IPW, XW>(self.next_res.val());
                self.r_exec.d.next = self.exec.val();
                self.r_lane.d.next = self.lane.val();
                self.r_pred.d.next = self.pred_mask.val();
                self.r_warn.d.next = self.warn.val();
                self.r_event.d.next = self.evt.val();
            }
        }
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_next_ip.next = self.r_next_ip.q.val();
        self.rsp_exec_mask.next = self.r_exec.q.val();
        self.rsp_lane_mask.next = self.r_lane.q.val();
        self.rsp_pred_mask.next = self.r_pred.q.val();
        self.rsp_err.next = self.r_err.q.val();
        self.rsp_err_code.next = self.r_code.q.val();
        self.rsp_err_type.next = self.r_type.q.val();
        self.rsp_warn.next = self.r_warn.q.val();
        self.rsp_event.next = self.r_event.q.val();
    }
}

/// The state snapshot ports `dbg_cic` (IF, LOOP, CALL, BR, HALT from bit 0 up, DW each) and
/// `dbg_tos` (each type's top `{ip, aux}`, EW = IPW+DW each, zero when the type has no open
/// level; the HALT entry's aux is not stored and shows 0) and `dbg_stk` (every entry of every
/// type: the sections `SW = (2^DW-1)*EW` wide of IF, LOOP, CALL, BR from bit 0 up, then HALT's
/// one entry; slot j of a section is the j-th entry from the top, see [`super::stack::ConvStack`]).
#[derive(LogicBlock)]
pub struct DebugView<const DW: usize, const IPW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const SW: usize, const STKW: usize> {
    pub cic_if: Signal<In, Bits<DW>>,
    pub cic_loop: Signal<In, Bits<DW>>,
    pub cic_call: Signal<In, Bits<DW>>,
    pub cic_br: Signal<In, Bits<DW>>,
    pub cic_halt: Signal<In, Bits<DW>>,
    pub tos_ip_if: Signal<In, Bits<IPW>>,
    pub tos_ip_loop: Signal<In, Bits<IPW>>,
    pub tos_ip_call: Signal<In, Bits<IPW>>,
    pub tos_ip_br: Signal<In, Bits<IPW>>,
    pub tos_ip_halt: Signal<In, Bits<IPW>>,
    pub tos_aux_if: Signal<In, Bits<DW>>,
    pub tos_aux_loop: Signal<In, Bits<DW>>,
    pub tos_aux_call: Signal<In, Bits<DW>>,
    pub tos_aux_br: Signal<In, Bits<DW>>,
    pub stk_if: Signal<In, Bits<SW>>,
    pub stk_loop: Signal<In, Bits<SW>>,
    pub stk_call: Signal<In, Bits<SW>>,
    pub stk_br: Signal<In, Bits<SW>>,
    pub dbg_cic: Signal<Out, Bits<CICW>>,
    pub dbg_tos: Signal<Out, Bits<TOSW>>,
    pub dbg_stk: Signal<Out, Bits<STKW>>,
    ent_if: Signal<Local, Bits<EW>>,
    ent_loop: Signal<Local, Bits<EW>>,
    ent_call: Signal<Local, Bits<EW>>,
    ent_br: Signal<Local, Bits<EW>>,
    ent_halt: Signal<Local, Bits<EW>>,
    /// The three buses, slot 0 = IF, then LOOP, CALL, BR, HALT (see [`Pack`]).
    pack_cic: Pack<DW, CICW>,
    pack_tos: Pack<EW, TOSW>,
    pack_stk: Pack<SW, STKW>,
    k_dw: Constant<Bits<16>>,
}

impl<const DW: usize, const IPW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const SW: usize, const STKW: usize> Default for DebugView<DW, IPW, CICW, EW, TOSW, SW, STKW> {
    fn default() -> Self {
        assert!(CICW == 5 * DW && EW == IPW + DW && TOSW == 5 * EW);
        assert!(SW == ((1 << DW) - 1) * EW && STKW == 4 * SW + EW);
        Self {
            cic_if: Default::default(),
            cic_loop: Default::default(),
            cic_call: Default::default(),
            cic_br: Default::default(),
            cic_halt: Default::default(),
            tos_ip_if: Default::default(),
            tos_ip_loop: Default::default(),
            tos_ip_call: Default::default(),
            tos_ip_br: Default::default(),
            tos_ip_halt: Default::default(),
            tos_aux_if: Default::default(),
            tos_aux_loop: Default::default(),
            tos_aux_call: Default::default(),
            tos_aux_br: Default::default(),
            stk_if: Default::default(),
            stk_loop: Default::default(),
            stk_call: Default::default(),
            stk_br: Default::default(),
            dbg_cic: Default::default(),
            dbg_tos: Default::default(),
            dbg_stk: Default::default(),
            ent_if: Default::default(),
            ent_loop: Default::default(),
            ent_call: Default::default(),
            ent_br: Default::default(),
            ent_halt: Default::default(),
            pack_cic: Pack::new(5),
            pack_tos: Pack::new(5),
            // HALT's section is one entry: its slot is cut to EW bits
            pack_stk: Pack::new(5),
            k_dw: Constant::new(Bits::<16>::from(DW as u64)),
        }
    }
}

impl<const DW: usize, const IPW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const SW: usize, const STKW: usize> Logic for DebugView<DW, IPW, CICW, EW, TOSW, SW, STKW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pack_cic.slot[0].next = self.cic_if.val();
        self.pack_cic.slot[1].next = self.cic_loop.val();
        self.pack_cic.slot[2].next = self.cic_call.val();
        self.pack_cic.slot[3].next = self.cic_br.val();
        self.pack_cic.slot[4].next = self.cic_halt.val();
        self.dbg_cic.next = self.pack_cic.bus.val();
        self.ent_if.next = 0.into();
        self.ent_loop.next = 0.into();
        self.ent_call.next = 0.into();
        self.ent_br.next = 0.into();
        self.ent_halt.next = 0.into();
        if self.cic_if.val() != 0 {
            self.ent_if.next = (bit_cast::<EW, IPW>(self.tos_ip_if.val()) << self.k_dw.val()) | bit_cast::<EW, DW>(self.tos_aux_if.val());
        }
        if self.cic_loop.val() != 0 {
            self.ent_loop.next = (bit_cast::<EW, IPW>(self.tos_ip_loop.val()) << self.k_dw.val()) | bit_cast::<EW, DW>(self.tos_aux_loop.val());
        }
        if self.cic_call.val() != 0 {
            self.ent_call.next = (bit_cast::<EW, IPW>(self.tos_ip_call.val()) << self.k_dw.val()) | bit_cast::<EW, DW>(self.tos_aux_call.val());
        }
        if self.cic_br.val() != 0 {
            self.ent_br.next = (bit_cast::<EW, IPW>(self.tos_ip_br.val()) << self.k_dw.val()) | bit_cast::<EW, DW>(self.tos_aux_br.val());
        }
        if self.cic_halt.val() != 0 {
            self.ent_halt.next = bit_cast::<EW, IPW>(self.tos_ip_halt.val()) << self.k_dw.val();
        }
        self.pack_tos.slot[0].next = self.ent_if.val();
        self.pack_tos.slot[1].next = self.ent_loop.val();
        self.pack_tos.slot[2].next = self.ent_call.val();
        self.pack_tos.slot[3].next = self.ent_br.val();
        self.pack_tos.slot[4].next = self.ent_halt.val();
        self.dbg_tos.next = self.pack_tos.bus.val();
        // every entry, straight from the stacks (HALT's aux is not stored: 0)
        self.pack_stk.slot[0].next = self.stk_if.val();
        self.pack_stk.slot[1].next = self.stk_loop.val();
        self.pack_stk.slot[2].next = self.stk_call.val();
        self.pack_stk.slot[3].next = self.stk_br.val();
        self.pack_stk.slot[4].next = bit_cast::<SW, IPW>(self.tos_ip_halt.val()) << self.k_dw.val();
        self.dbg_stk.next = self.pack_stk.bus.val();
    }
}
