//! The execution unit's top (first slice): the barrel pipeline of docs/eu_core.md wired from its
//! stages and the branch unit.
//!
//! ```text
//!  S0 fetch          S1 decode + read          S2 operand            S3 execute                 S4 writeback
//!  slot = rotation   Decode(instr, flags)      RF read register →    Execute: mask, 8 lanes     RF write (both copies)
//!  IP of the slot →  RF read {tid, src0/1} →   RF output register    RF data, BU response →     flag write, retire port
//!  imem read         BU request (tid, op, …)   BU response →         thread update (IP, stop)   cmod flags of the result
//! ```
//! With `T` >= 4 threads in strict rotation, a thread's next instruction is fetched after its
//! previous one has left S3 (IP, thread state: written at the end of S3, read by the fetch one
//! cycle later at T = 4) and is decoded after it has written back (flags, registers: written at
//! the end of S4, read by the decode one cycle later), so the pipeline needs no forwarding and no
//! scoreboard (docs/eu_core.md "Hazards at T = 4"). LD/ST go to the data memory unit
//! (`mem::DataMemory`), TANH_PRE/SIGMOID/TANH to the math unit (`math::MathUnit`, one lane of
//! the tanh/sigmoid block); both are replayed in their thread's slots until the unit is through.
//!
//! Traps (docs/eu_core.md "Traps"): `traps::Traps` holds the project's trap controller
//! (`trap_controller::TrapCtl`, warps = threads, 8 lanes, 16-bit IPs, no single-step, pipe 0),
//! `TrapPort`, which turns the S3 slot into its exception, RETURN, PAUSE and special-register
//! accesses, `TrapLink`, its per-thread vectors, and the fault report. The controller's
//! `warp_halt` stops issue (`Fetch`), its redirects load a
//! thread's IP (into the handler with INIT of the thread's handler branch-unit context, branch
//! thread `tid + T`; out of it back to the thread's own context `tid`), its `warp_kill` ends the
//! thread. The host reaches its CSRs through `csr_*` (HADDR, CTRL, RESUME, KILL, GSTATUS, ...).

use super::decode::Decode;
use super::execute::Execute;
use super::fetch::Fetch;
use super::flags::FlagRegs;
use super::gather::Scatter;
use super::issue::Issue;
use super::math::MathUnit;
use super::mem::DataMemory;
use super::passes::Passes;
use super::regfile::RegFile;
use super::regions::{Predecode, Regions};
use super::traps::Traps;
use crate::branch_unit::BranchUnit;
use rust_hdl::prelude::*;

/// The branch unit as the core instantiates it: 8 lanes, MAXD 8, MAXD_CALL 8 (DW 4), IPW 16,
/// `T` = 2 x the core's threads (the ISA model's `bu_cfg`; thread k's own context is branch
/// thread k, its handler context branch thread k + threads), pipe 1: the request in S1, the thread's state read
/// from RAM at the edge into S2 and stepped in S2, the response register read by S3 (a thread's
/// next request comes T ≥ 4 cycles later, never while it is busy).
pub type CoreBranchUnit<const T: usize, const TW: usize, const LM: usize> = BranchUnit<8, 4, 7, 16, 18, 56, 20, 20, 100, T, TW, LM, 300, 1220>;

/// The core. Const generics: threads `T`, `TW` = log2 T, register-file address bits
/// `RA` = TW + 7, instruction-memory address bits `IA`, `LM` = 8 T, `W16` = 16 T, data-memory
/// row address bits `DR` = log2(dmem_bytes / 32).
#[derive(LogicBlock)]
pub struct EuCore<const T: usize, const TW: usize, const RA: usize, const IA: usize, const LM: usize, const W16: usize, const DR: usize, const W4: usize, const T2: usize, const TB: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: every thread stopped, flags and fault report cleared
    /// (the register file and instruction memory keep their contents).
    pub rst: Signal<In, Bit>,
    /// Start every thread at IP 0 (all 8 lanes, the branch unit's INIT); ignored while busy.
    pub start: Signal<In, Bit>,
    /// Some thread runs.
    pub busy: Signal<Out, Bit>,
    /// Bit k: thread k runs (not yet at its EOT, not stopped by a slice limit, not killed by the
    /// host; a thread paused or parked by the trap controller is live until the host resumes or
    /// kills it).
    pub live: Signal<Out, Bits<T>>,
    /// Host write of instruction word `imem_addr` (while not busy).
    pub imem_we: Signal<In, Bit>,
    /// Instruction address (= IP).
    pub imem_addr: Signal<In, Bits<IA>>,
    /// Instruction word.
    pub imem_wdata: Signal<In, Bits<128>>,
    /// Host write of register `rf_addr` = {thread, reg}, all lanes (while not busy).
    pub rf_we: Signal<In, Bit>,
    /// Register address of the host write: thread in the top TW bits, register in the low 7.
    pub rf_addr: Signal<In, Bits<RA>>,
    /// Register value of the host write (lane l at bits [32l, 32l+32)).
    pub rf_wdata: Signal<In, Bits<256>>,
    /// Host read address (while not busy); the data shows at `rf_rdata` two cycles later (the
    /// address of edge k after edge k + 1: the register file's read and output registers).
    pub rf_raddr: Signal<In, Bits<RA>>,
    /// Register read for the host.
    pub rf_rdata: Signal<Out, Bits<256>>,
    /// Host write of data-memory row `dmem_addr` (32 bytes: the word at byte address
    /// 32 dmem_addr + 4 l in lane l) while not busy.
    pub dmem_we: Signal<In, Bit>,
    /// Data-memory row of the host write.
    pub dmem_addr: Signal<In, Bits<DR>>,
    /// Row value of the host write (word l at bits [32l, 32l+32), little endian bytes).
    pub dmem_wdata: Signal<In, Bits<256>>,
    /// Host read row (while not busy); the data shows at `dmem_rdata` one cycle later.
    pub dmem_raddr: Signal<In, Bits<DR>>,
    /// Data-memory row read for the host.
    pub dmem_rdata: Signal<Out, Bits<256>>,
    /// Every thread's flag registers: thread k's f0 at bits [16k, 16k+8), f1 at [16k+8, 16k+16).
    pub flags: Signal<Out, Bits<W16>>,
    /// An instruction retired this cycle (its writes are done at this edge).
    pub retire_valid: Signal<Out, Bit>,
    /// Its thread.
    pub retire_tid: Signal<Out, Bits<TW>>,
    /// Its IP.
    pub retire_ip: Signal<Out, Bits<16>>,
    /// The lanes it ran on (docs/isa.md: the branch unit's E for control flow, else E ∩ exec
    /// size ∩ predicate).
    pub retire_exec_mask: Signal<Out, Bits<8>>,
    /// It writes destination register `retire_dst_reg` (lanes `retire_exec_mask`).
    pub retire_dst_we: Signal<Out, Bit>,
    /// Its destination register.
    pub retire_dst_reg: Signal<Out, Bits<7>>,
    /// The destination register's bytes written (byte b at bits [8b, 8b+8), the bytes of
    /// `retire_dst_be`; the others are 0); for ST the stored words (lane l at bits [32l, 32l+32)).
    pub retire_dst_data: Signal<Out, Bits<256>>,
    /// Bit b: byte b of the destination register is written (the destination region's bytes of
    /// the lanes that run); 0 without a register write.
    pub retire_dst_be: Signal<Out, Bits<32>>,
    /// Bit l: a ST wrote lane l's word (`retire_dst_data` lane l) to byte address
    /// `retire_mem_addr` lane l, lanes in ascending order.
    pub retire_mem_we: Signal<Out, Bits<8>>,
    /// Byte addresses of the ST's lanes (lane l at bits [32l, 32l+32)).
    pub retire_mem_addr: Signal<Out, Bits<256>>,
    /// More records of the same instruction follow: a destination region over several registers
    /// retires one record per register (`retire_dst_reg`, in the order of its list), the flag
    /// write with the first; the instruction is the records up to one without `retire_more`.
    pub retire_more: Signal<Out, Bit>,
    /// It writes flag register `retire_flag_sel`.
    pub retire_flag_we: Signal<Out, Bit>,
    /// The flag register written (0: f0, 1: f1).
    pub retire_flag_sel: Signal<Out, Bit>,
    /// The flag register's new value.
    pub retire_flag_value: Signal<Out, Bits<8>>,
    /// Sticky since `start`: an instruction faulted (an ISA exception, which the trap controller
    /// took, or a slice limit, which stopped its thread).
    pub fault: Signal<Out, Bit>,
    /// The first faulting instruction's thread.
    pub fault_tid: Signal<Out, Bits<TW>>,
    /// Its IP.
    pub fault_ip: Signal<Out, Bits<16>>,
    /// Its trap cause (`enc::cause`).
    pub fault_cause: Signal<Out, Bits<4>>,
    /// It is legal in the ISA but outside this slice (an op or operand region not built yet):
    /// the thread stopped. Otherwise the fault is an ISA exception, which went to the trap
    /// controller (the handler, or the thread parked when CTRL.TRAP_EN = 0).
    pub fault_not_yet: Signal<Out, Bit>,
    /// The instruction in S3 raises an ISA exception this cycle (it does not retire; the trap
    /// controller takes it): its thread, IP and cause. For the co-simulation's trace.
    pub exc_valid: Signal<Out, Bit>,
    pub exc_tid: Signal<Out, Bits<TW>>,
    pub exc_ip: Signal<Out, Bits<16>>,
    pub exc_cause: Signal<Out, Bits<4>>,
    /// Host access to the trap controller's CSRs (spec trap-controller.md §7.3): valid, write,
    /// byte address, write data; the read data comes back in the same cycle on `csr_rdata`.
    pub csr_valid: Signal<In, Bit>,
    pub csr_we: Signal<In, Bit>,
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wdata: Signal<In, Bits<32>>,
    /// The CSR read data (the state before the clock edge).
    pub csr_rdata: Signal<Out, Bits<32>>,
    /// The trap controller's interrupt to the host (level: GSTATUS & IRQ_EN; a thread paused,
    /// double-faulted or parked with trapping disabled).
    pub host_irq: Signal<Out, Bit>,
    fetch: Fetch<T, TW, IA, W16>,
    /// The host's instruction writes → the words' operand regions (three region generators).
    predecode: Predecode<IA>,
    decode: Decode,
    flag_regs: FlagRegs<TW, W16>,
    regfile: RegFile<RA>,
    regions: Regions,
    /// Multi-register operand regions: the passes of one owner thread's op.
    passes: Passes<TW>,
    scatter: Scatter,
    branch: CoreBranchUnit<T2, TB, W16>,
    issue: Issue<TW, TB>,
    execute: Execute<TW>,
    memory: DataMemory<TW, DR>,
    math: MathUnit<T, TW>,
    /// The trap port, the trap controller and the fault report.
    traps: Traps<T, TW, W4, LM, W16>,
    /// S3: the slot's op must not enter the memory or math unit (not in this slice, a region
    /// error or an operand over several registers).
    op_not_yet: Signal<Local, Bit>,
}

impl<const T: usize, const TW: usize, const RA: usize, const IA: usize, const LM: usize, const W16: usize, const DR: usize, const W4: usize, const T2: usize, const TB: usize> EuCore<T, TW, RA, IA, LM, W16, DR, W4, T2, TB> {
    /// `math_lat`: the math unit's tanh/sigmoid latency (config `math_lat`).
    pub fn new(math_lat: usize) -> Self {
        assert!(T >= 4 && T == 1 << TW && RA == TW + 7 && LM == 8 * T && W16 == 16 * T && IA <= 16);
        assert!(W4 == 4 * T && T2 == 2 * T && TB == TW + 1);
        Self {
            math: MathUnit::new(math_lat),
            clk: Default::default(),
            rst: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            live: Default::default(),
            imem_we: Default::default(),
            imem_addr: Default::default(),
            imem_wdata: Default::default(),
            rf_we: Default::default(),
            rf_addr: Default::default(),
            rf_wdata: Default::default(),
            rf_raddr: Default::default(),
            rf_rdata: Default::default(),
            dmem_we: Default::default(),
            dmem_addr: Default::default(),
            dmem_wdata: Default::default(),
            dmem_raddr: Default::default(),
            dmem_rdata: Default::default(),
            flags: Default::default(),
            retire_valid: Default::default(),
            retire_tid: Default::default(),
            retire_ip: Default::default(),
            retire_exec_mask: Default::default(),
            retire_dst_we: Default::default(),
            retire_dst_reg: Default::default(),
            retire_dst_data: Default::default(),
            retire_dst_be: Default::default(),
            retire_mem_we: Default::default(),
            retire_mem_addr: Default::default(),
            retire_more: Default::default(),
            retire_flag_we: Default::default(),
            retire_flag_sel: Default::default(),
            retire_flag_value: Default::default(),
            fault: Default::default(),
            fault_tid: Default::default(),
            fault_ip: Default::default(),
            fault_cause: Default::default(),
            fault_not_yet: Default::default(),
            exc_valid: Default::default(),
            exc_tid: Default::default(),
            exc_ip: Default::default(),
            exc_cause: Default::default(),
            csr_valid: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            csr_rdata: Default::default(),
            host_irq: Default::default(),
            fetch: Default::default(),
            predecode: Default::default(),
            decode: Default::default(),
            flag_regs: Default::default(),
            regfile: Default::default(),
            regions: Default::default(),
            passes: Default::default(),
            scatter: Default::default(),
            branch: BranchUnit::new(8, 8, 2 * T, 1),
            issue: Default::default(),
            execute: Default::default(),
            memory: Default::default(),
            traps: Default::default(),
            op_not_yet: Default::default(),
        }
    }
}

impl<const T: usize, const TW: usize, const RA: usize, const IA: usize, const LM: usize, const W16: usize, const DR: usize, const W4: usize, const T2: usize, const TB: usize> Default for EuCore<T, TW, RA, IA, LM, W16, DR, W4, T2, TB> {
    fn default() -> Self {
        Self::new(super::Config::default().math_lat)
    }
}

impl<const T: usize, const TW: usize, const RA: usize, const IA: usize, const LM: usize, const W16: usize, const DR: usize, const W4: usize, const T2: usize, const TB: usize> Logic for EuCore<T, TW, RA, IA, LM, W16, DR, W4, T2, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        // clocks and resets
        self.fetch.clk.next = self.clk.val();
        self.predecode.clk.next = self.clk.val();
        self.flag_regs.clk.next = self.clk.val();
        self.regfile.clk.next = self.clk.val();
        self.regions.clk.next = self.clk.val();
        self.passes.clk.next = self.clk.val();
        self.branch.clk.next = self.clk.val();
        self.issue.clk.next = self.clk.val();
        self.execute.clk.next = self.clk.val();
        self.memory.clk.next = self.clk.val();
        self.math.clk.next = self.clk.val();
        self.traps.clk.next = self.clk.val();
        self.fetch.rst.next = self.rst.val();
        self.predecode.rst.next = self.rst.val();
        self.flag_regs.rst.next = self.rst.val();
        self.regions.rst.next = self.rst.val();
        self.passes.rst.next = self.rst.val();
        self.branch.rst.next = self.rst.val();
        self.issue.rst.next = self.rst.val();
        self.execute.rst.next = self.rst.val();
        self.memory.rst.next = self.rst.val();
        self.math.rst.next = self.rst.val();
        self.traps.rst.next = self.rst.val();
        // S0 fetch; the host's instruction writes; the thread update from S3; the trap
        // controller's halts, redirects and kills
        self.fetch.start.next = self.start.val();
        self.fetch.imem_we.next = self.imem_we.val();
        self.fetch.imem_addr.next = self.imem_addr.val();
        self.fetch.imem_wdata.next = self.imem_wdata.val();
        // the word's operand regions, predecoded on the write path, two cycles later
        self.predecode.in_we.next = self.imem_we.val();
        self.predecode.in_addr.next = self.imem_addr.val();
        self.predecode.in_word.next = self.imem_wdata.val();
        self.fetch.pre_we.next = self.predecode.pre_we.val();
        self.fetch.pre_addr.next = self.predecode.pre_addr.val();
        self.fetch.pre_wdata.next = self.predecode.pre.val();
        self.fetch.list_wdata.next = self.predecode.lists.val();
        self.fetch.upd_valid.next = self.execute.upd_valid.val();
        self.fetch.upd_tid.next = self.issue.tid.val();
        self.fetch.upd_ip.next = self.execute.upd_ip.val();
        self.fetch.upd_stop.next = self.execute.upd_stop.val();
        self.fetch.upd_init.next = self.issue.init.val();
        self.fetch.upd_replay.next = self.execute.upd_replay.val();
        self.fetch.halt.next = self.traps.halt.val();
        self.fetch.redir_valid.next = self.traps.redir_valid.val();
        self.fetch.redir_pc.next = self.traps.redir_pc.val();
        self.fetch.redir_enter.next = self.traps.enter.val();
        self.fetch.kill.next = self.traps.kill.val();
        self.busy.next = self.fetch.busy.val();
        self.live.next = self.fetch.live_mask.val();
        // S1 decode, flags, register reads (the host's read while idle), branch-unit request
        self.decode.instr.next = self.fetch.s1_instr.val();
        self.flag_regs.rd_tid.next = self.fetch.s1_tid.val();
        self.decode.flags.next = self.flag_regs.rd_flags.val();
        // the registers of the slot's pass (a multi-register operand's list entry; the register
        // field otherwise)
        self.passes.s1_valid.next = self.fetch.s1_valid.val();
        self.passes.s1_tid.next = self.fetch.s1_tid.val();
        self.regions.lists.next = self.fetch.s1_lists.val();
        self.regions.src0_reg.next = self.decode.src0_reg.val();
        self.regions.src1_reg.next = self.decode.src1_reg.val();
        self.regions.pass_s1.next = self.passes.pass_s1.val();
        self.regions.pass_s2.next = self.passes.pass_s2.val();
        self.regfile.rd_addr0.next = (bit_cast::<RA, TW>(self.fetch.s1_tid.val()) << 7) | bit_cast::<RA, 7>(self.regions.rd_reg0.val());
        self.regfile.host.next = !self.fetch.busy.val();
        self.regfile.host_raddr.next = self.rf_raddr.val();
        self.regfile.rd_addr1.next = (bit_cast::<RA, TW>(self.fetch.s1_tid.val()) << 7) | bit_cast::<RA, 7>(self.regions.rd_reg1.val());
        self.rf_rdata.next = self.regfile.rd_data0.val();
        // S2: the operand regions (predecoded, out of the instruction memory's `pre_ram`), the
        // gathers
        self.regions.instr.next = self.fetch.s1_instr.val();
        self.regions.pre.next = self.fetch.s2_pre.val();
        self.regions.use_src0.next = self.decode.use_src0.val();
        self.regions.use_src1.next = self.decode.use_src1.val();
        self.regions.use_dst.next = self.decode.dec.val().has_dst;
        self.regions.host.next = !self.fetch.busy.val();
        self.regfile.cols0.next = self.regions.cols0.val();
        self.regfile.esize0.next = self.regions.esize0.val();
        self.regfile.sext0.next = self.regions.sext0.val();
        self.regfile.cols1.next = self.regions.cols1.val();
        self.regfile.esize1.next = self.regions.esize1.val();
        self.regfile.sext1.next = self.regions.sext1.val();
        self.regfile.keep0.next = self.regions.keep0.val();
        self.regfile.keep1.next = self.regions.keep1.val();
        // S1: the branch-unit request (the thread's own or handler context, INIT); S1 → S3: the
        // slot and the decoded instruction (the branch unit's response comes out of its own
        // response register in S3: pipe 1, LAT 2)
        self.issue.in_valid.next = self.fetch.s1_valid.val();
        self.issue.in_init.next = self.fetch.s1_init.val();
        self.issue.in_tid.next = self.fetch.s1_tid.val();
        self.issue.in_ip.next = self.fetch.s1_ip.val();
        self.issue.in_dec.next = self.decode.dec.val();
        self.issue.in_hnd.next = self.fetch.s1_hnd.val();
        self.issue.in_bu_op.next = self.decode.bu_op.val();
        self.issue.in_jip.next = self.decode.jip.val();
        self.issue.in_uip.next = self.decode.uip.val();
        self.branch.req_valid.next = self.issue.req_valid.val();
        self.branch.req_tid.next = self.issue.req_tid.val();
        self.branch.req_ip.next = self.issue.req_ip.val();
        self.branch.req_op.next = self.issue.req_op.val();
        self.branch.req_jip.next = self.issue.req_jip.val();
        self.branch.req_uip.next = self.issue.req_uip.val();
        self.branch.req_pred.next = self.issue.req_pred.val();
        // S3 execute (S2: the register file's second read register)
        self.execute.valid.next = self.issue.valid.val();
        self.execute.init.next = self.issue.init.val();
        self.execute.tid.next = self.issue.tid.val();
        self.execute.ip.next = self.issue.ip.val();
        self.execute.dec.next = self.issue.dec.val();
        self.execute.rf_data0.next = self.regfile.rd_data0.val();
        self.execute.rf_data1.next = self.regfile.rd_data1.val();
        self.execute.bu_exec_mask.next = self.branch.rsp_exec_mask.val();
        self.execute.bu_next_ip.next = self.branch.rsp_next_ip.val();
        self.execute.exc.next = self.traps.exc.val();
        self.execute.stop.next = self.traps.stop.val();
        self.execute.skip.next = self.traps.skip.val();
        self.execute.srd_sr.next = self.traps.srd_sr.val();
        self.execute.sr_value.next = self.traps.sr_rdata.val();
        // S3 multi-register regions: the pass plan (`Passes`)
        self.passes.valid.next = self.issue.valid.val();
        self.passes.init.next = self.issue.init.val();
        self.passes.tid.next = self.issue.tid.val();
        self.passes.dec.next = self.issue.dec.val();
        self.passes.multi.next = self.regions.multi.val();
        self.passes.src_count_m1.next = self.regions.src_count_m1.val();
        self.passes.dst_count_m1.next = self.regions.dst_count_m1.val();
        self.passes.dst_idx.next = self.regions.dst_idx.val();
        self.passes.dst_list.next = self.regions.dst_list.val();
        self.passes.clear.next = self.start.val() & !self.fetch.busy.val();
        self.passes.fault.next = self.execute.fault.val();
        self.passes.mask.next = self.execute.exec_mask.val();
        self.regfile.capture.next = self.passes.capture.val();
        self.execute.rgn_replay.next = self.passes.replay.val();
        self.execute.rgn_record.next = self.passes.record.val();
        self.execute.rgn_more.next = self.passes.more.val();
        self.execute.rgn_dst_pass.next = self.passes.dst_pass.val();
        self.execute.rgn_mask.next = self.passes.held_mask.val();
        self.execute.rgn_flags.next = self.passes.held_flags.val();
        self.execute.rgn_dst_lanes.next = self.passes.dst_lanes.val();
        self.execute.rgn_dst_reg.next = self.passes.dst_reg.val();
        // S3 traps: the slot's exception (or slice limit), RETURN, PAUSE, special registers; the
        // trap controller; the fault report; the host's CSR port
        self.traps.valid.next = self.issue.valid.val();
        self.traps.init.next = self.issue.init.val();
        self.traps.tid.next = self.issue.tid.val();
        self.traps.ip.next = self.issue.ip.val();
        self.traps.dec.next = self.issue.dec.val();
        self.traps.src0.next = self.regfile.rd_data0.val();
        self.traps.bu_exec_mask.next = self.branch.rsp_exec_mask.val();
        self.traps.bu_err.next = self.branch.rsp_err.val();
        self.traps.bu_lane_mask.next = self.branch.lane_mask.val();
        self.traps.region_err.next = self.regions.err.val();
        self.traps.region_multi.next = self.passes.not_yet.val();
        self.traps.mem_fault.next = self.memory.fault.val();
        self.traps.hnd_mask.next = self.fetch.hnd_mask.val();
        self.traps.live_mask.next = self.fetch.live_mask.val();
        self.traps.ip_all.next = self.fetch.ip_all.val();
        self.traps.quiet.next = self.fetch.quiet.val();
        self.traps.fault_clear.next = self.start.val() & !self.fetch.busy.val();
        self.traps.fault.next = self.execute.fault.val();
        self.traps.csr_valid.next = self.csr_valid.val();
        self.traps.csr_we.next = self.csr_we.val();
        self.traps.csr_addr.next = self.csr_addr.val();
        self.traps.csr_wdata.next = self.csr_wdata.val();
        self.csr_rdata.next = self.traps.csr_rdata.val();
        self.host_irq.next = self.traps.host_irq.val();
        self.exc_valid.next = self.traps.exc.val();
        self.exc_tid.next = self.issue.tid.val();
        self.exc_ip.next = self.issue.ip.val();
        self.exc_cause.next = self.traps.cause.val();
        self.fault.next = self.traps.fault_out.val();
        self.fault_tid.next = self.traps.fault_tid.val();
        self.fault_ip.next = self.traps.fault_ip.val();
        self.fault_cause.next = self.traps.fault_cause.val();
        self.fault_not_yet.next = self.traps.fault_not_yet.val();
        // S3 memory op (the data memory's host ports while idle); a region fault or slice limit
        // keeps the op out of the unit (and out of the math unit)
        self.op_not_yet.next = self.issue.dec.val().not_yet | self.regions.err.val() | self.regions.multi.val();
        self.memory.host_en.next = !self.fetch.busy.val();
        self.memory.host_we.next = self.dmem_we.val();
        self.memory.host_waddr.next = self.dmem_addr.val();
        self.memory.host_wdata.next = self.dmem_wdata.val();
        self.memory.host_raddr.next = self.dmem_raddr.val();
        self.dmem_rdata.next = self.memory.host_rdata.val();
        self.memory.valid.next = self.issue.valid.val();
        self.memory.init.next = self.issue.init.val();
        self.memory.tid.next = self.issue.tid.val();
        self.memory.dec.next = self.issue.dec.val();
        self.memory.not_yet.next = self.op_not_yet.val();
        self.memory.bu_exec_mask.next = self.branch.rsp_exec_mask.val();
        self.memory.bu_err.next = self.branch.rsp_err.val();
        self.memory.src0.next = self.regfile.rd_data0.val();
        self.memory.src1.next = self.regfile.rd_data1.val();
        self.execute.mem_done.next = self.memory.done.val();
        self.execute.mem_value.next = self.memory.value.val();
        self.execute.mem_addr.next = self.memory.addr.val();
        // S3 math op
        self.math.valid.next = self.issue.valid.val();
        self.math.init.next = self.issue.init.val();
        self.math.tid.next = self.issue.tid.val();
        self.math.dec.next = self.issue.dec.val();
        self.math.not_yet.next = self.op_not_yet.val();
        self.math.bu_exec_mask.next = self.branch.rsp_exec_mask.val();
        self.math.bu_err.next = self.branch.rsp_err.val();
        self.math.src0.next = self.regfile.rd_data0.val();
        self.math.src1.next = self.regfile.rd_data1.val();
        self.execute.math_done.next = self.math.done.val();
        self.execute.math_value.next = self.math.value.val();
        // S4 writeback: register file (or the host's write while idle), flags, retire port
        self.regfile.we.next = self.execute.wb_dst_we.val();
        self.regfile.wr_addr.next = (bit_cast::<RA, TW>(self.execute.wb_tid.val()) << 7) | bit_cast::<RA, 7>(self.execute.wb_dst_reg.val());
        self.scatter.result.next = self.execute.wb_data.val();
        self.scatter.mask.next = self.execute.wb_dst_mask.val();
        self.scatter.cols.next = self.regions.dst_cols.val();
        self.scatter.esize_log2.next = self.regions.dst_esize.val();
        self.regfile.wr_bytes.next = self.scatter.be.val();
        self.regfile.wr_data.next = self.scatter.data.val();
        self.regfile.host_we.next = self.rf_we.val();
        self.regfile.host_waddr.next = self.rf_addr.val();
        self.regfile.host_wdata.next = self.rf_wdata.val();
        self.flag_regs.we.next = self.execute.wb_flag_we.val();
        self.flag_regs.wr_tid.next = self.execute.wb_tid.val();
        self.flag_regs.wr_sel.next = self.execute.wb_flag_sel.val();
        self.flag_regs.wr_value.next = self.execute.wb_flag_value.val();
        self.flags.next = self.flag_regs.all.val();
        self.retire_valid.next = self.execute.wb_valid.val();
        self.retire_tid.next = self.execute.wb_tid.val();
        self.retire_ip.next = self.execute.wb_ip.val();
        self.retire_exec_mask.next = self.execute.wb_mask.val();
        self.retire_dst_we.next = self.execute.wb_dst_we.val();
        self.retire_dst_reg.next = self.execute.wb_dst_reg.val();
        self.retire_dst_data.next = self.execute.wb_data.val();
        self.retire_dst_be.next = 0.into();
        if self.execute.wb_dst_we.val() {
            self.retire_dst_data.next = self.scatter.data.val();
            self.retire_dst_be.next = self.scatter.be.val();
        }
        self.retire_mem_we.next = self.execute.wb_mem_we.val();
        self.retire_mem_addr.next = self.execute.wb_mem_addr.val();
        self.retire_more.next = self.execute.wb_more.val();
        self.retire_flag_we.next = self.execute.wb_flag_we.val();
        self.retire_flag_sel.next = self.execute.wb_flag_sel.val();
        self.retire_flag_value.next = self.execute.wb_flag_value.val();
    }
}
