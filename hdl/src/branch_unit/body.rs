//! The per-op bodies of §2.4 without their errors (those are in `errors`): what the step
//! changes (`BodyState`: parked lanes, pushes and pops, `loop_nest`) and what it reports
//! (`BodyResponse`: next IP, predicate mask, warnings, event). Both follow the §2.4 case
//! structure op by op, so each reads against the spec.

use super::enc::{ev, warn};
use super::decode::Ops;
use super::stack::StackOps;
use rust_hdl::prelude::*;

/// State changes of the step (applied by the lanes and stacks only if it commits).
#[derive(LogicBlock, Default)]
pub struct BodyState<const N: usize, const DW: usize, const CW: usize, const IPW: usize> {
    /// Decoded op (NOP, JMP, EOT and INIT change nothing here; INIT is applied by its owners).
    pub ops: Signal<In, Ops>,
    /// Lanes: E, T, the lanes a WHILE parks, and the reductions.
    pub e: Signal<In, Bits<N>>,
    pub t: Signal<In, Bits<N>>,
    pub wx: Signal<In, Bits<N>>,
    pub e_none: Signal<In, Bit>,
    pub t_none: Signal<In, Bit>,
    pub t_all: Signal<In, Bit>,
    pub fc: Signal<In, Bit>,
    pub still_any: Signal<In, Bit>,
    pub wc_any: Signal<In, Bit>,
    pub wx_any: Signal<In, Bit>,
    pub eqb_none: Signal<In, Bit>,
    /// Levels: the match, the op's label, the codes.
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
    /// IP+1 (a CALL's return IP), jip == 0, and the state a CALL saves or a RET restores.
    pub lab_n: Signal<In, Bits<IPW>>,
    pub jzero: Signal<In, Bit>,
    pub cic_call: Signal<In, Bits<DW>>,
    pub cic_halt: Signal<In, Bits<DW>>,
    pub loop_nest: Signal<In, Bits<DW>>,
    pub tos_aux_call: Signal<In, Bits<DW>>,
    /// park(M, c).
    pub park_m: Signal<Out, Bits<N>>,
    pub park_code: Signal<Out, Bits<CW>>,
    /// Rejoin B: a WHILE's exit re-enables every lane of its LOOP level.
    pub rjb_en: Signal<Out, Bit>,
    /// push / pop / close per type, the entry pushed, CIC[CALL] := 0 (HALT shortcut).
    pub stack_ops: Signal<Out, StackOps>,
    pub push_ip: Signal<Out, Bits<IPW>>,
    pub push_aux: Signal<Out, Bits<DW>>,
    /// The next `loop_nest`.
    pub ln_next: Signal<Out, Bits<DW>>,
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize> Logic for BodyState<N, DW, CW, IPW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.park_m.next = 0.into();
        self.park_code.next = self.cur_if.val();
        self.rjb_en.next = false;
        self.stack_ops.next.push_if = false;
        self.stack_ops.next.push_loop = false;
        self.stack_ops.next.push_call = false;
        self.stack_ops.next.push_br = false;
        self.stack_ops.next.push_halt = false;
        self.stack_ops.next.pop_if = false;
        self.stack_ops.next.pop_loop = false;
        self.stack_ops.next.pop_call = false;
        self.stack_ops.next.pop_br = false;
        self.stack_ops.next.pop_halt = false;
        self.stack_ops.next.clr_call = false;
        self.push_ip.next = self.label.val();
        self.push_aux.next = self.cic_call.val();
        self.ln_next.next = self.loop_nest.val();
        if self.ops.val().is_do {
            self.ln_next.next = self.loop_nest.val() + 1;
        }
        if self.ops.val().is_if && !self.e_none.val() && !self.t_all.val() && !self.t_none.val() {
            self.stack_ops.next.push_if = true;
            self.park_m.next = self.e.val() & !self.t.val();
            self.park_code.next = self.new_if.val();
        }
        if self.ops.val().is_else && self.m.val() {
            // swap: the enabled lanes park on the IF's code, its parked lanes rejoin (rejoin A)
            self.park_m.next = self.e.val();
            self.park_code.next = self.cur_if.val();
        }
        if (self.ops.val().is_endif || self.ops.val().is_join_br || self.ops.val().is_join_halt) && self.m.val() && !self.still_any.val() {
            self.stack_ops.next.pop_if = self.ops.val().is_endif;
            self.stack_ops.next.pop_br = self.ops.val().is_join_br;
            self.stack_ops.next.pop_halt = self.ops.val().is_join_halt;
        }
        if self.ops.val().is_break || self.ops.val().is_cont {
            if !self.t_none.val() {
                if self.fc.val() && self.t_all.val() {
                    if self.ops.val().is_break {
                        self.ln_next.next = self.loop_nest.val() - 1;
                    }
                } else {
                    self.stack_ops.next.push_loop = !self.m.val();
                    self.park_m.next = self.t.val();
                    self.park_code.next = self.park_loop.val();
                    if self.ops.val().is_cont {
                        self.park_code.next = self.park_cont.val();
                    }
                }
            }
        }
        if self.ops.val().is_while {
            if self.wc_any.val() {
                if self.wx_any.val() {
                    self.park_m.next = self.wx.val();
                    self.park_code.next = self.park_loop.val();
                    self.stack_ops.next.push_loop = !self.m.val();
                } else if self.m.val() && self.eqb_none.val() {
                    self.stack_ops.next.pop_loop = true;
                }
            } else {
                if self.m.val() {
                    self.rjb_en.next = true;
                    self.stack_ops.next.pop_loop = true;
                }
                self.ln_next.next = self.loop_nest.val() - 1;
            }
        }
        if self.ops.val().is_call && !self.t_none.val() {
            self.stack_ops.next.push_call = true;
            self.push_ip.next = self.lab_n.val();
            self.push_aux.next = self.loop_nest.val();
            self.ln_next.next = 0.into();
            if !self.t_all.val() {
                self.park_m.next = self.e.val() & !self.t.val();
                self.park_code.next = self.new_call.val();
            }
        }
        if self.ops.val().is_ret {
            if self.jzero.val() || (!self.e_none.val() && self.fc.val() && self.t_all.val()) {
                self.stack_ops.next.pop_call = true;
                self.ln_next.next = self.tos_aux_call.val();
            } else {
                self.park_m.next = self.t.val();
                self.park_code.next = self.cur_call.val();
            }
        }
        if self.ops.val().is_branch && !self.t_none.val() && !self.t_all.val() {
            self.stack_ops.next.push_br = !self.m.val();
            self.park_m.next = self.t.val();
            self.park_code.next = self.park_br.val();
        }
        if self.ops.val().is_halt && !self.t_none.val() {
            if self.fc.val() && self.t_all.val() {
                self.stack_ops.next.clr_call = true;
                self.ln_next.next = 0.into();
            } else {
                self.stack_ops.next.push_halt = self.cic_halt.val() == 0;
                self.park_m.next = self.t.val();
                self.park_code.next = self.halt1.val();
            }
        }
    }
}

/// What the step reports: next IP (before `go_on`), `go_on(j)`, predicate mask, warnings, event.
#[derive(LogicBlock)]
pub struct BodyResponse<const N: usize, const IPW: usize, const XW: usize> {
    /// Decoded op (NOP reports the defaults).
    pub ops: Signal<In, Ops>,
    /// Lanes: E, T, E1 and the reductions; the level match.
    pub e: Signal<In, Bits<N>>,
    pub t: Signal<In, Bits<N>>,
    pub e1: Signal<In, Bits<N>>,
    pub e_none: Signal<In, Bit>,
    pub t_none: Signal<In, Bit>,
    pub t_all: Signal<In, Bit>,
    pub fc: Signal<In, Bit>,
    pub pred_all: Signal<In, Bit>,
    pub still_any: Signal<In, Bit>,
    pub wc_any: Signal<In, Bit>,
    pub wx_any: Signal<In, Bit>,
    pub eqb_none: Signal<In, Bit>,
    pub m: Signal<In, Bit>,
    /// Targets (exact), jip == 0, and the return IP on the CALL stack.
    pub ip_x: Signal<In, Bits<XW>>,
    pub tgt_n: Signal<In, Bits<XW>>,
    pub tgt_j: Signal<In, Bits<XW>>,
    pub tgt_u: Signal<In, Bits<XW>>,
    pub tgt_u1: Signal<In, Bits<XW>>,
    pub jzero: Signal<In, Bit>,
    pub tos_ip_call: Signal<In, Bits<IPW>>,
    /// Next IP, unless `go_on`: then IP+1 if lanes are left enabled, else `go_tgt`.
    pub next_x: Signal<Out, Bits<XW>>,
    pub go_on: Signal<Out, Bit>,
    pub go_tgt: Signal<Out, Bits<XW>>,
    /// `rsp_pred_mask`, `rsp_warn`, `rsp_event` of a step without error.
    pub pred_mask: Signal<Out, Bits<N>>,
    pub warn: Signal<Out, Bits<2>>,
    pub evt: Signal<Out, Bits<6>>,
    /// PRED_IGNORED if the predicate is not all ones.
    ign: Signal<Local, Bits<2>>,
    k_warn_none: Constant<Bits<2>>,
    k_warn_partial_rejoin: Constant<Bits<2>>,
    k_warn_pred_ignored: Constant<Bits<2>>,
    k_ev_nop: Constant<Bits<6>>,
    k_ev_jmp: Constant<Bits<6>>,
    k_ev_do: Constant<Bits<6>>,
    k_ev_eot: Constant<Bits<6>>,
    k_ev_init: Constant<Bits<6>>,
    k_ev_if_empty: Constant<Bits<6>>,
    k_ev_if_uniform_true: Constant<Bits<6>>,
    k_ev_if_uniform_false: Constant<Bits<6>>,
    k_ev_if_diverge: Constant<Bits<6>>,
    k_ev_else_swap: Constant<Bits<6>>,
    k_ev_else_skip: Constant<Bits<6>>,
    k_ev_conv_nomatch: Constant<Bits<6>>,
    k_ev_conv_pop: Constant<Bits<6>>,
    k_ev_conv_partial: Constant<Bits<6>>,
    k_ev_break_none: Constant<Bits<6>>,
    k_ev_break_shortcut: Constant<Bits<6>>,
    k_ev_break_park_open: Constant<Bits<6>>,
    k_ev_break_park_reuse: Constant<Bits<6>>,
    k_ev_cont_none: Constant<Bits<6>>,
    k_ev_cont_shortcut: Constant<Bits<6>>,
    k_ev_cont_park_open: Constant<Bits<6>>,
    k_ev_cont_park_reuse: Constant<Bits<6>>,
    k_ev_while_uniform_loop: Constant<Bits<6>>,
    k_ev_while_uniform_loop_close: Constant<Bits<6>>,
    k_ev_while_diverge: Constant<Bits<6>>,
    k_ev_while_diverge_open: Constant<Bits<6>>,
    k_ev_while_exit: Constant<Bits<6>>,
    k_ev_while_exit_pop: Constant<Bits<6>>,
    k_ev_call_none: Constant<Bits<6>>,
    k_ev_call_uniform: Constant<Bits<6>>,
    k_ev_call_diverge: Constant<Bits<6>>,
    k_ev_ret_shortcut: Constant<Bits<6>>,
    k_ev_ret_park: Constant<Bits<6>>,
    k_ev_ret_park_rejoin: Constant<Bits<6>>,
    k_ev_ret_complete: Constant<Bits<6>>,
    k_ev_br_none: Constant<Bits<6>>,
    k_ev_br_all: Constant<Bits<6>>,
    k_ev_br_diverge: Constant<Bits<6>>,
    k_ev_br_diverge_reuse: Constant<Bits<6>>,
    k_ev_halt_none: Constant<Bits<6>>,
    k_ev_halt_shortcut: Constant<Bits<6>>,
    k_ev_halt_park: Constant<Bits<6>>,
}

impl<const N: usize, const IPW: usize, const XW: usize> Default for BodyResponse<N, IPW, XW> {
    fn default() -> Self {
        let k = |v: u64| Constant::new(v.into());
        Self {
            ops: Default::default(),
            e: Default::default(),
            t: Default::default(),
            e1: Default::default(),
            e_none: Default::default(),
            t_none: Default::default(),
            t_all: Default::default(),
            fc: Default::default(),
            pred_all: Default::default(),
            still_any: Default::default(),
            wc_any: Default::default(),
            wx_any: Default::default(),
            eqb_none: Default::default(),
            m: Default::default(),
            ip_x: Default::default(),
            tgt_n: Default::default(),
            tgt_j: Default::default(),
            tgt_u: Default::default(),
            tgt_u1: Default::default(),
            jzero: Default::default(),
            tos_ip_call: Default::default(),
            next_x: Default::default(),
            go_on: Default::default(),
            go_tgt: Default::default(),
            pred_mask: Default::default(),
            warn: Default::default(),
            evt: Default::default(),
            ign: Default::default(),
            k_warn_none: Constant::new(0.into()),
            k_warn_partial_rejoin: Constant::new(warn::PARTIAL_REJOIN.into()),
            k_warn_pred_ignored: Constant::new(warn::PRED_IGNORED.into()),
            k_ev_nop: k(ev::NOP),
            k_ev_jmp: k(ev::JMP),
            k_ev_do: k(ev::DO),
            k_ev_eot: k(ev::EOT),
            k_ev_init: k(ev::INIT),
            k_ev_if_empty: k(ev::IF_EMPTY),
            k_ev_if_uniform_true: k(ev::IF_UNIFORM_TRUE),
            k_ev_if_uniform_false: k(ev::IF_UNIFORM_FALSE),
            k_ev_if_diverge: k(ev::IF_DIVERGE),
            k_ev_else_swap: k(ev::ELSE_SWAP),
            k_ev_else_skip: k(ev::ELSE_SKIP),
            k_ev_conv_nomatch: k(ev::CONV_NOMATCH),
            k_ev_conv_pop: k(ev::CONV_POP),
            k_ev_conv_partial: k(ev::CONV_PARTIAL),
            k_ev_break_none: k(ev::BREAK_NONE),
            k_ev_break_shortcut: k(ev::BREAK_SHORTCUT),
            k_ev_break_park_open: k(ev::BREAK_PARK_OPEN),
            k_ev_break_park_reuse: k(ev::BREAK_PARK_REUSE),
            k_ev_cont_none: k(ev::CONT_NONE),
            k_ev_cont_shortcut: k(ev::CONT_SHORTCUT),
            k_ev_cont_park_open: k(ev::CONT_PARK_OPEN),
            k_ev_cont_park_reuse: k(ev::CONT_PARK_REUSE),
            k_ev_while_uniform_loop: k(ev::WHILE_UNIFORM_LOOP),
            k_ev_while_uniform_loop_close: k(ev::WHILE_UNIFORM_LOOP_CLOSE),
            k_ev_while_diverge: k(ev::WHILE_DIVERGE),
            k_ev_while_diverge_open: k(ev::WHILE_DIVERGE_OPEN),
            k_ev_while_exit: k(ev::WHILE_EXIT),
            k_ev_while_exit_pop: k(ev::WHILE_EXIT_POP),
            k_ev_call_none: k(ev::CALL_NONE),
            k_ev_call_uniform: k(ev::CALL_UNIFORM),
            k_ev_call_diverge: k(ev::CALL_DIVERGE),
            k_ev_ret_shortcut: k(ev::RET_SHORTCUT),
            k_ev_ret_park: k(ev::RET_PARK),
            k_ev_ret_park_rejoin: k(ev::RET_PARK_REJOIN),
            k_ev_ret_complete: k(ev::RET_COMPLETE),
            k_ev_br_none: k(ev::BR_NONE),
            k_ev_br_all: k(ev::BR_ALL),
            k_ev_br_diverge: k(ev::BR_DIVERGE),
            k_ev_br_diverge_reuse: k(ev::BR_DIVERGE_REUSE),
            k_ev_halt_none: k(ev::HALT_NONE),
            k_ev_halt_shortcut: k(ev::HALT_SHORTCUT),
            k_ev_halt_park: k(ev::HALT_PARK),
        }
    }
}

impl<const N: usize, const IPW: usize, const XW: usize> Logic for BodyResponse<N, IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.next_x.next = self.tgt_n.val();
        self.go_on.next = false;
        self.go_tgt.next = self.tgt_j.val();
        self.pred_mask.next = 0.into();
        self.warn.next = self.k_warn_none.val();
        self.evt.next = self.k_ev_nop.val();
        self.ign.next = self.k_warn_none.val();
        if !self.pred_all.val() {
            self.ign.next = self.k_warn_pred_ignored.val();
        }
        if self.ops.val().is_jmp {
            self.next_x.next = self.tgt_j.val();
            self.evt.next = self.k_ev_jmp.val();
            self.warn.next = self.ign.val();
        }
        if self.ops.val().is_do {
            self.evt.next = self.k_ev_do.val();
            self.warn.next = self.ign.val();
        }
        if self.ops.val().is_eot {
            self.next_x.next = self.ip_x.val();
            self.evt.next = self.k_ev_eot.val();
            self.warn.next = self.ign.val();
        }
        if self.ops.val().is_init {
            self.next_x.next = self.ip_x.val();
            self.evt.next = self.k_ev_init.val();
        }
        if self.ops.val().is_if {
            self.pred_mask.next = self.e.val();
            if self.e_none.val() {
                self.next_x.next = self.tgt_u.val();
                self.evt.next = self.k_ev_if_empty.val();
            } else if self.t_all.val() {
                self.evt.next = self.k_ev_if_uniform_true.val();
            } else if self.t_none.val() {
                self.next_x.next = self.tgt_j.val();
                self.evt.next = self.k_ev_if_uniform_false.val();
            } else {
                self.evt.next = self.k_ev_if_diverge.val();
            }
        }
        if self.ops.val().is_else {
            self.warn.next = self.ign.val();
            if self.m.val() {
                self.go_on.next = true;
                self.go_tgt.next = self.tgt_u.val();
                self.evt.next = self.k_ev_else_swap.val();
            } else {
                self.next_x.next = self.tgt_u.val();
                self.evt.next = self.k_ev_else_skip.val();
            }
        }
        if self.ops.val().is_endif || self.ops.val().is_join_br || self.ops.val().is_join_halt {
            self.go_on.next = true;
            self.go_tgt.next = self.tgt_j.val();
            self.evt.next = self.k_ev_conv_nomatch.val();
            if self.m.val() {
                if self.still_any.val() {
                    self.warn.next = self.k_warn_partial_rejoin.val();
                    self.evt.next = self.k_ev_conv_partial.val();
                } else {
                    self.evt.next = self.k_ev_conv_pop.val();
                }
            }
        }
        if self.ops.val().is_break {
            self.pred_mask.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = self.k_ev_break_none.val();
            } else if self.fc.val() && self.t_all.val() {
                self.evt.next = self.k_ev_break_shortcut.val();
                self.next_x.next = self.tgt_u1.val();
            } else {
                self.go_on.next = true;
                self.evt.next = self.k_ev_break_park_open.val();
                if self.m.val() {
                    self.evt.next = self.k_ev_break_park_reuse.val();
                }
            }
        }
        if self.ops.val().is_cont {
            self.pred_mask.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = self.k_ev_cont_none.val();
            } else if self.fc.val() && self.t_all.val() {
                self.evt.next = self.k_ev_cont_shortcut.val();
                self.next_x.next = self.tgt_u.val();
            } else {
                self.go_on.next = true;
                self.evt.next = self.k_ev_cont_park_open.val();
                if self.m.val() {
                    self.evt.next = self.k_ev_cont_park_reuse.val();
                }
            }
        }
        if self.ops.val().is_while {
            self.pred_mask.next = self.e1.val();
            if self.wc_any.val() {
                self.next_x.next = self.tgt_j.val();
                if self.wx_any.val() {
                    self.evt.next = self.k_ev_while_diverge_open.val();
                    if self.m.val() {
                        self.evt.next = self.k_ev_while_diverge.val();
                    }
                } else if self.m.val() && self.eqb_none.val() {
                    self.evt.next = self.k_ev_while_uniform_loop_close.val();
                } else {
                    self.evt.next = self.k_ev_while_uniform_loop.val();
                }
            } else {
                self.go_on.next = true;
                self.go_tgt.next = self.tgt_u.val();
                self.evt.next = self.k_ev_while_exit.val();
                if self.m.val() {
                    self.evt.next = self.k_ev_while_exit_pop.val();
                }
            }
        }
        if self.ops.val().is_call {
            self.pred_mask.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = self.k_ev_call_none.val();
            } else {
                self.next_x.next = self.tgt_j.val();
                self.evt.next = self.k_ev_call_diverge.val();
                if self.t_all.val() {
                    self.evt.next = self.k_ev_call_uniform.val();
                }
            }
        }
        if self.ops.val().is_ret {
            if self.jzero.val() {
                // final RET: the predicate is forced to all ones, so it is not reported
                self.warn.next = self.ign.val();
                self.next_x.next = bit_cast::<XW, IPW>(self.tos_ip_call.val());
                self.evt.next = self.k_ev_ret_complete.val();
                if !self.e_none.val() && self.fc.val() {
                    self.evt.next = self.k_ev_ret_shortcut.val();
                }
            } else {
                self.pred_mask.next = self.e.val();
                if !self.e_none.val() && self.fc.val() && self.t_all.val() {
                    self.evt.next = self.k_ev_ret_shortcut.val();
                    self.next_x.next = bit_cast::<XW, IPW>(self.tos_ip_call.val());
                } else if (self.e.val() & !self.t.val()) != 0 {
                    self.evt.next = self.k_ev_ret_park.val();
                } else {
                    self.evt.next = self.k_ev_ret_park_rejoin.val();
                    self.next_x.next = self.tgt_j.val();
                }
            }
        }
        if self.ops.val().is_branch {
            self.pred_mask.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = self.k_ev_br_none.val();
            } else if self.t_all.val() {
                self.evt.next = self.k_ev_br_all.val();
                self.next_x.next = self.tgt_j.val();
            } else {
                self.evt.next = self.k_ev_br_diverge.val();
                if self.m.val() {
                    self.evt.next = self.k_ev_br_diverge_reuse.val();
                }
            }
        }
        if self.ops.val().is_halt {
            self.pred_mask.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = self.k_ev_halt_none.val();
            } else if self.fc.val() && self.t_all.val() {
                self.evt.next = self.k_ev_halt_shortcut.val();
                self.next_x.next = self.tgt_u.val();
            } else {
                self.go_on.next = true;
                self.evt.next = self.k_ev_halt_park.val();
            }
        }
    }
}
