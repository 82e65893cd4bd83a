//! The core's trap side in one block (docs/eu_core.md "Traps"): what the S3 slot raises
//! (`TrapPort`), the controller's per-thread vectors (`TrapLink`), the project's trap controller
//! itself (`TrapCtl`: warps = threads, 8 lanes, 16-bit IPs, no single-step, pipe 0) and the
//! sticky fault report (`FaultReg`). `update()` is only wiring.
//!
//! To the rest of the core it gives: what the slot does (`exc`, `stop`, `skip`, `srd_sr` with the
//! special register's value `sr_rdata`, the `cause`), what the controller does to the threads
//! (`halt` stops issue, `redir_*` loads an IP, `enter` says the redirect goes into the handler,
//! `kill` ends a thread), the host's CSR port, `host_irq`, and the fault report.

use super::decode::Decoded;
use super::fault::FaultReg;
use super::trap_port::{TrapLink, TrapPort};
use crate::trap_controller::TrapCtl;
use rust_hdl::prelude::*;

/// `T` threads, `TW` = log2 T, `W4` = 4 T, `LM` = 8 T, `W16` = 16 T.
#[derive(LogicBlock)]
pub struct Traps<const T: usize, const TW: usize, const W4: usize, const LM: usize, const W16: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The S3 slot (the `Issue` registers): live, an INIT slot, thread, IP.
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    pub ip: Signal<In, Bits<16>>,
    /// The decoded instruction (op, `sys`, exec-size and predicate lanes, decode faults, LD/ST,
    /// the immediate).
    pub dec: Signal<In, Decoded>,
    /// src0 (SWR's value, unless the immediate takes its place).
    pub src0: Signal<In, Bits<256>>,
    /// The branch unit: the slot's E, its error, and every branch thread's E (thread k's own
    /// context at [8k, 8k+8) for k < T, the handler contexts above).
    pub bu_exec_mask: Signal<In, Bits<8>>,
    pub bu_err: Signal<In, Bit>,
    pub bu_lane_mask: Signal<In, Bits<W16>>,
    /// The operand regions: an error; an operand spanning registers (a slice limit).
    pub region_err: Signal<In, Bit>,
    pub region_multi: Signal<In, Bit>,
    /// The data memory unit: a LD/ST's address faults.
    pub mem_fault: Signal<In, Bit>,
    /// The fetch: threads in the handler, live threads, every thread's IP, nothing in S1..S3.
    pub hnd_mask: Signal<In, Bits<T>>,
    pub live_mask: Signal<In, Bits<T>>,
    pub ip_all: Signal<In, Bits<W16>>,
    pub quiet: Signal<In, Bit>,
    /// The fault report: clear (the core starts); an instruction faults (`Execute`).
    pub fault_clear: Signal<In, Bit>,
    pub fault: Signal<In, Bit>,
    /// Host access to the controller's CSRs (trap-controller.md §7.3).
    pub csr_valid: Signal<In, Bit>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// The slot raises an ISA exception; hits a slice limit; its exception is skipped
    /// (`TrapPort`); it reads a controller register, whose value is `sr_rdata`.
    pub exc: Signal<Out, Bit>,
    pub stop: Signal<Out, Bit>,
    pub skip: Signal<Out, Bit>,
    pub srd_sr: Signal<Out, Bit>,
    pub sr_rdata: Signal<Out, Bits<32>>,
    /// The exception's cause (`enc::cause`).
    pub cause: Signal<Out, Bits<4>>,
    /// Per thread: stop issuing; load `redir_pc` (16 bits per thread); the redirect enters the
    /// handler; the thread is killed.
    pub halt: Signal<Out, Bits<T>>,
    pub redir_valid: Signal<Out, Bits<T>>,
    pub redir_pc: Signal<Out, Bits<W16>>,
    pub enter: Signal<Out, Bits<T>>,
    pub kill: Signal<Out, Bits<T>>,
    /// The CSR read data; the interrupt to the host.
    pub csr_rdata: Signal<Out, Bits<32>>,
    pub host_irq: Signal<Out, Bit>,
    /// The sticky fault report (`FaultReg`).
    pub fault_out: Signal<Out, Bit>,
    pub fault_tid: Signal<Out, Bits<TW>>,
    pub fault_ip: Signal<Out, Bits<16>>,
    pub fault_cause: Signal<Out, Bits<4>>,
    pub fault_not_yet: Signal<Out, Bit>,
    port: TrapPort,
    link: TrapLink<T, TW, W4, LM, W16>,
    /// The trap controller (named `trap_ctl`: lint waiver 8 names its unread outputs).
    trap_ctl: TrapCtl<T, TW, W4, LM, W16, 8, 16>,
    report: FaultReg<TW>,
}

impl<const T: usize, const TW: usize, const W4: usize, const LM: usize, const W16: usize> Default for Traps<T, TW, W4, LM, W16> {
    fn default() -> Self {
        assert!(T == 1 << TW && W4 == 4 * T && LM == 8 * T && W16 == 16 * T);
        let tc = crate::trap_controller::Config { warps: T, threads: 8, pc_width: 16, haddr_reset: 0, has_sstep: false, pipe: 0 };
        Self {
            clk: Default::default(),
            rst: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            dec: Default::default(),
            src0: Default::default(),
            bu_exec_mask: Default::default(),
            bu_err: Default::default(),
            bu_lane_mask: Default::default(),
            region_err: Default::default(),
            region_multi: Default::default(),
            mem_fault: Default::default(),
            hnd_mask: Default::default(),
            live_mask: Default::default(),
            ip_all: Default::default(),
            quiet: Default::default(),
            fault_clear: Default::default(),
            fault: Default::default(),
            csr_valid: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            exc: Default::default(),
            stop: Default::default(),
            skip: Default::default(),
            srd_sr: Default::default(),
            sr_rdata: Default::default(),
            cause: Default::default(),
            halt: Default::default(),
            redir_valid: Default::default(),
            redir_pc: Default::default(),
            enter: Default::default(),
            kill: Default::default(),
            csr_rdata: Default::default(),
            host_irq: Default::default(),
            fault_out: Default::default(),
            fault_tid: Default::default(),
            fault_ip: Default::default(),
            fault_cause: Default::default(),
            fault_not_yet: Default::default(),
            port: Default::default(),
            link: Default::default(),
            trap_ctl: TrapCtl::new(&tc),
            report: Default::default(),
        }
    }
}

impl<const T: usize, const TW: usize, const W4: usize, const LM: usize, const W16: usize> Logic for Traps<T, TW, W4, LM, W16> {
    #[hdl_gen]
    fn update(&mut self) {
        self.trap_ctl.clk.next = self.clk.val();
        self.trap_ctl.rst.next = self.rst.val();
        self.report.clk.next = self.clk.val();
        self.report.rst.next = self.rst.val();
        // the slot's exception (or slice limit), RETURN, PAUSE, special registers
        self.port.valid.next = self.valid.val();
        self.port.init.next = self.init.val();
        self.port.in_handler.next = bit_cast::<1, T>(self.hnd_mask.val() >> self.tid.val()).any();
        self.port.op.next = self.dec.val().op;
        self.port.sys.next = self.dec.val().sys;
        self.port.bu_exec_mask.next = self.bu_exec_mask.val();
        self.port.exec_lanes.next = self.dec.val().exec_lanes;
        self.port.pred_lanes.next = self.dec.val().pred_lanes;
        self.port.illegal.next = self.dec.val().illegal;
        self.port.not_yet.next = self.dec.val().not_yet;
        self.port.bu_err.next = self.bu_err.val();
        self.port.region_err.next = self.region_err.val();
        self.port.region_multi.next = self.region_multi.val();
        self.port.mem_fault.next = self.dec.val().is_mem & self.mem_fault.val();
        self.port.src0.next = self.src0.val();
        self.port.src0_imm.next = self.dec.val().src0_imm;
        self.port.imm.next = self.dec.val().imm;
        self.exc.next = self.port.exc.val();
        self.stop.next = self.port.stop.val();
        self.skip.next = self.port.skip.val();
        self.srd_sr.next = self.port.srd_sr.val();
        self.cause.next = self.port.cause.val();
        // the slot as per-thread vectors
        self.link.tid.next = self.tid.val();
        self.link.exc.next = self.port.exc.val();
        self.link.cause.next = self.port.cause.val();
        self.link.ip.next = self.ip.val();
        self.link.emask.next = self.bu_exec_mask.val();
        self.link.ret.next = self.port.ret.val();
        self.link.pause.next = self.port.pause.val();
        self.link.redir_valid.next = self.trap_ctl.redir_valid.val();
        self.link.ws.next = self.trap_ctl.dbg_ws.val();
        // the controller: threads are its warps; quiesced = no slot in flight, no replay (the
        // memory and math units hold no op of a thread that does not replay)
        self.trap_ctl.warp_valid.next = self.live_mask.val();
        self.trap_ctl.exc_valid.next = self.link.exc_valid.val();
        self.trap_ctl.exc_cause.next = self.link.exc_cause.val();
        self.trap_ctl.exc_pc.next = self.link.exc_pc.val();
        self.trap_ctl.exc_mask.next = self.link.exc_mask.val();
        self.trap_ctl.ret_valid.next = self.link.ret_valid.val();
        self.trap_ctl.pause_valid.next = self.link.pause_valid.val();
        self.trap_ctl.warp_pc.next = self.ip_all.val();
        // every thread's own E (branch threads 0..T; the handler contexts are above)
        self.trap_ctl.warp_mask.next = bit_cast::<LM, W16>(self.bu_lane_mask.val());
        self.trap_ctl.quiesced.next = self.quiet.val();
        self.trap_ctl.bar_wait.next = 0.into();
        self.trap_ctl.issue_valid.next = false;
        self.trap_ctl.issue_wid.next = 0.into();
        self.trap_ctl.host_int.next = false;
        self.trap_ctl.sm_evt_valid.next = false;
        self.trap_ctl.sm_evt_cause.next = 0.into();
        self.trap_ctl.bcast_in.next = false;
        self.trap_ctl.sr_valid.next = self.port.sr_valid.val();
        self.trap_ctl.sr_wid.next = self.tid.val();
        self.trap_ctl.sr_sel.next = self.port.sr_sel.val();
        self.trap_ctl.sr_we.next = self.port.sr_we.val();
        self.trap_ctl.sr_wdata.next = self.port.sr_wdata.val();
        self.sr_rdata.next = self.trap_ctl.sr_rdata.val();
        self.trap_ctl.csr_valid.next = self.csr_valid.val();
        self.trap_ctl.csr_we.next = self.csr_we.val();
        self.trap_ctl.csr_addr.next = self.csr_addr.val();
        self.trap_ctl.csr_wdata.next = self.csr_wdata.val();
        self.csr_rdata.next = self.trap_ctl.csr_rdata.val();
        self.host_irq.next = self.trap_ctl.host_irq.val();
        self.halt.next = self.trap_ctl.warp_halt.val();
        self.redir_valid.next = self.trap_ctl.redir_valid.val();
        self.redir_pc.next = self.trap_ctl.redir_pc.val();
        self.enter.next = self.link.enter.val();
        self.kill.next = self.trap_ctl.warp_kill.val();
        // the first fault since start (a slice limit reports too)
        self.report.clear.next = self.fault_clear.val();
        self.report.fault.next = self.fault.val();
        self.report.tid.next = self.tid.val();
        self.report.ip.next = self.ip.val();
        self.report.cause.next = self.port.cause.val();
        self.report.not_yet.next = self.port.stop.val();
        self.fault_out.next = self.report.out_fault.val();
        self.fault_tid.next = self.report.out_tid.val();
        self.fault_ip.next = self.report.out_ip.val();
        self.fault_cause.next = self.report.out_cause.val();
        self.fault_not_yet.next = self.report.out_not_yet.val();
    }
}
