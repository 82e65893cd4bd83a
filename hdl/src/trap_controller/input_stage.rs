//! `InputStage`: the input register of timing-closure §3.3 (`pipe` = 1). Every input port of
//! §7.1 except `clk` and `rst` passes through one `prims::StageReg` before the §7.4 step sees it:
//! with `pipe` = 1 each is a register (reset to 0, the idle value of every input: no warp valid,
//! no event, no access), so every reaction of the controller comes one cycle later and the SR/CSR
//! read data, read with the registered request, one cycle after the request; with `pipe` = 0
//! each is a wire and the block keeps the spec's timing.
//!
//! `rst` itself is not delayed: it resets the step's state and this stage at the same edge, so
//! after reset the step sees idle inputs for one cycle, then the inputs of the first cycle after
//! reset.

use crate::prims::StageReg;
use rust_hdl::prelude::*;

/// The ports' values as the step sees them: `<port>_s1` is `<port>` one cycle late (registered)
/// or `<port>` itself (a wire), as chosen by [`InputStage::new`]. Widths as in `TrapCtl`.
#[derive(LogicBlock)]
pub struct InputStage<const W: usize, const WIDW: usize, const WC: usize, const WT: usize, const WPC: usize> {
    /// Clock of the registers.
    pub clk: Signal<In, Clock>,
    /// Synchronous reset: every register to 0 (idle inputs).
    pub rst: Signal<In, Bit>,
    /// The port `warp_valid`.
    pub warp_valid: Signal<In, Bits<W>>,
    /// The port `exc_valid`.
    pub exc_valid: Signal<In, Bits<W>>,
    /// The port `exc_cause`.
    pub exc_cause: Signal<In, Bits<WC>>,
    /// The port `exc_pc`.
    pub exc_pc: Signal<In, Bits<WPC>>,
    /// The port `exc_mask`.
    pub exc_mask: Signal<In, Bits<WT>>,
    /// The port `ret_valid`.
    pub ret_valid: Signal<In, Bits<W>>,
    /// The port `pause_valid`.
    pub pause_valid: Signal<In, Bits<W>>,
    /// The port `warp_pc`.
    pub warp_pc: Signal<In, Bits<WPC>>,
    /// The port `warp_mask`.
    pub warp_mask: Signal<In, Bits<WT>>,
    /// The port `quiesced`.
    pub quiesced: Signal<In, Bit>,
    /// The port `bar_wait`.
    pub bar_wait: Signal<In, Bits<W>>,
    /// The port `issue_valid`.
    pub issue_valid: Signal<In, Bit>,
    /// The port `issue_wid`.
    pub issue_wid: Signal<In, Bits<WIDW>>,
    /// The port `host_int`.
    pub host_int: Signal<In, Bit>,
    /// The port `sm_evt_valid`.
    pub sm_evt_valid: Signal<In, Bit>,
    /// The port `sm_evt_cause`.
    pub sm_evt_cause: Signal<In, Bits<4>>,
    /// The port `bcast_in`.
    pub bcast_in: Signal<In, Bit>,
    /// The port `sr_valid`.
    pub sr_valid: Signal<In, Bit>,
    /// The port `sr_wid`.
    pub sr_wid: Signal<In, Bits<WIDW>>,
    /// The port `sr_sel`.
    pub sr_sel: Signal<In, Bits<3>>,
    /// The port `sr_we`.
    pub sr_we: Signal<In, Bit>,
    /// The port `sr_wdata`.
    pub sr_wdata: Signal<In, Bits<32>>,
    /// The port `csr_valid`.
    pub csr_valid: Signal<In, Bit>,
    /// The port `csr_we`.
    pub csr_we: Signal<In, Bit>,
    /// The port `csr_addr`.
    pub csr_addr: Signal<In, Bits<8>>,
    /// The port `csr_wdata`.
    pub csr_wdata: Signal<In, Bits<32>>,
    /// `warp_valid` as the step sees it.
    pub warp_valid_s1: Signal<Out, Bits<W>>,
    /// `exc_valid` as the step sees it.
    pub exc_valid_s1: Signal<Out, Bits<W>>,
    /// `exc_cause` as the step sees it.
    pub exc_cause_s1: Signal<Out, Bits<WC>>,
    /// `exc_pc` as the step sees it.
    pub exc_pc_s1: Signal<Out, Bits<WPC>>,
    /// `exc_mask` as the step sees it.
    pub exc_mask_s1: Signal<Out, Bits<WT>>,
    /// `ret_valid` as the step sees it.
    pub ret_valid_s1: Signal<Out, Bits<W>>,
    /// `pause_valid` as the step sees it.
    pub pause_valid_s1: Signal<Out, Bits<W>>,
    /// `warp_pc` as the step sees it.
    pub warp_pc_s1: Signal<Out, Bits<WPC>>,
    /// `warp_mask` as the step sees it.
    pub warp_mask_s1: Signal<Out, Bits<WT>>,
    /// `quiesced` as the step sees it.
    pub quiesced_s1: Signal<Out, Bit>,
    /// `bar_wait` as the step sees it.
    pub bar_wait_s1: Signal<Out, Bits<W>>,
    /// `issue_valid` as the step sees it.
    pub issue_valid_s1: Signal<Out, Bit>,
    /// `issue_wid` as the step sees it.
    pub issue_wid_s1: Signal<Out, Bits<WIDW>>,
    /// `host_int` as the step sees it.
    pub host_int_s1: Signal<Out, Bit>,
    /// `sm_evt_valid` as the step sees it.
    pub sm_evt_valid_s1: Signal<Out, Bit>,
    /// `sm_evt_cause` as the step sees it.
    pub sm_evt_cause_s1: Signal<Out, Bits<4>>,
    /// `bcast_in` as the step sees it.
    pub bcast_in_s1: Signal<Out, Bit>,
    /// `sr_valid` as the step sees it.
    pub sr_valid_s1: Signal<Out, Bit>,
    /// `sr_wid` as the step sees it.
    pub sr_wid_s1: Signal<Out, Bits<WIDW>>,
    /// `sr_sel` as the step sees it.
    pub sr_sel_s1: Signal<Out, Bits<3>>,
    /// `sr_we` as the step sees it.
    pub sr_we_s1: Signal<Out, Bit>,
    /// `sr_wdata` as the step sees it.
    pub sr_wdata_s1: Signal<Out, Bits<32>>,
    /// `csr_valid` as the step sees it.
    pub csr_valid_s1: Signal<Out, Bit>,
    /// `csr_we` as the step sees it.
    pub csr_we_s1: Signal<Out, Bit>,
    /// `csr_addr` as the step sees it.
    pub csr_addr_s1: Signal<Out, Bits<8>>,
    /// `csr_wdata` as the step sees it.
    pub csr_wdata_s1: Signal<Out, Bits<32>>,
    warp_valid_r: StageReg<Bits<W>>,
    exc_valid_r: StageReg<Bits<W>>,
    exc_cause_r: StageReg<Bits<WC>>,
    exc_pc_r: StageReg<Bits<WPC>>,
    exc_mask_r: StageReg<Bits<WT>>,
    ret_valid_r: StageReg<Bits<W>>,
    pause_valid_r: StageReg<Bits<W>>,
    warp_pc_r: StageReg<Bits<WPC>>,
    warp_mask_r: StageReg<Bits<WT>>,
    quiesced_r: StageReg<Bit>,
    bar_wait_r: StageReg<Bits<W>>,
    issue_valid_r: StageReg<Bit>,
    issue_wid_r: StageReg<Bits<WIDW>>,
    host_int_r: StageReg<Bit>,
    sm_evt_valid_r: StageReg<Bit>,
    sm_evt_cause_r: StageReg<Bits<4>>,
    bcast_in_r: StageReg<Bit>,
    sr_valid_r: StageReg<Bit>,
    sr_wid_r: StageReg<Bits<WIDW>>,
    sr_sel_r: StageReg<Bits<3>>,
    sr_we_r: StageReg<Bit>,
    sr_wdata_r: StageReg<Bits<32>>,
    csr_valid_r: StageReg<Bit>,
    csr_we_r: StageReg<Bit>,
    csr_addr_r: StageReg<Bits<8>>,
    csr_wdata_r: StageReg<Bits<32>>,
}

impl<const W: usize, const WIDW: usize, const WC: usize, const WT: usize, const WPC: usize> InputStage<W, WIDW, WC, WT, WPC> {
    /// Registers if `registered` (`pipe` = 1), else wires.
    pub fn new(registered: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            warp_valid: Default::default(),
            exc_valid: Default::default(),
            exc_cause: Default::default(),
            exc_pc: Default::default(),
            exc_mask: Default::default(),
            ret_valid: Default::default(),
            pause_valid: Default::default(),
            warp_pc: Default::default(),
            warp_mask: Default::default(),
            quiesced: Default::default(),
            bar_wait: Default::default(),
            issue_valid: Default::default(),
            issue_wid: Default::default(),
            host_int: Default::default(),
            sm_evt_valid: Default::default(),
            sm_evt_cause: Default::default(),
            bcast_in: Default::default(),
            sr_valid: Default::default(),
            sr_wid: Default::default(),
            sr_sel: Default::default(),
            sr_we: Default::default(),
            sr_wdata: Default::default(),
            csr_valid: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            csr_wdata: Default::default(),
            warp_valid_s1: Default::default(),
            exc_valid_s1: Default::default(),
            exc_cause_s1: Default::default(),
            exc_pc_s1: Default::default(),
            exc_mask_s1: Default::default(),
            ret_valid_s1: Default::default(),
            pause_valid_s1: Default::default(),
            warp_pc_s1: Default::default(),
            warp_mask_s1: Default::default(),
            quiesced_s1: Default::default(),
            bar_wait_s1: Default::default(),
            issue_valid_s1: Default::default(),
            issue_wid_s1: Default::default(),
            host_int_s1: Default::default(),
            sm_evt_valid_s1: Default::default(),
            sm_evt_cause_s1: Default::default(),
            bcast_in_s1: Default::default(),
            sr_valid_s1: Default::default(),
            sr_wid_s1: Default::default(),
            sr_sel_s1: Default::default(),
            sr_we_s1: Default::default(),
            sr_wdata_s1: Default::default(),
            csr_valid_s1: Default::default(),
            csr_we_s1: Default::default(),
            csr_addr_s1: Default::default(),
            csr_wdata_s1: Default::default(),
            warp_valid_r: StageReg::new(registered),
            exc_valid_r: StageReg::new(registered),
            exc_cause_r: StageReg::new(registered),
            exc_pc_r: StageReg::new(registered),
            exc_mask_r: StageReg::new(registered),
            ret_valid_r: StageReg::new(registered),
            pause_valid_r: StageReg::new(registered),
            warp_pc_r: StageReg::new(registered),
            warp_mask_r: StageReg::new(registered),
            quiesced_r: StageReg::new(registered),
            bar_wait_r: StageReg::new(registered),
            issue_valid_r: StageReg::new(registered),
            issue_wid_r: StageReg::new(registered),
            host_int_r: StageReg::new(registered),
            sm_evt_valid_r: StageReg::new(registered),
            sm_evt_cause_r: StageReg::new(registered),
            bcast_in_r: StageReg::new(registered),
            sr_valid_r: StageReg::new(registered),
            sr_wid_r: StageReg::new(registered),
            sr_sel_r: StageReg::new(registered),
            sr_we_r: StageReg::new(registered),
            sr_wdata_r: StageReg::new(registered),
            csr_valid_r: StageReg::new(registered),
            csr_we_r: StageReg::new(registered),
            csr_addr_r: StageReg::new(registered),
            csr_wdata_r: StageReg::new(registered),
        }
    }
}

impl<const W: usize, const WIDW: usize, const WC: usize, const WT: usize, const WPC: usize> Logic for InputStage<W, WIDW, WC, WT, WPC> {
    #[hdl_gen]
    fn update(&mut self) {
        self.warp_valid_r.clock.next = self.clk.val();
        self.warp_valid_r.rst.next = self.rst.val();
        self.warp_valid_r.en.next = true;
        self.warp_valid_r.d.next = self.warp_valid.val();
        self.warp_valid_s1.next = self.warp_valid_r.q.val();
        self.exc_valid_r.clock.next = self.clk.val();
        self.exc_valid_r.rst.next = self.rst.val();
        self.exc_valid_r.en.next = true;
        self.exc_valid_r.d.next = self.exc_valid.val();
        self.exc_valid_s1.next = self.exc_valid_r.q.val();
        self.exc_cause_r.clock.next = self.clk.val();
        self.exc_cause_r.rst.next = self.rst.val();
        self.exc_cause_r.en.next = true;
        self.exc_cause_r.d.next = self.exc_cause.val();
        self.exc_cause_s1.next = self.exc_cause_r.q.val();
        self.exc_pc_r.clock.next = self.clk.val();
        self.exc_pc_r.rst.next = self.rst.val();
        self.exc_pc_r.en.next = true;
        self.exc_pc_r.d.next = self.exc_pc.val();
        self.exc_pc_s1.next = self.exc_pc_r.q.val();
        self.exc_mask_r.clock.next = self.clk.val();
        self.exc_mask_r.rst.next = self.rst.val();
        self.exc_mask_r.en.next = true;
        self.exc_mask_r.d.next = self.exc_mask.val();
        self.exc_mask_s1.next = self.exc_mask_r.q.val();
        self.ret_valid_r.clock.next = self.clk.val();
        self.ret_valid_r.rst.next = self.rst.val();
        self.ret_valid_r.en.next = true;
        self.ret_valid_r.d.next = self.ret_valid.val();
        self.ret_valid_s1.next = self.ret_valid_r.q.val();
        self.pause_valid_r.clock.next = self.clk.val();
        self.pause_valid_r.rst.next = self.rst.val();
        self.pause_valid_r.en.next = true;
        self.pause_valid_r.d.next = self.pause_valid.val();
        self.pause_valid_s1.next = self.pause_valid_r.q.val();
        self.warp_pc_r.clock.next = self.clk.val();
        self.warp_pc_r.rst.next = self.rst.val();
        self.warp_pc_r.en.next = true;
        self.warp_pc_r.d.next = self.warp_pc.val();
        self.warp_pc_s1.next = self.warp_pc_r.q.val();
        self.warp_mask_r.clock.next = self.clk.val();
        self.warp_mask_r.rst.next = self.rst.val();
        self.warp_mask_r.en.next = true;
        self.warp_mask_r.d.next = self.warp_mask.val();
        self.warp_mask_s1.next = self.warp_mask_r.q.val();
        self.quiesced_r.clock.next = self.clk.val();
        self.quiesced_r.rst.next = self.rst.val();
        self.quiesced_r.en.next = true;
        self.quiesced_r.d.next = self.quiesced.val();
        self.quiesced_s1.next = self.quiesced_r.q.val();
        self.bar_wait_r.clock.next = self.clk.val();
        self.bar_wait_r.rst.next = self.rst.val();
        self.bar_wait_r.en.next = true;
        self.bar_wait_r.d.next = self.bar_wait.val();
        self.bar_wait_s1.next = self.bar_wait_r.q.val();
        self.issue_valid_r.clock.next = self.clk.val();
        self.issue_valid_r.rst.next = self.rst.val();
        self.issue_valid_r.en.next = true;
        self.issue_valid_r.d.next = self.issue_valid.val();
        self.issue_valid_s1.next = self.issue_valid_r.q.val();
        self.issue_wid_r.clock.next = self.clk.val();
        self.issue_wid_r.rst.next = self.rst.val();
        self.issue_wid_r.en.next = true;
        self.issue_wid_r.d.next = self.issue_wid.val();
        self.issue_wid_s1.next = self.issue_wid_r.q.val();
        self.host_int_r.clock.next = self.clk.val();
        self.host_int_r.rst.next = self.rst.val();
        self.host_int_r.en.next = true;
        self.host_int_r.d.next = self.host_int.val();
        self.host_int_s1.next = self.host_int_r.q.val();
        self.sm_evt_valid_r.clock.next = self.clk.val();
        self.sm_evt_valid_r.rst.next = self.rst.val();
        self.sm_evt_valid_r.en.next = true;
        self.sm_evt_valid_r.d.next = self.sm_evt_valid.val();
        self.sm_evt_valid_s1.next = self.sm_evt_valid_r.q.val();
        self.sm_evt_cause_r.clock.next = self.clk.val();
        self.sm_evt_cause_r.rst.next = self.rst.val();
        self.sm_evt_cause_r.en.next = true;
        self.sm_evt_cause_r.d.next = self.sm_evt_cause.val();
        self.sm_evt_cause_s1.next = self.sm_evt_cause_r.q.val();
        self.bcast_in_r.clock.next = self.clk.val();
        self.bcast_in_r.rst.next = self.rst.val();
        self.bcast_in_r.en.next = true;
        self.bcast_in_r.d.next = self.bcast_in.val();
        self.bcast_in_s1.next = self.bcast_in_r.q.val();
        self.sr_valid_r.clock.next = self.clk.val();
        self.sr_valid_r.rst.next = self.rst.val();
        self.sr_valid_r.en.next = true;
        self.sr_valid_r.d.next = self.sr_valid.val();
        self.sr_valid_s1.next = self.sr_valid_r.q.val();
        self.sr_wid_r.clock.next = self.clk.val();
        self.sr_wid_r.rst.next = self.rst.val();
        self.sr_wid_r.en.next = true;
        self.sr_wid_r.d.next = self.sr_wid.val();
        self.sr_wid_s1.next = self.sr_wid_r.q.val();
        self.sr_sel_r.clock.next = self.clk.val();
        self.sr_sel_r.rst.next = self.rst.val();
        self.sr_sel_r.en.next = true;
        self.sr_sel_r.d.next = self.sr_sel.val();
        self.sr_sel_s1.next = self.sr_sel_r.q.val();
        self.sr_we_r.clock.next = self.clk.val();
        self.sr_we_r.rst.next = self.rst.val();
        self.sr_we_r.en.next = true;
        self.sr_we_r.d.next = self.sr_we.val();
        self.sr_we_s1.next = self.sr_we_r.q.val();
        self.sr_wdata_r.clock.next = self.clk.val();
        self.sr_wdata_r.rst.next = self.rst.val();
        self.sr_wdata_r.en.next = true;
        self.sr_wdata_r.d.next = self.sr_wdata.val();
        self.sr_wdata_s1.next = self.sr_wdata_r.q.val();
        self.csr_valid_r.clock.next = self.clk.val();
        self.csr_valid_r.rst.next = self.rst.val();
        self.csr_valid_r.en.next = true;
        self.csr_valid_r.d.next = self.csr_valid.val();
        self.csr_valid_s1.next = self.csr_valid_r.q.val();
        self.csr_we_r.clock.next = self.clk.val();
        self.csr_we_r.rst.next = self.rst.val();
        self.csr_we_r.en.next = true;
        self.csr_we_r.d.next = self.csr_we.val();
        self.csr_we_s1.next = self.csr_we_r.q.val();
        self.csr_addr_r.clock.next = self.clk.val();
        self.csr_addr_r.rst.next = self.rst.val();
        self.csr_addr_r.en.next = true;
        self.csr_addr_r.d.next = self.csr_addr.val();
        self.csr_addr_s1.next = self.csr_addr_r.q.val();
        self.csr_wdata_r.clock.next = self.clk.val();
        self.csr_wdata_r.rst.next = self.rst.val();
        self.csr_wdata_r.en.next = true;
        self.csr_wdata_r.d.next = self.csr_wdata.val();
        self.csr_wdata_s1.next = self.csr_wdata_r.q.val();
    }
}
