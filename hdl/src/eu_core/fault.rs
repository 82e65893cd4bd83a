//! The sticky fault report: the first instruction that faulted since `start` (its thread, IP and
//! trap cause, and whether it is a limit of this slice rather than an ISA fault). An ISA fault
//! goes to the trap controller too (handler, or parked with trapping disabled); a slice limit
//! stops the thread. The cause comes from `trap_port::TrapPort`, in the ISA model's order.

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
    /// The trap cause (`enc::cause`).
    pub cause: Signal<In, Bits<4>>,
    /// A slice limit (the thread stopped), not an ISA fault.
    pub not_yet: Signal<In, Bit>,
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
            cause: Default::default(),
            not_yet: Default::default(),
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
            self.cause_r.d.next = self.cause.val();
            self.not_yet_r.d.next = self.not_yet.val();
        }
        self.out_fault.next = self.seen.q.val();
        self.out_tid.next = self.tid_r.q.val();
        self.out_ip.next = self.ip_r.q.val();
        self.out_cause.next = self.cause_r.q.val();
        self.out_not_yet.next = self.not_yet_r.q.val();
    }
}
