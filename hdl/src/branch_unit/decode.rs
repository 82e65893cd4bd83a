//! Request decode (§2.4 op table): one flag per op, BAD_OP for the reserved codes, and the stack
//! type and label the op's convergence compare uses. A function of `req_op` alone.

use super::enc::op;
use rust_hdl::prelude::*;

/// The decoded request: one flag per op, BAD_OP, and the level type and label source of the
/// op's convergence compare. A `LogicStruct` (one packed vector in the Verilog) so that the top
/// hands it to every stage on one port instead of one wire per flag.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Ops {
    /// One flag per op.
    pub is_nop: Bit,
    pub is_if: Bit,
    pub is_else: Bit,
    pub is_endif: Bit,
    pub is_do: Bit,
    pub is_while: Bit,
    pub is_break: Bit,
    pub is_cont: Bit,
    pub is_call: Bit,
    pub is_ret: Bit,
    pub is_branch: Bit,
    pub is_halt: Bit,
    pub is_join_br: Bit,
    pub is_join_halt: Bit,
    pub is_jmp: Bit,
    pub is_init: Bit,
    pub is_eot: Bit,
    /// A reserved op code.
    pub bad_op: Bit,
    /// The op's level is a LOOP (BREAK, CONT, WHILE), a BR (BRANCH, JOIN_BR) or the HALT level
    /// (HALT, JOIN_HALT); otherwise an IF.
    pub stk_loop: Bit,
    pub stk_br: Bit,
    pub stk_halt: Bit,
    /// The op's label is its own IP (ENDIF, WHILE, JOIN_BR, JOIN_HALT) or IP+jip (BRANCH);
    /// otherwise IP+uip.
    pub lbl_ip: Bit,
    pub lbl_jip: Bit,
}

#[derive(LogicBlock)]
pub struct Decode {
    /// `req_op`.
    pub op: Signal<In, Bits<5>>,
    /// The decoded op, one bundle so that each stage takes it on one port.
    pub ops: Signal<Out, Ops>,
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
            ops: Default::default(),
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
        self.ops.next.is_nop = self.op.val() == self.k_op_nop.val();
        self.ops.next.is_if = self.op.val() == self.k_op_if.val();
        self.ops.next.is_else = self.op.val() == self.k_op_else.val();
        self.ops.next.is_endif = self.op.val() == self.k_op_endif.val();
        self.ops.next.is_do = self.op.val() == self.k_op_do.val();
        self.ops.next.is_while = self.op.val() == self.k_op_while.val();
        self.ops.next.is_break = self.op.val() == self.k_op_break.val();
        self.ops.next.is_cont = self.op.val() == self.k_op_cont.val();
        self.ops.next.is_call = self.op.val() == self.k_op_call.val();
        self.ops.next.is_ret = self.op.val() == self.k_op_ret.val();
        self.ops.next.is_branch = self.op.val() == self.k_op_branch.val();
        self.ops.next.is_halt = self.op.val() == self.k_op_halt.val();
        self.ops.next.is_join_br = self.op.val() == self.k_op_join_br.val();
        self.ops.next.is_join_halt = self.op.val() == self.k_op_join_halt.val();
        self.ops.next.is_jmp = self.op.val() == self.k_op_jmp.val();
        self.ops.next.is_init = self.op.val() == self.k_op_init.val();
        self.ops.next.is_eot = self.op.val() == self.k_op_eot.val();
        self.ops.next.bad_op = !(self.ops.val().is_nop
            || self.ops.val().is_if
            || self.ops.val().is_else
            || self.ops.val().is_endif
            || self.ops.val().is_do
            || self.ops.val().is_while
            || self.ops.val().is_break
            || self.ops.val().is_cont
            || self.ops.val().is_call
            || self.ops.val().is_ret
            || self.ops.val().is_branch
            || self.ops.val().is_halt
            || self.ops.val().is_join_br
            || self.ops.val().is_join_halt
            || self.ops.val().is_jmp
            || self.ops.val().is_init
            || self.ops.val().is_eot);
        self.ops.next.stk_loop = self.ops.val().is_break || self.ops.val().is_cont || self.ops.val().is_while;
        self.ops.next.stk_br = self.ops.val().is_branch || self.ops.val().is_join_br;
        self.ops.next.stk_halt = self.ops.val().is_halt || self.ops.val().is_join_halt;
        self.ops.next.lbl_ip = self.ops.val().is_endif || self.ops.val().is_while || self.ops.val().is_join_br || self.ops.val().is_join_halt;
        self.ops.next.lbl_jip = self.ops.val().is_branch;
    }
}
