//! Encodings of the branch unit, one table per kind (spec branch-unit.md §2.1, §2.4, §6.2, §7).
//!
//! The RTL compares against `k_<kind>_<name>` constants built from these tables; the golden
//! model, the tests and the BIST top use the same names (`hdl::branch_unit::enc::op::IF`), and
//! `eu-gen` writes them to `eu_branch_unit_defs.vh`.

crate::enc_table! {
    /// SBU op codes (§2.4), carried on `req_op`; every other code is reserved (BAD_OP).
    pub mod op: 5 {
        /// No operation: any non-CF instruction.
        NOP = 0x00,
        /// Open an IF; pred 1 runs the then-block.
        IF = 0x01,
        /// Swap the two lane groups of a divergent IF.
        ELSE = 0x02,
        /// Close an IF; pred is the rejoin qualifier.
        ENDIF = 0x03,
        /// Enter a loop.
        DO = 0x04,
        /// Loop back edge; pred 1 iterates again.
        WHILE = 0x05,
        /// Leave the loop; pred 1 leaves.
        BREAK = 0x06,
        /// Skip to the loop's WHILE; pred 1 skips.
        CONT = 0x07,
        /// Call a subroutine; pred 1 calls.
        CALL = 0x08,
        /// Return; jip 0 is the subroutine's final exit.
        RET = 0x09,
        /// Jump to a JOIN_BR; pred 1 jumps.
        BRANCH = 0x0A,
        /// Wait at the halt join; pred 1 halts.
        HALT = 0x0B,
        /// Join of a BRANCH region.
        JOIN_BR = 0x0C,
        /// Join of halted lanes.
        JOIN_HALT = 0x0D,
        /// Jump, whatever the mask.
        JMP = 0x0E,
        /// Side-band thread dispatch; pred is the live-lane mask.
        INIT = 0x10,
        /// Side-band end of thread.
        EOT = 0x11,
    }
}

crate::enc_table! {
    /// Branch types (§2.1): the `type` field of a lane counter `{type, depth}`, and `rsp_err_type`.
    pub mod ty: 3 {
        /// No type: the counter of an enabled lane is all zero; errors that name no type.
        NONE = 0,
        /// Waits for its IF's ELSE or ENDIF.
        IF = 1,
        /// Waits for its loop's exit.
        LOOP = 2,
        /// Waits for the end of the loop iteration (LOOP's CIC and stack).
        CONT = 3,
        /// Waits for the return from a call.
        CALL = 4,
        /// Waits for its JOIN_BR.
        BR = 5,
        /// Waits for the JOIN_HALT.
        HALT = 6,
        /// Lane not live (depth field all ones).
        OFF = 7,
    }
}

crate::enc_table! {
    /// Error codes (§7, `rsp_err_code`), in priority order: the first that applies is reported.
    pub mod err: 5 {
        /// No error.
        NONE = 0,
        /// Any request but INIT while `fault` is set.
        FAULTED = 1,
        /// Reserved op code.
        BAD_OP = 2,
        /// An open IF/LOOP/BR level of the current call depth has its label below IP.
        SKIPPED_CONV = 3,
        /// A sign rule of §2.4 is broken.
        BAD_OFFSET = 4,
        /// A candidate target lies outside `[0, IMEM_DEPTH)`.
        IP_RANGE = 5,
        /// BREAK, CONT or WHILE outside a loop.
        NO_LOOP = 6,
        /// DO with `loop_nest` at its maximum.
        LOOP_NEST_OVF = 7,
        /// Push onto a full stack.
        STACK_OVF = 8,
        /// RET with no open call.
        RET_UNDERFLOW = 9,
        /// Divergent BRANCH with `jip <= 0`.
        DIV_BACKWARD = 10,
        /// Divergent BRANCH past the enclosing open BR region.
        UNSTRUCTURED_BR = 11,
        /// HALT whose label differs from the open halt label.
        HALT_TARGET = 12,
        /// EOT with a level open or lanes parked.
        UNCLOSED_AT_EOT = 13,
        /// INIT with an empty live mask.
        EMPTY_LIVE = 14,
        /// `E_BUSY` (timing-closure §3.2): a request for a thread whose `thr_busy` bit is set; state unchanged.
        BUSY = 15,
    }
}

crate::enc_table! {
    /// Warning bits (`rsp_warn`, §6.2); they do not stop the thread.
    pub mod warn: 2 {
        /// A predicated convergence left lanes parked; the level stays open.
        PARTIAL_REJOIN = 1,
        /// ELSE, DO, JMP, EOT or a final RET carried a predicate other than all ones.
        PRED_IGNORED = 2,
    }
}

crate::enc_table! {
    /// Coverage events (`rsp_event`, §6.2): the §2.4 path taken. Errors report NOP.
    pub mod ev: 6 {
        NOP = 0,
        JMP = 1,
        DO = 2,
        EOT = 3,
        INIT = 4,
        IF_EMPTY = 5,
        IF_UNIFORM_TRUE = 6,
        IF_UNIFORM_FALSE = 7,
        IF_DIVERGE = 8,
        ELSE_SWAP = 9,
        ELSE_SKIP = 10,
        /// ENDIF, JOIN_BR or JOIN_HALT whose level is not on top.
        CONV_NOMATCH = 11,
        CONV_POP = 12,
        CONV_PARTIAL = 13,
        BREAK_NONE = 14,
        BREAK_SHORTCUT = 15,
        BREAK_PARK_OPEN = 16,
        BREAK_PARK_REUSE = 17,
        CONT_NONE = 18,
        CONT_SHORTCUT = 19,
        CONT_PARK_OPEN = 20,
        CONT_PARK_REUSE = 21,
        WHILE_UNIFORM_LOOP = 22,
        WHILE_UNIFORM_LOOP_CLOSE = 23,
        WHILE_DIVERGE = 24,
        /// The WHILE opened the level itself.
        WHILE_DIVERGE_OPEN = 25,
        WHILE_EXIT = 26,
        WHILE_EXIT_POP = 27,
        CALL_NONE = 28,
        CALL_UNIFORM = 29,
        CALL_DIVERGE = 30,
        RET_SHORTCUT = 31,
        RET_PARK = 32,
        /// An early RET emptied the mask and jumps to its jip.
        RET_PARK_REJOIN = 33,
        RET_COMPLETE = 34,
        BR_NONE = 35,
        BR_ALL = 36,
        BR_DIVERGE = 37,
        BR_DIVERGE_REUSE = 38,
        HALT_NONE = 39,
        HALT_SHORTCUT = 40,
        HALT_PARK = 41,
    }
}

/// The spec's event name (`if-diverge`) of an event code, for messages and coverage reports.
pub fn event_name(code: u64) -> Option<String> {
    ev::TABLE.name_of(code).map(|n| n.to_lowercase().replace('_', "-"))
}

/// The event code of a spec event name (`if-diverge`); panics on an unknown name.
pub fn event_code(name: &str) -> u64 {
    ev::TABLE.value(&name.to_uppercase().replace('-', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §6.2 lists the 42 events in code order; the table has them all, in that order.
    #[test]
    fn events_follow_the_spec_list() {
        let spec = "nop, jmp, do, eot, init, if-empty, if-uniform-true, if-uniform-false, if-diverge, \
            else-swap, else-skip, conv-nomatch, conv-pop, conv-partial, break-none, break-shortcut, \
            break-park-open, break-park-reuse, cont-none, cont-shortcut, cont-park-open, cont-park-reuse, \
            while-uniform-loop, while-uniform-loop-close, while-diverge, while-diverge-open, while-exit, \
            while-exit-pop, call-none, call-uniform, call-diverge, ret-shortcut, ret-park, ret-park-rejoin, \
            ret-complete, br-none, br-all, br-diverge, br-diverge-reuse, halt-none, halt-shortcut, halt-park";
        let names: Vec<&str> = spec.split(',').map(str::trim).collect();
        assert_eq!(names.len(), 42);
        assert_eq!(ev::TABLE.codes.len(), 42);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(event_code(n), i as u64, "{n}");
            assert_eq!(event_name(i as u64).as_deref(), Some(*n));
        }
        for t in [&op::TABLE, &ty::TABLE, &err::TABLE, &warn::TABLE, &ev::TABLE] {
            t.check().unwrap();
        }
    }
}
