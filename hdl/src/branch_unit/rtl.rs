//! The branch unit's top: the spec's ports (§6.2) and the stages of §6.1 wired together.
//!
//! Request decode ([`Decode`], [`Targets`]) → the step over the state: the lane-counter bank
//! ([`LaneBank`], [`LaneMasks`]), the per-type stacks ([`Stacks`]), the open levels ([`Levels`]:
//! label match, counter codes; [`Rejoin`]), the §2.4 bodies ([`StepY`]: `BodyState`, `BodyResponse`) and the
//! §7 errors ([`ErrorPriority`], beside the counter update: the state commits only without
//! error) → the registered response ([`Response`]). State and response register on the same
//! edge: latency 1 + `pipe`. With `pipe` = 2 the step itself takes two cycles: the levels, the
//! lane compares, the rejoin and the verdict read the state as `q_x` (the RAM's data) and
//! `StepCut` (in [`StepY`]) registers what the bodies read; the bodies and the write-back run a cycle later
//! on the carried state (`q`). Every register is an `RDff` in the block that updates it, so no next-state
//! logic reads `rst`. The blocks form a feed-forward graph (no block reads a signal that depends
//! on its own outputs): Verilator orders whole always-blocks, so a block on both ends of the
//! state loop would make it a combinational cycle (UNOPTFLAT) that it iterates every eval.

use super::step_y::StepY;
use super::errors::ErrorPriority;
use super::lanes::{LaneBank, LaneMasks};
use super::levels::{Levels, Rejoin};
use super::pre::StepPre;
use super::regs::{DebugView, NestFault, Response};
use super::stack::Stacks;
use super::thread_reg::{Storage, TID_BITS};
use super::threads::{BusyGate, LaneMaskRegs, ThreadPipe};
use rust_hdl::prelude::*;

/// The SBU. Const generics: lanes `N`, `DW`, `CW = DW+3`, `IPW`, `XW = IPW+2` (exact target
/// arithmetic), `NCW = N*CW`, `CICW = 5*DW`, `EW = IPW+DW`, `TOSW = 5*EW`; threads `T`,
/// `TW = TID_W`, `LM = T*N`; `SW = (2^DW-1)*EW` (one type's section of `dbg_stk`: the deepest
/// stack DW can count), `STKW = 4*SW + EW`.
#[derive(LogicBlock)]
pub struct BranchUnit<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize, const NCW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const T: usize, const TW: usize, const LM: usize, const SW: usize, const STKW: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: all lanes OFF, CICs 0, `fault` 0 (INIT is required before use).
    pub rst: Signal<In, Bit>,
    /// A request this cycle.
    pub req_valid: Signal<In, Bit>,
    /// Always 1 (kept for multi-cycle or multi-thread versions).
    pub req_ready: Signal<Out, Bit>,
    /// SBU op (`enc::op`); NOP for non-CF instructions.
    pub req_op: Signal<In, Bits<5>>,
    /// IP of the instruction.
    pub req_ip: Signal<In, Bits<IPW>>,
    /// Signed jump offset.
    pub req_jip: Signal<In, Bits<IPW>>,
    /// Signed convergence offset.
    pub req_uip: Signal<In, Bits<IPW>>,
    /// Predicate bits (the live mask for INIT).
    pub req_pred: Signal<In, Bits<N>>,
    /// LAT = 1 + pipe cycles after an accepted request.
    pub rsp_valid: Signal<Out, Bit>,
    /// IP to fetch next (for an error: the faulting IP).
    pub rsp_next_ip: Signal<Out, Bits<IPW>>,
    /// `E` before the step: the mask this instruction runs under.
    pub rsp_exec_mask: Signal<Out, Bits<N>>,
    /// `E'`: the mask for the instruction at `rsp_next_ip`.
    pub rsp_lane_mask: Signal<Out, Bits<N>>,
    /// Lanes whose predicate bit was used (E, or E1 for WHILE; 0 if ignored).
    pub rsp_pred_mask: Signal<Out, Bits<N>>,
    /// The step failed (§7).
    pub rsp_err: Signal<Out, Bit>,
    /// Error code (`enc::err`).
    pub rsp_err_code: Signal<Out, Bits<5>>,
    /// Branch type of SKIPPED_CONV and STACK_OVF (`enc::ty`), else 0.
    pub rsp_err_type: Signal<Out, Bits<3>>,
    /// Warning bits (`enc::warn`).
    pub rsp_warn: Signal<Out, Bits<2>>,
    /// Coverage event (`enc::ev`).
    pub rsp_event: Signal<Out, Bits<6>>,
    /// Current `E` (for non-CF issue): straight from the counters with one thread and pipe 0;
    /// else each thread's `E` as its last step left it, thread k at bits `[k*N, (k+1)*N)`
    /// (emitted as `thr_lane_mask` when THREADS > 1).
    pub lane_mask: Signal<Out, Bits<LM>>,
    /// Sticky error flag; cleared by INIT (of thread `rsp_tid` as its last step left it, like `dbg_*`).
    pub fault: Signal<Out, Bit>,
    /// Lane counters, lane n at bits `[n*CW, (n+1)*CW)`.
    pub dbg_cnt: Signal<Out, Bits<NCW>>,
    /// CICs IF, LOOP, CALL, BR, HALT from bit 0 up.
    pub dbg_cic: Signal<Out, Bits<CICW>>,
    /// `loop_nest`.
    pub dbg_loop_nest: Signal<Out, Bits<DW>>,
    /// Top entry `{ip, aux}` of each type, in `dbg_cic` order (0 when no level is open).
    pub dbg_tos: Signal<Out, Bits<TOSW>>,
    /// Every stack entry `STK[t][1..MAXD_t]` (issue 18: the co-simulation compares entries
    /// 1..CIC[t] of every type after every step). One section per type in `dbg_cic` order, IF,
    /// LOOP, CALL, BR `SW = (2^DW-1)*(IPW+DW)` bits each from bit 0 up, then HALT's one entry
    /// (`EW` bits). In a section, slot j (bits `[j*EW, (j+1)*EW)`, `{ip, aux}` with aux in the
    /// low DW bits) is the j-th entry from the top: `STK[t][CIC[t]-j]` for j < CIC[t] (`dbg_cic`);
    /// slots from CIC[t] up are dead (whatever the shift stack moved there; never compared), slots
    /// from MAXD_t up are 0. HALT's aux is not stored and shows 0. Wires from the stack registers
    /// (with a RAM, threads > 1 or pipe ≥ 1: from shadow registers loaded with every write, so
    /// the thread of the last written step, like `dbg_tos`); a design that leaves it open loses
    /// them in synthesis.
    pub dbg_stk: Signal<Out, Bits<STKW>>,
    // timing-closure §3.2, last so that the older ports keep their order
    /// Thread of the request (TID_W = max(1, log2 THREADS) bits; timing-closure §3.2).
    pub req_tid: Signal<In, Bits<TW>>,
    /// Thread of the response (0 without one).
    pub rsp_tid: Signal<Out, Bits<TW>>,
    /// Bit k: a request of thread k is in flight (a request for it now is answered E_BUSY).
    pub thr_busy: Signal<Out, Bits<T>>,
    pre: StepPre<N, IPW, XW>,
    lanes: LaneBank<N, CW, NCW>,
    masks: LaneMasks<N, CW, NCW>,
    stacks: Stacks<IPW, DW, EW, SW>,
    levels: Levels<N, DW, CW, IPW>,
    rejoin: Rejoin<N, DW>,
    errors: ErrorPriority<N, DW, IPW>,
    /// The step's second cycle (pipe 2; a pass-through stage otherwise): the cut register and
    /// the bodies.
    step_y: StepY<N, DW, CW, IPW, XW>,
    nest: NestFault<DW>,
    response: Response<N, IPW, XW>,
    debug: DebugView<DW, IPW, CICW, EW, TOSW, SW, STKW>,
    threads: ThreadPipe<N, IPW, T>,
    busy_gate: BusyGate,
    /// The per-thread lane-mask registers (0 or 1: not with one thread and pipe 0).
    lane_regs: Vec<LaneMaskRegs<N, LM>>,
    _nflop: usize,
    _nregs: usize,
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize, const NCW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const T: usize, const TW: usize, const LM: usize, const SW: usize, const STKW: usize> BranchUnit<N, DW, CW, IPW, XW, NCW, CICW, EW, TOSW, T, TW, LM, SW, STKW> {
    /// `maxd`: depth of the IF, LOOP and BR stacks; `maxd_call`: of the CALL stack.
    /// `threads` = T, `pipe`: LAT = 1 + pipe (timing-closure §3.2).
    pub fn new(maxd: usize, maxd_call: usize, threads: usize, pipe: usize) -> Self {
        assert!(CW == DW + 3 && XW == IPW + 2 && NCW == N * CW && CICW == 5 * DW && EW == IPW + DW && TOSW == 5 * EW);
        assert!(maxd >= 1 && maxd_call >= 1 && maxd.max(maxd_call) < (1 << DW) && N <= 32);
        assert!(SW == ((1 << DW) - 1) * EW && STKW == 4 * SW + EW);
        assert!(T == threads && LM == T * N && TW == (T.max(2)).trailing_zeros() as usize && TW <= TID_BITS);
        let storage = Storage::of(threads, pipe);
        let flop = (storage == Storage::Flop) as usize;
        Self {
            clk: Default::default(),
            rst: Default::default(),
            req_valid: Default::default(),
            req_tid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_ip: Default::default(),
            req_jip: Default::default(),
            req_uip: Default::default(),
            req_pred: Default::default(),
            rsp_valid: Default::default(),
            rsp_tid: Default::default(),
            thr_busy: Default::default(),
            rsp_next_ip: Default::default(),
            rsp_exec_mask: Default::default(),
            rsp_lane_mask: Default::default(),
            rsp_pred_mask: Default::default(),
            rsp_err: Default::default(),
            rsp_err_code: Default::default(),
            rsp_err_type: Default::default(),
            rsp_warn: Default::default(),
            rsp_event: Default::default(),
            lane_mask: Default::default(),
            fault: Default::default(),
            dbg_cnt: Default::default(),
            dbg_cic: Default::default(),
            dbg_loop_nest: Default::default(),
            dbg_tos: Default::default(),
            dbg_stk: Default::default(),
            pre: StepPre::new(pipe >= 1),
            lanes: LaneBank::new(storage),
            masks: Default::default(),
            stacks: Stacks::new(maxd, maxd_call, storage),
            levels: Default::default(),
            rejoin: Default::default(),
            errors: ErrorPriority::new(maxd, maxd_call),
            step_y: StepY::new(storage == Storage::RamSplit),
            nest: NestFault::new(storage),
            response: Default::default(),
            debug: Default::default(),
            threads: ThreadPipe::new(threads, pipe),
            busy_gate: Default::default(),
            lane_regs: (0..1 - flop).map(|_| LaneMaskRegs::new(threads)).collect(),
            _nflop: flop,
            _nregs: 1 - flop,
        }
    }
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize, const XW: usize, const NCW: usize, const CICW: usize, const EW: usize, const TOSW: usize, const T: usize, const TW: usize, const LM: usize, const SW: usize, const STKW: usize> Logic for BranchUnit<N, DW, CW, IPW, XW, NCW, CICW, EW, TOSW, T, TW, LM, SW, STKW> {
    #[hdl_gen]
    fn update(&mut self) {
        // clocks and resets
        clock!(self, clk, pre, lanes, stacks, step_y, nest, response, threads);
        self.threads.rst.next = self.rst.val();
        // the request through the stages (none with pipe 0), the thread controls, E_BUSY
        self.threads.req_valid.next = self.req_valid.val();
        self.threads.req_tid.next = bit_cast::<TID_BITS, TW>(self.req_tid.val());
        self.threads.req_op.next = self.req_op.val();
        self.threads.req_ip.next = self.req_ip.val();
        self.threads.req_jip.next = self.req_jip.val();
        self.threads.req_uip.next = self.req_uip.val();
        self.threads.req_pred.next = self.req_pred.val();
        self.busy_gate.busy.next = self.threads.s_busy.val();
        self.busy_gate.err.next = self.step_y.y_err.val();
        self.busy_gate.err_code.next = self.step_y.y_err_code.val();
        self.busy_gate.err_type.next = self.step_y.y_err_type.val();
        self.busy_gate.commit.next = self.step_y.y_commit.val();
        self.lanes.tc.next = self.threads.tc.val();
        self.stacks.tc.next = self.threads.tc.val();
        self.nest.tc.next = self.threads.tc.val();
        self.lanes.rst.next = self.rst.val();
        self.stacks.rst.next = self.rst.val();
        self.nest.rst.next = self.rst.val();
        self.response.rst.next = self.rst.val();
        self.step_y.rst.next = self.rst.val();
        // what depends on the request and the thread's masks only (pipe ≥ 1: one stage early)
        self.pre.rst.next = self.rst.val();
        self.pre.op.next = self.threads.l_op.val();
        self.pre.ip.next = self.threads.l_ip.val();
        self.pre.jip.next = self.threads.l_jip.val();
        self.pre.uip.next = self.threads.l_uip.val();
        self.pre.pred.next = self.threads.l_pred.val();
        self.pre.e_in.next = self.masks.e.val();
        self.pre.live_in.next = self.masks.live.val();
        // lane-counter bank and lane masks
        self.lanes.pred.next = self.threads.s_pred.val();
        self.lanes.e.next = self.step_y.y_e.val();
        self.lanes.rja_hit.next = self.step_y.y_rja_hit.val();
        self.lanes.rjb_en.next = self.step_y.rjb_en.val();
        self.lanes.eqb.next = self.step_y.y_eqb.val();
        self.lanes.park_m.next = self.step_y.park_m.val();
        self.lanes.park_code.next = self.step_y.park_code.val();
        self.lanes.init.next = self.step_y.y_ops.val().is_init;
        self.lanes.commit.next = self.busy_gate.f_commit.val();
        self.masks.cnt.next = self.lanes.cnt.val();
        self.masks.rja_code.next = self.levels.rja_code.val();
        self.masks.rjb_code.next = self.levels.cur_loop.val();
        // stacks
        self.stacks.commit.next = self.busy_gate.f_commit.val();
        self.stacks.init.next = self.step_y.y_ops.val().is_init;
        self.stacks.stack_ops.next = self.step_y.stack_ops.val();
        self.stacks.push_ip.next = self.step_y.push_ip.val();
        self.stacks.push_aux.next = self.step_y.push_aux.val();
        // levels: label match, codes, rejoin A
        self.levels.ops.next = self.pre.ops.val();
        self.levels.ip.next = self.threads.x_ip.val();
        self.levels.lab_j.next = self.pre.lab_j.val();
        self.levels.lab_u.next = self.pre.lab_u.val();
        self.levels.cic_if.next = self.stacks.cic_if.val();
        self.levels.cic_loop.next = self.stacks.cic_loop.val();
        self.levels.cic_call.next = self.stacks.cic_call.val();
        self.levels.cic_br.next = self.stacks.cic_br.val();
        self.levels.cic_halt.next = self.stacks.cic_halt.val();
        self.levels.tos_ip_if.next = self.stacks.tos_ip_if.val();
        self.levels.tos_ip_loop.next = self.stacks.tos_ip_loop.val();
        self.levels.tos_ip_br.next = self.stacks.tos_ip_br.val();
        self.levels.tos_ip_halt.next = self.stacks.tos_ip_halt.val();
        self.levels.tos_aux_if.next = self.stacks.tos_aux_if.val();
        self.levels.tos_aux_loop.next = self.stacks.tos_aux_loop.val();
        self.levels.tos_aux_br.next = self.stacks.tos_aux_br.val();
        // rejoin A
        self.rejoin.ops.next = self.pre.ops.val();
        self.rejoin.m.next = self.levels.m.val();
        self.rejoin.pred.next = self.threads.x_pred.val();
        self.rejoin.jzero.next = self.pre.jzero.val();
        self.rejoin.cic_call.next = self.stacks.cic_call.val();
        self.rejoin.e.next = self.pre.e.val();
        self.rejoin.e_none.next = self.pre.e_none.val();
        self.rejoin.fc.next = self.pre.fc.val();
        self.rejoin.eqa.next = self.masks.eqa.val();
        self.rejoin.eqb.next = self.masks.eqb.val();
        // errors
        self.errors.valid.next = self.threads.x_valid.val();
        self.errors.pred.next = self.threads.x_pred.val();
        self.errors.fault.next = self.nest.fault.val();
        self.errors.ops.next = self.pre.ops.val();
        self.errors.sk_if.next = self.levels.sk_if.val();
        self.errors.sk_loop.next = self.levels.sk_loop.val();
        self.errors.sk_br.next = self.levels.sk_br.val();
        self.errors.m.next = self.levels.m.val();
        self.errors.jneg.next = self.pre.jneg.val();
        self.errors.jzero.next = self.pre.jzero.val();
        self.errors.jpos.next = self.pre.jpos.val();
        self.errors.upos.next = self.pre.upos.val();
        self.errors.j_le_u.next = self.pre.j_le_u.val();
        self.errors.oor_n.next = self.pre.oor_n.val();
        self.errors.oor_j.next = self.pre.oor_j.val();
        self.errors.oor_u.next = self.pre.oor_u.val();
        self.errors.oor_u1.next = self.pre.oor_u1.val();
        self.errors.lab_j.next = self.pre.lab_j.val();
        self.errors.lab_u.next = self.pre.lab_u.val();
        self.errors.t_none.next = self.pre.t_none.val();
        self.errors.t_all.next = self.pre.t_all.val();
        self.errors.e_none.next = self.pre.e_none.val();
        self.errors.fc.next = self.pre.fc.val();
        self.errors.wc_any.next = self.rejoin.wc_any.val();
        self.errors.wx_any.next = self.rejoin.wx_any.val();
        self.errors.cic_if.next = self.stacks.cic_if.val();
        self.errors.cic_loop.next = self.stacks.cic_loop.val();
        self.errors.cic_call.next = self.stacks.cic_call.val();
        self.errors.cic_br.next = self.stacks.cic_br.val();
        self.errors.cic_halt.next = self.stacks.cic_halt.val();
        self.errors.tos_ip_br.next = self.stacks.tos_ip_br.val();
        self.errors.tos_aux_br.next = self.stacks.tos_aux_br.val();
        self.errors.tos_ip_halt.next = self.stacks.tos_ip_halt.val();
        self.errors.loop_nest.next = self.nest.loop_nest.val();
        // the cut between the step's two cycles (pipe 2; a pass-through otherwise)
        self.step_y.ops.next = self.pre.ops.val();
        self.step_y.e.next = self.pre.e.val();
        self.step_y.t.next = self.pre.t.val();
        self.step_y.e_none.next = self.pre.e_none.val();
        self.step_y.t_none.next = self.pre.t_none.val();
        self.step_y.t_all.next = self.pre.t_all.val();
        self.step_y.fc.next = self.pre.fc.val();
        self.step_y.pred_all.next = self.pre.pred_all.val();
        self.step_y.jzero.next = self.pre.jzero.val();
        self.step_y.ip_x.next = self.pre.ip_x.val();
        self.step_y.tgt_n.next = self.pre.tgt_n.val();
        self.step_y.tgt_j.next = self.pre.tgt_j.val();
        self.step_y.tgt_u.next = self.pre.tgt_u.val();
        self.step_y.tgt_u1.next = self.pre.tgt_u1.val();
        self.step_y.lab_n.next = self.pre.lab_n.val();
        self.step_y.m.next = self.levels.m.val();
        self.step_y.label.next = self.levels.label.val();
        self.step_y.cur_if.next = self.levels.cur_if.val();
        self.step_y.new_if.next = self.levels.new_if.val();
        self.step_y.park_loop.next = self.levels.park_loop.val();
        self.step_y.park_cont.next = self.levels.park_cont.val();
        self.step_y.cur_call.next = self.levels.cur_call.val();
        self.step_y.new_call.next = self.levels.new_call.val();
        self.step_y.park_br.next = self.levels.park_br.val();
        self.step_y.halt1.next = self.levels.halt1.val();
        self.step_y.rja_hit.next = self.rejoin.rja_hit.val();
        self.step_y.e1.next = self.rejoin.e1.val();
        self.step_y.wx.next = self.rejoin.wx.val();
        self.step_y.still_any.next = self.rejoin.still_any.val();
        self.step_y.wc_any.next = self.rejoin.wc_any.val();
        self.step_y.wx_any.next = self.rejoin.wx_any.val();
        self.step_y.eqb_none.next = self.rejoin.eqb_none.val();
        self.step_y.eqb.next = self.masks.eqb.val();
        self.step_y.cic_call.next = self.stacks.cic_call.val();
        self.step_y.cic_halt.next = self.stacks.cic_halt.val();
        self.step_y.tos_aux_call.next = self.stacks.tos_aux_call.val();
        self.step_y.tos_ip_call.next = self.stacks.tos_ip_call.val();
        self.step_y.err.next = self.errors.err.val();
        self.step_y.err_code.next = self.errors.err_code.val();
        self.step_y.err_type.next = self.errors.err_type.val();
        self.step_y.commit.next = self.errors.commit.val();
        self.step_y.loop_nest.next = self.nest.loop_nest.val();
        // loop_nest, fault, response register
        self.nest.commit.next = self.busy_gate.f_commit.val();
        self.nest.init.next = self.step_y.y_ops.val().is_init;
        self.nest.ln_next.next = self.step_y.ln_next.val();
        self.nest.fail.next = self.threads.f_write.val() && self.step_y.y_err.val();
        self.response.valid.next = self.threads.s_valid.val();
        self.response.ip.next = self.threads.s_ip.val();
        self.response.err.next = self.busy_gate.f_err.val();
        self.response.err_code.next = self.busy_gate.f_err_code.val();
        self.response.err_type.next = self.busy_gate.f_err_type.val();
        self.response.next_x.next = self.step_y.next_x.val();
        self.response.go_on.next = self.step_y.go_on.val();
        self.response.go_tgt.next = self.step_y.go_tgt.val();
        self.response.pred_mask.next = self.step_y.pred_mask.val();
        self.response.warn.next = self.step_y.warn.val();
        self.response.evt.next = self.step_y.evt.val();
        self.response.tgt_n.next = self.step_y.y_tgt_n.val();
        // timing-closure §3.2: INIT runs under no mask (exec mask 0)
        self.response.exec.next = self.step_y.y_e.val();
        if self.step_y.y_ops.val().is_init {
            self.response.exec.next = 0.into();
        }
        self.response.lane.next = self.lanes.en_next.val();
        // debug view
        self.debug.cic_if.next = self.stacks.v_cic_if.val();
        self.debug.cic_loop.next = self.stacks.v_cic_loop.val();
        self.debug.cic_call.next = self.stacks.v_cic_call.val();
        self.debug.cic_br.next = self.stacks.v_cic_br.val();
        self.debug.cic_halt.next = self.stacks.v_cic_halt.val();
        self.debug.tos_ip_if.next = self.stacks.v_ip_if.val();
        self.debug.tos_ip_loop.next = self.stacks.v_ip_loop.val();
        self.debug.tos_ip_call.next = self.stacks.v_ip_call.val();
        self.debug.tos_ip_br.next = self.stacks.v_ip_br.val();
        self.debug.tos_ip_halt.next = self.stacks.v_ip_halt.val();
        self.debug.tos_aux_if.next = self.stacks.v_aux_if.val();
        self.debug.tos_aux_loop.next = self.stacks.v_aux_loop.val();
        self.debug.tos_aux_call.next = self.stacks.v_aux_call.val();
        self.debug.tos_aux_br.next = self.stacks.v_aux_br.val();
        self.debug.stk_if.next = self.stacks.v_stk_if.val();
        self.debug.stk_loop.next = self.stacks.v_stk_loop.val();
        self.debug.stk_call.next = self.stacks.v_stk_call.val();
        self.debug.stk_br.next = self.stacks.v_stk_br.val();
        // outputs
        self.req_ready.next = true;
        self.rsp_valid.next = self.response.rsp_valid.val();
        self.rsp_next_ip.next = self.response.rsp_next_ip.val();
        self.rsp_exec_mask.next = self.response.rsp_exec_mask.val();
        self.rsp_lane_mask.next = self.response.rsp_lane_mask.val();
        self.rsp_pred_mask.next = self.response.rsp_pred_mask.val();
        self.rsp_err.next = self.response.rsp_err.val();
        self.rsp_err_code.next = self.response.rsp_err_code.val();
        self.rsp_err_type.next = self.response.rsp_err_type.val();
        self.rsp_warn.next = self.response.rsp_warn.val();
        self.rsp_event.next = self.response.rsp_event.val();
        // lane masks: from the counters with one register set, else the per-thread registers
        self.lane_mask.next = 0.into();
        for _k in 0..self._nflop {
            self.lane_mask.next = bit_cast::<LM, N>(self.step_y.y_e.val());
        }
        for k in 0..self._nregs {
            self.lane_regs[k].clock.next = self.clk.val();
            self.lane_regs[k].rst.next = self.rst.val();
            self.lane_regs[k].write.next = self.threads.f_write.val();
            self.lane_regs[k].tid.next = self.threads.tc.val().wr_addr;
            self.lane_regs[k].commit.next = self.busy_gate.f_commit.val();
            self.lane_regs[k].en_next.next = self.lanes.en_next.val();
            self.lane_regs[k].e.next = self.step_y.y_e.val();
            self.lane_regs[k].tc.next = self.threads.tc.val();
            self.lane_regs[k].init.next = self.step_y.y_ops.val().is_init;
            self.lane_regs[k].pred.next = self.threads.s_pred.val();
            self.pre.e_in.next = self.lane_regs[k].rd_e.val();
            self.pre.live_in.next = self.lane_regs[k].rd_live.val();
            self.lane_mask.next = self.lane_regs[k].masks.val();
        }
        self.rsp_tid.next = bit_cast::<TW, TID_BITS>(self.threads.rsp_tid.val());
        self.thr_busy.next = self.threads.thr_busy.val();
        self.fault.next = self.nest.fault_view.val();
        self.dbg_cnt.next = self.lanes.cnt_view.val();
        self.dbg_cic.next = self.debug.dbg_cic.val();
        self.dbg_loop_nest.next = self.nest.loop_nest_view.val();
        self.dbg_tos.next = self.debug.dbg_tos.val();
        self.dbg_stk.next = self.debug.dbg_stk.val();
    }
}
