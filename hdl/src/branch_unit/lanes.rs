//! The lane-counter bank (§2.1 `cnt[n]`, §6.1 per-lane logic): one counter register per lane,
//! the lane masks and their reductions, the compares against the rejoin codes, and each
//! counter's next value. Lane `n` is bit `n` of every mask.

use super::thread_reg::{Storage, ThreadCtl, ViewedReg};
use crate::prims::Pack;
use rust_hdl::prelude::*;

/// The counter registers of `N` lanes and their next values. Its outputs come only from the
/// registers (`cnt`) or only from its inputs (`en_next`), never from both, so that the block
/// graph stays feed-forward (Verilator orders whole always-blocks: a block that both reads a
/// late signal and drives an early one makes the state loop a combinational cycle).
#[derive(LogicBlock)]
pub struct LaneBank<const N: usize, const CW: usize, const NCW: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Which thread's counters (timing-closure §3.2; constant with one thread and pipe 0).
    pub tc: Signal<In, ThreadCtl>,
    /// `req_pred` (the live mask for INIT).
    pub pred: Signal<In, Bits<N>>,
    /// `E` (from the masks), the lanes rejoined by rejoin A, rejoin B's enable and its compare.
    pub e: Signal<In, Bits<N>>,
    pub rja_hit: Signal<In, Bits<N>>,
    pub rjb_en: Signal<In, Bit>,
    pub eqb: Signal<In, Bits<N>>,
    /// Lanes of `park_m` get `park_code`.
    pub park_m: Signal<In, Bits<N>>,
    pub park_code: Signal<In, Bits<CW>>,
    /// INIT: counters from the live mask.
    pub init: Signal<In, Bit>,
    /// The step commits (a valid request without error): counters take their next value.
    pub commit: Signal<In, Bit>,
    /// `E'`: the enabled lanes after this step.
    pub en_next: Signal<Out, Bits<N>>,
    /// All counters, lane n at bits `[n*CW, (n+1)*CW)` (with the step over two cycles: as the
    /// first step cycle sees them; the next values are computed in the second).
    pub cnt: Signal<Out, Bits<NCW>>,
    /// The counters as the last written step left them (`dbg_cnt`; `cnt` with one register set).
    pub cnt_view: Signal<Out, Bits<NCW>>,
    /// The counters, stored inverted (`!cnt`): the register's reset value 0 is OFF.
    cnt_n: Vec<ViewedReg<CW>>,
    /// `cnt` and `cnt_view` in blocks of their own (see [`Pack`]).
    cnt_pack: Pack<CW, NCW>,
    view_pack: Pack<CW, NCW>,
    // 32-bit copies for bit selects (a 1-lane mask is a scalar in Verilog: no `[0]` on it)
    p32: Signal<Local, Bits<32>>,
    pk32: Signal<Local, Bits<32>>,
    rh32: Signal<Local, Bits<32>>,
    eb32: Signal<Local, Bits<32>>,
    e32: Signal<Local, Bits<32>>,
    park_n: Signal<Local, Bits<CW>>,
    enabled_n: Signal<Local, Bits<CW>>,
    off_n: Signal<Local, Bits<CW>>,
    /// The counter of an enabled lane, and of a lane that is not live (type OFF, depth all ones).
    k_cnt_enabled: Constant<Bits<CW>>,
    k_cnt_off: Constant<Bits<CW>>,
}

impl<const N: usize, const CW: usize, const NCW: usize> LaneBank<N, CW, NCW> {
    pub fn new(storage: Storage) -> Self {
        assert!(NCW == N * CW && N <= 32);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            pred: Default::default(),
            e: Default::default(),
            rja_hit: Default::default(),
            rjb_en: Default::default(),
            eqb: Default::default(),
            park_m: Default::default(),
            park_code: Default::default(),
            init: Default::default(),
            commit: Default::default(),
            en_next: Default::default(),
            cnt: Default::default(),
            cnt_view: Default::default(),
            cnt_n: (0..N).map(|_| ViewedReg::new(storage)).collect(),
            cnt_pack: Pack::new(N),
            view_pack: Pack::new(N),
            p32: Default::default(),
            pk32: Default::default(),
            rh32: Default::default(),
            eb32: Default::default(),
            e32: Default::default(),
            park_n: Default::default(),
            enabled_n: Default::default(),
            off_n: Default::default(),
            k_cnt_enabled: Constant::new(Bits::<CW>::from(0u64)),
            k_cnt_off: Constant::new(Bits::<CW>::from((1u64 << CW) - 1)),
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
            self.cnt_n[i].tc.next = self.tc.val();
            self.cnt_n[i].d.next = self.cnt_n[i].q.val();
        }
        // The counters, from the registers only (the value the verdict reads: `q_x`).
        for i in 0..N {
            self.cnt_pack.slot[i].next = !self.cnt_n[i].q_x.val();
            self.view_pack.slot[i].next = !self.cnt_n[i].view.val();
        }
        self.cnt.next = self.cnt_pack.bus.val();
        self.cnt_view.next = self.view_pack.bus.val();
        // Next values, from the inputs only: INIT loads the live mask; else parked lanes take
        // the park code, rejoined lanes 0, the others hold.
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

/// The lane masks of §2.2 from the counters: `E`, LIVE, and the compares against the two rejoin
/// codes. `T` and the reductions are [`super::pre::StepPre`]'s (from `E` and LIVE: these, or the
/// thread's registers of them).
#[derive(LogicBlock)]
pub struct LaneMasks<const N: usize, const CW: usize, const NCW: usize> {
    /// The counters (`LaneBank::cnt`), rejoin A's and B's codes.
    pub cnt: Signal<In, Bits<NCW>>,
    pub rja_code: Signal<In, Bits<CW>>,
    pub rjb_code: Signal<In, Bits<CW>>,
    /// `E`, the live lanes (counter not OFF), lanes on `rja_code`, lanes on `rjb_code`.
    pub e: Signal<Out, Bits<N>>,
    pub live: Signal<Out, Bits<N>>,
    pub eqa: Signal<Out, Bits<N>>,
    pub eqb: Signal<Out, Bits<N>>,
    sh: Signal<Local, Bits<16>>,
    c: Signal<Local, Bits<CW>>,
    k_cnt_enabled: Constant<Bits<CW>>,
    k_cnt_off: Constant<Bits<CW>>,
    k_cw: Constant<Bits<16>>,
}

impl<const N: usize, const CW: usize, const NCW: usize> Default for LaneMasks<N, CW, NCW> {
    fn default() -> Self {
        Self {
            cnt: Default::default(),
            rja_code: Default::default(),
            rjb_code: Default::default(),
            e: Default::default(),
            live: Default::default(),
            eqa: Default::default(),
            eqb: Default::default(),
            sh: Default::default(),
            c: Default::default(),
            k_cnt_enabled: Constant::new(Bits::<CW>::from(0u64)),
            k_cnt_off: Constant::new(Bits::<CW>::from((1u64 << CW) - 1)),
            k_cw: Constant::new(Bits::<16>::from(CW as u64)),
        }
    }
}

impl<const N: usize, const CW: usize, const NCW: usize> Logic for LaneMasks<N, CW, NCW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = 0.into();
        self.live.next = 0.into();
        self.eqa.next = 0.into();
        self.eqb.next = 0.into();
        self.sh.next = 0.into();
        for i in 0..N {
            self.c.next = self.cnt.val().get_bits::<CW>(self.sh.val().index());
            self.e.next = self.e.val().replace_bit(i, self.c.val() == self.k_cnt_enabled.val());
            self.live.next = self.live.val().replace_bit(i, self.c.val() != self.k_cnt_off.val());
            self.eqa.next = self.eqa.val().replace_bit(i, self.c.val() == self.rja_code.val());
            self.eqb.next = self.eqb.val().replace_bit(i, self.c.val() == self.rjb_code.val());
            self.sh.next = self.sh.val() + self.k_cw.val();
        }
    }
}
