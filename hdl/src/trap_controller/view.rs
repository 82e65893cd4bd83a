//! `WarpView`: the host's view of the warps for the CSR reads (§7.3): the window on warp WSEL
//! (WINFO, WEPC, WEMASK; 0 when WSEL >= W) and the WS_TRAP / WS_PAUSED / WS_PARKED / WS_RUN
//! bitmaps. Registered state only, so it is evaluated once per clock edge.

use super::enc;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarpView<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> {
    /// WSEL (state).
    pub wsel: Signal<In, Bits<WIDW>>,
    /// Per warp: the registers.
    pub ws: [Signal<In, Bits<3>>; W],
    pub lcause: [Signal<In, Bits<4>>; W],
    pub ncause: [Signal<In, Bits<4>>; W],
    pub gpw: [Signal<In, Bit>; W],
    pub stepped: [Signal<In, Bit>; W],
    pub epc: [Signal<In, Bits<PCW>>; W],
    pub emask: [Signal<In, Bits<T>>; W],
    /// WINFO: [2:0] ws, [7:4] LCAUSE, [11:8] NCAUSE, [12] GPW, [13] STEPPED of warp WSEL.
    pub winfo: Signal<Out, Bits<32>>,
    /// EPC, EMASK of warp WSEL.
    pub wepc: Signal<Out, Bits<PCW>>,
    pub wemask: Signal<Out, Bits<T>>,
    /// Bitmaps of the warps in TRAP, PAUSED, PARKED, RUN.
    pub ws_trap: Signal<Out, Bits<W>>,
    pub ws_paused: Signal<Out, Bits<W>>,
    pub ws_parked: Signal<Out, Bits<W>>,
    pub ws_run: Signal<Out, Bits<W>>,

    k_wid: [Constant<Bits<WIDW>>; W],
    k_ws_run: Constant<Bits<3>>,
    k_ws_trap: Constant<Bits<3>>,
    k_ws_paused: Constant<Bits<3>>,
    k_ws_parked: Constant<Bits<3>>,
    /// Warp WSEL's registers (hdl_gen cannot cast an indexed signal in a loop).
    hit: Signal<Local, Bit>,
    ws_w: Signal<Local, Bits<3>>,
    lcause_w: Signal<Local, Bits<4>>,
    ncause_w: Signal<Local, Bits<4>>,
    gpw_w: Signal<Local, Bit>,
    stepped_w: Signal<Local, Bit>,
}

impl<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> Default for WarpView<W, WIDW, PCW, T> {
    fn default() -> Self {
        use enc::ws;
        let k3 = |v: u64| Constant::new(Bits::<3>::from(v));
        Self {
            wsel: Default::default(),
            ws: std::array::from_fn(|_| Default::default()),
            lcause: std::array::from_fn(|_| Default::default()),
            ncause: std::array::from_fn(|_| Default::default()),
            gpw: std::array::from_fn(|_| Default::default()),
            stepped: std::array::from_fn(|_| Default::default()),
            epc: std::array::from_fn(|_| Default::default()),
            emask: std::array::from_fn(|_| Default::default()),
            winfo: Default::default(),
            wepc: Default::default(),
            wemask: Default::default(),
            ws_trap: Default::default(),
            ws_paused: Default::default(),
            ws_parked: Default::default(),
            ws_run: Default::default(),
            k_wid: std::array::from_fn(|w| Constant::new((w as u64).into())),
            k_ws_run: k3(ws::RUN),
            k_ws_trap: k3(ws::TRAP),
            k_ws_paused: k3(ws::PAUSED),
            k_ws_parked: k3(ws::PARKED),
            hit: Default::default(),
            ws_w: Default::default(),
            lcause_w: Default::default(),
            ncause_w: Default::default(),
            gpw_w: Default::default(),
            stepped_w: Default::default(),
        }
    }
}

impl<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> Logic for WarpView<W, WIDW, PCW, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.hit.next = false;
        self.ws_w.next = 0.into();
        self.lcause_w.next = 0.into();
        self.ncause_w.next = 0.into();
        self.gpw_w.next = false;
        self.stepped_w.next = false;
        self.wepc.next = 0.into();
        self.wemask.next = 0.into();
        self.ws_trap.next = 0.into();
        self.ws_paused.next = 0.into();
        self.ws_parked.next = 0.into();
        self.ws_run.next = 0.into();
        for i in 0..W {
            if self.wsel.val() == self.k_wid[i].val() {
                self.hit.next = true;
                self.ws_w.next = self.ws[i].val();
                self.lcause_w.next = self.lcause[i].val();
                self.ncause_w.next = self.ncause[i].val();
                self.gpw_w.next = self.gpw[i].val();
                self.stepped_w.next = self.stepped[i].val();
                self.wepc.next = self.epc[i].val();
                self.wemask.next = self.emask[i].val();
            }
            self.ws_trap.next = self.ws_trap.val().replace_bit(i, self.ws[i].val() == self.k_ws_trap.val());
            self.ws_paused.next = self.ws_paused.val().replace_bit(i, self.ws[i].val() == self.k_ws_paused.val());
            self.ws_parked.next = self.ws_parked.val().replace_bit(i, self.ws[i].val() == self.k_ws_parked.val());
            self.ws_run.next = self.ws_run.val().replace_bit(i, self.ws[i].val() == self.k_ws_run.val());
        }
        self.winfo.next = 0.into();
        if self.hit.val() {
            self.winfo.next = bit_cast::<32, 3>(self.ws_w.val())
                | (bit_cast::<32, 4>(self.lcause_w.val()) << 4)
                | (bit_cast::<32, 4>(self.ncause_w.val()) << 8)
                | (bit_cast::<32, 1>(self.gpw_w.val().into()) << 12)
                | (bit_cast::<32, 1>(self.stepped_w.val().into()) << 13);
        }
    }
}
