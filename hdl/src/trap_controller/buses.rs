//! `WarpBuses`: the per-warp values side by side on the wide ports, warp w at `[w*X +: X]`: the
//! redirect buses (`redir_pc`, `redir_mask`) and the state tap's per-warp vectors (`dbg_ws`,
//! `dbg_lcause`, `dbg_ncause`, `dbg_epc`, `dbg_emask`), each one `prims::Pack` (a Verilog
//! concatenation).
//!
//! Why a block of its own: hdl_gen has no concatenation, so the top shifted one warp in per step
//! (`(bus << PC_W) | lane`), which Verilator 5.006 turns into one generic wide shift per warp
//! (`VL_SHIFTL_WWI`), re-run on every `eval()` because the top's always block also reads the top
//! inputs. Here every input is a register output of a `WarpFsm` (or, for the redirect PC, a
//! register and HLAT): no top input reaches this block, and the packing is plain wiring.

use crate::prims::Pack;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WarpBuses<const W: usize, const WC: usize, const WT: usize, const WPC: usize, const T: usize, const PCW: usize> {
    /// Per warp: its redirect PC and mask (0 unless it redirects).
    pub redir_pc: [Signal<In, Bits<PCW>>; W],
    pub redir_mask: [Signal<In, Bits<T>>; W],
    /// Per warp: ws, LCAUSE, NCAUSE, EPC, EMASK (state).
    pub ws: [Signal<In, Bits<3>>; W],
    pub lcause: [Signal<In, Bits<4>>; W],
    pub ncause: [Signal<In, Bits<4>>; W],
    pub epc: [Signal<In, Bits<PCW>>; W],
    pub emask: [Signal<In, Bits<T>>; W],
    /// `redir_pc`, `redir_mask` (§7.1).
    pub redir_pc_bus: Signal<Out, Bits<WPC>>,
    pub redir_mask_bus: Signal<Out, Bits<WT>>,
    /// `dbg_ws` (the 3-bit state in the low bits of each nibble), `dbg_lcause`, `dbg_ncause`,
    /// `dbg_epc`, `dbg_emask`.
    pub ws_bus: Signal<Out, Bits<WC>>,
    pub lcause_bus: Signal<Out, Bits<WC>>,
    pub ncause_bus: Signal<Out, Bits<WC>>,
    pub epc_bus: Signal<Out, Bits<WPC>>,
    pub emask_bus: Signal<Out, Bits<WT>>,

    pack_redir_pc: Pack<PCW, WPC>,
    pack_redir_mask: Pack<T, WT>,
    pack_ws: Pack<4, WC>,
    pack_lcause: Pack<4, WC>,
    pack_ncause: Pack<4, WC>,
    pack_epc: Pack<PCW, WPC>,
    pack_emask: Pack<T, WT>,
    /// One warp's ws (hdl_gen cannot cast an indexed signal).
    lane_ws: Signal<Local, Bits<3>>,
}

impl<const W: usize, const WC: usize, const WT: usize, const WPC: usize, const T: usize, const PCW: usize> Default
    for WarpBuses<W, WC, WT, WPC, T, PCW>
{
    fn default() -> Self {
        assert!(WC == 4 * W && WT == T * W && WPC == PCW * W);
        Self {
            redir_pc: std::array::from_fn(|_| Default::default()),
            redir_mask: std::array::from_fn(|_| Default::default()),
            ws: std::array::from_fn(|_| Default::default()),
            lcause: std::array::from_fn(|_| Default::default()),
            ncause: std::array::from_fn(|_| Default::default()),
            epc: std::array::from_fn(|_| Default::default()),
            emask: std::array::from_fn(|_| Default::default()),
            redir_pc_bus: Default::default(),
            redir_mask_bus: Default::default(),
            ws_bus: Default::default(),
            lcause_bus: Default::default(),
            ncause_bus: Default::default(),
            epc_bus: Default::default(),
            emask_bus: Default::default(),
            pack_redir_pc: Pack::new(W),
            pack_redir_mask: Pack::new(W),
            pack_ws: Pack::new(W),
            pack_lcause: Pack::new(W),
            pack_ncause: Pack::new(W),
            pack_epc: Pack::new(W),
            pack_emask: Pack::new(W),
            lane_ws: Default::default(),
        }
    }
}

impl<const W: usize, const WC: usize, const WT: usize, const WPC: usize, const T: usize, const PCW: usize> Logic
    for WarpBuses<W, WC, WT, WPC, T, PCW>
{
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..W {
            self.pack_redir_pc.slot[i].next = self.redir_pc[i].val();
            self.pack_redir_mask.slot[i].next = self.redir_mask[i].val();
            self.lane_ws.next = self.ws[i].val();
            self.pack_ws.slot[i].next = bit_cast::<4, 3>(self.lane_ws.val());
            self.pack_lcause.slot[i].next = self.lcause[i].val();
            self.pack_ncause.slot[i].next = self.ncause[i].val();
            self.pack_epc.slot[i].next = self.epc[i].val();
            self.pack_emask.slot[i].next = self.emask[i].val();
        }
        self.redir_pc_bus.next = self.pack_redir_pc.bus.val();
        self.redir_mask_bus.next = self.pack_redir_mask.bus.val();
        self.ws_bus.next = self.pack_ws.bus.val();
        self.lcause_bus.next = self.pack_lcause.bus.val();
        self.ncause_bus.next = self.pack_ncause.bus.val();
        self.epc_bus.next = self.pack_epc.bus.val();
        self.emask_bus.next = self.pack_emask.bus.val();
    }
}

/// `dbg_global`: the global registers, one 32-bit slot each in §7.2 order (see the port's doc),
/// as one `prims::Pack` (for the same reason as [`WarpBuses`]: no wide shifts in the top).
#[derive(LogicBlock)]
pub struct GlobalTap<const W: usize, const WIDW: usize, const PCW: usize> {
    pub mode: Signal<In, Bits<2>>,
    pub gcause: Signal<In, Bits<4>>,
    pub gpend: Signal<In, Bits<16>>,
    pub htmask: Signal<In, Bits<W>>,
    pub haddr: Signal<In, Bits<PCW>>,
    pub hlat: Signal<In, Bits<PCW>>,
    pub vtbase: Signal<In, Bits<PCW>>,
    pub ctrl: Signal<In, Bits<3>>,
    pub irq_en: Signal<In, Bits<16>>,
    pub sticky: Signal<In, Bits<16>>,
    pub tgid: Signal<In, Bits<32>>,
    pub fvalid: Signal<In, Bit>,
    pub fwid: Signal<In, Bits<WIDW>>,
    pub hmask: Signal<In, Bits<16>>,
    pub wsel: Signal<In, Bits<WIDW>>,
    pub bcast: Signal<In, Bit>,
    pub ss_trig: Signal<In, Bit>,
    /// The 17 slots side by side.
    pub bus: Signal<Out, Bits<544>>,

    pack: Pack<32, 544>,
}

impl<const W: usize, const WIDW: usize, const PCW: usize> Default for GlobalTap<W, WIDW, PCW> {
    fn default() -> Self {
        Self {
            mode: Default::default(),
            gcause: Default::default(),
            gpend: Default::default(),
            htmask: Default::default(),
            haddr: Default::default(),
            hlat: Default::default(),
            vtbase: Default::default(),
            ctrl: Default::default(),
            irq_en: Default::default(),
            sticky: Default::default(),
            tgid: Default::default(),
            fvalid: Default::default(),
            fwid: Default::default(),
            hmask: Default::default(),
            wsel: Default::default(),
            bcast: Default::default(),
            ss_trig: Default::default(),
            bus: Default::default(),
            pack: Pack::new(17),
        }
    }
}

impl<const W: usize, const WIDW: usize, const PCW: usize> Logic for GlobalTap<W, WIDW, PCW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pack.slot[0].next = bit_cast::<32, 2>(self.mode.val());
        self.pack.slot[1].next = bit_cast::<32, 4>(self.gcause.val());
        self.pack.slot[2].next = bit_cast::<32, 16>(self.gpend.val());
        self.pack.slot[3].next = bit_cast::<32, W>(self.htmask.val());
        self.pack.slot[4].next = bit_cast::<32, PCW>(self.haddr.val());
        self.pack.slot[5].next = bit_cast::<32, PCW>(self.hlat.val());
        self.pack.slot[6].next = bit_cast::<32, PCW>(self.vtbase.val());
        self.pack.slot[7].next = bit_cast::<32, 3>(self.ctrl.val());
        self.pack.slot[8].next = bit_cast::<32, 16>(self.irq_en.val());
        self.pack.slot[9].next = bit_cast::<32, 16>(self.sticky.val());
        self.pack.slot[10].next = self.tgid.val();
        self.pack.slot[11].next = bit_cast::<32, 1>(self.fvalid.val().into());
        self.pack.slot[12].next = bit_cast::<32, WIDW>(self.fwid.val());
        self.pack.slot[13].next = bit_cast::<32, 16>(self.hmask.val());
        self.pack.slot[14].next = bit_cast::<32, WIDW>(self.wsel.val());
        self.pack.slot[15].next = bit_cast::<32, 1>(self.bcast.val().into());
        self.pack.slot[16].next = bit_cast::<32, 1>(self.ss_trig.val().into());
        self.bus.next = self.pack.bus.val();
    }
}
