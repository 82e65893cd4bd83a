//! The per-type convergence stacks (§2.1 `STK[t]`, `CIC[t]`): one instance per branch type.
//!
//! Shift stacks: entry 0 is always the top of stack (depth `CIC[t]`); a push shifts every entry
//! one place down and a pop one place up. The TOS compares then need no read mux indexed by the
//! CIC, and a push or pop is the same 3:1 mux per entry that an indexed write decoder would need.

use super::thread_reg::{Storage, ThreadCtl, ThreadReg, ViewedReg};
use crate::prims::{Pack, RDff};
use rust_hdl::prelude::*;

/// The stack of one type (IF, LOOP, CALL or BR): `_depth` entries `{ip, aux}` and the CIC.
/// `EW = IPW+DW` (one entry), `SW = (2^DW-1)*EW` (the `stk_view` section: the deepest stack DW
/// can count).
#[derive(LogicBlock)]
pub struct ConvStack<const IPW: usize, const DW: usize, const EW: usize, const SW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Which thread's stack (timing-closure §3.2).
    pub tc: Signal<In, ThreadCtl>,
    /// The step commits; push, pop and clear (CIC to 0) act only then, in that priority (last wins).
    pub commit: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    /// The entry a push writes.
    pub push_ip: Signal<In, Bits<IPW>>,
    pub push_aux: Signal<In, Bits<DW>>,
    /// `CIC[t]` and the top entry (stale when the CIC is 0).
    pub cic: Signal<Out, Bits<DW>>,
    pub tos_ip: Signal<Out, Bits<IPW>>,
    pub tos_aux: Signal<Out, Bits<DW>>,
    /// The CIC and top entry as the last written step left them (`dbg_*`).
    pub cic_view: Signal<Out, Bits<DW>>,
    pub tos_ip_view: Signal<Out, Bits<IPW>>,
    pub tos_aux_view: Signal<Out, Bits<DW>>,
    /// Every entry as the last written step left it (`dbg_stk`): slot j (bits `[j*EW, (j+1)*EW)`,
    /// `{ip, aux}` with aux in the low DW bits) is the j-th entry from the top, i.e. the spec's
    /// `STK[t][CIC[t]-j]`; slots at or above the depth are 0. Wires from the registers (with a
    /// RAM: from the shadow registers), no logic; entries at or above the CIC are dead and not
    /// cleared.
    pub stk_view: Signal<Out, Bits<SW>>,
    cic_r: ViewedReg<DW>,
    ip: Vec<ThreadReg<IPW>>,
    aux: Vec<ThreadReg<DW>>,
    /// With a RAM: every entry the last written step left (0 or `_depth` of each; entry 0 is
    /// also `tos_*_view`).
    view_ip: Vec<RDff<Bits<IPW>>>,
    view_aux: Vec<RDff<Bits<DW>>>,
    /// `stk_view`, in a block of its own (see [`Pack`]); slot j is entry j, `{ip, aux}`.
    view: Pack<EW, SW>,
    /// One entry of `stk_view` (hdl_gen cannot cast an indexed signal in a loop).
    ent_ip: Signal<Local, Bits<IPW>>,
    ent_aux: Signal<Local, Bits<DW>>,
    k_dw: Constant<Bits<16>>,
    _depth: usize,
    _depth1: usize,
    _nview: usize,
    _nviews: usize,
}

impl<const IPW: usize, const DW: usize, const EW: usize, const SW: usize> ConvStack<IPW, DW, EW, SW> {
    pub fn new(depth: usize, storage: Storage) -> Self {
        assert!(depth >= 1 && depth < (1 << DW));
        assert!(EW == IPW + DW && SW == ((1 << DW) - 1) * EW);
        let nv = (storage != Storage::Flop) as usize;
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            commit: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            clear: Default::default(),
            push_ip: Default::default(),
            push_aux: Default::default(),
            cic: Default::default(),
            tos_ip: Default::default(),
            tos_aux: Default::default(),
            cic_view: Default::default(),
            tos_ip_view: Default::default(),
            tos_aux_view: Default::default(),
            stk_view: Default::default(),
            cic_r: ViewedReg::new(storage),
            ip: (0..depth).map(|_| ThreadReg::new(storage)).collect(),
            aux: (0..depth).map(|_| ThreadReg::new(storage)).collect(),
            view_ip: (0..nv * depth).map(|_| RDff::default()).collect(),
            view_aux: (0..nv * depth).map(|_| RDff::default()).collect(),
            view: Pack::new(depth),
            ent_ip: Default::default(),
            ent_aux: Default::default(),
            k_dw: Constant::new(Bits::<16>::from(DW as u64)),
            _depth: depth,
            _depth1: depth - 1,
            _nview: nv,
            _nviews: nv * depth,
        }
    }
}

impl<const IPW: usize, const DW: usize, const EW: usize, const SW: usize> Logic for ConvStack<IPW, DW, EW, SW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, cic_r);
        self.cic_r.rst.next = self.rst.val();
        self.cic_r.tc.next = self.tc.val();
        self.cic_r.d.next = self.cic_r.q.val();
        for k in 0..self._depth {
            self.ip[k].clock.next = self.clock.val();
            self.ip[k].rst.next = self.rst.val();
            self.ip[k].tc.next = self.tc.val();
            self.ip[k].d.next = self.ip[k].q.val();
            self.aux[k].clock.next = self.clock.val();
            self.aux[k].rst.next = self.rst.val();
            self.aux[k].tc.next = self.tc.val();
            self.aux[k].d.next = self.aux[k].q.val();
        }
        if self.commit.val() {
            if self.push.val() {
                self.cic_r.d.next = self.cic_r.q.val() + 1;
                self.ip[0].d.next = self.push_ip.val();
                self.aux[0].d.next = self.push_aux.val();
                for k in 0..self._depth1 {
                    self.ip[k + 1].d.next = self.ip[k].q.val();
                    self.aux[k + 1].d.next = self.aux[k].q.val();
                }
            }
            if self.pop.val() {
                self.cic_r.d.next = self.cic_r.q.val() - 1;
                for k in 0..self._depth1 {
                    self.ip[k].d.next = self.ip[k + 1].q.val();
                    self.aux[k].d.next = self.aux[k + 1].q.val();
                }
            }
            if self.clear.val() {
                self.cic_r.d.next = 0.into();
            }
        }
        // what the levels and the verdict read: `q_x` (the first step cycle with pipe 2)
        self.cic.next = self.cic_r.q_x.val();
        self.tos_ip.next = self.ip[0].q_x.val();
        self.tos_aux.next = self.aux[0].q_x.val();
        self.cic_view.next = self.cic_r.view.val();
        self.tos_ip_view.next = self.ip[0].q.val();
        self.tos_aux_view.next = self.aux[0].q.val();
        // with a RAM, every written step writes all entries of its thread: shadow them all
        for k in 0..self._nviews {
            self.view_ip[k].clock.next = self.clock.val();
            self.view_ip[k].rst.next = self.rst.val();
            self.view_aux[k].clock.next = self.clock.val();
            self.view_aux[k].rst.next = self.rst.val();
            self.view_ip[k].d.next = self.view_ip[k].q.val();
            self.view_aux[k].d.next = self.view_aux[k].q.val();
            if self.tc.val().wr_en {
                self.view_ip[k].d.next = self.ip[k].d.val();
                self.view_aux[k].d.next = self.aux[k].d.val();
            }
        }
        for i in 0..self._nview {
            self.tos_ip_view.next = self.view_ip[i].q.val();
            self.tos_aux_view.next = self.view_aux[i].q.val();
        }
        // `stk_view`: entry j (from the top) in slot j
        for j in 0..self._depth {
            // one register set: `q_x` is `q`
            self.ent_ip.next = self.ip[j].q_x.val();
            self.ent_aux.next = self.aux[j].q_x.val();
            for _i in 0..self._nview {
                self.ent_ip.next = self.view_ip[j].q.val();
                self.ent_aux.next = self.view_aux[j].q.val();
            }
            self.view.slot[j].next = (bit_cast::<EW, IPW>(self.ent_ip.val()) << self.k_dw.val())
                | bit_cast::<EW, DW>(self.ent_aux.val());
        }
        self.stk_view.next = self.view.bus.val();
    }
}

/// The HALT level (§2.1: one entry, its aux not stored; `CIC[HALT]` is 0 or 1).
#[derive(LogicBlock)]
pub struct HaltLevel<const IPW: usize, const DW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub tc: Signal<In, ThreadCtl>,
    /// As for [`ConvStack`]: act only when the step commits, clear last.
    pub commit: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub clear: Signal<In, Bit>,
    pub push_ip: Signal<In, Bits<IPW>>,
    /// `CIC[HALT]` and the halt label.
    pub cic: Signal<Out, Bits<DW>>,
    pub tos_ip: Signal<Out, Bits<IPW>>,
    pub cic_view: Signal<Out, Bits<DW>>,
    pub tos_ip_view: Signal<Out, Bits<IPW>>,
    cic_r: ViewedReg<DW>,
    ip: ViewedReg<IPW>,
}

impl<const IPW: usize, const DW: usize> HaltLevel<IPW, DW> {
    pub fn new(storage: Storage) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            commit: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            clear: Default::default(),
            push_ip: Default::default(),
            cic: Default::default(),
            tos_ip: Default::default(),
            cic_view: Default::default(),
            tos_ip_view: Default::default(),
            cic_r: ViewedReg::new(storage),
            ip: ViewedReg::new(storage),
        }
    }
}

impl<const IPW: usize, const DW: usize> Logic for HaltLevel<IPW, DW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, cic_r, ip);
        self.cic_r.rst.next = self.rst.val();
        self.ip.rst.next = self.rst.val();
        self.cic_r.tc.next = self.tc.val();
        self.ip.tc.next = self.tc.val();
        self.cic_r.d.next = self.cic_r.q.val();
        self.ip.d.next = self.ip.q.val();
        if self.commit.val() {
            if self.push.val() {
                self.cic_r.d.next = 1.into();
                self.ip.d.next = self.push_ip.val();
            }
            if self.pop.val() || self.clear.val() {
                self.cic_r.d.next = 0.into();
            }
        }
        self.cic.next = self.cic_r.q_x.val();
        self.tos_ip.next = self.ip.q_x.val();
        self.cic_view.next = self.cic_r.view.val();
        self.tos_ip_view.next = self.ip.view.val();
    }
}

/// The stack operations of one step (from the body): a push or a pop per type, and the
/// HALT shortcut's clear of the CALL level. One `LogicStruct` so that it is one port.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct StackOps {
    pub push_if: Bit,
    pub push_loop: Bit,
    pub push_call: Bit,
    pub push_br: Bit,
    pub push_halt: Bit,
    pub pop_if: Bit,
    pub pop_loop: Bit,
    pub pop_call: Bit,
    pub pop_br: Bit,
    pub pop_halt: Bit,
    pub clr_call: Bit,
}

/// All five levels of §2.1, IF, LOOP, CALL, BR and HALT (also the order of `dbg_cic`/`dbg_tos`/
/// `dbg_stk`). Pushes write `{push_ip, push_aux}`; INIT clears every CIC, a HALT shortcut the
/// CALL one. `EW`, `SW`: as for [`ConvStack`].
#[derive(LogicBlock)]
pub struct Stacks<const IPW: usize, const DW: usize, const EW: usize, const SW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub tc: Signal<In, ThreadCtl>,
    pub commit: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub stack_ops: Signal<In, StackOps>,
    pub push_ip: Signal<In, Bits<IPW>>,
    pub push_aux: Signal<In, Bits<DW>>,
    /// Each type's CIC and top entry.
    pub cic_if: Signal<Out, Bits<DW>>,
    pub cic_loop: Signal<Out, Bits<DW>>,
    pub cic_call: Signal<Out, Bits<DW>>,
    pub cic_br: Signal<Out, Bits<DW>>,
    pub cic_halt: Signal<Out, Bits<DW>>,
    pub tos_ip_if: Signal<Out, Bits<IPW>>,
    pub tos_ip_loop: Signal<Out, Bits<IPW>>,
    pub tos_ip_call: Signal<Out, Bits<IPW>>,
    pub tos_ip_br: Signal<Out, Bits<IPW>>,
    pub tos_ip_halt: Signal<Out, Bits<IPW>>,
    pub tos_aux_if: Signal<Out, Bits<DW>>,
    pub tos_aux_loop: Signal<Out, Bits<DW>>,
    pub tos_aux_call: Signal<Out, Bits<DW>>,
    pub tos_aux_br: Signal<Out, Bits<DW>>,
    /// The same as the last written step left them (`dbg_*`).
    pub v_cic_if: Signal<Out, Bits<DW>>,
    pub v_cic_loop: Signal<Out, Bits<DW>>,
    pub v_cic_call: Signal<Out, Bits<DW>>,
    pub v_cic_br: Signal<Out, Bits<DW>>,
    pub v_cic_halt: Signal<Out, Bits<DW>>,
    pub v_ip_if: Signal<Out, Bits<IPW>>,
    pub v_ip_loop: Signal<Out, Bits<IPW>>,
    pub v_ip_call: Signal<Out, Bits<IPW>>,
    pub v_ip_br: Signal<Out, Bits<IPW>>,
    pub v_ip_halt: Signal<Out, Bits<IPW>>,
    pub v_aux_if: Signal<Out, Bits<DW>>,
    pub v_aux_loop: Signal<Out, Bits<DW>>,
    pub v_aux_call: Signal<Out, Bits<DW>>,
    pub v_aux_br: Signal<Out, Bits<DW>>,
    /// Every entry of each stack as the last written step left it ([`ConvStack::stk_view`]);
    /// HALT's one entry is `v_ip_halt`.
    pub v_stk_if: Signal<Out, Bits<SW>>,
    pub v_stk_loop: Signal<Out, Bits<SW>>,
    pub v_stk_call: Signal<Out, Bits<SW>>,
    pub v_stk_br: Signal<Out, Bits<SW>>,
    if_: ConvStack<IPW, DW, EW, SW>,
    loop_: ConvStack<IPW, DW, EW, SW>,
    call: ConvStack<IPW, DW, EW, SW>,
    br: ConvStack<IPW, DW, EW, SW>,
    halt: HaltLevel<IPW, DW>,
}

impl<const IPW: usize, const DW: usize, const EW: usize, const SW: usize> Stacks<IPW, DW, EW, SW> {
    pub fn new(maxd: usize, maxd_call: usize, storage: Storage) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            v_cic_if: Default::default(),
            v_cic_loop: Default::default(),
            v_cic_call: Default::default(),
            v_cic_br: Default::default(),
            v_cic_halt: Default::default(),
            v_ip_if: Default::default(),
            v_ip_loop: Default::default(),
            v_ip_call: Default::default(),
            v_ip_br: Default::default(),
            v_ip_halt: Default::default(),
            v_aux_if: Default::default(),
            v_aux_loop: Default::default(),
            v_aux_call: Default::default(),
            v_aux_br: Default::default(),
            v_stk_if: Default::default(),
            v_stk_loop: Default::default(),
            v_stk_call: Default::default(),
            v_stk_br: Default::default(),
            commit: Default::default(),
            init: Default::default(),
            stack_ops: Default::default(),
            push_ip: Default::default(),
            push_aux: Default::default(),
            cic_if: Default::default(),
            cic_loop: Default::default(),
            cic_call: Default::default(),
            cic_br: Default::default(),
            cic_halt: Default::default(),
            tos_ip_if: Default::default(),
            tos_ip_loop: Default::default(),
            tos_ip_call: Default::default(),
            tos_ip_br: Default::default(),
            tos_ip_halt: Default::default(),
            tos_aux_if: Default::default(),
            tos_aux_loop: Default::default(),
            tos_aux_call: Default::default(),
            tos_aux_br: Default::default(),
            if_: ConvStack::new(maxd, storage),
            loop_: ConvStack::new(maxd, storage),
            call: ConvStack::new(maxd_call, storage),
            br: ConvStack::new(maxd, storage),
            halt: HaltLevel::new(storage),
        }
    }
}

impl<const IPW: usize, const DW: usize, const EW: usize, const SW: usize> Logic for Stacks<IPW, DW, EW, SW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, if_, loop_, call, br, halt);
        self.if_.rst.next = self.rst.val();
        self.loop_.rst.next = self.rst.val();
        self.call.rst.next = self.rst.val();
        self.br.rst.next = self.rst.val();
        self.halt.rst.next = self.rst.val();
        self.if_.tc.next = self.tc.val();
        self.loop_.tc.next = self.tc.val();
        self.call.tc.next = self.tc.val();
        self.br.tc.next = self.tc.val();
        self.halt.tc.next = self.tc.val();
        self.if_.commit.next = self.commit.val();
        self.loop_.commit.next = self.commit.val();
        self.call.commit.next = self.commit.val();
        self.br.commit.next = self.commit.val();
        self.halt.commit.next = self.commit.val();
        self.if_.push.next = self.stack_ops.val().push_if;
        self.loop_.push.next = self.stack_ops.val().push_loop;
        self.call.push.next = self.stack_ops.val().push_call;
        self.br.push.next = self.stack_ops.val().push_br;
        self.halt.push.next = self.stack_ops.val().push_halt;
        self.if_.pop.next = self.stack_ops.val().pop_if;
        self.loop_.pop.next = self.stack_ops.val().pop_loop;
        self.call.pop.next = self.stack_ops.val().pop_call;
        self.br.pop.next = self.stack_ops.val().pop_br;
        self.halt.pop.next = self.stack_ops.val().pop_halt;
        self.if_.clear.next = self.init.val();
        self.loop_.clear.next = self.init.val();
        self.call.clear.next = self.init.val() || self.stack_ops.val().clr_call;
        self.br.clear.next = self.init.val();
        self.halt.clear.next = self.init.val();
        self.if_.push_ip.next = self.push_ip.val();
        self.loop_.push_ip.next = self.push_ip.val();
        self.call.push_ip.next = self.push_ip.val();
        self.br.push_ip.next = self.push_ip.val();
        self.halt.push_ip.next = self.push_ip.val();
        self.if_.push_aux.next = self.push_aux.val();
        self.loop_.push_aux.next = self.push_aux.val();
        self.call.push_aux.next = self.push_aux.val();
        self.br.push_aux.next = self.push_aux.val();
        self.cic_if.next = self.if_.cic.val();
        self.cic_loop.next = self.loop_.cic.val();
        self.cic_call.next = self.call.cic.val();
        self.cic_br.next = self.br.cic.val();
        self.cic_halt.next = self.halt.cic.val();
        self.tos_ip_if.next = self.if_.tos_ip.val();
        self.tos_ip_loop.next = self.loop_.tos_ip.val();
        self.tos_ip_call.next = self.call.tos_ip.val();
        self.tos_ip_br.next = self.br.tos_ip.val();
        self.tos_ip_halt.next = self.halt.tos_ip.val();
        self.tos_aux_if.next = self.if_.tos_aux.val();
        self.tos_aux_loop.next = self.loop_.tos_aux.val();
        self.tos_aux_call.next = self.call.tos_aux.val();
        self.tos_aux_br.next = self.br.tos_aux.val();
        self.v_cic_if.next = self.if_.cic_view.val();
        self.v_cic_loop.next = self.loop_.cic_view.val();
        self.v_cic_call.next = self.call.cic_view.val();
        self.v_cic_br.next = self.br.cic_view.val();
        self.v_cic_halt.next = self.halt.cic_view.val();
        self.v_ip_if.next = self.if_.tos_ip_view.val();
        self.v_ip_loop.next = self.loop_.tos_ip_view.val();
        self.v_ip_call.next = self.call.tos_ip_view.val();
        self.v_ip_br.next = self.br.tos_ip_view.val();
        self.v_ip_halt.next = self.halt.tos_ip_view.val();
        self.v_aux_if.next = self.if_.tos_aux_view.val();
        self.v_aux_loop.next = self.loop_.tos_aux_view.val();
        self.v_aux_call.next = self.call.tos_aux_view.val();
        self.v_aux_br.next = self.br.tos_aux_view.val();
        self.v_stk_if.next = self.if_.stk_view.val();
        self.v_stk_loop.next = self.loop_.stk_view.val();
        self.v_stk_call.next = self.call.stk_view.val();
        self.v_stk_br.next = self.br.stk_view.val();
    }
}
