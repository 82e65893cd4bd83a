//! The cut between the step's two cycles (issue 17, the step's re-cut part 2): with `pipe` = 2
//! the step takes two stages. In the first (X) the state read from the RAMs goes through the
//! levels (label match, counter codes), the lane compares, the rejoin and the §7 error priority;
//! everything the second stage (Y) reads from them is registered here. In Y the bodies compute
//! the next state from the carried state ([`super::thread_reg::ThreadReg`]'s `q`) and the
//! registered verdict gates the write: the chain "stack top → verdict → commit → write data"
//! becomes two register-to-register paths. With `pipe` < 2 every output is its input (the
//! registers exist and synthesis removes them; a constant selects, as in [`super::pre::StepPre`]).
//!
//! One input, one output (`o_`) and one register (`r_`) per signal.

use super::decode::Ops;
use crate::prims::RDff;
use rust_hdl::prelude::*;

/// The X/Y stage register of the step. Generics as for the top: lanes `N`, `DW`, `CW`,
/// `IPW`, `XW = IPW + 2`.
#[derive(LogicBlock)]
pub struct StepCut<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// From [`super::pre::StepPre`]: the decoded op, `E`, `T`, the reductions, the targets and the next-IP label.
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
    /// From [`super::levels::Levels`]: the label match, the label, the counter codes the bodies write.
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
    /// From [`super::levels::Rejoin`]: rejoin A's lanes, E1, the lanes leaving, their reductions.
    pub rja_hit: Signal<In, Bits<N>>,
    pub e1: Signal<In, Bits<N>>,
    pub wx: Signal<In, Bits<N>>,
    pub still_any: Signal<In, Bit>,
    pub wc_any: Signal<In, Bit>,
    pub wx_any: Signal<In, Bit>,
    pub eqb_none: Signal<In, Bit>,
    pub eqb: Signal<In, Bits<N>>,
    /// The state the bodies read (the CALL and HALT levels, `loop_nest`).
    pub cic_call: Signal<In, Bits<DW>>,
    pub cic_halt: Signal<In, Bits<DW>>,
    pub tos_aux_call: Signal<In, Bits<DW>>,
    pub tos_ip_call: Signal<In, Bits<IPW>>,
    pub loop_nest: Signal<In, Bits<DW>>,
    /// From [`super::errors::ErrorPriority`]: the §7 verdict.
    pub err: Signal<In, Bit>,
    pub err_code: Signal<In, Bits<5>>,
    pub err_type: Signal<In, Bits<3>>,
    pub commit: Signal<In, Bit>,
    /// The same, in the second step cycle (registered with pipe 2).
    pub o_ops: Signal<Out, Ops>,
    pub o_e: Signal<Out, Bits<N>>,
    pub o_t: Signal<Out, Bits<N>>,
    pub o_e_none: Signal<Out, Bit>,
    pub o_t_none: Signal<Out, Bit>,
    pub o_t_all: Signal<Out, Bit>,
    pub o_fc: Signal<Out, Bit>,
    pub o_pred_all: Signal<Out, Bit>,
    pub o_jzero: Signal<Out, Bit>,
    pub o_ip_x: Signal<Out, Bits<XW>>,
    pub o_tgt_n: Signal<Out, Bits<XW>>,
    pub o_tgt_j: Signal<Out, Bits<XW>>,
    pub o_tgt_u: Signal<Out, Bits<XW>>,
    pub o_tgt_u1: Signal<Out, Bits<XW>>,
    pub o_lab_n: Signal<Out, Bits<IPW>>,
    pub o_m: Signal<Out, Bit>,
    pub o_label: Signal<Out, Bits<IPW>>,
    pub o_cur_if: Signal<Out, Bits<CW>>,
    pub o_new_if: Signal<Out, Bits<CW>>,
    pub o_park_loop: Signal<Out, Bits<CW>>,
    pub o_park_cont: Signal<Out, Bits<CW>>,
    pub o_cur_call: Signal<Out, Bits<CW>>,
    pub o_new_call: Signal<Out, Bits<CW>>,
    pub o_park_br: Signal<Out, Bits<CW>>,
    pub o_halt1: Signal<Out, Bits<CW>>,
    pub o_rja_hit: Signal<Out, Bits<N>>,
    pub o_e1: Signal<Out, Bits<N>>,
    pub o_wx: Signal<Out, Bits<N>>,
    pub o_still_any: Signal<Out, Bit>,
    pub o_wc_any: Signal<Out, Bit>,
    pub o_wx_any: Signal<Out, Bit>,
    pub o_eqb_none: Signal<Out, Bit>,
    pub o_eqb: Signal<Out, Bits<N>>,
    pub o_cic_call: Signal<Out, Bits<DW>>,
    pub o_cic_halt: Signal<Out, Bits<DW>>,
    pub o_tos_aux_call: Signal<Out, Bits<DW>>,
    pub o_tos_ip_call: Signal<Out, Bits<IPW>>,
    pub o_loop_nest: Signal<Out, Bits<DW>>,
    pub o_err: Signal<Out, Bit>,
    pub o_err_code: Signal<Out, Bits<5>>,
    pub o_err_type: Signal<Out, Bits<3>>,
    pub o_commit: Signal<Out, Bit>,
    r_ops: RDff<Ops>,
    r_e: RDff<Bits<N>>,
    r_t: RDff<Bits<N>>,
    r_e_none: RDff<Bit>,
    r_t_none: RDff<Bit>,
    r_t_all: RDff<Bit>,
    r_fc: RDff<Bit>,
    r_pred_all: RDff<Bit>,
    r_jzero: RDff<Bit>,
    r_ip_x: RDff<Bits<XW>>,
    r_tgt_n: RDff<Bits<XW>>,
    r_tgt_j: RDff<Bits<XW>>,
    r_tgt_u: RDff<Bits<XW>>,
    r_tgt_u1: RDff<Bits<XW>>,
    r_lab_n: RDff<Bits<IPW>>,
    r_m: RDff<Bit>,
    r_label: RDff<Bits<IPW>>,
    r_cur_if: RDff<Bits<CW>>,
    r_new_if: RDff<Bits<CW>>,
    r_park_loop: RDff<Bits<CW>>,
    r_park_cont: RDff<Bits<CW>>,
    r_cur_call: RDff<Bits<CW>>,
    r_new_call: RDff<Bits<CW>>,
    r_park_br: RDff<Bits<CW>>,
    r_halt1: RDff<Bits<CW>>,
    r_rja_hit: RDff<Bits<N>>,
    r_e1: RDff<Bits<N>>,
    r_wx: RDff<Bits<N>>,
    r_still_any: RDff<Bit>,
    r_wc_any: RDff<Bit>,
    r_wx_any: RDff<Bit>,
    r_eqb_none: RDff<Bit>,
    r_eqb: RDff<Bits<N>>,
    r_cic_call: RDff<Bits<DW>>,
    r_cic_halt: RDff<Bits<DW>>,
    r_tos_aux_call: RDff<Bits<DW>>,
    r_tos_ip_call: RDff<Bits<IPW>>,
    r_loop_nest: RDff<Bits<DW>>,
    r_err: RDff<Bit>,
    r_err_code: RDff<Bits<5>>,
    r_err_type: RDff<Bits<3>>,
    r_commit: RDff<Bit>,
    k_registered: Constant<Bit>,
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize> StepCut<N, DW, CW, IPW, XW> {
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
            o_ops: Default::default(),
            o_e: Default::default(),
            o_t: Default::default(),
            o_e_none: Default::default(),
            o_t_none: Default::default(),
            o_t_all: Default::default(),
            o_fc: Default::default(),
            o_pred_all: Default::default(),
            o_jzero: Default::default(),
            o_ip_x: Default::default(),
            o_tgt_n: Default::default(),
            o_tgt_j: Default::default(),
            o_tgt_u: Default::default(),
            o_tgt_u1: Default::default(),
            o_lab_n: Default::default(),
            o_m: Default::default(),
            o_label: Default::default(),
            o_cur_if: Default::default(),
            o_new_if: Default::default(),
            o_park_loop: Default::default(),
            o_park_cont: Default::default(),
            o_cur_call: Default::default(),
            o_new_call: Default::default(),
            o_park_br: Default::default(),
            o_halt1: Default::default(),
            o_rja_hit: Default::default(),
            o_e1: Default::default(),
            o_wx: Default::default(),
            o_still_any: Default::default(),
            o_wc_any: Default::default(),
            o_wx_any: Default::default(),
            o_eqb_none: Default::default(),
            o_eqb: Default::default(),
            o_cic_call: Default::default(),
            o_cic_halt: Default::default(),
            o_tos_aux_call: Default::default(),
            o_tos_ip_call: Default::default(),
            o_loop_nest: Default::default(),
            o_err: Default::default(),
            o_err_code: Default::default(),
            o_err_type: Default::default(),
            o_commit: Default::default(),
            r_ops: Default::default(),
            r_e: Default::default(),
            r_t: Default::default(),
            r_e_none: Default::default(),
            r_t_none: Default::default(),
            r_t_all: Default::default(),
            r_fc: Default::default(),
            r_pred_all: Default::default(),
            r_jzero: Default::default(),
            r_ip_x: Default::default(),
            r_tgt_n: Default::default(),
            r_tgt_j: Default::default(),
            r_tgt_u: Default::default(),
            r_tgt_u1: Default::default(),
            r_lab_n: Default::default(),
            r_m: Default::default(),
            r_label: Default::default(),
            r_cur_if: Default::default(),
            r_new_if: Default::default(),
            r_park_loop: Default::default(),
            r_park_cont: Default::default(),
            r_cur_call: Default::default(),
            r_new_call: Default::default(),
            r_park_br: Default::default(),
            r_halt1: Default::default(),
            r_rja_hit: Default::default(),
            r_e1: Default::default(),
            r_wx: Default::default(),
            r_still_any: Default::default(),
            r_wc_any: Default::default(),
            r_wx_any: Default::default(),
            r_eqb_none: Default::default(),
            r_eqb: Default::default(),
            r_cic_call: Default::default(),
            r_cic_halt: Default::default(),
            r_tos_aux_call: Default::default(),
            r_tos_ip_call: Default::default(),
            r_loop_nest: Default::default(),
            r_err: Default::default(),
            r_err_code: Default::default(),
            r_err_type: Default::default(),
            r_commit: Default::default(),
            k_registered: Constant::new(registered),
        }
    }
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize> Logic for StepCut<N, DW, CW, IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, r_ops, r_e, r_t, r_e_none, r_t_none, r_t_all, r_fc, r_pred_all, r_jzero, r_ip_x, r_tgt_n, r_tgt_j, r_tgt_u, r_tgt_u1, r_lab_n, r_m, r_label, r_cur_if, r_new_if, r_park_loop, r_park_cont, r_cur_call, r_new_call, r_park_br, r_halt1, r_rja_hit, r_e1, r_wx, r_still_any, r_wc_any, r_wx_any, r_eqb_none, r_eqb, r_cic_call, r_cic_halt, r_tos_aux_call, r_tos_ip_call, r_loop_nest, r_err, r_err_code, r_err_type, r_commit);
        self.r_ops.rst.next = self.rst.val();
        self.r_e.rst.next = self.rst.val();
        self.r_t.rst.next = self.rst.val();
        self.r_e_none.rst.next = self.rst.val();
        self.r_t_none.rst.next = self.rst.val();
        self.r_t_all.rst.next = self.rst.val();
        self.r_fc.rst.next = self.rst.val();
        self.r_pred_all.rst.next = self.rst.val();
        self.r_jzero.rst.next = self.rst.val();
        self.r_ip_x.rst.next = self.rst.val();
        self.r_tgt_n.rst.next = self.rst.val();
        self.r_tgt_j.rst.next = self.rst.val();
        self.r_tgt_u.rst.next = self.rst.val();
        self.r_tgt_u1.rst.next = self.rst.val();
        self.r_lab_n.rst.next = self.rst.val();
        self.r_m.rst.next = self.rst.val();
        self.r_label.rst.next = self.rst.val();
        self.r_cur_if.rst.next = self.rst.val();
        self.r_new_if.rst.next = self.rst.val();
        self.r_park_loop.rst.next = self.rst.val();
        self.r_park_cont.rst.next = self.rst.val();
        self.r_cur_call.rst.next = self.rst.val();
        self.r_new_call.rst.next = self.rst.val();
        self.r_park_br.rst.next = self.rst.val();
        self.r_halt1.rst.next = self.rst.val();
        self.r_rja_hit.rst.next = self.rst.val();
        self.r_e1.rst.next = self.rst.val();
        self.r_wx.rst.next = self.rst.val();
        self.r_still_any.rst.next = self.rst.val();
        self.r_wc_any.rst.next = self.rst.val();
        self.r_wx_any.rst.next = self.rst.val();
        self.r_eqb_none.rst.next = self.rst.val();
        self.r_eqb.rst.next = self.rst.val();
        self.r_cic_call.rst.next = self.rst.val();
        self.r_cic_halt.rst.next = self.rst.val();
        self.r_tos_aux_call.rst.next = self.rst.val();
        self.r_tos_ip_call.rst.next = self.rst.val();
        self.r_loop_nest.rst.next = self.rst.val();
        self.r_err.rst.next = self.rst.val();
        self.r_err_code.rst.next = self.rst.val();
        self.r_err_type.rst.next = self.rst.val();
        self.r_commit.rst.next = self.rst.val();
        self.r_ops.d.next = self.ops.val();
        self.r_e.d.next = self.e.val();
        self.r_t.d.next = self.t.val();
        self.r_e_none.d.next = self.e_none.val();
        self.r_t_none.d.next = self.t_none.val();
        self.r_t_all.d.next = self.t_all.val();
        self.r_fc.d.next = self.fc.val();
        self.r_pred_all.d.next = self.pred_all.val();
        self.r_jzero.d.next = self.jzero.val();
        self.r_ip_x.d.next = self.ip_x.val();
        self.r_tgt_n.d.next = self.tgt_n.val();
        self.r_tgt_j.d.next = self.tgt_j.val();
        self.r_tgt_u.d.next = self.tgt_u.val();
        self.r_tgt_u1.d.next = self.tgt_u1.val();
        self.r_lab_n.d.next = self.lab_n.val();
        self.r_m.d.next = self.m.val();
        self.r_label.d.next = self.label.val();
        self.r_cur_if.d.next = self.cur_if.val();
        self.r_new_if.d.next = self.new_if.val();
        self.r_park_loop.d.next = self.park_loop.val();
        self.r_park_cont.d.next = self.park_cont.val();
        self.r_cur_call.d.next = self.cur_call.val();
        self.r_new_call.d.next = self.new_call.val();
        self.r_park_br.d.next = self.park_br.val();
        self.r_halt1.d.next = self.halt1.val();
        self.r_rja_hit.d.next = self.rja_hit.val();
        self.r_e1.d.next = self.e1.val();
        self.r_wx.d.next = self.wx.val();
        self.r_still_any.d.next = self.still_any.val();
        self.r_wc_any.d.next = self.wc_any.val();
        self.r_wx_any.d.next = self.wx_any.val();
        self.r_eqb_none.d.next = self.eqb_none.val();
        self.r_eqb.d.next = self.eqb.val();
        self.r_cic_call.d.next = self.cic_call.val();
        self.r_cic_halt.d.next = self.cic_halt.val();
        self.r_tos_aux_call.d.next = self.tos_aux_call.val();
        self.r_tos_ip_call.d.next = self.tos_ip_call.val();
        self.r_loop_nest.d.next = self.loop_nest.val();
        self.r_err.d.next = self.err.val();
        self.r_err_code.d.next = self.err_code.val();
        self.r_err_type.d.next = self.err_type.val();
        self.r_commit.d.next = self.commit.val();
        self.o_ops.next = self.ops.val();
        self.o_e.next = self.e.val();
        self.o_t.next = self.t.val();
        self.o_e_none.next = self.e_none.val();
        self.o_t_none.next = self.t_none.val();
        self.o_t_all.next = self.t_all.val();
        self.o_fc.next = self.fc.val();
        self.o_pred_all.next = self.pred_all.val();
        self.o_jzero.next = self.jzero.val();
        self.o_ip_x.next = self.ip_x.val();
        self.o_tgt_n.next = self.tgt_n.val();
        self.o_tgt_j.next = self.tgt_j.val();
        self.o_tgt_u.next = self.tgt_u.val();
        self.o_tgt_u1.next = self.tgt_u1.val();
        self.o_lab_n.next = self.lab_n.val();
        self.o_m.next = self.m.val();
        self.o_label.next = self.label.val();
        self.o_cur_if.next = self.cur_if.val();
        self.o_new_if.next = self.new_if.val();
        self.o_park_loop.next = self.park_loop.val();
        self.o_park_cont.next = self.park_cont.val();
        self.o_cur_call.next = self.cur_call.val();
        self.o_new_call.next = self.new_call.val();
        self.o_park_br.next = self.park_br.val();
        self.o_halt1.next = self.halt1.val();
        self.o_rja_hit.next = self.rja_hit.val();
        self.o_e1.next = self.e1.val();
        self.o_wx.next = self.wx.val();
        self.o_still_any.next = self.still_any.val();
        self.o_wc_any.next = self.wc_any.val();
        self.o_wx_any.next = self.wx_any.val();
        self.o_eqb_none.next = self.eqb_none.val();
        self.o_eqb.next = self.eqb.val();
        self.o_cic_call.next = self.cic_call.val();
        self.o_cic_halt.next = self.cic_halt.val();
        self.o_tos_aux_call.next = self.tos_aux_call.val();
        self.o_tos_ip_call.next = self.tos_ip_call.val();
        self.o_loop_nest.next = self.loop_nest.val();
        self.o_err.next = self.err.val();
        self.o_err_code.next = self.err_code.val();
        self.o_err_type.next = self.err_type.val();
        self.o_commit.next = self.commit.val();
        if self.k_registered.val() {
            self.o_ops.next = self.r_ops.q.val();
            self.o_e.next = self.r_e.q.val();
            self.o_t.next = self.r_t.q.val();
            self.o_e_none.next = self.r_e_none.q.val();
            self.o_t_none.next = self.r_t_none.q.val();
            self.o_t_all.next = self.r_t_all.q.val();
            self.o_fc.next = self.r_fc.q.val();
            self.o_pred_all.next = self.r_pred_all.q.val();
            self.o_jzero.next = self.r_jzero.q.val();
            self.o_ip_x.next = self.r_ip_x.q.val();
            self.o_tgt_n.next = self.r_tgt_n.q.val();
            self.o_tgt_j.next = self.r_tgt_j.q.val();
            self.o_tgt_u.next = self.r_tgt_u.q.val();
            self.o_tgt_u1.next = self.r_tgt_u1.q.val();
            self.o_lab_n.next = self.r_lab_n.q.val();
            self.o_m.next = self.r_m.q.val();
            self.o_label.next = self.r_label.q.val();
            self.o_cur_if.next = self.r_cur_if.q.val();
            self.o_new_if.next = self.r_new_if.q.val();
            self.o_park_loop.next = self.r_park_loop.q.val();
            self.o_park_cont.next = self.r_park_cont.q.val();
            self.o_cur_call.next = self.r_cur_call.q.val();
            self.o_new_call.next = self.r_new_call.q.val();
            self.o_park_br.next = self.r_park_br.q.val();
            self.o_halt1.next = self.r_halt1.q.val();
            self.o_rja_hit.next = self.r_rja_hit.q.val();
            self.o_e1.next = self.r_e1.q.val();
            self.o_wx.next = self.r_wx.q.val();
            self.o_still_any.next = self.r_still_any.q.val();
            self.o_wc_any.next = self.r_wc_any.q.val();
            self.o_wx_any.next = self.r_wx_any.q.val();
            self.o_eqb_none.next = self.r_eqb_none.q.val();
            self.o_eqb.next = self.r_eqb.q.val();
            self.o_cic_call.next = self.r_cic_call.q.val();
            self.o_cic_halt.next = self.r_cic_halt.q.val();
            self.o_tos_aux_call.next = self.r_tos_aux_call.q.val();
            self.o_tos_ip_call.next = self.r_tos_ip_call.q.val();
            self.o_loop_nest.next = self.r_loop_nest.q.val();
            self.o_err.next = self.r_err.q.val();
            self.o_err_code.next = self.r_err_code.q.val();
            self.o_err_type.next = self.r_err_type.q.val();
            self.o_commit.next = self.r_commit.q.val();
        }
    }
}
