//! Threads and pipeline (timing-closure §3.2): the request goes through `pipe` stage registers,
//! the thread's state is read from the state RAMs one stage before the step (or in the step's
//! own cycle with LUT-RAM at `pipe` = 0) and written back at the step's edge, and a request for
//! a thread that has one in flight is answered E_BUSY without touching the state.
//!
//! With one thread and `pipe` = 0 there are no stages: the request passes straight to the step
//! and `tc` is constant (today's unit).

use super::enc::err;
use super::thread_reg::{Storage, ThreadCtl, TID_BITS};
use crate::prims::RDff;
use rust_hdl::prelude::*;

/// One stage register of the request: valid, the E_BUSY verdict, the thread, IP and predicate
/// (what the step itself reads; the fields only [`super::pre::StepPre`] reads go through
/// [`ReqCarry`] up to the stage before the step).
#[derive(LogicBlock)]
pub struct ReqStage<const N: usize, const IPW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub i_valid: Signal<In, Bit>,
    pub i_busy: Signal<In, Bit>,
    pub i_tid: Signal<In, Bits<TID_BITS>>,
    pub i_ip: Signal<In, Bits<IPW>>,
    pub i_pred: Signal<In, Bits<N>>,
    pub o_valid: Signal<Out, Bit>,
    pub o_busy: Signal<Out, Bit>,
    pub o_tid: Signal<Out, Bits<TID_BITS>>,
    pub o_ip: Signal<Out, Bits<IPW>>,
    pub o_pred: Signal<Out, Bits<N>>,
    /// `1 << tid` when valid (the stage's contribution to `thr_busy`).
    pub o_onehot: Signal<Out, Bits<16>>,
    valid: RDff<Bit>,
    busy: RDff<Bit>,
    tid: RDff<Bits<TID_BITS>>,
    ip: RDff<Bits<IPW>>,
    pred: RDff<Bits<N>>,
    k_one: Constant<Bits<16>>,
}

impl<const N: usize, const IPW: usize> Default for ReqStage<N, IPW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            i_valid: Default::default(),
            i_busy: Default::default(),
            i_tid: Default::default(),
            i_ip: Default::default(),
            i_pred: Default::default(),
            o_valid: Default::default(),
            o_busy: Default::default(),
            o_tid: Default::default(),
            o_ip: Default::default(),
            o_pred: Default::default(),
            o_onehot: Default::default(),
            valid: Default::default(),
            busy: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            pred: Default::default(),
            k_one: Constant::new(1u64.into()),
        }
    }
}

impl<const N: usize, const IPW: usize> Logic for ReqStage<N, IPW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, valid, busy, tid, ip, pred);
        self.valid.rst.next = self.rst.val();
        self.busy.rst.next = self.rst.val();
        self.tid.rst.next = self.rst.val();
        self.ip.rst.next = self.rst.val();
        self.pred.rst.next = self.rst.val();
        self.valid.d.next = self.i_valid.val();
        self.busy.d.next = self.i_busy.val();
        self.tid.d.next = self.i_tid.val();
        self.ip.d.next = self.i_ip.val();
        self.pred.d.next = self.i_pred.val();
        self.o_valid.next = self.valid.q.val();
        self.o_busy.next = self.busy.q.val();
        self.o_tid.next = self.tid.q.val();
        self.o_ip.next = self.ip.q.val();
        self.o_pred.next = self.pred.q.val();
        self.o_onehot.next = 0.into();
        if self.valid.q.val() {
            self.o_onehot.next = self.k_one.val() << bit_cast::<16, TID_BITS>(self.tid.q.val());
        }
    }
}

/// op, jip, uip of a request one stage on (pipe ≥ 2: towards the stage before the step).
#[derive(LogicBlock, Default)]
pub struct ReqCarry<const IPW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub i_op: Signal<In, Bits<5>>,
    pub i_jip: Signal<In, Bits<IPW>>,
    pub i_uip: Signal<In, Bits<IPW>>,
    pub o_op: Signal<Out, Bits<5>>,
    pub o_jip: Signal<Out, Bits<IPW>>,
    pub o_uip: Signal<Out, Bits<IPW>>,
    op: RDff<Bits<5>>,
    jip: RDff<Bits<IPW>>,
    uip: RDff<Bits<IPW>>,
}

impl<const IPW: usize> Logic for ReqCarry<IPW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, op, jip, uip);
        self.op.rst.next = self.rst.val();
        self.jip.rst.next = self.rst.val();
        self.uip.rst.next = self.rst.val();
        self.op.d.next = self.i_op.val();
        self.jip.d.next = self.i_jip.val();
        self.uip.d.next = self.i_uip.val();
        self.o_op.next = self.op.q.val();
        self.o_jip.next = self.jip.q.val();
        self.o_uip.next = self.uip.q.val();
    }
}

/// The request stages, the busy bits, the thread controls of the state registers, the E_BUSY
/// verdict and `rsp_tid`. `T`: threads (the width of `thr_busy`).
#[derive(LogicBlock)]
pub struct ThreadPipe<const N: usize, const IPW: usize, const T: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The request ports.
    pub req_valid: Signal<In, Bit>,
    pub req_tid: Signal<In, Bits<TID_BITS>>,
    pub req_op: Signal<In, Bits<5>>,
    pub req_ip: Signal<In, Bits<IPW>>,
    pub req_jip: Signal<In, Bits<IPW>>,
    pub req_uip: Signal<In, Bits<IPW>>,
    pub req_pred: Signal<In, Bits<N>>,
    /// The request in the first step cycle (X: where the levels and the §7 verdict are
    /// computed): the step's own, except with the step over two cycles (pipe 2: stage 0).
    pub x_valid: Signal<Out, Bit>,
    pub x_ip: Signal<Out, Bits<IPW>>,
    pub x_pred: Signal<Out, Bits<N>>,
    /// The request in the step's stage (the last one).
    pub s_valid: Signal<Out, Bit>,
    pub s_ip: Signal<Out, Bits<IPW>>,
    pub s_pred: Signal<Out, Bits<N>>,
    /// The step's request was taken while its thread was busy: it is answered E_BUSY.
    pub s_busy: Signal<Out, Bit>,
    /// A valid step that is not E_BUSY (it writes its thread's state).
    pub f_write: Signal<Out, Bit>,
    /// Controls of every state register (also of the per-thread lane-mask registers: the step's
    /// thread is `wr_addr`).
    pub tc: Signal<Out, ThreadCtl>,
    /// `thr_busy` and `rsp_tid` (registered with the response).
    pub thr_busy: Signal<Out, Bits<T>>,
    pub rsp_tid: Signal<Out, Bits<TID_BITS>>,
    /// The request entering the step's stage (pipe ≥ 1: the last stage's input; pipe 0: the
    /// step's own request): what [`super::pre::StepPre`] computes from one cycle early (its
    /// thread is `tc.pre_addr`).
    pub l_op: Signal<Out, Bits<5>>,
    pub l_ip: Signal<Out, Bits<IPW>>,
    pub l_jip: Signal<Out, Bits<IPW>>,
    pub l_uip: Signal<Out, Bits<IPW>>,
    pub l_pred: Signal<Out, Bits<N>>,
    stages: Vec<ReqStage<N, IPW>>,
    /// `pipe - 1` registers of op, jip, uip: up to the stage before the step, where
    /// [`super::pre::StepPre`] decodes them.
    carry: Vec<ReqCarry<IPW>>,
    written: Vec<RDff<Bits<16>>>,
    /// With state in RAM and pipe ≥ 1: `fresh` of the next step, decided one cycle early from the
    /// read address (so the reset-state substitution on every state bit starts from a flop).
    fresh_r: Vec<RDff<Bit>>,
    /// The written bits after this cycle's write, `>> rd_addr`.
    written_rd: Vec<Signal<Local, Bits<16>>>,
    r_tid: RDff<Bits<TID_BITS>>,
    /// The step's thread.
    s_tid: Signal<Local, Bits<TID_BITS>>,
    busy: Signal<Local, Bits<16>>,
    /// `busy >> req_tid` (with the first stage, `_first` long) and `written >> s_tid`,
    /// `1 << s_tid` (with the written bits, `_nram` long): a bit select needs a signal, not an
    /// expression; inline shifts rather than sub-blocks, so that no block reads back its own
    /// output through another block (Verilator: UNOPTFLAT). Vecs, so that the one-thread
    /// Verilog has none of them (a signal it never reads is a lint error).
    busy_sh: Vec<Signal<Local, Bits<16>>>,
    written_sh: Vec<Signal<Local, Bits<16>>>,
    written_bit: Vec<Signal<Local, Bits<16>>>,
    k_one: Vec<Constant<Bits<16>>>,
    _pipe: usize,
    _pipe1: usize,
    /// The number of [`ReqCarry`] stages (pipe - 1 without the two-cycle step, else 0).
    _ncarry: usize,
    /// 1 with the step over two cycles (pipe 2, [`Storage::RamSplit`]).
    _nsplit: usize,
    /// 1 when there is a carry stage (pipe ≥ 2 without the two-cycle step).
    _carry_first: usize,
    _first: usize,
    _last: usize,
    /// 1 when the state is in RAM (written bits), 0 with one register set.
    _nram: usize,
    /// 1 when the RAM read is registered (`pipe` ≥ 1): read address from the stage before.
    _nreg_rd: usize,
    /// 1 with a registered `fresh` (state in RAM, pipe ≥ 1).
    _nfresh_r: usize,
    /// With pipe ≥ 2 the read address comes from stage `pipe - 2` (`_rd_lo.._rd_hi`, else empty).
    _rd_lo: usize,
    _rd_hi: usize,
}

impl<const N: usize, const IPW: usize, const T: usize> ThreadPipe<N, IPW, T> {
    pub fn new(threads: usize, pipe: usize) -> Self {
        assert!(T == threads && threads <= 1 << TID_BITS);
        let nram = (Storage::of(threads, pipe) != Storage::Flop) as usize;
        // pipe 2: the step over two cycles; the RAM is read with the request as at pipe 1 and
        // the request's op/jip/uip go straight into `StepPre` (registered into stage 0)
        let split = Storage::of(threads, pipe) == Storage::RamSplit;
        let ncarry = if split { 0 } else { pipe.saturating_sub(1) };
        Self {
            clock: Default::default(),
            rst: Default::default(),
            req_valid: Default::default(),
            req_tid: Default::default(),
            req_op: Default::default(),
            req_ip: Default::default(),
            req_jip: Default::default(),
            req_uip: Default::default(),
            req_pred: Default::default(),
            x_valid: Default::default(),
            x_ip: Default::default(),
            x_pred: Default::default(),
            s_valid: Default::default(),
            s_ip: Default::default(),
            s_pred: Default::default(),
            s_busy: Default::default(),
            f_write: Default::default(),
            tc: Default::default(),
            thr_busy: Default::default(),
            rsp_tid: Default::default(),
            stages: (0..pipe).map(|_| ReqStage::default()).collect(),
            carry: (0..ncarry).map(|_| ReqCarry::default()).collect(),
            written: (0..nram).map(|_| RDff::default()).collect(),
            fresh_r: (0..(nram == 1 && pipe >= 1) as usize).map(|_| RDff::with_reset(true)).collect(),
            written_rd: (0..(nram == 1 && pipe >= 1) as usize).map(|_| Default::default()).collect(),
            l_op: Default::default(),
            l_ip: Default::default(),
            l_jip: Default::default(),
            l_uip: Default::default(),
            l_pred: Default::default(),
            r_tid: Default::default(),
            s_tid: Default::default(),
            busy: Default::default(),
            busy_sh: (0..pipe.min(1)).map(|_| Default::default()).collect(),
            written_sh: (0..nram).map(|_| Default::default()).collect(),
            written_bit: (0..nram).map(|_| Default::default()).collect(),
            k_one: (0..nram).map(|_| Constant::new(1u64.into())).collect(),
            _pipe: pipe,
            _pipe1: pipe.saturating_sub(1),
            _ncarry: ncarry,
            _nsplit: split as usize,
            _carry_first: (ncarry >= 1) as usize,
            _first: pipe.min(1),
            _last: pipe.saturating_sub(1),
            _nram: nram,
            _nreg_rd: (pipe == 1 || split) as usize,
            _nfresh_r: (nram == 1 && pipe >= 1) as usize,
            _rd_lo: if split { 0 } else { pipe.saturating_sub(2) },
            _rd_hi: if pipe >= 2 && !split { pipe - 1 } else { 0 },
        }
    }
}

impl<const N: usize, const IPW: usize, const T: usize> Logic for ThreadPipe<N, IPW, T> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, r_tid);
        self.r_tid.rst.next = self.rst.val();
        // busy: a request of the thread is in one of the stages (from the cycle after it was
        // taken to the cycle before its response)
        self.busy.next = 0.into();
        for k in 0..self._pipe {
            self.busy.next = self.busy.val() | self.stages[k].o_onehot.val();
        }
        self.thr_busy.next = bit_cast::<T, 16>(self.busy.val());
        // the stages: 0 takes the request ports, k+1 takes k
        for k in 0..self._pipe {
            self.stages[k].clock.next = self.clock.val();
            self.stages[k].rst.next = self.rst.val();
        }
        for k in 0..self._first {
            self.stages[k].i_valid.next = self.req_valid.val();
            self.busy_sh[k].next = self.busy.val() >> bit_cast::<16, TID_BITS>(self.req_tid.val());
            self.stages[k].i_busy.next = self.req_valid.val() && self.busy_sh[k].val().get_bit(0);
            self.stages[k].i_tid.next = self.req_tid.val();
            self.stages[k].i_ip.next = self.req_ip.val();
            self.stages[k].i_pred.next = self.req_pred.val();
        }
        for k in 0..self._ncarry {
            self.carry[k].clock.next = self.clock.val();
            self.carry[k].rst.next = self.rst.val();
        }
        for k in 0..self._carry_first {
            self.carry[k].i_op.next = self.req_op.val();
            self.carry[k].i_jip.next = self.req_jip.val();
            self.carry[k].i_uip.next = self.req_uip.val();
        }
        for k in 1..self._ncarry {
            self.carry[k].i_op.next = self.carry[k - 1].o_op.val();
            self.carry[k].i_jip.next = self.carry[k - 1].o_jip.val();
            self.carry[k].i_uip.next = self.carry[k - 1].o_uip.val();
        }
        for k in 0..self._pipe1 {
            self.stages[k + 1].i_valid.next = self.stages[k].o_valid.val();
            self.stages[k + 1].i_busy.next = self.stages[k].o_busy.val();
            self.stages[k + 1].i_tid.next = self.stages[k].o_tid.val();
            self.stages[k + 1].i_ip.next = self.stages[k].o_ip.val();
            self.stages[k + 1].i_pred.next = self.stages[k].o_pred.val();
        }
        // the step's request: the ports with pipe = 0, else the last stage
        self.s_valid.next = self.req_valid.val();
        self.s_busy.next = false;
        self.s_tid.next = self.req_tid.val();
        self.s_ip.next = self.req_ip.val();
        self.s_pred.next = self.req_pred.val();
        for k in self._last..self._pipe {
            self.s_valid.next = self.stages[k].o_valid.val();
            self.s_busy.next = self.stages[k].o_busy.val();
            self.s_tid.next = self.stages[k].o_tid.val();
            self.s_ip.next = self.stages[k].o_ip.val();
            self.s_pred.next = self.stages[k].o_pred.val();
        }
        self.x_valid.next = self.s_valid.val();
        self.x_ip.next = self.s_ip.val();
        self.x_pred.next = self.s_pred.val();
        for _k in 0..self._nsplit {
            self.x_valid.next = self.stages[0].o_valid.val();
            self.x_ip.next = self.stages[0].o_ip.val();
            self.x_pred.next = self.stages[0].o_pred.val();
        }
        self.f_write.next = self.s_valid.val() && !self.s_busy.val();
        // state-register controls: write the step's thread; read the next step's thread (the
        // request entering the last stage; with LUT-RAM the step's own)
        self.tc.next.wr_addr = self.s_tid.val();
        self.tc.next.wr_en = self.s_valid.val() && !self.s_busy.val();
        self.tc.next.rd_addr = self.s_tid.val();
        for _k in 0..self._nreg_rd {
            self.tc.next.rd_addr = self.req_tid.val();
        }
        for k in self._rd_lo..self._rd_hi {
            self.tc.next.rd_addr = self.stages[k].o_tid.val();
        }
        self.tc.next.fresh = false;
        for k in 0..self._nram {
            self.written[k].clock.next = self.clock.val();
            self.written[k].rst.next = self.rst.val();
            self.written[k].d.next = self.written[k].q.val();
            self.written_bit[k].next = self.k_one[k].val() << bit_cast::<16, TID_BITS>(self.s_tid.val());
            if self.s_valid.val() && !self.s_busy.val() {
                self.written[k].d.next = self.written[k].q.val() | self.written_bit[k].val();
            }
            self.written_sh[k].next = self.written[k].q.val() >> bit_cast::<16, TID_BITS>(self.s_tid.val());
            self.tc.next.fresh = !self.written_sh[k].val().get_bit(0);
        }
        for k in 0..self._nfresh_r {
            // the read address's thread after this cycle's write: what `written_sh` will say when
            // that thread's request is in the step's stage (exact; see `tc.fresh`)
            self.fresh_r[k].clock.next = self.clock.val();
            self.fresh_r[k].rst.next = self.rst.val();
            self.written_rd[k].next = self.written[0].d.val() >> bit_cast::<16, TID_BITS>(self.tc.val().rd_addr);
            self.fresh_r[k].d.next = !self.written_rd[k].val().get_bit(0);
            self.tc.next.fresh = self.fresh_r[k].q.val();
        }
        // the request entering the step's stage
        self.tc.next.pre_addr = self.req_tid.val();
        self.l_op.next = self.req_op.val();
        self.l_ip.next = self.req_ip.val();
        self.l_jip.next = self.req_jip.val();
        self.l_uip.next = self.req_uip.val();
        self.l_pred.next = self.req_pred.val();
        for k in self._rd_lo..self._rd_hi {
            self.tc.next.pre_addr = self.stages[k].o_tid.val();
            self.l_op.next = self.carry[k].o_op.val();
            self.l_ip.next = self.stages[k].o_ip.val();
            self.l_jip.next = self.carry[k].o_jip.val();
            self.l_uip.next = self.carry[k].o_uip.val();
            self.l_pred.next = self.stages[k].o_pred.val();
        }
        // rsp_tid: the responding thread, 0 in a cycle without a response
        self.r_tid.d.next = 0.into();
        if self.s_valid.val() {
            self.r_tid.d.next = self.s_tid.val();
        }
        self.rsp_tid.next = self.r_tid.q.val();
    }
}

/// E_BUSY (timing-closure §3.2) over the step's verdict: it wins over every other error and
/// commits nothing. Its own block, after the step, so that the block graph stays feed-forward.
#[derive(LogicBlock)]
pub struct BusyGate {
    pub busy: Signal<In, Bit>,
    pub err: Signal<In, Bit>,
    pub err_code: Signal<In, Bits<5>>,
    pub err_type: Signal<In, Bits<3>>,
    pub commit: Signal<In, Bit>,
    pub f_err: Signal<Out, Bit>,
    pub f_err_code: Signal<Out, Bits<5>>,
    pub f_err_type: Signal<Out, Bits<3>>,
    pub f_commit: Signal<Out, Bit>,
    k_err_busy: Constant<Bits<5>>,
    k_ty_none: Constant<Bits<3>>,
}

impl Default for BusyGate {
    fn default() -> Self {
        Self {
            busy: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            err_type: Default::default(),
            commit: Default::default(),
            f_err: Default::default(),
            f_err_code: Default::default(),
            f_err_type: Default::default(),
            f_commit: Default::default(),
            k_err_busy: Constant::new(err::BUSY.into()),
            k_ty_none: Constant::new(super::enc::ty::NONE.into()),
        }
    }
}

impl Logic for BusyGate {
    #[hdl_gen]
    fn update(&mut self) {
        self.f_err.next = self.err.val();
        self.f_err_code.next = self.err_code.val();
        self.f_err_type.next = self.err_type.val();
        self.f_commit.next = self.commit.val();
        if self.busy.val() {
            self.f_err.next = true;
            self.f_err_code.next = self.k_err_busy.val();
            self.f_err_type.next = self.k_ty_none.val();
            self.f_commit.next = false;
        }
    }
}

/// `thr_lane_mask` with several threads, or with state in RAM: thread k's `E` as its last step
/// left it (a register per thread loaded with the step's `E'`, or `E` when it failed); and its
/// LIVE lanes (loaded by a committed INIT with the live mask). Read for the thread entering the
/// step's stage: the step's `E`, T, FC and their reductions come from these registers
/// ([`super::pre::StepPre`]) instead of the counters' zero-detect.
#[derive(LogicBlock)]
pub struct LaneMaskRegs<const N: usize, const LM: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The step writes its thread; `E'` if it commits, else `E` (a failed step keeps the lanes).
    pub write: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TID_BITS>>,
    pub commit: Signal<In, Bit>,
    pub en_next: Signal<In, Bits<N>>,
    pub e: Signal<In, Bits<N>>,
    /// The step is INIT: a committed one loads LIVE with `pred`; nothing else changes LIVE
    /// (no other op turns a lane OFF or on).
    pub init: Signal<In, Bit>,
    pub pred: Signal<In, Bits<N>>,
    /// The thread read (`rd_e`, `rd_live`) is `tc.pre_addr`, the one entering the step's stage.
    pub tc: Signal<In, ThreadCtl>,
    /// Thread k at bits `[k*N, (k+1)*N)`.
    pub masks: Signal<Out, Bits<LM>>,
    pub rd_e: Signal<Out, Bits<N>>,
    pub rd_live: Signal<Out, Bits<N>>,
    regs: Vec<RDff<Bits<N>>>,
    live_regs: Vec<RDff<Bits<N>>>,
    e_after: Signal<Local, Bits<N>>,
    rq: Signal<Local, Bits<N>>,
    acc: Signal<Local, Bits<LM>>,
    sh: Signal<Local, Bits<16>>,
    k_n: Constant<Bits<16>>,
    _threads: usize,
    k_tids: Vec<Constant<Bits<TID_BITS>>>,
}

impl<const N: usize, const LM: usize> LaneMaskRegs<N, LM> {
    pub fn new(threads: usize) -> Self {
        assert!(LM == threads * N);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            write: Default::default(),
            tid: Default::default(),
            commit: Default::default(),
            en_next: Default::default(),
            e: Default::default(),
            init: Default::default(),
            pred: Default::default(),
            tc: Default::default(),
            masks: Default::default(),
            rd_e: Default::default(),
            rd_live: Default::default(),
            regs: (0..threads).map(|_| RDff::default()).collect(),
            live_regs: (0..threads).map(|_| RDff::default()).collect(),
            e_after: Default::default(),
            rq: Default::default(),
            acc: Default::default(),
            sh: Default::default(),
            k_n: Constant::new((N as u64).into()),
            _threads: threads,
            k_tids: (0..threads).map(|k| Constant::new((k as u64).into())).collect(),
        }
    }
}

impl<const N: usize, const LM: usize> Logic for LaneMaskRegs<N, LM> {
    #[hdl_gen]
    fn update(&mut self) {
        self.e_after.next = self.e.val();
        if self.commit.val() {
            self.e_after.next = self.en_next.val();
        }
        self.acc.next = 0.into();
        self.sh.next = 0.into();
        self.rd_e.next = 0.into();
        self.rd_live.next = 0.into();
        for k in 0..self._threads {
            self.regs[k].clock.next = self.clock.val();
            self.regs[k].rst.next = self.rst.val();
            self.live_regs[k].clock.next = self.clock.val();
            self.live_regs[k].rst.next = self.rst.val();
            self.regs[k].d.next = self.regs[k].q.val();
            self.live_regs[k].d.next = self.live_regs[k].q.val();
            if self.write.val() && (self.tid.val() == self.k_tids[k].val()) {
                self.regs[k].d.next = self.e_after.val();
                if self.commit.val() && self.init.val() {
                    self.live_regs[k].d.next = self.pred.val();
                }
            }
            if self.tc.val().pre_addr == self.k_tids[k].val() {
                self.rd_e.next = self.regs[k].q.val();
                self.rd_live.next = self.live_regs[k].q.val();
            }
            self.rq.next = self.regs[k].q.val();
            self.acc.next = self.acc.val() | (bit_cast::<LM, N>(self.rq.val()) << self.sh.val());
            self.sh.next = self.sh.val() + self.k_n.val();
        }
        self.masks.next = self.acc.val();
    }
}
