//! Request decode (§2.4 op table): one flag per op, BAD_OP for the reserved codes, and the stack
//! type and label the op's convergence compare uses. A function of `req_op` alone.

use super::enc::op;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Decode {
    /// `req_op`.
    pub op: Signal<In, Bits<5>>,
    /// One flag per op.
    pub is_nop: Signal<Out, Bit>,
    pub is_if: Signal<Out, Bit>,
    pub is_else: Signal<Out, Bit>,
    pub is_endif: Signal<Out, Bit>,
    pub is_do: Signal<Out, Bit>,
    pub is_while: Signal<Out, Bit>,
    pub is_break: Signal<Out, Bit>,
    pub is_cont: Signal<Out, Bit>,
    pub is_call: Signal<Out, Bit>,
    pub is_ret: Signal<Out, Bit>,
    pub is_branch: Signal<Out, Bit>,
    pub is_halt: Signal<Out, Bit>,
    pub is_join_br: Signal<Out, Bit>,
    pub is_join_halt: Signal<Out, Bit>,
    pub is_jmp: Signal<Out, Bit>,
    pub is_init: Signal<Out, Bit>,
    pub is_eot: Signal<Out, Bit>,
    /// A reserved op code.
    pub bad_op: Signal<Out, Bit>,
    /// The op's level is a LOOP (BREAK, CONT, WHILE), a BR (BRANCH, JOIN_BR) or the HALT level
    /// (HALT, JOIN_HALT); otherwise an IF.
    pub stk_loop: Signal<Out, Bit>,
    pub stk_br: Signal<Out, Bit>,
    pub stk_halt: Signal<Out, Bit>,
    /// The op's label is its own IP (ENDIF, WHILE, JOIN_BR, JOIN_HALT) or IP+jip (BRANCH);
    /// otherwise IP+uip.
    pub lbl_ip: Signal<Out, Bit>,
    pub lbl_jip: Signal<Out, Bit>,
    k_op_nop: Constant<Bits<5>>,
    k_op_if: Constant<Bits<5>>,
    k_op_else: Constant<Bits<5>>,
    k_op_endif: Constant<Bits<5>>,
    k_op_do: Constant<Bits<5>>,
    k_op_while: Constant<Bits<5>>,
    k_op_break: Constant<Bits<5>>,
    k_op_cont: Constant<Bits<5>>,
    k_op_call: Constant<Bits<5>>,
    k_op_ret: Constant<Bits<5>>,
    k_op_branch: Constant<Bits<5>>,
    k_op_halt: Constant<Bits<5>>,
    k_op_join_br: Constant<Bits<5>>,
    k_op_join_halt: Constant<Bits<5>>,
    k_op_jmp: Constant<Bits<5>>,
    k_op_init: Constant<Bits<5>>,
    k_op_eot: Constant<Bits<5>>,
}

impl Default for Decode {
    fn default() -> Self {
        let k = |v: u64| Constant::new(v.into());
        Self {
            op: Default::default(),
            is_nop: Default::default(),
            is_if: Default::default(),
            is_else: Default::default(),
            is_endif: Default::default(),
            is_do: Default::default(),
            is_while: Default::default(),
            is_break: Default::default(),
            is_cont: Default::default(),
            is_call: Default::default(),
            is_ret: Default::default(),
            is_branch: Default::default(),
            is_halt: Default::default(),
            is_join_br: Default::default(),
            is_join_halt: Default::default(),
            is_jmp: Default::default(),
            is_init: Default::default(),
            is_eot: Default::default(),
            bad_op: Default::default(),
            stk_loop: Default::default(),
            stk_br: Default::default(),
            stk_halt: Default::default(),
            lbl_ip: Default::default(),
            lbl_jip: Default::default(),
            k_op_nop: k(op::NOP),
            k_op_if: k(op::IF),
            k_op_else: k(op::ELSE),
            k_op_endif: k(op::ENDIF),
            k_op_do: k(op::DO),
            k_op_while: k(op::WHILE),
            k_op_break: k(op::BREAK),
            k_op_cont: k(op::CONT),
            k_op_call: k(op::CALL),
            k_op_ret: k(op::RET),
            k_op_branch: k(op::BRANCH),
            k_op_halt: k(op::HALT),
            k_op_join_br: k(op::JOIN_BR),
            k_op_join_halt: k(op::JOIN_HALT),
            k_op_jmp: k(op::JMP),
            k_op_init: k(op::INIT),
            k_op_eot: k(op::EOT),
        }
    }
}

impl Logic for Decode {
    #[hdl_gen]
    fn update(&mut self) {
        self.is_nop.next = self.op.val() == self.k_op_nop.val();
        self.is_if.next = self.op.val() == self.k_op_if.val();
        self.is_else.next = self.op.val() == self.k_op_else.val();
        self.is_endif.next = self.op.val() == self.k_op_endif.val();
        self.is_do.next = self.op.val() == self.k_op_do.val();
        self.is_while.next = self.op.val() == self.k_op_while.val();
        self.is_break.next = self.op.val() == self.k_op_break.val();
        self.is_cont.next = self.op.val() == self.k_op_cont.val();
        self.is_call.next = self.op.val() == self.k_op_call.val();
        self.is_ret.next = self.op.val() == self.k_op_ret.val();
        self.is_branch.next = self.op.val() == self.k_op_branch.val();
        self.is_halt.next = self.op.val() == self.k_op_halt.val();
        self.is_join_br.next = self.op.val() == self.k_op_join_br.val();
        self.is_join_halt.next = self.op.val() == self.k_op_join_halt.val();
        self.is_jmp.next = self.op.val() == self.k_op_jmp.val();
        self.is_init.next = self.op.val() == self.k_op_init.val();
        self.is_eot.next = self.op.val() == self.k_op_eot.val();
        self.bad_op.next = !(self.is_nop.val()
            || self.is_if.val()
            || self.is_else.val()
            || self.is_endif.val()
            || self.is_do.val()
            || self.is_while.val()
            || self.is_break.val()
            || self.is_cont.val()
            || self.is_call.val()
            || self.is_ret.val()
            || self.is_branch.val()
            || self.is_halt.val()
            || self.is_join_br.val()
            || self.is_join_halt.val()
            || self.is_jmp.val()
            || self.is_init.val()
            || self.is_eot.val());
        self.stk_loop.next = self.is_break.val() || self.is_cont.val() || self.is_while.val();
        self.stk_br.next = self.is_branch.val() || self.is_join_br.val();
        self.stk_halt.next = self.is_halt.val() || self.is_join_halt.val();
        self.lbl_ip.next = self.is_endif.val() || self.is_while.val() || self.is_join_br.val() || self.is_join_halt.val();
        self.lbl_jip.next = self.is_branch.val();
    }
}
