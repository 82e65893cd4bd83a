//! Errors (§7, §6.4): the offset sign rules and target ranges checked before every body, the
//! ERRORs inside the §2.4 bodies, and their priority (first match wins). It runs beside the
//! counter update: the lanes and stacks commit only when it reports none.

use super::enc::{err, ty};
use super::decode::Ops;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ErrorPriority<const N: usize, const DW: usize, const IPW: usize> {
    /// `req_valid`, `req_pred` (INIT's live mask), the sticky `fault`.
    pub valid: Signal<In, Bit>,
    pub pred: Signal<In, Bits<N>>,
    pub fault: Signal<In, Bit>,
    /// Decoded op.
    pub ops: Signal<In, Ops>,
    /// Skipped convergence per type (levels).
    pub sk_if: Signal<In, Bit>,
    pub sk_loop: Signal<In, Bit>,
    pub sk_br: Signal<In, Bit>,
    /// Offset signs and target ranges (targets).
    pub jneg: Signal<In, Bit>,
    pub jzero: Signal<In, Bit>,
    pub jpos: Signal<In, Bit>,
    pub upos: Signal<In, Bit>,
    pub j_le_u: Signal<In, Bit>,
    pub oor_n: Signal<In, Bit>,
    pub oor_j: Signal<In, Bit>,
    pub oor_u: Signal<In, Bit>,
    pub oor_u1: Signal<In, Bit>,
    pub lab_j: Signal<In, Bits<IPW>>,
    pub lab_u: Signal<In, Bits<IPW>>,
    /// Lane reductions and the level match.
    pub t_none: Signal<In, Bit>,
    pub t_all: Signal<In, Bit>,
    pub e_none: Signal<In, Bit>,
    pub fc: Signal<In, Bit>,
    pub wc_any: Signal<In, Bit>,
    pub wx_any: Signal<In, Bit>,
    pub m: Signal<In, Bit>,
    /// State: CICs, `loop_nest`, the BR top and the halt label.
    pub cic_if: Signal<In, Bits<DW>>,
    pub cic_loop: Signal<In, Bits<DW>>,
    pub cic_call: Signal<In, Bits<DW>>,
    pub cic_br: Signal<In, Bits<DW>>,
    pub cic_halt: Signal<In, Bits<DW>>,
    pub loop_nest: Signal<In, Bits<DW>>,
    pub tos_ip_br: Signal<In, Bits<IPW>>,
    pub tos_aux_br: Signal<In, Bits<DW>>,
    pub tos_ip_halt: Signal<In, Bits<IPW>>,
    /// The step fails (`rsp_err`, with `err_code` and `err_type`), or commits.
    pub err: Signal<Out, Bit>,
    pub err_code: Signal<Out, Bits<5>>,
    pub err_type: Signal<Out, Bits<3>>,
    pub commit: Signal<Out, Bit>,
    bad_off: Signal<Local, Bit>,
    oor: Signal<Local, Bit>,
    berr: Signal<Local, Bit>,
    bcode: Signal<Local, Bits<5>>,
    btype: Signal<Local, Bits<3>>,
    k_maxd: Constant<Bits<DW>>,
    k_maxd_call: Constant<Bits<DW>>,
    k_err_none: Constant<Bits<5>>,
    k_err_faulted: Constant<Bits<5>>,
    k_err_bad_op: Constant<Bits<5>>,
    k_err_skipped_conv: Constant<Bits<5>>,
    k_err_bad_offset: Constant<Bits<5>>,
    k_err_ip_range: Constant<Bits<5>>,
    k_err_no_loop: Constant<Bits<5>>,
    k_err_loop_nest_ovf: Constant<Bits<5>>,
    k_err_stack_ovf: Constant<Bits<5>>,
    k_err_ret_underflow: Constant<Bits<5>>,
    k_err_div_backward: Constant<Bits<5>>,
    k_err_unstructured_br: Constant<Bits<5>>,
    k_err_halt_target: Constant<Bits<5>>,
    k_err_unclosed_at_eot: Constant<Bits<5>>,
    k_err_empty_live: Constant<Bits<5>>,
    k_ty_none: Constant<Bits<3>>,
    k_ty_if: Constant<Bits<3>>,
    k_ty_loop: Constant<Bits<3>>,
    k_ty_call: Constant<Bits<3>>,
    k_ty_br: Constant<Bits<3>>,
}

impl<const N: usize, const DW: usize, const IPW: usize> ErrorPriority<N, DW, IPW> {
    pub fn new(maxd: usize, maxd_call: usize) -> Self {
        let e = |v: u64| Constant::new(v.into());
        let t = |v: u64| Constant::new(v.into());
        Self {
            valid: Default::default(),
            pred: Default::default(),
            fault: Default::default(),
            ops: Default::default(),
            sk_if: Default::default(),
            sk_loop: Default::default(),
            sk_br: Default::default(),
            jneg: Default::default(),
            jzero: Default::default(),
            jpos: Default::default(),
            upos: Default::default(),
            j_le_u: Default::default(),
            oor_n: Default::default(),
            oor_j: Default::default(),
            oor_u: Default::default(),
            oor_u1: Default::default(),
            lab_j: Default::default(),
            lab_u: Default::default(),
            t_none: Default::default(),
            t_all: Default::default(),
            e_none: Default::default(),
            fc: Default::default(),
            wc_any: Default::default(),
            wx_any: Default::default(),
            m: Default::default(),
            cic_if: Default::default(),
            cic_loop: Default::default(),
            cic_call: Default::default(),
            cic_br: Default::default(),
            cic_halt: Default::default(),
            loop_nest: Default::default(),
            tos_ip_br: Default::default(),
            tos_aux_br: Default::default(),
            tos_ip_halt: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            err_type: Default::default(),
            commit: Default::default(),
            bad_off: Default::default(),
            oor: Default::default(),
            berr: Default::default(),
            bcode: Default::default(),
            btype: Default::default(),
            k_maxd: Constant::new(Bits::<DW>::from(maxd as u64)),
            k_maxd_call: Constant::new(Bits::<DW>::from(maxd_call as u64)),
            k_err_none: e(err::NONE),
            k_err_faulted: e(err::FAULTED),
            k_err_bad_op: e(err::BAD_OP),
            k_err_skipped_conv: e(err::SKIPPED_CONV),
            k_err_bad_offset: e(err::BAD_OFFSET),
            k_err_ip_range: e(err::IP_RANGE),
            k_err_no_loop: e(err::NO_LOOP),
            k_err_loop_nest_ovf: e(err::LOOP_NEST_OVF),
            k_err_stack_ovf: e(err::STACK_OVF),
            k_err_ret_underflow: e(err::RET_UNDERFLOW),
            k_err_div_backward: e(err::DIV_BACKWARD),
            k_err_unstructured_br: e(err::UNSTRUCTURED_BR),
            k_err_halt_target: e(err::HALT_TARGET),
            k_err_unclosed_at_eot: e(err::UNCLOSED_AT_EOT),
            k_err_empty_live: e(err::EMPTY_LIVE),
            k_ty_none: t(ty::NONE),
            k_ty_if: t(ty::IF),
            k_ty_loop: t(ty::LOOP),
            k_ty_call: t(ty::CALL),
            k_ty_br: t(ty::BR),
        }
    }
}

impl<const N: usize, const DW: usize, const IPW: usize> Logic for ErrorPriority<N, DW, IPW> {
    #[hdl_gen]
    fn update(&mut self) {
        // sign rules of §2.4 and the candidate targets of §6.4, per op
        self.bad_off.next = false;
        self.oor.next = false;
        if self.ops.val().is_nop || self.ops.val().is_do {
            self.oor.next = self.oor_n.val();
        }
        if self.ops.val().is_jmp {
            self.oor.next = self.oor_j.val();
        }
        if self.ops.val().is_if {
            self.bad_off.next = !(self.jpos.val() && self.upos.val() && self.j_le_u.val());
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
        }
        if self.ops.val().is_else {
            self.bad_off.next = !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_u.val();
        }
        if self.ops.val().is_endif || self.ops.val().is_join_br || self.ops.val().is_join_halt {
            self.bad_off.next = !self.jpos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val();
        }
        if self.ops.val().is_break || self.ops.val().is_cont || self.ops.val().is_halt {
            self.bad_off.next = !self.jpos.val() || !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
        }
        if self.ops.val().is_break {
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val() || self.oor_u1.val();
        }
        if self.ops.val().is_while {
            self.bad_off.next = self.jpos.val() || !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
        }
        if self.ops.val().is_call || self.ops.val().is_branch {
            self.oor.next = self.oor_n.val() || self.oor_j.val();
        }
        if self.ops.val().is_ret {
            self.bad_off.next = self.jneg.val();
            self.oor.next = !self.jzero.val() && (self.oor_n.val() || self.oor_j.val());
        }
        if self.ops.val().is_branch {
            self.bad_off.next = self.jzero.val();
        }

        // ERRORs inside the bodies
        self.berr.next = false;
        self.bcode.next = self.k_err_none.val();
        self.btype.next = self.k_ty_none.val();
        if self.ops.val().is_do && self.loop_nest.val().all() {
            self.berr.next = true;
            self.bcode.next = self.k_err_loop_nest_ovf.val();
        }
        if self.ops.val().is_eot
            && ((self.cic_if.val() != 0)
                || (self.cic_loop.val() != 0)
                || (self.cic_call.val() != 0)
                || (self.cic_br.val() != 0)
                || (self.cic_halt.val() != 0)
                || (self.loop_nest.val() != 0)
                || !self.fc.val())
        {
            self.berr.next = true;
            self.bcode.next = self.k_err_unclosed_at_eot.val();
        }
        if self.ops.val().is_if && !self.e_none.val() && !self.t_all.val() && !self.t_none.val() && (self.cic_if.val() == self.k_maxd.val()) {
            self.berr.next = true;
            self.bcode.next = self.k_err_stack_ovf.val();
            self.btype.next = self.k_ty_if.val();
        }
        // a LOOP level opens (BREAK/CONT that parks, WHILE that parks) on a full stack
        if (((self.ops.val().is_break || self.ops.val().is_cont) && !self.t_none.val() && !(self.fc.val() && self.t_all.val()))
            || (self.ops.val().is_while && self.wc_any.val() && self.wx_any.val()))
            && !self.m.val()
            && (self.cic_loop.val() == self.k_maxd.val())
            && (self.loop_nest.val() != 0)
        {
            self.berr.next = true;
            self.bcode.next = self.k_err_stack_ovf.val();
            self.btype.next = self.k_ty_loop.val();
        }
        if (self.ops.val().is_break || self.ops.val().is_cont || self.ops.val().is_while) && (self.loop_nest.val() == 0) {
            self.berr.next = true;
            self.bcode.next = self.k_err_no_loop.val();
            self.btype.next = self.k_ty_none.val();
        }
        if self.ops.val().is_call && !self.t_none.val() && (self.cic_call.val() == self.k_maxd_call.val()) {
            self.berr.next = true;
            self.bcode.next = self.k_err_stack_ovf.val();
            self.btype.next = self.k_ty_call.val();
        }
        if self.ops.val().is_ret && (self.cic_call.val() == 0) {
            self.berr.next = true;
            self.bcode.next = self.k_err_ret_underflow.val();
        }
        if self.ops.val().is_branch && !self.t_none.val() && !self.t_all.val() {
            if !self.jpos.val() {
                self.berr.next = true;
                self.bcode.next = self.k_err_div_backward.val();
            } else if (self.cic_br.val() != 0) && (self.tos_aux_br.val() == self.cic_call.val()) && (self.lab_j.val() > self.tos_ip_br.val()) {
                self.berr.next = true;
                self.bcode.next = self.k_err_unstructured_br.val();
            } else if !self.m.val() && (self.cic_br.val() == self.k_maxd.val()) {
                self.berr.next = true;
                self.bcode.next = self.k_err_stack_ovf.val();
                self.btype.next = self.k_ty_br.val();
            }
        }
        if self.ops.val().is_halt
            && !self.t_none.val()
            && !(self.fc.val() && self.t_all.val())
            && (self.cic_halt.val() != 0)
            && (self.tos_ip_halt.val() != self.lab_u.val())
        {
            self.berr.next = true;
            self.bcode.next = self.k_err_halt_target.val();
        }

        // priority (§7 table order; INIT reports only EMPTY_LIVE)
        self.err.next = true;
        self.err_code.next = self.k_err_none.val();
        self.err_type.next = self.k_ty_none.val();
        if self.ops.val().is_init {
            self.err.next = self.pred.val() == 0;
            self.err_code.next = self.k_err_empty_live.val();
        } else if self.fault.val() {
            self.err_code.next = self.k_err_faulted.val();
        } else if self.ops.val().bad_op {
            self.err_code.next = self.k_err_bad_op.val();
        } else if self.sk_if.val() {
            self.err_code.next = self.k_err_skipped_conv.val();
            self.err_type.next = self.k_ty_if.val();
        } else if self.sk_loop.val() {
            self.err_code.next = self.k_err_skipped_conv.val();
            self.err_type.next = self.k_ty_loop.val();
        } else if self.sk_br.val() {
            self.err_code.next = self.k_err_skipped_conv.val();
            self.err_type.next = self.k_ty_br.val();
        } else if self.bad_off.val() {
            self.err_code.next = self.k_err_bad_offset.val();
        } else if self.oor.val() {
            self.err_code.next = self.k_err_ip_range.val();
        } else {
            self.err.next = self.berr.val();
            self.err_code.next = self.bcode.val();
            self.err_type.next = self.btype.val();
        }
        self.commit.next = self.valid.val() && !self.err.val();
    }
}
