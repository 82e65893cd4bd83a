//! The core's side of the trap controller (docs/eu_core.md "Traps"): what an instruction in S3
//! tells the controller (`TrapPort`), and the controller's per-thread vectors (`TrapLink`).
//!
//! `TrapPort` is combinational in S3. It turns the slot's faults into the ISA's exception and
//! cause, in the ISA model's order (decode, the branch unit, the operand regions, then the op:
//! TRAP, TRET/TPAUSE outside the handler, SRD/SWR of a reserved special register, a LD/ST's
//! address), and says what the slot does to the controller: RETURN (TRET), PAUSE (TPAUSE), a
//! special-register read (SRD of ESR/EPC/EMASK/TGID) or write (SWR). TRAP, TRET, TPAUSE and SWR
//! act only when some lane runs them (docs/isa.md). A slice limit (an op the RTL does not run,
//! an operand spanning registers) is not an ISA exception: it stops the thread (`stop`) as
//! before the controller, and reports in `FaultReg` only.
//!
//! An exception inside the handler of a cause the controller's reset HMASK drops (ILLEGAL_REGION,
//! the controller's REG_RANGE) is skipped (`skip`: the thread goes on at IP + 1, the ISA model's
//! rule); the driver never writes HMASK, so the reset value is the one that holds.

use super::enc::{cause, op};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct TrapPort {
    /// The S3 slot: valid, an INIT slot (no instruction), the thread runs the handler.
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub in_handler: Signal<In, Bit>,
    /// The op and decode's `sys` (SRD/SWR special-register access).
    pub op: Signal<In, Bits<7>>,
    pub sys: Signal<In, Bits<4>>,
    /// The execution mask's parts: the branch unit's E, the exec size's lanes, the predicate's.
    pub bu_exec_mask: Signal<In, Bits<8>>,
    pub exec_lanes: Signal<In, Bits<8>>,
    pub pred_lanes: Signal<In, Bits<8>>,
    /// The faults: decode (ILLEGAL_INSTR), an op outside the slice, the branch unit's error,
    /// a region error, a region spanning registers (a slice limit), a LD/ST's bad address.
    pub illegal: Signal<In, Bit>,
    pub not_yet: Signal<In, Bit>,
    pub bu_err: Signal<In, Bit>,
    pub region_err: Signal<In, Bit>,
    pub region_multi: Signal<In, Bit>,
    pub mem_fault: Signal<In, Bit>,
    /// src0 (SWR's value: its lowest running lane) or the immediate in its place.
    pub src0: Signal<In, Bits<256>>,
    pub src0_imm: Signal<In, Bit>,
    pub imm: Signal<In, Bits<32>>,
    /// The slot raises an ISA exception (to the controller's `exc_valid`): it does not retire.
    pub exc: Signal<Out, Bit>,
    /// The slot hits a slice limit: it does not retire and its thread stops.
    pub stop: Signal<Out, Bit>,
    /// The exception is one the handler's reset HMASK drops: the thread goes on at IP + 1.
    pub skip: Signal<Out, Bit>,
    /// The exception's cause (`enc::cause`; for `stop` the cause `FaultReg` reports).
    pub cause: Signal<Out, Bits<4>>,
    /// RETURN (TRET in the handler, some lane running).
    pub ret: Signal<Out, Bit>,
    /// PAUSE (TPAUSE in the handler, some lane running).
    pub pause: Signal<Out, Bit>,
    /// The controller's special-register port: a read (SRD) or a write (SWR).
    pub sr_valid: Signal<Out, Bit>,
    pub sr_we: Signal<Out, Bit>,
    pub sr_sel: Signal<Out, Bits<3>>,
    pub sr_wdata: Signal<Out, Bits<32>>,
    /// SRD of a controller register: its result is `sr_rdata` in every lane.
    pub srd_sr: Signal<Out, Bit>,
    mask: Signal<Local, Bit>,
    lanes: Signal<Local, Bits<8>>,
    live: Signal<Local, Bit>,
    is_trap: Signal<Local, Bit>,
    is_tret: Signal<Local, Bit>,
    is_tpause: Signal<Local, Bit>,
    is_swr: Signal<Local, Bit>,
    sys_bad: Signal<Local, Bit>,
    op_exc: Signal<Local, Bit>,
    any: Signal<Local, Bit>,
    found: Signal<Local, Bit>,
    k_op_trap: Constant<Bits<7>>,
    k_op_tret: Constant<Bits<7>>,
    k_op_tpause: Constant<Bits<7>>,
    k_op_swr: Constant<Bits<7>>,
    k_cause_illegal_instr: Constant<Bits<4>>,
    k_cause_mem_fault: Constant<Bits<4>>,
    k_cause_branch_fault: Constant<Bits<4>>,
    k_cause_trap: Constant<Bits<4>>,
    k_cause_illegal_region: Constant<Bits<4>>,
}

impl Default for TrapPort {
    fn default() -> Self {
        Self {
            valid: Default::default(),
            init: Default::default(),
            in_handler: Default::default(),
            op: Default::default(),
            sys: Default::default(),
            bu_exec_mask: Default::default(),
            exec_lanes: Default::default(),
            pred_lanes: Default::default(),
            illegal: Default::default(),
            not_yet: Default::default(),
            bu_err: Default::default(),
            region_err: Default::default(),
            region_multi: Default::default(),
            mem_fault: Default::default(),
            src0: Default::default(),
            src0_imm: Default::default(),
            imm: Default::default(),
            exc: Default::default(),
            stop: Default::default(),
            skip: Default::default(),
            cause: Default::default(),
            ret: Default::default(),
            pause: Default::default(),
            sr_valid: Default::default(),
            sr_we: Default::default(),
            sr_sel: Default::default(),
            sr_wdata: Default::default(),
            srd_sr: Default::default(),
            mask: Default::default(),
            lanes: Default::default(),
            live: Default::default(),
            is_trap: Default::default(),
            is_tret: Default::default(),
            is_tpause: Default::default(),
            is_swr: Default::default(),
            sys_bad: Default::default(),
            op_exc: Default::default(),
            any: Default::default(),
            found: Default::default(),
            k_op_trap: Constant::new(op::TRAP.into()),
            k_op_tret: Constant::new(op::TRET.into()),
            k_op_tpause: Constant::new(op::TPAUSE.into()),
            k_op_swr: Constant::new(op::SWR.into()),
            k_cause_illegal_instr: Constant::new(cause::ILLEGAL_INSTR.into()),
            k_cause_mem_fault: Constant::new(cause::MEM_FAULT.into()),
            k_cause_branch_fault: Constant::new(cause::BRANCH_FAULT.into()),
            k_cause_trap: Constant::new(cause::TRAP.into()),
            k_cause_illegal_region: Constant::new(cause::ILLEGAL_REGION.into()),
        }
    }
}

impl Logic for TrapPort {
    #[hdl_gen]
    fn update(&mut self) {
        self.live.next = self.valid.val() & !self.init.val();
        // the thread-level ops are not control flow: E ∩ exec size ∩ predicate
        self.lanes.next = self.bu_exec_mask.val() & self.exec_lanes.val() & self.pred_lanes.val();
        self.mask.next = self.lanes.val().any();
        self.is_trap.next = self.op.val() == self.k_op_trap.val();
        self.is_tret.next = self.op.val() == self.k_op_tret.val();
        self.is_tpause.next = self.op.val() == self.k_op_tpause.val();
        self.is_swr.next = self.op.val() == self.k_op_swr.val();
        self.sys_bad.next = self.sys.val().get_bit(1);
        // the op's own exceptions (one op each, so no order among them)
        self.op_exc.next = (self.is_trap.val() & self.mask.val())
            | ((self.is_tret.val() | self.is_tpause.val()) & !self.in_handler.val())
            | self.sys_bad.val()
            | self.mem_fault.val();
        self.any.next = self.illegal.val() | self.bu_err.val() | self.region_err.val() | self.region_multi.val() | self.not_yet.val() | self.op_exc.val();
        // the cause, lowest priority first (the ISA model's order: decode, branch unit, regions,
        // the op); a slice limit reports like the ISA fault it stands in for
        self.cause.next = self.k_cause_mem_fault.val();
        if self.is_trap.val() {
            self.cause.next = self.k_cause_trap.val();
        }
        if self.sys_bad.val() | self.is_tret.val() | self.is_tpause.val() | self.not_yet.val() {
            self.cause.next = self.k_cause_illegal_instr.val();
        }
        if self.region_err.val() | self.region_multi.val() {
            self.cause.next = self.k_cause_illegal_region.val();
        }
        if self.bu_err.val() {
            self.cause.next = self.k_cause_branch_fault.val();
        }
        if self.illegal.val() {
            self.cause.next = self.k_cause_illegal_instr.val();
        }
        self.stop.next = self.live.val()
            & !self.illegal.val()
            & !self.bu_err.val()
            & !self.region_err.val()
            & (self.region_multi.val() | self.not_yet.val());
        self.exc.next = self.live.val() & self.any.val() & !self.stop.val();
        self.skip.next = self.exc.val() & self.in_handler.val() & (self.cause.val() == self.k_cause_illegal_region.val());
        self.ret.next = self.live.val() & !self.any.val() & self.is_tret.val() & self.mask.val();
        self.pause.next = self.live.val() & !self.any.val() & self.is_tpause.val() & self.mask.val();
        // the special registers: SRD reads (no side effect), SWR writes from its lowest lane
        self.srd_sr.next = self.sys.val().get_bit(0);
        self.sr_sel.next = bit_cast::<3, 4>(self.sys.val() >> 2);
        self.sr_valid.next = self.live.val() & !self.any.val() & (self.srd_sr.val() | (self.is_swr.val() & self.mask.val()));
        self.sr_we.next = self.is_swr.val();
        self.sr_wdata.next = self.imm.val();
        self.found.next = self.src0_imm.val();
        for l in 0..8 {
            if self.lanes.val().get_bit(l) & !self.found.val() {
                self.sr_wdata.next = self.src0.val().get_bits::<32>(32 * l);
                self.found.next = true;
            }
        }
    }
}

/// The controller's per-thread vectors from the S3 slot (thread `tid`: bit `tid`, or its field
/// of 4, 16 or 8 bits), and which of its redirects take a thread into the handler (`ws` = TRAP:
/// ENTER) rather than back to its own code (RSTR). `T` threads, `W4` = 4 T, `LM` = 8 T,
/// `W16` = 16 T.
#[derive(LogicBlock)]
pub struct TrapLink<const T: usize, const TW: usize, const W4: usize, const LM: usize, const W16: usize> {
    pub tid: Signal<In, Bits<TW>>,
    pub exc: Signal<In, Bit>,
    pub cause: Signal<In, Bits<4>>,
    pub ip: Signal<In, Bits<16>>,
    /// The branch unit's E of the slot (the exception's `exc_mask`).
    pub emask: Signal<In, Bits<8>>,
    pub ret: Signal<In, Bit>,
    pub pause: Signal<In, Bit>,
    /// The controller's `redir_valid` and per-thread state (its state tap `dbg_ws`).
    pub redir_valid: Signal<In, Bits<T>>,
    pub ws: Signal<In, Bits<W4>>,
    pub exc_valid: Signal<Out, Bits<T>>,
    pub exc_cause: Signal<Out, Bits<W4>>,
    pub exc_pc: Signal<Out, Bits<W16>>,
    pub exc_mask: Signal<Out, Bits<LM>>,
    pub ret_valid: Signal<Out, Bits<T>>,
    pub pause_valid: Signal<Out, Bits<T>>,
    /// Bit w: the redirect takes thread w into the handler (a fresh branch-unit context).
    pub enter: Signal<Out, Bits<T>>,
    one_hot: Signal<Local, Bits<T>>,
    sh4: Signal<Local, Bits<8>>,
    sh8: Signal<Local, Bits<8>>,
    sh16: Signal<Local, Bits<8>>,
    ws_w: Signal<Local, Bits<4>>,
    k_one: Constant<Bits<T>>,
    k_ws_trap: Constant<Bits<4>>,
}

impl<const T: usize, const TW: usize, const W4: usize, const LM: usize, const W16: usize> Default for TrapLink<T, TW, W4, LM, W16> {
    fn default() -> Self {
        assert!(T == 1 << TW && W4 == 4 * T && LM == 8 * T && W16 == 16 * T);
        Self {
            tid: Default::default(),
            exc: Default::default(),
            cause: Default::default(),
            ip: Default::default(),
            emask: Default::default(),
            ret: Default::default(),
            pause: Default::default(),
            redir_valid: Default::default(),
            ws: Default::default(),
            exc_valid: Default::default(),
            exc_cause: Default::default(),
            exc_pc: Default::default(),
            exc_mask: Default::default(),
            ret_valid: Default::default(),
            pause_valid: Default::default(),
            enter: Default::default(),
            one_hot: Default::default(),
            sh4: Default::default(),
            sh8: Default::default(),
            sh16: Default::default(),
            ws_w: Default::default(),
            k_one: Constant::new(1u64.into()),
            k_ws_trap: Constant::new(crate::trap_controller::enc::ws::TRAP.into()),
        }
    }
}

impl<const T: usize, const TW: usize, const W4: usize, const LM: usize, const W16: usize> Logic for TrapLink<T, TW, W4, LM, W16> {
    #[hdl_gen]
    fn update(&mut self) {
        self.one_hot.next = self.k_one.val() << self.tid.val();
        self.sh4.next = bit_cast::<8, TW>(self.tid.val()) << 2;
        self.sh8.next = bit_cast::<8, TW>(self.tid.val()) << 3;
        self.sh16.next = bit_cast::<8, TW>(self.tid.val()) << 4;
        self.exc_valid.next = 0.into();
        if self.exc.val() {
            self.exc_valid.next = self.one_hot.val();
        }
        self.ret_valid.next = 0.into();
        if self.ret.val() {
            self.ret_valid.next = self.one_hot.val();
        }
        self.pause_valid.next = 0.into();
        if self.pause.val() {
            self.pause_valid.next = self.one_hot.val();
        }
        // the other threads' fields are don't-care without their exc_valid bit: 0
        self.exc_cause.next = bit_cast::<W4, 4>(self.cause.val()) << self.sh4.val();
        self.exc_mask.next = bit_cast::<LM, 8>(self.emask.val()) << self.sh8.val();
        self.exc_pc.next = bit_cast::<W16, 16>(self.ip.val()) << self.sh16.val();
        self.enter.next = 0.into();
        for w in 0..T {
            self.ws_w.next = self.ws.val().get_bits::<4>(4 * w);
            self.enter.next = self.enter.val().replace_bit(w, self.redir_valid.val().get_bit(w) & (self.ws_w.val() == self.k_ws_trap.val()));
        }
    }
}
