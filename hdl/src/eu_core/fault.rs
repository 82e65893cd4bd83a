//! The sticky fault report: the first instruction that faulted since `start` (its thread, IP and
//! trap cause, and whether it is a limit of this slice rather than an ISA fault). The ISA takes
//! such an instruction to the trap handler through the trap controller; this slice has none, so
//! the thread stops and the host reads this.

use super::enc::cause;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct FaultReg<const TW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Clears the report (the core starts).
    pub clear: Signal<In, Bit>,
    pub fault: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub ip: Signal<In, Bits<16>>,
    pub illegal: Signal<In, Bit>,
    pub not_yet: Signal<In, Bit>,
    /// The branch unit's error (BRANCH_FAULT), after `illegal`.
    pub bu_err: Signal<In, Bit>,
    /// An operand's region error (ILLEGAL_REGION), after the branch unit's error.
    pub region_err: Signal<In, Bit>,
    /// An operand spans more than one register (ILLEGAL_REGION, not yet), after `region_err`.
    pub region_multi: Signal<In, Bit>,
    /// A LD/ST with a bad address (MEM_FAULT), last.
    pub mem_fault: Signal<In, Bit>,
    pub out_fault: Signal<Out, Bit>,
    pub out_tid: Signal<Out, Bits<TW>>,
    pub out_ip: Signal<Out, Bits<16>>,
    pub out_cause: Signal<Out, Bits<4>>,
    pub out_not_yet: Signal<Out, Bit>,
    seen: RDff<Bit>,
    tid_r: RDff<Bits<TW>>,
    ip_r: RDff<Bits<16>>,
    cause_r: RDff<Bits<4>>,
    not_yet_r: RDff<Bit>,
    k_cause_illegal_instr: Constant<Bits<4>>,
    k_cause_branch_fault: Constant<Bits<4>>,
    k_cause_illegal_region: Constant<Bits<4>>,
    k_cause_mem_fault: Constant<Bits<4>>,
}

impl<const TW: usize> Default for FaultReg<TW> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            clear: Default::default(),
            fault: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            illegal: Default::default(),
            not_yet: Default::default(),
            bu_err: Default::default(),
            region_err: Default::default(),
            region_multi: Default::default(),
            mem_fault: Default::default(),
            out_fault: Default::default(),
            out_tid: Default::default(),
            out_ip: Default::default(),
            out_cause: Default::default(),
            out_not_yet: Default::default(),
            seen: Default::default(),
            tid_r: Default::default(),
            ip_r: Default::default(),
            cause_r: Default::default(),
            not_yet_r: Default::default(),
            k_cause_illegal_instr: Constant::new(cause::ILLEGAL_INSTR.into()),
            k_cause_branch_fault: Constant::new(cause::BRANCH_FAULT.into()),
            k_cause_illegal_region: Constant::new(cause::ILLEGAL_REGION.into()),
            k_cause_mem_fault: Constant::new(cause::MEM_FAULT.into()),
        }
    }
}

impl<const TW: usize> Logic for FaultReg<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, seen, tid_r, ip_r, cause_r, not_yet_r);
        self.seen.rst.next = self.rst.val();
        self.tid_r.rst.next = self.rst.val();
        self.ip_r.rst.next = self.rst.val();
        self.cause_r.rst.next = self.rst.val();
        self.not_yet_r.rst.next = self.rst.val();
        self.seen.d.next = self.seen.q.val();
        self.tid_r.d.next = self.tid_r.q.val();
        self.ip_r.d.next = self.ip_r.q.val();
        self.cause_r.d.next = self.cause_r.q.val();
        self.not_yet_r.d.next = self.not_yet_r.q.val();
        if self.clear.val() {
            self.seen.d.next = false;
        } else if self.fault.val() & !self.seen.q.val() {
            self.seen.d.next = true;
            self.tid_r.d.next = self.tid.val();
            self.ip_r.d.next = self.ip.val();
            // the ISA model's order: decode, the branch unit, the regions, the op (a slice
            // limit), the memory access
            self.cause_r.d.next = self.k_cause_illegal_instr.val();
            self.not_yet_r.d.next = false;
            if !self.illegal.val() {
                if self.bu_err.val() {
                    self.cause_r.d.next = self.k_cause_branch_fault.val();
                } else if self.region_err.val() {
                    self.cause_r.d.next = self.k_cause_illegal_region.val();
                } else if self.region_multi.val() {
                    self.cause_r.d.next = self.k_cause_illegal_region.val();
                    self.not_yet_r.d.next = true;
                } else if self.not_yet.val() {
                    self.not_yet_r.d.next = true;
                } else if self.mem_fault.val() {
                    self.cause_r.d.next = self.k_cause_mem_fault.val();
                }
            }
        }
        self.out_fault.next = self.seen.q.val();
        self.out_tid.next = self.tid_r.q.val();
        self.out_ip.next = self.ip_r.q.val();
        self.out_cause.next = self.cause_r.q.val();
        self.out_not_yet.next = self.not_yet_r.q.val();
    }
}
