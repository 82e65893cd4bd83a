//! Levels (§2.2): the label match of the op's level, the skipped-convergence check, the counter
//! codes `code(t, d)` of the open levels (functions of the stacks and the decoded op only), and
//! rejoin A (which lanes a convergence re-enables; after the lane masks).

use super::enc::ty;
use super::decode::Ops;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Levels<const N: usize, const DW: usize, const CW: usize, const IPW: usize> {
    /// From decode: the op's level type and label source, and the convergence ops.
    pub ops: Signal<In, Ops>,
    /// The request: IP, and IP+jip and IP+uip as labels.
    pub ip: Signal<In, Bits<IPW>>,
    pub lab_j: Signal<In, Bits<IPW>>,
    pub lab_u: Signal<In, Bits<IPW>>,
    /// The stacks.
    pub cic_if: Signal<In, Bits<DW>>,
    pub cic_loop: Signal<In, Bits<DW>>,
    pub cic_call: Signal<In, Bits<DW>>,
    pub cic_br: Signal<In, Bits<DW>>,
    pub cic_halt: Signal<In, Bits<DW>>,
    pub tos_ip_if: Signal<In, Bits<IPW>>,
    pub tos_ip_loop: Signal<In, Bits<IPW>>,
    pub tos_ip_br: Signal<In, Bits<IPW>>,
    pub tos_ip_halt: Signal<In, Bits<IPW>>,
    pub tos_aux_if: Signal<In, Bits<DW>>,
    pub tos_aux_loop: Signal<In, Bits<DW>>,
    pub tos_aux_br: Signal<In, Bits<DW>>,
    /// `match(t, L)` for the op's type and label, and that label.
    pub m: Signal<Out, Bit>,
    pub label: Signal<Out, Bits<IPW>>,
    /// An open IF, LOOP or BR level of the current call depth has its label below IP.
    pub sk_if: Signal<Out, Bit>,
    pub sk_loop: Signal<Out, Bit>,
    pub sk_br: Signal<Out, Bit>,
    /// Codes: the IF top and a new IF level; the LOOP top; the LOOP and CONT codes of the level
    /// a BREAK/CONT/WHILE parks into (the top if it matches, else a new one); the CALL top and a
    /// new CALL level; the BR level a BRANCH parks into; HALT at depth 1.
    pub cur_if: Signal<Out, Bits<CW>>,
    pub new_if: Signal<Out, Bits<CW>>,
    pub cur_loop: Signal<Out, Bits<CW>>,
    pub park_loop: Signal<Out, Bits<CW>>,
    pub park_cont: Signal<Out, Bits<CW>>,
    pub cur_call: Signal<Out, Bits<CW>>,
    pub new_call: Signal<Out, Bits<CW>>,
    pub park_br: Signal<Out, Bits<CW>>,
    pub halt1: Signal<Out, Bits<CW>>,
    /// The code of the level a convergence op re-enables (rejoin A; see [`Rejoin`]).
    pub rja_code: Signal<Out, Bits<CW>>,
    m_cic: Signal<Local, Bits<DW>>,
    m_tip: Signal<Local, Bits<IPW>>,
    m_taux: Signal<Local, Bits<DW>>,
    m_chk: Signal<Local, Bit>,
    cur_cont: Signal<Local, Bits<CW>>,
    cur_br: Signal<Local, Bits<CW>>,
    open_loop_d: Signal<Local, Bits<CW>>,
    /// Branch types in the counter's type field (`ty::X << DW`), and HALT at depth 1.
    k_ty_if: Constant<Bits<CW>>,
    k_ty_loop: Constant<Bits<CW>>,
    k_ty_cont: Constant<Bits<CW>>,
    k_ty_call: Constant<Bits<CW>>,
    k_ty_br: Constant<Bits<CW>>,
    k_cnt_halt1: Constant<Bits<CW>>,
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize> Default for Levels<N, DW, CW, IPW> {
    fn default() -> Self {
        assert_eq!(CW, DW + 3);
        let code = |t: u64, d: u64| Constant::new(Bits::<CW>::from((t << DW) | d));
        Self {
            ops: Default::default(),
            ip: Default::default(),
            lab_j: Default::default(),
            lab_u: Default::default(),
            cic_if: Default::default(),
            cic_loop: Default::default(),
            cic_call: Default::default(),
            cic_br: Default::default(),
            cic_halt: Default::default(),
            tos_ip_if: Default::default(),
            tos_ip_loop: Default::default(),
            tos_ip_br: Default::default(),
            tos_ip_halt: Default::default(),
            tos_aux_if: Default::default(),
            tos_aux_loop: Default::default(),
            tos_aux_br: Default::default(),
            m: Default::default(),
            label: Default::default(),
            sk_if: Default::default(),
            sk_loop: Default::default(),
            sk_br: Default::default(),
            cur_if: Default::default(),
            new_if: Default::default(),
            cur_loop: Default::default(),
            park_loop: Default::default(),
            park_cont: Default::default(),
            cur_call: Default::default(),
            new_call: Default::default(),
            park_br: Default::default(),
            halt1: Default::default(),
            rja_code: Default::default(),
            m_cic: Default::default(),
            m_tip: Default::default(),
            m_taux: Default::default(),
            m_chk: Default::default(),
            cur_cont: Default::default(),
            cur_br: Default::default(),
            open_loop_d: Default::default(),
            k_ty_if: code(ty::IF, 0),
            k_ty_loop: code(ty::LOOP, 0),
            k_ty_cont: code(ty::CONT, 0),
            k_ty_call: code(ty::CALL, 0),
            k_ty_br: code(ty::BR, 0),
            k_cnt_halt1: code(ty::HALT, 1),
        }
    }
}

impl<const N: usize, const DW: usize, const CW: usize, const IPW: usize> Logic for Levels<N, DW, CW, IPW> {
    #[hdl_gen]
    fn update(&mut self) {
        // match(t, L): one TOS compare, the type and label chosen by the op
        self.label.next = self.lab_u.val();
        if self.ops.val().lbl_jip {
            self.label.next = self.lab_j.val();
        }
        if self.ops.val().lbl_ip {
            self.label.next = self.ip.val();
        }
        self.m_cic.next = self.cic_if.val();
        self.m_tip.next = self.tos_ip_if.val();
        self.m_taux.next = self.tos_aux_if.val();
        self.m_chk.next = true;
        if self.ops.val().stk_loop {
            self.m_cic.next = self.cic_loop.val();
            self.m_tip.next = self.tos_ip_loop.val();
            self.m_taux.next = self.tos_aux_loop.val();
        }
        if self.ops.val().stk_br {
            self.m_cic.next = self.cic_br.val();
            self.m_tip.next = self.tos_ip_br.val();
            self.m_taux.next = self.tos_aux_br.val();
        }
        if self.ops.val().stk_halt {
            // the HALT level ignores aux
            self.m_cic.next = self.cic_halt.val();
            self.m_tip.next = self.tos_ip_halt.val();
            self.m_chk.next = false;
        }
        self.m.next = (self.m_cic.val() != 0)
            && (self.m_tip.val() == self.label.val())
            && (!self.m_chk.val() || (self.m_taux.val() == self.cic_call.val()));

        // skipped convergence (§6.4)
        self.sk_if.next = (self.cic_if.val() != 0) && (self.tos_aux_if.val() == self.cic_call.val()) && (self.ip.val() > self.tos_ip_if.val());
        self.sk_loop.next =
            (self.cic_loop.val() != 0) && (self.tos_aux_loop.val() == self.cic_call.val()) && (self.ip.val() > self.tos_ip_loop.val());
        self.sk_br.next = (self.cic_br.val() != 0) && (self.tos_aux_br.val() == self.cic_call.val()) && (self.ip.val() > self.tos_ip_br.val());

        // code(t, d)
        self.cur_if.next = self.k_ty_if.val() | bit_cast::<CW, DW>(self.cic_if.val());
        self.new_if.next = self.k_ty_if.val() | bit_cast::<CW, DW>(self.cic_if.val() + 1);
        self.cur_loop.next = self.k_ty_loop.val() | bit_cast::<CW, DW>(self.cic_loop.val());
        self.cur_cont.next = self.k_ty_cont.val() | bit_cast::<CW, DW>(self.cic_loop.val());
        self.open_loop_d.next = bit_cast::<CW, DW>(self.cic_loop.val() + 1);
        if self.m.val() {
            self.open_loop_d.next = bit_cast::<CW, DW>(self.cic_loop.val());
        }
        self.park_loop.next = self.k_ty_loop.val() | self.open_loop_d.val();
        self.park_cont.next = self.k_ty_cont.val() | self.open_loop_d.val();
        self.cur_call.next = self.k_ty_call.val() | bit_cast::<CW, DW>(self.cic_call.val());
        self.new_call.next = self.k_ty_call.val() | bit_cast::<CW, DW>(self.cic_call.val() + 1);
        self.cur_br.next = self.k_ty_br.val() | bit_cast::<CW, DW>(self.cic_br.val());
        self.park_br.next = self.k_ty_br.val() | bit_cast::<CW, DW>(self.cic_br.val() + 1);
        if self.m.val() {
            self.park_br.next = self.cur_br.val();
        }
        self.halt1.next = self.k_cnt_halt1.val();

        // rejoin A's code (used only when the level matches)
        self.rja_code.next = self.cur_if.val();
        if self.ops.val().is_join_br {
            self.rja_code.next = self.cur_br.val();
        }
        if self.ops.val().is_join_halt {
            self.rja_code.next = self.k_cnt_halt1.val();
        }
        if self.ops.val().is_while {
            // CONT-parked lanes rejoin before the WHILE samples its predicate
            self.rja_code.next = self.cur_cont.val();
        }
        if self.ops.val().is_ret {
            self.rja_code.next = self.cur_call.val();
        }
    }
}

/// Rejoin A (`rejoin(c, Q)` of §2.2 for ELSE, ENDIF, the JOINs, WHILE's CONT lanes and a final
/// RET) on the lane compares, and the masks that follow from it: E1, the lanes a WHILE parks.
#[derive(LogicBlock)]
pub struct Rejoin<const N: usize, const DW: usize> {
    /// Decoded op, the level match, `req_pred`, jip == 0, CIC[CALL].
    pub ops: Signal<In, Ops>,
    pub m: Signal<In, Bit>,
    pub pred: Signal<In, Bits<N>>,
    pub jzero: Signal<In, Bit>,
    pub cic_call: Signal<In, Bits<DW>>,
    /// Lane masks: E, `E == 0`, FC, lanes on rejoin A's and B's codes.
    pub e: Signal<In, Bits<N>>,
    pub e_none: Signal<In, Bit>,
    pub fc: Signal<In, Bit>,
    pub eqa: Signal<In, Bits<N>>,
    pub eqb: Signal<In, Bits<N>>,
    /// The lanes rejoin A re-enables; `E1 = E | rja_hit`; `E1 & ~pred` (a WHILE parks them).
    pub rja_hit: Signal<Out, Bits<N>>,
    pub e1: Signal<Out, Bits<N>>,
    pub wx: Signal<Out, Bits<N>>,
    /// `E1 & pred != 0`, `wx != 0`, a lane on rejoin A's code stays (qualifier 0), no lane on
    /// rejoin B's code.
    pub wc_any: Signal<Out, Bit>,
    pub wx_any: Signal<Out, Bit>,
    pub still_any: Signal<Out, Bit>,
    pub eqb_none: Signal<Out, Bit>,
    rja_en: Signal<Local, Bit>,
    rja_q: Signal<Local, Bits<N>>,
    wc: Signal<Local, Bits<N>>,
    k_ones: Constant<Bits<N>>,
}

impl<const N: usize, const DW: usize> Default for Rejoin<N, DW> {
    fn default() -> Self {
        Self {
            ops: Default::default(),
            m: Default::default(),
            pred: Default::default(),
            jzero: Default::default(),
            cic_call: Default::default(),
            e: Default::default(),
            e_none: Default::default(),
            fc: Default::default(),
            eqa: Default::default(),
            eqb: Default::default(),
            rja_hit: Default::default(),
            e1: Default::default(),
            wx: Default::default(),
            wc_any: Default::default(),
            wx_any: Default::default(),
            still_any: Default::default(),
            eqb_none: Default::default(),
            rja_en: Default::default(),
            rja_q: Default::default(),
            wc: Default::default(),
            k_ones: Constant::new(Bits::<N>::from((1u64 << N) - 1)),
        }
    }
}

impl<const N: usize, const DW: usize> Logic for Rejoin<N, DW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rja_en.next = false;
        self.rja_q.next = self.k_ones.val();
        if self.ops.val().is_else && self.m.val() {
            self.rja_en.next = true;
        }
        if (self.ops.val().is_endif || self.ops.val().is_join_br || self.ops.val().is_join_halt) && self.m.val() {
            self.rja_en.next = true;
            self.rja_q.next = self.pred.val();
        }
        if self.ops.val().is_while {
            self.rja_en.next = self.m.val();
        }
        if self.ops.val().is_ret {
            // a final RET that does not take the shortcut releases the caller's level
            self.rja_en.next = self.jzero.val() && !(!self.e_none.val() && self.fc.val()) && (self.cic_call.val() != 0);
        }
        self.rja_hit.next = 0.into();
        if self.rja_en.val() {
            self.rja_hit.next = self.eqa.val() & self.rja_q.val();
        }
        self.still_any.next = (self.eqa.val() & !self.rja_q.val()) != 0;
        self.eqb_none.next = self.eqb.val() == 0;
        self.e1.next = self.e.val() | self.rja_hit.val();
        self.wc.next = self.pred.val() & self.e1.val();
        self.wx.next = self.e1.val() & !self.wc.val();
        self.wc_any.next = self.wc.val() != 0;
        self.wx_any.next = self.wx.val() != 0;
    }
}
