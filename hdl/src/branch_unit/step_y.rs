//! The step's second cycle with `pipe` = 2 (Y; a pass-through stage otherwise): [`StepCut`]
//! and the §2.4 bodies it feeds ([`BodyState`], [`BodyResponse`]), so that the top wires the
//! stages and not each signal between them.

use super::body::{BodyResponse, BodyState};
use super::cut::StepCut;
use super::decode::Ops;
use super::stack::StackOps;
use rust_hdl::prelude::*;

/// Inputs: what [`StepCut`] registers (the names of its inputs). Outputs: the bodies' results
/// and, `y_`, the registered signals the lanes, stacks, response and error gate also read.
#[derive(LogicBlock)]
pub struct StepY<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub ops: Signal<In, Ops>,
    pub e: Signal<In, Bits<N>>,
    pub t: Signal<In, Bits<N>>,
    pub e_none: Signal<In, Bit>,
    pub t_none: Signal<In, Bit>,
    pub t_all: Signal<In, Bit>,
    pub fc: Signal<In, Bit>,
    pub pred_all: Signal<In, Bit>,
    pub jzero: Signal<In, Bit>,
    pub ip_x: Signal<In, Bits<XW>>,
    pub tgt_n: Signal<In, Bits<XW>>,
    pub tgt_j: Signal<In, Bits<XW>>,
    pub tgt_u: Signal<In, Bits<XW>>,
    pub tgt_u1: Signal<In, Bits<XW>>,
    pub lab_n: Signal<In, Bits<IPW>>,
    pub m: Signal<In, Bit>,
    pub label: Signal<In, Bits<IPW>>,
    pub cur_if: Signal<In, Bits<CW>>,
    pub new_if: Signal<In, Bits<CW>>,
    pub park_loop: Signal<In, Bits<CW>>,
    pub park_cont: Signal<In, Bits<CW>>,
    pub cur_call: Signal<In, Bits<CW>>,
    pub new_call: Signal<In, Bits<CW>>,
    pub park_br: Signal<In, Bits<CW>>,
    pub halt1: Signal<In, Bits<CW>>,
    pub rja_hit: Signal<In, Bits<N>>,
    pub e1: Signal<In, Bits<N>>,
    pub wx: Signal<In, Bits<N>>,
    pub still_any: Signal<In, Bit>,
    pub wc_any: Signal<In, Bit>,
    pub wx_any: Signal<In, Bit>,
    pub eqb_none: Signal<In, Bit>,
    pub eqb: Signal<In, Bits<N>>,
    pub cic_call: Signal<In, Bits<DW>>,
    pub cic_halt: Signal<In, Bits<DW>>,
    pub tos_aux_call: Signal<In, Bits<DW>>,
    pub tos_ip_call: Signal<In, Bits<IPW>>,
    pub loop_nest: Signal<In, Bits<DW>>,
    pub err: Signal<In, Bit>,
    pub err_code: Signal<In, Bits<5>>,
    pub err_type: Signal<In, Bits<3>>,
    pub commit: Signal<In, Bit>,
    /// The bodies' state changes and response fields.
    pub park_m: Signal<Out, Bits<N>>,
    pub park_code: Signal<Out, Bits<CW>>,
    pub rjb_en: Signal<Out, Bit>,
    pub stack_ops: Signal<Out, StackOps>,
    pub push_ip: Signal<Out, Bits<IPW>>,
    pub push_aux: Signal<Out, Bits<DW>>,
    pub ln_next: Signal<Out, Bits<DW>>,
    pub next_x: Signal<Out, Bits<XW>>,
    pub go_on: Signal<Out, Bit>,
    pub go_tgt: Signal<Out, Bits<XW>>,
    pub pred_mask: Signal<Out, Bits<N>>,
    pub warn: Signal<Out, Bits<2>>,
    pub evt: Signal<Out, Bits<6>>,
    /// Registered signals read outside the bodies.
    pub y_ops: Signal<Out, Ops>,
    pub y_e: Signal<Out, Bits<N>>,
    pub y_tgt_n: Signal<Out, Bits<XW>>,
    pub y_rja_hit: Signal<Out, Bits<N>>,
    pub y_eqb: Signal<Out, Bits<N>>,
    pub y_err: Signal<Out, Bit>,
    pub y_err_code: Signal<Out, Bits<5>>,
    pub y_err_type: Signal<Out, Bits<3>>,
    pub y_commit: Signal<Out, Bit>,
    cut: StepCut<N, DW, CW, IPW, XW>,
    state: BodyState<N, DW, CW, IPW>,
    report: BodyResponse<N, IPW, XW>,
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize> StepY<N, DW, CW, IPW, XW> {
    /// `registered`: pipe 2 (the step over two cycles).
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ops: Default::default(),
            e: Default::default(),
            t: Default::default(),
            e_none: Default::default(),
            t_none: Default::default(),
            t_all: Default::default(),
            fc: Default::default(),
            pred_all: Default::default(),
            jzero: Default::default(),
            ip_x: Default::default(),
            tgt_n: Default::default(),
            tgt_j: Default::default(),
            tgt_u: Default::default(),
            tgt_u1: Default::default(),
            lab_n: Default::default(),
            m: Default::default(),
            label: Default::default(),
            cur_if: Default::default(),
            new_if: Default::default(),
            park_loop: Default::default(),
            park_cont: Default::default(),
            cur_call: Default::default(),
            new_call: Default::default(),
            park_br: Default::default(),
            halt1: Default::default(),
            rja_hit: Default::default(),
            e1: Default::default(),
            wx: Default::default(),
            still_any: Default::default(),
            wc_any: Default::default(),
            wx_any: Default::default(),
            eqb_none: Default::default(),
            eqb: Default::default(),
            cic_call: Default::default(),
            cic_halt: Default::default(),
            tos_aux_call: Default::default(),
            tos_ip_call: Default::default(),
            loop_nest: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            err_type: Default::default(),
            commit: Default::default(),
            park_m: Default::default(),
            park_code: Default::default(),
            rjb_en: Default::default(),
            stack_ops: Default::default(),
            push_ip: Default::default(),
            push_aux: Default::default(),
            ln_next: Default::default(),
            next_x: Default::default(),
            go_on: Default::default(),
            go_tgt: Default::default(),
            pred_mask: Default::default(),
            warn: Default::default(),
            evt: Default::default(),
            y_ops: Default::default(),
            y_e: Default::default(),
            y_tgt_n: Default::default(),
            y_rja_hit: Default::default(),
            y_eqb: Default::default(),
            y_err: Default::default(),
            y_err_code: Default::default(),
            y_err_type: Default::default(),
            y_commit: Default::default(),
            cut: StepCut::new(registered),
            state: Default::default(),
            report: Default::default(),
        }
    }
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize> Logic for StepY<N, DW, CW, IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, cut);
        self.cut.rst.next = self.rst.val();
        self.cut.ops.next = self.ops.val();
        self.cut.e.next = self.e.val();
        self.cut.t.next = self.t.val();
        self.cut.e_none.next = self.e_none.val();
        self.cut.t_none.next = self.t_none.val();
        self.cut.t_all.next = self.t_all.val();
        self.cut.fc.next = self.fc.val();
        self.cut.pred_all.next = self.pred_all.val();
        self.cut.jzero.next = self.jzero.val();
        self.cut.ip_x.next = self.ip_x.val();
        self.cut.tgt_n.next = self.tgt_n.val();
        self.cut.tgt_j.next = self.tgt_j.val();
        self.cut.tgt_u.next = self.tgt_u.val();
        self.cut.tgt_u1.next = self.tgt_u1.val();
        self.cut.lab_n.next = self.lab_n.val();
        self.cut.m.next = self.m.val();
        self.cut.label.next = self.label.val();
        self.cut.cur_if.next = self.cur_if.val();
        self.cut.new_if.next = self.new_if.val();
        self.cut.park_loop.next = self.park_loop.val();
        self.cut.park_cont.next = self.park_cont.val();
        self.cut.cur_call.next = self.cur_call.val();
        self.cut.new_call.next = self.new_call.val();
        self.cut.park_br.next = self.park_br.val();
        self.cut.halt1.next = self.halt1.val();
        self.cut.rja_hit.next = self.rja_hit.val();
        self.cut.e1.next = self.e1.val();
        self.cut.wx.next = self.wx.val();
        self.cut.still_any.next = self.still_any.val();
        self.cut.wc_any.next = self.wc_any.val();
        self.cut.wx_any.next = self.wx_any.val();
        self.cut.eqb_none.next = self.eqb_none.val();
        self.cut.eqb.next = self.eqb.val();
        self.cut.cic_call.next = self.cic_call.val();
        self.cut.cic_halt.next = self.cic_halt.val();
        self.cut.tos_aux_call.next = self.tos_aux_call.val();
        self.cut.tos_ip_call.next = self.tos_ip_call.val();
        self.cut.loop_nest.next = self.loop_nest.val();
        self.cut.err.next = self.err.val();
        self.cut.err_code.next = self.err_code.val();
        self.cut.err_type.next = self.err_type.val();
        self.cut.commit.next = self.commit.val();
        // body: state changes
        self.state.ops.next = self.cut.o_ops.val();
        self.state.e.next = self.cut.o_e.val();
        self.state.t.next = self.cut.o_t.val();
        self.state.wx.next = self.cut.o_wx.val();
        self.state.e_none.next = self.cut.o_e_none.val();
        self.state.t_none.next = self.cut.o_t_none.val();
        self.state.t_all.next = self.cut.o_t_all.val();
        self.state.fc.next = self.cut.o_fc.val();
        self.state.still_any.next = self.cut.o_still_any.val();
        self.state.wc_any.next = self.cut.o_wc_any.val();
        self.state.wx_any.next = self.cut.o_wx_any.val();
        self.state.eqb_none.next = self.cut.o_eqb_none.val();
        self.state.m.next = self.cut.o_m.val();
        self.state.label.next = self.cut.o_label.val();
        self.state.cur_if.next = self.cut.o_cur_if.val();
        self.state.new_if.next = self.cut.o_new_if.val();
        self.state.park_loop.next = self.cut.o_park_loop.val();
        self.state.park_cont.next = self.cut.o_park_cont.val();
        self.state.cur_call.next = self.cut.o_cur_call.val();
        self.state.new_call.next = self.cut.o_new_call.val();
        self.state.park_br.next = self.cut.o_park_br.val();
        self.state.halt1.next = self.cut.o_halt1.val();
        self.state.lab_n.next = self.cut.o_lab_n.val();
        self.state.jzero.next = self.cut.o_jzero.val();
        self.state.cic_call.next = self.cut.o_cic_call.val();
        self.state.cic_halt.next = self.cut.o_cic_halt.val();
        self.state.tos_aux_call.next = self.cut.o_tos_aux_call.val();
        self.state.loop_nest.next = self.cut.o_loop_nest.val();
        // body: response
        self.report.ops.next = self.cut.o_ops.val();
        self.report.e.next = self.cut.o_e.val();
        self.report.t.next = self.cut.o_t.val();
        self.report.e1.next = self.cut.o_e1.val();
        self.report.e_none.next = self.cut.o_e_none.val();
        self.report.t_none.next = self.cut.o_t_none.val();
        self.report.t_all.next = self.cut.o_t_all.val();
        self.report.fc.next = self.cut.o_fc.val();
        self.report.pred_all.next = self.cut.o_pred_all.val();
        self.report.still_any.next = self.cut.o_still_any.val();
        self.report.wc_any.next = self.cut.o_wc_any.val();
        self.report.wx_any.next = self.cut.o_wx_any.val();
        self.report.eqb_none.next = self.cut.o_eqb_none.val();
        self.report.m.next = self.cut.o_m.val();
        self.report.ip_x.next = self.cut.o_ip_x.val();
        self.report.tgt_n.next = self.cut.o_tgt_n.val();
        self.report.tgt_j.next = self.cut.o_tgt_j.val();
        self.report.tgt_u.next = self.cut.o_tgt_u.val();
        self.report.tgt_u1.next = self.cut.o_tgt_u1.val();
        self.report.jzero.next = self.cut.o_jzero.val();
        self.report.tos_ip_call.next = self.cut.o_tos_ip_call.val();
        self.park_m.next = self.state.park_m.val();
        self.park_code.next = self.state.park_code.val();
        self.rjb_en.next = self.state.rjb_en.val();
        self.stack_ops.next = self.state.stack_ops.val();
        self.push_ip.next = self.state.push_ip.val();
        self.push_aux.next = self.state.push_aux.val();
        self.ln_next.next = self.state.ln_next.val();
        self.next_x.next = self.report.next_x.val();
        self.go_on.next = self.report.go_on.val();
        self.go_tgt.next = self.report.go_tgt.val();
        self.pred_mask.next = self.report.pred_mask.val();
        self.warn.next = self.report.warn.val();
        self.evt.next = self.report.evt.val();
        self.y_ops.next = self.cut.o_ops.val();
        self.y_e.next = self.cut.o_e.val();
        self.y_tgt_n.next = self.cut.o_tgt_n.val();
        self.y_rja_hit.next = self.cut.o_rja_hit.val();
        self.y_eqb.next = self.cut.o_eqb.val();
        self.y_err.next = self.cut.o_err.val();
        self.y_err_code.next = self.cut.o_err_code.val();
        self.y_err_type.next = self.cut.o_err_type.val();
        self.y_commit.next = self.cut.o_commit.val();
    }
}
