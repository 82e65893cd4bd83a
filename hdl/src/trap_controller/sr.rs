//! `SrPort`: the handler's special-register read (§7.1, §7.4 `outputs`): ESR, EPC and EMASK of
//! warp `sr_wid` (each warp supplies them, 0 unless it is TRAP) and TGID; 0 for `sr_wid` >= W, a
//! write, sel 4-7 or no access. SR writes are decoded by the warps themselves.

use super::enc;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SrPort<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> {
    /// `sr_valid`, `sr_we`, `sr_wid`, `sr_sel`.
    pub sr_valid: Signal<In, Bit>,
    pub sr_we: Signal<In, Bit>,
    pub sr_wid: Signal<In, Bits<WIDW>>,
    pub sr_sel: Signal<In, Bits<3>>,
    /// TGID (state).
    pub tgid: Signal<In, Bits<32>>,
    /// Per warp: ESR, EPC and EMASK as an SR read returns them.
    pub esr: [Signal<In, Bits<8>>; W],
    pub epc: [Signal<In, Bits<PCW>>; W],
    pub emask: [Signal<In, Bits<T>>; W],
    /// `sr_rdata`
    pub sr_rdata: Signal<Out, Bits<32>>,

    k_wid: [Constant<Bits<WIDW>>; W],
    k_sr_esr: Constant<Bits<3>>,
    k_sr_epc: Constant<Bits<3>>,
    k_sr_emask: Constant<Bits<3>>,
    k_sr_tgid: Constant<Bits<3>>,
    /// Warp `sr_wid`'s values (hdl_gen cannot cast an indexed signal in a loop).
    hit: Signal<Local, Bit>,
    esr_w: Signal<Local, Bits<8>>,
    epc_w: Signal<Local, Bits<PCW>>,
    emask_w: Signal<Local, Bits<T>>,
}

impl<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> Default for SrPort<W, WIDW, PCW, T> {
    fn default() -> Self {
        use enc::sr;
        let k3 = |v: u64| Constant::new(Bits::<3>::from(v));
        Self {
            sr_valid: Default::default(),
            sr_we: Default::default(),
            sr_wid: Default::default(),
            sr_sel: Default::default(),
            tgid: Default::default(),
            esr: std::array::from_fn(|_| Default::default()),
            epc: std::array::from_fn(|_| Default::default()),
            emask: std::array::from_fn(|_| Default::default()),
            sr_rdata: Default::default(),
            k_wid: std::array::from_fn(|w| Constant::new((w as u64).into())),
            k_sr_esr: k3(sr::ESR),
            k_sr_epc: k3(sr::EPC),
            k_sr_emask: k3(sr::EMASK),
            k_sr_tgid: k3(sr::TGID),
            hit: Default::default(),
            esr_w: Default::default(),
            epc_w: Default::default(),
            emask_w: Default::default(),
        }
    }
}

impl<const W: usize, const WIDW: usize, const PCW: usize, const T: usize> Logic for SrPort<W, WIDW, PCW, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.hit.next = false;
        self.esr_w.next = 0.into();
        self.epc_w.next = 0.into();
        self.emask_w.next = 0.into();
        for i in 0..W {
            if self.sr_wid.val() == self.k_wid[i].val() {
                self.hit.next = true;
                self.esr_w.next = self.esr[i].val();
                self.epc_w.next = self.epc[i].val();
                self.emask_w.next = self.emask[i].val();
            }
        }
        self.sr_rdata.next = 0.into();
        if self.sr_valid.val() && !self.sr_we.val() && self.hit.val() {
            if self.sr_sel.val() == self.k_sr_esr.val() {
                self.sr_rdata.next = bit_cast::<32, 8>(self.esr_w.val());
            } else if self.sr_sel.val() == self.k_sr_epc.val() {
                self.sr_rdata.next = bit_cast::<32, PCW>(self.epc_w.val());
            } else if self.sr_sel.val() == self.k_sr_emask.val() {
                self.sr_rdata.next = bit_cast::<32, T>(self.emask_w.val());
            } else if self.sr_sel.val() == self.k_sr_tgid.val() {
                self.sr_rdata.next = self.tgid.val();
            }
        }
    }
}
