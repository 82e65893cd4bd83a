//! The lane-counter bank (§2.1 `cnt[n]`, §6.1 per-lane logic): one counter register per lane,
//! the lane masks and their reductions, the compares against the rejoin codes, and each
//! counter's next value. Lane `n` is bit `n` of every mask.

use crate::prims::RDff;
use rust_hdl::prelude::*;

/// `N` lanes of `CW`-bit counters; `NCW = N * CW` (the packed `dbg_cnt`).
#[derive(LogicBlock)]
pub struct LaneBank<const N: usize, const CW: usize, const NCW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// `req_pred` (the live mask for INIT).
    pub pred: Signal<In, Bits<N>>,
    /// Rejoin A: lanes parked on `rja_code` whose bit of `rja_q` is set rejoin if `rja_en`.
    pub rja_code: Signal<In, Bits<CW>>,
    pub rja_q: Signal<In, Bits<N>>,
    pub rja_en: Signal<In, Bit>,
    /// Rejoin B: every lane parked on `rjb_code` rejoins if `rjb_en` (a WHILE's exit).
    pub rjb_code: Signal<In, Bits<CW>>,
    pub rjb_en: Signal<In, Bit>,
    /// Lanes of `park_m` get `park_code`.
    pub park_m: Signal<In, Bits<N>>,
    pub park_code: Signal<In, Bits<CW>>,
    /// INIT: counters from the live mask.
    pub init: Signal<In, Bit>,
    /// The step commits (a valid request without error): counters take their next value.
    pub commit: Signal<In, Bit>,
    /// `E` (enabled lanes), `T = pred & E`, `E1 = E` plus the lanes rejoined by rejoin A.
    pub e: Signal<Out, Bits<N>>,
    pub t: Signal<Out, Bits<N>>,
    pub e1: Signal<Out, Bits<N>>,
    /// `E1 & ~pred`: the lanes a WHILE parks.
    pub wx: Signal<Out, Bits<N>>,
    /// Reductions: FC (`E == LIVE`), `E == 0`, `T == 0`, `T == E`, pred all ones,
    /// `E1 & pred != 0`, `wx != 0`.
    pub fc: Signal<Out, Bit>,
    pub e_none: Signal<Out, Bit>,
    pub t_none: Signal<Out, Bit>,
    pub t_all: Signal<Out, Bit>,
    pub pred_all: Signal<Out, Bit>,
    pub wc_any: Signal<Out, Bit>,
    pub wx_any: Signal<Out, Bit>,
    /// A lane on `rja_code` stays parked (its qualifier bit is 0).
    pub still_any: Signal<Out, Bit>,
    /// No lane is parked on `rjb_code`.
    pub eqb_none: Signal<Out, Bit>,
    /// `E'`: the enabled lanes after this step.
    pub en_next: Signal<Out, Bits<N>>,
    /// All counters, lane n at bits `[n*CW, (n+1)*CW)`.
    pub cnt: Signal<Out, Bits<NCW>>,
    /// The counters, stored inverted (`!cnt`): the register's reset value 0 is OFF.
    cnt_n: Vec<RDff<Bits<CW>>>,
    live: Signal<Local, Bits<N>>,
    eqa: Signal<Local, Bits<N>>,
    eqb: Signal<Local, Bits<N>>,
    rja_hit: Signal<Local, Bits<N>>,
    wc: Signal<Local, Bits<N>>,
    // 32-bit copies for bit selects (a 1-lane mask is a scalar in Verilog: no `[0]` on it)
    p32: Signal<Local, Bits<32>>,
    pk32: Signal<Local, Bits<32>>,
    rh32: Signal<Local, Bits<32>>,
    eb32: Signal<Local, Bits<32>>,
    e32: Signal<Local, Bits<32>>,
    acc: Signal<Local, Bits<NCW>>,
    sh: Signal<Local, Bits<16>>,
    c: Signal<Local, Bits<CW>>,
    park_n: Signal<Local, Bits<CW>>,
    enabled_n: Signal<Local, Bits<CW>>,
    off_n: Signal<Local, Bits<CW>>,
    /// The counter of an enabled lane, and of a lane that is not live (type OFF, depth all ones).
    k_cnt_enabled: Constant<Bits<CW>>,
    k_cnt_off: Constant<Bits<CW>>,
    k_ones: Constant<Bits<N>>,
    k_cw: Constant<Bits<16>>,
}

impl<const N: usize, const CW: usize, const NCW: usize> Default for LaneBank<N, CW, NCW> {
    fn default() -> Self {
        assert!(NCW == N * CW && N <= 32);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            pred: Default::default(),
            rja_code: Default::default(),
            rja_q: Default::default(),
            rja_en: Default::default(),
            rjb_code: Default::default(),
            rjb_en: Default::default(),
            park_m: Default::default(),
            park_code: Default::default(),
            init: Default::default(),
            commit: Default::default(),
            e: Default::default(),
            t: Default::default(),
            e1: Default::default(),
            wx: Default::default(),
            fc: Default::default(),
            e_none: Default::default(),
            t_none: Default::default(),
            t_all: Default::default(),
            pred_all: Default::default(),
            wc_any: Default::default(),
            wx_any: Default::default(),
            still_any: Default::default(),
            eqb_none: Default::default(),
            en_next: Default::default(),
            cnt: Default::default(),
            cnt_n: (0..N).map(|_| RDff::default()).collect(),
            live: Default::default(),
            eqa: Default::default(),
            eqb: Default::default(),
            rja_hit: Default::default(),
            wc: Default::default(),
            p32: Default::default(),
            pk32: Default::default(),
            rh32: Default::default(),
            eb32: Default::default(),
            e32: Default::default(),
            acc: Default::default(),
            sh: Default::default(),
            c: Default::default(),
            park_n: Default::default(),
            enabled_n: Default::default(),
            off_n: Default::default(),
            k_cnt_enabled: Constant::new(Bits::<CW>::from(0u64)),
            k_cnt_off: Constant::new(Bits::<CW>::from((1u64 << CW) - 1)),
            k_ones: Constant::new(Bits::<N>::from((1u64 << N) - 1)),
            k_cw: Constant::new(Bits::<16>::from(CW as u64)),
        }
    }
}

impl<const N: usize, const CW: usize, const NCW: usize> Logic for LaneBank<N, CW, NCW> {
    #[hdl_gen]
    fn update(&mut self) {
        // Registers hold by default. They store the counters inverted, so that their reset to
        // zero is OFF (§6.2: rst sets every lane OFF) and no next-state logic reads `rst`.
        for i in 0..N {
            self.cnt_n[i].clock.next = self.clock.val();
            self.cnt_n[i].rst.next = self.rst.val();
            self.cnt_n[i].d.next = self.cnt_n[i].q.val();
        }
        // Masks and compares (state, and the rejoin codes); dbg_cnt.
        self.e.next = 0.into();
        self.live.next = 0.into();
        self.eqa.next = 0.into();
        self.eqb.next = 0.into();
        self.acc.next = 0.into();
        self.sh.next = 0.into();
        for i in 0..N {
            self.c.next = !self.cnt_n[i].q.val();
            self.e.next = self.e.val().replace_bit(i, self.c.val() == self.k_cnt_enabled.val());
            self.live.next = self.live.val().replace_bit(i, self.c.val() != self.k_cnt_off.val());
            self.eqa.next = self.eqa.val().replace_bit(i, self.c.val() == self.rja_code.val());
            self.eqb.next = self.eqb.val().replace_bit(i, self.c.val() == self.rjb_code.val());
            self.acc.next = self.acc.val() | (bit_cast::<NCW, CW>(self.c.val()) << self.sh.val());
            self.sh.next = self.sh.val() + self.k_cw.val();
        }
        self.cnt.next = self.acc.val();
        self.t.next = self.pred.val() & self.e.val();
        self.fc.next = self.e.val() == self.live.val();
        self.e_none.next = self.e.val() == 0;
        self.t_none.next = self.t.val() == 0;
        self.t_all.next = self.t.val() == self.e.val();
        self.pred_all.next = self.pred.val() == self.k_ones.val();
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

        // Next values: INIT loads the live mask; else parked lanes take the park code, rejoined
        // lanes 0, the others hold.
        self.en_next.next = 0.into();
        self.p32.next = bit_cast::<32, N>(self.pred.val());
        self.pk32.next = bit_cast::<32, N>(self.park_m.val());
        self.rh32.next = bit_cast::<32, N>(self.rja_hit.val());
        self.eb32.next = bit_cast::<32, N>(self.eqb.val());
        self.e32.next = bit_cast::<32, N>(self.e.val());
        self.park_n.next = !self.park_code.val();
        self.enabled_n.next = !self.k_cnt_enabled.val();
        self.off_n.next = !self.k_cnt_off.val();
        for i in 0..N {
            if self.init.val() {
                self.en_next.next = self.en_next.val().replace_bit(i, self.p32.val().get_bit(i));
                if self.commit.val() {
                    if self.p32.val().get_bit(i) {
                        self.cnt_n[i].d.next = self.enabled_n.val();
                    } else {
                        self.cnt_n[i].d.next = self.off_n.val();
                    }
                }
            } else if self.pk32.val().get_bit(i) {
                if self.commit.val() {
                    self.cnt_n[i].d.next = self.park_n.val();
                }
            } else if self.rh32.val().get_bit(i) || (self.rjb_en.val() && self.eb32.val().get_bit(i)) {
                self.en_next.next = self.en_next.val().replace_bit(i, true);
                if self.commit.val() {
                    self.cnt_n[i].d.next = self.enabled_n.val();
                }
            } else {
                self.en_next.next = self.en_next.val().replace_bit(i, self.e32.val().get_bit(i));
            }
        }
    }
}
