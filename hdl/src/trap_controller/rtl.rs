//! `TrapCtl`, the top of `eu_trap_controller`: the spec's ports (§7.1) and the wiring of the
//! sub-blocks, one per function of §7.4's step:
//!
//! | sub-block | step | registers |
//! |---|---|---|
//! | `inputs: InputStage` | every input port once before the step (timing-closure §3.3, `pipe` = 1; wires with 0) | the inputs, one cycle late |
//! | `csr: CsrRegs` | (1) host CSR write | CTRL, HADDR, IRQ_EN, HMASK, WSEL, VTBASE |
//! | `global: GlobalEvents` | (2) global events, their consumption at SAVE | GPEND, HTMASK, GCAUSE |
//! | `warps[w]: WarpFsm` | outputs, (1) WEPC/WEMASK, (3), (4), SAVE and exit per warp | ws, LCAUSE, NCAUSE, GPW, STEPPED, EPC, EMASK |
//! | `episode: Episode` | (5) first exception, SAVE's TGID/HLAT | FVALID, FWID, TGID, HLAT |
//! | `mode_ctl: ModeCtl` | (6) mode | MODE, SS_TRIG, BCAST_Q |
//! | `save_exit: SaveExit` | (6) SAVE and exit, the events the warps apply | – |
//! | `status: Status` | (7) sticky commit, `host_irq` | STICKY |
//! | `view: WarpView`, `csr_read: CsrRead`, `sr: SrPort` | CSR and SR reads | – |
//! | `buses: WarpBuses`, `global_tap: GlobalTap` | the per-warp values on the wide ports (`redir_pc`, `redir_mask`, the state tap) | – |
//!
//! Every register is a `prims::RDff` declared, reset and updated in the sub-block that owns it.
//! No logic reads `rst` (it goes only to the registers' clocked blocks), so Verilator evaluates
//! the logic of the registered outputs once per cycle and only the logic fed by inputs in each
//! `eval()`.

use super::buses::{GlobalTap, WarpBuses};
use super::csr::{CsrRead, CsrRegs};
use super::episode::Episode;
use super::global::GlobalEvents;
use super::input_stage::InputStage;
use super::mode::ModeCtl;
use super::save_exit::SaveExit;
use super::sr::SrPort;
use super::status::Status;
use super::view::WarpView;
use super::warp::WarpFsm;
use super::Config;
use rust_hdl::prelude::*;

/// The controller. `W` warps, `WIDW` = WID_W, `WC` = 4·W, `WT` = T·W, `WPC` = PC_W·W
/// (rust-hdl cannot do width arithmetic, so the products are passed in). Per-warp vectors carry
/// warp w at `[w*X +: X]`.
#[derive(LogicBlock)]
pub struct TrapCtl<
    const W: usize,
    const WIDW: usize,
    const WC: usize,
    const WT: usize,
    const WPC: usize,
    const T: usize,
    const PCW: usize,
> {
    /// Clock; every register samples on its rising edge.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset of every register to its §7.2 value. Not delayed by
    /// `pipe`: it also clears the input stage (idle inputs for the first cycle after reset).
    pub rst: Signal<In, Bit>,
    /// Slot w holds a live warp.
    pub warp_valid: Signal<In, Bits<W>>,
    /// Warp w raises a local exception this cycle.
    pub exc_valid: Signal<In, Bits<W>>,
    /// Local cause code per warp (4 bits each).
    pub exc_cause: Signal<In, Bits<WC>>,
    /// PC of the excepting instruction per warp.
    pub exc_pc: Signal<In, Bits<WPC>>,
    /// Active mask of the excepting instruction per warp.
    pub exc_mask: Signal<In, Bits<WT>>,
    /// Warp w committed RETURN (handler exit).
    pub ret_valid: Signal<In, Bits<W>>,
    /// Warp w committed PAUSE.
    pub pause_valid: Signal<In, Bits<W>>,
    /// The scheduler's resume PC per warp (sampled at SAVE).
    pub warp_pc: Signal<In, Bits<WPC>>,
    /// The scheduler's active mask per warp (sampled at SAVE).
    pub warp_mask: Signal<In, Bits<WT>>,
    /// No instruction in flight and no barrier wait pending (meaningful in DRAIN).
    pub quiesced: Signal<In, Bit>,
    /// Warp w is blocked at a sync barrier (single-step eligibility).
    pub bar_wait: Signal<In, Bits<W>>,
    /// An instruction of warp `issue_wid` issued (single-step).
    pub issue_valid: Signal<In, Bit>,
    /// The warp that issued.
    pub issue_wid: Signal<In, Bits<WIDW>>,
    /// Host interrupt pulse, targeting all warps.
    pub host_int: Signal<In, Bit>,
    /// SM-wide event (ECC / timeout / context switch).
    pub sm_evt_valid: Signal<In, Bit>,
    /// Its cause code.
    pub sm_evt_cause: Signal<In, Bits<4>>,
    /// Trap broadcast from another SM.
    pub bcast_in: Signal<In, Bit>,
    /// Handler special-register access.
    pub sr_valid: Signal<In, Bit>,
    /// The warp that accesses its special registers.
    pub sr_wid: Signal<In, Bits<WIDW>>,
    /// Which register: ESR, EPC, EMASK, TGID (`enc::sr`).
    pub sr_sel: Signal<In, Bits<3>>,
    /// The access is a write.
    pub sr_we: Signal<In, Bit>,
    /// Write data.
    pub sr_wdata: Signal<In, Bits<32>>,
    /// Host register access.
    pub csr_valid: Signal<In, Bit>,
    /// The access is a write.
    pub csr_we: Signal<In, Bit>,
    /// Byte address, word-aligned (`enc::csr`).
    pub csr_addr: Signal<In, Bits<8>>,
    /// Write data.
    pub csr_wdata: Signal<In, Bits<32>>,

    /// 1 = warp w must not issue.
    pub warp_halt: Signal<Out, Bits<W>>,
    /// Mode is DRAIN: drain or roll back the pipeline and unwind barriers.
    pub drain_req: Signal<Out, Bit>,
    /// Mode is not NORM: hold new warp launches.
    pub trap_mode: Signal<Out, Bit>,
    /// Load `redir_pc`/`redir_mask` into warp w's PC/active mask this cycle.
    pub redir_valid: Signal<Out, Bits<W>>,
    /// Handler entry (HLAT) or restore PC (EPC) per warp.
    pub redir_pc: Signal<Out, Bits<WPC>>,
    /// EMASK per warp.
    pub redir_mask: Signal<Out, Bits<WT>>,
    /// The host killed warp w; the scheduler must retire it.
    pub warp_kill: Signal<Out, Bits<W>>,
    /// Level interrupt to the host.
    pub host_irq: Signal<Out, Bit>,
    /// One-cycle trap broadcast to other SMs.
    pub bcast_out: Signal<Out, Bit>,
    /// Late-bound vector-table base (VTBASE).
    pub vt_base: Signal<Out, Bits<PCW>>,
    /// SR read data: read of the pre-edge state, combinational from the request with `pipe` = 0,
    /// from the registered request (one cycle after the request) with `pipe` = 1.
    pub sr_rdata: Signal<Out, Bits<32>>,
    /// CSR read data: as `sr_rdata`, for the host's request.
    pub csr_rdata: Signal<Out, Bits<32>>,

    // The state tap: every §7.2 register as it is now (not a spec port; for the co-simulation,
    // which compares it with the golden state every cycle and checks the §7.5 invariants on
    // it, issue 18; a synthesised design that leaves these open loses nothing).
    /// `ws` per warp, 4 bits each (the 3-bit state in the low bits).
    pub dbg_ws: Signal<Out, Bits<WC>>,
    /// `LCAUSE` per warp, 4 bits each.
    pub dbg_lcause: Signal<Out, Bits<WC>>,
    /// `NCAUSE` per warp, 4 bits each.
    pub dbg_ncause: Signal<Out, Bits<WC>>,
    /// `GPW` of warp w in bit w.
    pub dbg_gpw: Signal<Out, Bits<W>>,
    /// `STEPPED` of warp w in bit w.
    pub dbg_stepped: Signal<Out, Bits<W>>,
    /// `EPC` per warp, PC_W bits each.
    pub dbg_epc: Signal<Out, Bits<WPC>>,
    /// `EMASK` per warp, T bits each.
    pub dbg_emask: Signal<Out, Bits<WT>>,
    /// The global registers, one 32-bit slot each, in §7.2 order: mode, GCAUSE, GPEND, HTMASK,
    /// HADDR, HLAT, VTBASE, CTRL, IRQ_EN, STICKY, TGID, FVALID, FWID, HMASK, WSEL, BCAST_Q, SS_TRIG.
    pub dbg_global: Signal<Out, Bits<544>>,

    inputs: InputStage<W, WIDW, WC, WT, WPC>,
    csr: CsrRegs<W, WIDW, PCW>,
    global: GlobalEvents<W>,
    warps: [WarpFsm<WIDW, T, PCW>; W],
    episode: Episode<W, WIDW, PCW>,
    mode_ctl: ModeCtl<W>,
    save_exit: SaveExit<W>,
    status: Status<W>,
    view: WarpView<W, WIDW, PCW, T>,
    csr_read: CsrRead<W, WIDW, PCW, T>,
    sr: SrPort<W, WIDW, PCW, T>,
    buses: WarpBuses<W, WC, WT, WPC, T, PCW>,
    global_tap: GlobalTap<W, WIDW, PCW>,
}

impl<
        const W: usize,
        const WIDW: usize,
        const WC: usize,
        const WT: usize,
        const WPC: usize,
        const T: usize,
        const PCW: usize,
    > TrapCtl<W, WIDW, WC, WT, WPC, T, PCW>
{
    pub fn new(cfg: &Config) -> Self {
        assert!(WC == 4 * W && WT == T * W && WPC == PCW * W && WIDW == cfg.wid_w());
        assert!(cfg.warps == W && cfg.threads == T && cfg.pc_width == PCW);
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
            warp_halt: Default::default(),
            drain_req: Default::default(),
            trap_mode: Default::default(),
            redir_valid: Default::default(),
            redir_pc: Default::default(),
            redir_mask: Default::default(),
            warp_kill: Default::default(),
            host_irq: Default::default(),
            bcast_out: Default::default(),
            vt_base: Default::default(),
            sr_rdata: Default::default(),
            csr_rdata: Default::default(),
            dbg_ws: Default::default(),
            dbg_lcause: Default::default(),
            dbg_ncause: Default::default(),
            dbg_gpw: Default::default(),
            dbg_stepped: Default::default(),
            dbg_epc: Default::default(),
            dbg_emask: Default::default(),
            dbg_global: Default::default(),
            inputs: InputStage::new(cfg.pipe == 1),
            csr: CsrRegs::new(cfg.haddr_reset, cfg.has_sstep),
            global: Default::default(),
            warps: std::array::from_fn(WarpFsm::new),
            episode: Episode::new(cfg.haddr_reset),
            mode_ctl: Default::default(),
            save_exit: Default::default(),
            status: Default::default(),
            view: Default::default(),
            csr_read: CsrRead::new(cfg.has_sstep),
            sr: Default::default(),
            buses: Default::default(),
            global_tap: Default::default(),
        }
    }
}

impl<
        const W: usize,
        const WIDW: usize,
        const WC: usize,
        const WT: usize,
        const WPC: usize,
        const T: usize,
        const PCW: usize,
    > Logic for TrapCtl<W, WIDW, WC, WT, WPC, T, PCW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // every input through the input stage (registers with pipe = 1, wires with 0); rst is not delayed
        self.inputs.clk.next = self.clk.val();
        self.inputs.rst.next = self.rst.val();
        self.inputs.warp_valid.next = self.warp_valid.val();
        self.inputs.exc_valid.next = self.exc_valid.val();
        self.inputs.exc_cause.next = self.exc_cause.val();
        self.inputs.exc_pc.next = self.exc_pc.val();
        self.inputs.exc_mask.next = self.exc_mask.val();
        self.inputs.ret_valid.next = self.ret_valid.val();
        self.inputs.pause_valid.next = self.pause_valid.val();
        self.inputs.warp_pc.next = self.warp_pc.val();
        self.inputs.warp_mask.next = self.warp_mask.val();
        self.inputs.quiesced.next = self.quiesced.val();
        self.inputs.bar_wait.next = self.bar_wait.val();
        self.inputs.issue_valid.next = self.issue_valid.val();
        self.inputs.issue_wid.next = self.issue_wid.val();
        self.inputs.host_int.next = self.host_int.val();
        self.inputs.sm_evt_valid.next = self.sm_evt_valid.val();
        self.inputs.sm_evt_cause.next = self.sm_evt_cause.val();
        self.inputs.bcast_in.next = self.bcast_in.val();
        self.inputs.sr_valid.next = self.sr_valid.val();
        self.inputs.sr_wid.next = self.sr_wid.val();
        self.inputs.sr_sel.next = self.sr_sel.val();
        self.inputs.sr_we.next = self.sr_we.val();
        self.inputs.sr_wdata.next = self.sr_wdata.val();
        self.inputs.csr_valid.next = self.csr_valid.val();
        self.inputs.csr_we.next = self.csr_we.val();
        self.inputs.csr_addr.next = self.csr_addr.val();
        self.inputs.csr_wdata.next = self.csr_wdata.val();

        self.csr.clk.next = self.clk.val();
        self.global.clk.next = self.clk.val();
        self.episode.clk.next = self.clk.val();
        self.mode_ctl.clk.next = self.clk.val();
        self.status.clk.next = self.clk.val();
        self.csr.rst.next = self.rst.val();
        self.global.rst.next = self.rst.val();
        self.episode.rst.next = self.rst.val();
        self.mode_ctl.rst.next = self.rst.val();
        self.status.rst.next = self.rst.val();

        // (1) host CSR port
        self.csr.csr_valid.next = self.inputs.csr_valid_s1.val();
        self.csr.csr_we.next = self.inputs.csr_we_s1.val();
        self.csr.csr_addr.next = self.inputs.csr_addr_s1.val();
        self.csr.csr_wdata.next = self.inputs.csr_wdata_s1.val();

        // (2) global events
        self.global.gpend_clr.next = self.csr.gpend_clr.val();
        self.global.hint.next = self.csr.hint.val();
        self.global.host_int.next = self.inputs.host_int_s1.val();
        self.global.sm_evt_valid.next = self.inputs.sm_evt_valid_s1.val();
        self.global.sm_evt_cause.next = self.inputs.sm_evt_cause_s1.val();
        self.global.bcast_in.next = self.inputs.bcast_in_s1.val();
        self.global.save.next = self.save_exit.save.val();

        // per warp: its slice of every vector port; results to the global logic
        self.warp_halt.next = 0.into();
        self.redir_valid.next = 0.into();
        self.warp_kill.next = 0.into();
        self.dbg_gpw.next = 0.into();
        self.dbg_stepped.next = 0.into();
        for kpc in PCW..(PCW + 1) {
            for kt in T..(T + 1) {
                for i in 0..W {
                    self.warps[i].clk.next = self.clk.val();
                    self.warps[i].rst.next = self.rst.val();
                    self.warps[i].warp_valid.next = self.inputs.warp_valid_s1.val().get_bit(i);
                    self.warps[i].exc_valid.next = self.inputs.exc_valid_s1.val().get_bit(i);
                    self.warps[i].exc_cause.next = self.inputs.exc_cause_s1.val().get_bits::<4>(i * 4);
                    self.warps[i].exc_pc.next = self.inputs.exc_pc_s1.val().get_bits::<PCW>(i * kpc);
                    self.warps[i].exc_mask.next = self.inputs.exc_mask_s1.val().get_bits::<T>(i * kt);
                    self.warps[i].ret_valid.next = self.inputs.ret_valid_s1.val().get_bit(i);
                    self.warps[i].pause_valid.next = self.inputs.pause_valid_s1.val().get_bit(i);
                    self.warps[i].warp_pc.next = self.inputs.warp_pc_s1.val().get_bits::<PCW>(i * kpc);
                    self.warps[i].warp_mask.next = self.inputs.warp_mask_s1.val().get_bits::<T>(i * kt);
                    self.warps[i].bar_wait.next = self.inputs.bar_wait_s1.val().get_bit(i);
                    self.warps[i].issue_valid.next = self.inputs.issue_valid_s1.val();
                    self.warps[i].issue_wid.next = self.inputs.issue_wid_s1.val();
                    self.warps[i].sr_valid.next = self.inputs.sr_valid_s1.val();
                    self.warps[i].sr_we.next = self.inputs.sr_we_s1.val();
                    self.warps[i].sr_wid.next = self.inputs.sr_wid_s1.val();
                    self.warps[i].sr_sel.next = self.inputs.sr_sel_s1.val();
                    self.warps[i].sr_wdata.next = self.inputs.sr_wdata_s1.val();
                    self.warps[i].trap_en.next = self.csr.trap_en.val();
                    self.warps[i].ss_en.next = self.csr.ss_en.val();
                    self.warps[i].hmask.next = self.csr.hmask_q.val();
                    self.warps[i].kill.next = self.csr.kill.val().get_bit(i);
                    self.warps[i].resume.next = self.csr.resume.val().get_bit(i);
                    self.warps[i].win_we.next = self.csr.win_we.val();
                    self.warps[i].win_emask.next = self.csr.win_emask.val();
                    self.warps[i].wsel.next = self.csr.wsel_q.val();
                    self.warps[i].csr_wdata.next = self.inputs.csr_wdata_s1.val();
                    self.warps[i].mode.next = self.mode_ctl.mode_q.val();
                    self.warps[i].save.next = self.save_exit.save.val();
                    self.warps[i].ss_trig.next = self.mode_ctl.ss_trig_q.val();
                    self.warps[i].exit.next = self.save_exit.exit.val();
                    self.warps[i].gsel.next = self.global.gsel[i].val();
                    self.warps[i].gcause.next = self.global.gcause_q.val();
                    self.warps[i].hlat.next = self.episode.hlat_q.val();

                    self.mode_ctl.nm_live[i].next = self.warps[i].nm_live.val();
                    self.mode_ctl.nm_acc[i].next = self.warps[i].nm_acc.val();
                    self.mode_ctl.ss_elig[i].next = self.warps[i].ss_elig.val();
                    self.mode_ctl.ss_done[i].next = self.warps[i].ss_done.val();
                    self.save_exit.trap_next[i].next = self.warps[i].trap_next.val();
                    self.episode.accepted[i].next = self.warps[i].accepted.val();
                    self.episode.live[i].next = self.warps[i].live.val();
                    self.episode.sv_lcause[i].next = self.warps[i].sv_lcause.val();
                    self.episode.sv_ss[i].next = self.warps[i].sv_ss.val();
                    self.episode.gsel[i].next = self.global.gsel[i].val();
                    self.status.warp_st[i].next = self.warps[i].st.val();
                    self.status.sr_ok[i].next = self.warps[i].sr_ok.val();
                    self.status.win_ok[i].next = self.warps[i].win_ok.val();
                    self.view.ws[i].next = self.warps[i].ws_q.val();
                    self.view.lcause[i].next = self.warps[i].lcause_q.val();
                    self.view.ncause[i].next = self.warps[i].ncause_q.val();
                    self.view.gpw[i].next = self.warps[i].gpw_q.val();
                    self.view.stepped[i].next = self.warps[i].stepped_q.val();
                    self.view.epc[i].next = self.warps[i].epc_q.val();
                    self.view.emask[i].next = self.warps[i].emask_q.val();
                    self.sr.esr[i].next = self.warps[i].esr.val();
                    self.sr.epc[i].next = self.warps[i].sr_epc.val();
                    self.sr.emask[i].next = self.warps[i].sr_emask.val();
                    self.buses.redir_pc[i].next = self.warps[i].redir_pc.val();
                    self.buses.redir_mask[i].next = self.warps[i].redir_mask.val();
                    self.buses.ws[i].next = self.warps[i].ws_q.val();
                    self.buses.lcause[i].next = self.warps[i].lcause_q.val();
                    self.buses.ncause[i].next = self.warps[i].ncause_q.val();
                    self.buses.epc[i].next = self.warps[i].epc_q.val();
                    self.buses.emask[i].next = self.warps[i].emask_q.val();

                    self.warp_halt.next = self.warp_halt.val().replace_bit(i, self.warps[i].halt.val());
                    self.redir_valid.next = self.redir_valid.val().replace_bit(i, self.warps[i].redir_valid.val());
                    self.warp_kill.next = self.warp_kill.val().replace_bit(i, self.warps[i].killed.val());
                    self.dbg_gpw.next = self.dbg_gpw.val().replace_bit(i, self.warps[i].gpw_q.val());
                    self.dbg_stepped.next = self.dbg_stepped.val().replace_bit(i, self.warps[i].stepped_q.val());
                }
            }
        }
        // the wide per-warp buses and the state tap: concatenations (`buses`, `global_tap`)
        self.redir_pc.next = self.buses.redir_pc_bus.val();
        self.redir_mask.next = self.buses.redir_mask_bus.val();
        self.dbg_ws.next = self.buses.ws_bus.val();
        self.dbg_lcause.next = self.buses.lcause_bus.val();
        self.dbg_ncause.next = self.buses.ncause_bus.val();
        self.dbg_epc.next = self.buses.epc_bus.val();
        self.dbg_emask.next = self.buses.emask_bus.val();
        self.global_tap.mode.next = self.mode_ctl.mode_q.val();
        self.global_tap.gcause.next = self.global.gcause_q.val();
        self.global_tap.gpend.next = self.global.gpend_q.val();
        self.global_tap.htmask.next = self.global.htmask_q.val();
        self.global_tap.haddr.next = self.csr.haddr_q.val();
        self.global_tap.hlat.next = self.episode.hlat_q.val();
        self.global_tap.vtbase.next = self.csr.vtbase_q.val();
        self.global_tap.ctrl.next = self.csr.ctrl_q.val();
        self.global_tap.irq_en.next = self.csr.irq_en_q.val();
        self.global_tap.sticky.next = self.status.sticky_q.val();
        self.global_tap.tgid.next = self.episode.tgid_q.val();
        self.global_tap.fvalid.next = self.episode.fvalid_q.val();
        self.global_tap.fwid.next = self.episode.fwid_q.val();
        self.global_tap.hmask.next = self.csr.hmask_q.val();
        self.global_tap.wsel.next = self.csr.wsel_q.val();
        self.global_tap.bcast.next = self.mode_ctl.bcast_out.val();
        self.global_tap.ss_trig.next = self.mode_ctl.ss_trig_q.val();
        self.dbg_global.next = self.global_tap.bus.val();

        // (5) first exception, SAVE's latches
        self.episode.gp_any.next = self.global.gp_any.val();
        self.episode.gcause_next.next = self.global.gcause_next.val();
        self.episode.save.next = self.save_exit.save.val();
        self.episode.ss_trig.next = self.mode_ctl.ss_trig_q.val();
        self.episode.haddr.next = self.csr.haddr_q.val();

        // (6) mode
        self.save_exit.mode.next = self.mode_ctl.mode_q.val();
        self.save_exit.quiesced.next = self.inputs.quiesced_s1.val();
        self.mode_ctl.save.next = self.save_exit.save.val();
        self.mode_ctl.exit.next = self.save_exit.exit.val();
        self.mode_ctl.trap_en.next = self.csr.trap_en.val();
        self.mode_ctl.ss_en.next = self.csr.ss_en.val();
        self.mode_ctl.bcast_en.next = self.csr.bcast_en.val();
        self.mode_ctl.gp_any.next = self.global.gp_any.val();
        self.mode_ctl.kill_wr.next = self.csr.kill_wr.val();
        self.mode_ctl.kill_mask.next = self.inputs.csr_wdata_s1.val().get_bits::<W>(0);
        self.drain_req.next = self.mode_ctl.drain_req.val();
        self.trap_mode.next = self.mode_ctl.trap_mode.val();
        self.bcast_out.next = self.mode_ctl.bcast_out.val();

        // (7) sticky bits
        self.status.csr_st.next = self.csr.st.val();
        self.status.global_st.next = self.global.st.val();
        self.status.episode_st.next = self.episode.st.val();
        self.status.mode_st.next = self.mode_ctl.st.val();
        self.status.sticky_clr.next = self.csr.sticky_clr.val();
        self.status.sr_valid.next = self.inputs.sr_valid_s1.val();
        self.status.sr_we.next = self.inputs.sr_we_s1.val();
        self.status.win_we.next = self.csr.win_we.val();
        self.status.irq_en.next = self.csr.irq_en_q.val();
        self.host_irq.next = self.status.host_irq.val();
        self.vt_base.next = self.csr.vtbase_q.val();

        // reads of the pre-edge state
        self.view.wsel.next = self.csr.wsel_q.val();
        self.csr_read.csr_valid.next = self.inputs.csr_valid_s1.val();
        self.csr_read.csr_we.next = self.inputs.csr_we_s1.val();
        self.csr_read.csr_addr.next = self.inputs.csr_addr_s1.val();
        self.csr_read.ctrl.next = self.csr.ctrl_q.val();
        self.csr_read.haddr.next = self.csr.haddr_q.val();
        self.csr_read.mode.next = self.mode_ctl.mode_q.val();
        self.csr_read.sticky.next = self.status.sticky_q.val();
        self.csr_read.irq_en.next = self.csr.irq_en_q.val();
        self.csr_read.tgid.next = self.episode.tgid_q.val();
        self.csr_read.gpend.next = self.global.gpend_q.val();
        self.csr_read.htmask.next = self.global.htmask_q.val();
        self.csr_read.hmask.next = self.csr.hmask_q.val();
        self.csr_read.ws_trap.next = self.view.ws_trap.val();
        self.csr_read.ws_paused.next = self.view.ws_paused.val();
        self.csr_read.ws_parked.next = self.view.ws_parked.val();
        self.csr_read.ws_run.next = self.view.ws_run.val();
        self.csr_read.wsel.next = self.csr.wsel_q.val();
        self.csr_read.winfo.next = self.view.winfo.val();
        self.csr_read.wepc.next = self.view.wepc.val();
        self.csr_read.wemask.next = self.view.wemask.val();
        self.csr_read.vtbase.next = self.csr.vtbase_q.val();
        self.csr_read.gcause.next = self.global.gcause_q.val();
        self.csr_rdata.next = self.csr_read.csr_rdata.val();
        self.sr.sr_valid.next = self.inputs.sr_valid_s1.val();
        self.sr.sr_we.next = self.inputs.sr_we_s1.val();
        self.sr.sr_wid.next = self.inputs.sr_wid_s1.val();
        self.sr.sr_sel.next = self.inputs.sr_sel_s1.val();
        self.sr.tgid.next = self.episode.tgid_q.val();
        self.sr_rdata.next = self.sr.sr_rdata.val();
    }
}
