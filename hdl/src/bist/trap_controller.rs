//! BIST top for the SM trap controller `eu_trap_controller`, built for the small config
//! (`configs/trap_controller-small.toml`: W = 4 warps, T = 32, PC_W = 32, single-step on).
//!
//! Stimulus bits (DUT inputs except clk/rst, port order, W = 4): `warp_valid` [0..4),
//! `exc_valid` [4..8), `exc_cause` [8..24), `exc_pc` [24..152), `exc_mask` [152..280),
//! `ret_valid` [280..284), `pause_valid` [284..288), `warp_pc` [288..416), `warp_mask` [416..544),
//! `quiesced` [544], `bar_wait` [545..549), `issue_valid` [549], `issue_wid` [550..552),
//! `host_int` [552], `sm_evt_valid` [553], `sm_evt_cause` [554..558), `bcast_in` [558],
//! `sr_valid` [559], `sr_wid` [560..562), `sr_sel` [562..565), `sr_we` [565],
//! `sr_wdata` [566..598), `csr_valid` [598], `csr_we` [599], `csr_addr` [600..608),
//! `csr_wdata` [608..640) → SW = 640.
//! Response bits (outputs, port order): `warp_halt` [0..4), `drain_req` [4], `trap_mode` [5],
//! `redir_valid` [6..10), `redir_pc` [10..138), `redir_mask` [138..266), `warp_kill` [266..270),
//! `host_irq` [270], `bcast_out` [271], `vt_base` [272..304), `sr_rdata` [304..336),
//! `csr_rdata` [336..368) → RW = 368.
//!
//! # Stimulus mapping (modelled identically by `sim::bist_models::trap_controller`)
//! Raw bits would raise an exception, a return, a pause, a host interrupt, an SM event and a CSR
//! write on half of all cycles: every warp would be trapped, parked or reset at once and the
//! sticky error bits all set. The top gates the event inputs with control bits `c` = the upper
//! half of `warp_mask` (stimulus bits 480..544, i.e. warps 2 and 3's masks, which are also used
//! raw as data; the correlation is harmless). `all(c[a..b])` is the AND of those bits:
//! * `warp_valid = all(c[0..5]) ? s.warp_valid : 4'hF` (a warp leaves only on 1/32 cycles);
//! * `exc_valid = s.exc_valid & {4{all(c[5..9])}}` (1/16 cycles, each warp 1/2);
//!   `exc_cause = c[9] ? s.exc_cause : s.exc_cause & 16'h7777` (causes 0..7: mostly legal 1..6);
//! * `ret_valid = s.ret_valid & {4{trap_mode ? c[10] : all(c[10..14])}}` (returns mostly while
//!   trapping), `pause_valid = s.pause_valid & {4{trap_mode & all(c[14..18])}}`;
//! * `quiesced = s.quiesced | c[18]`;
//! * `host_int = s.host_int & all(c[19..24])`, `sm_evt_valid = s.sm_evt_valid & all(c[24..29])`,
//!   `bcast_in = s.bcast_in & all(c[29..34])` (1/64 each);
//! * `sr_valid = s.sr_valid & c[34] & c[35]` (1/8);
//! * `csr_valid = s.csr_valid & c[36] & c[37]` (1/8), `csr_addr = c[38] ? s.csr_addr :
//!   {1'b0, s.csr_addr[4:0], 2'b00}` (word addresses 0x00..0x7C, 21 of 32 implemented);
//! * every other input raw.

use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::trap_controller::{Config, TrapCtl};
use rust_hdl::prelude::*;

pub const SW: usize = 640;
pub const RW: usize = 368;
pub const TOP: &str = "eu_bist_trap_controller";
/// First stimulus bit of the control word `c`.
pub const C0: usize = 480;

bist_top! {
    pub struct BistTrap {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: TrapCtl<4, 2, 16, 128, 128, 32, 32> = TrapCtl::new(cfg),
        fault_always = Constant::new(p.fault_always),
        k_f4: Constant<Bits<4>> = Constant::new(0xF.into()),
        k_z4: Constant<Bits<4>> = Constant::new(0.into()),
        k_cmask: Constant<Bits<16>> = Constant::new(0x7777.into()),
        c: Signal<Local, Bits<64>> = Default::default(),
        g_ret: Signal<Local, Bit> = Default::default(),
    }
    pub fn new(cfg: &Config, p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side: gated events (see the module docs).
        self.c.next = self.core.stim.val().get_bits::<64>(480);
        if self.c.val().get_bits::<5>(0).all() {
            self.dut.warp_valid.next = self.core.stim.val().get_bits::<4>(0);
        } else {
            self.dut.warp_valid.next = self.k_f4.val();
        }
        if self.c.val().get_bits::<4>(5).all() {
            self.dut.exc_valid.next = self.core.stim.val().get_bits::<4>(4);
        } else {
            self.dut.exc_valid.next = self.k_z4.val();
        }
        if self.c.val().get_bit(9) {
            self.dut.exc_cause.next = self.core.stim.val().get_bits::<16>(8);
        } else {
            self.dut.exc_cause.next = self.core.stim.val().get_bits::<16>(8) & self.k_cmask.val();
        }
        self.dut.exc_pc.next = self.core.stim.val().get_bits::<128>(24);
        self.dut.exc_mask.next = self.core.stim.val().get_bits::<128>(152);
        if self.dut.trap_mode.val() {
            self.g_ret.next = self.c.val().get_bit(10);
        } else {
            self.g_ret.next = self.c.val().get_bits::<4>(10).all();
        }
        if self.g_ret.val() {
            self.dut.ret_valid.next = self.core.stim.val().get_bits::<4>(280);
        } else {
            self.dut.ret_valid.next = self.k_z4.val();
        }
        if self.dut.trap_mode.val() & self.c.val().get_bits::<4>(14).all() {
            self.dut.pause_valid.next = self.core.stim.val().get_bits::<4>(284);
        } else {
            self.dut.pause_valid.next = self.k_z4.val();
        }
        self.dut.warp_pc.next = self.core.stim.val().get_bits::<128>(288);
        self.dut.warp_mask.next = self.core.stim.val().get_bits::<128>(416);
        self.dut.quiesced.next = self.core.stim.val().get_bit(544) | self.c.val().get_bit(18);
        self.dut.bar_wait.next = self.core.stim.val().get_bits::<4>(545);
        self.dut.issue_valid.next = self.core.stim.val().get_bit(549);
        self.dut.issue_wid.next = self.core.stim.val().get_bits::<2>(550);
        self.dut.host_int.next = self.core.stim.val().get_bit(552) & self.c.val().get_bits::<5>(19).all();
        self.dut.sm_evt_valid.next = self.core.stim.val().get_bit(553) & self.c.val().get_bits::<5>(24).all();
        self.dut.sm_evt_cause.next = self.core.stim.val().get_bits::<4>(554);
        self.dut.bcast_in.next = self.core.stim.val().get_bit(558) & self.c.val().get_bits::<5>(29).all();
        self.dut.sr_valid.next = self.core.stim.val().get_bit(559) & self.c.val().get_bit(34) & self.c.val().get_bit(35);
        self.dut.sr_wid.next = self.core.stim.val().get_bits::<2>(560);
        self.dut.sr_sel.next = self.core.stim.val().get_bits::<3>(562);
        self.dut.sr_we.next = self.core.stim.val().get_bit(565);
        self.dut.sr_wdata.next = self.core.stim.val().get_bits::<32>(566);
        self.dut.csr_valid.next = self.core.stim.val().get_bit(598) & self.c.val().get_bit(36) & self.c.val().get_bit(37);
        self.dut.csr_we.next = self.core.stim.val().get_bit(599);
        if self.c.val().get_bit(38) {
            self.dut.csr_addr.next = self.core.stim.val().get_bits::<8>(600);
        } else {
            self.dut.csr_addr.next = bit_cast::<8, 5>(self.core.stim.val().get_bits::<5>(600)) << 2;
        }
        self.dut.csr_wdata.next = self.core.stim.val().get_bits::<32>(608);
        self.core.resp.next = bit_cast::<RW, 4>(self.dut.warp_halt.val())
            | (bit_cast::<RW, 1>(self.dut.drain_req.val().into()) << 4)
            | (bit_cast::<RW, 1>(self.dut.trap_mode.val().into()) << 5)
            | (bit_cast::<RW, 4>(self.dut.redir_valid.val()) << 6)
            | (bit_cast::<RW, 128>(self.dut.redir_pc.val()) << 10)
            | (bit_cast::<RW, 128>(self.dut.redir_mask.val()) << 138)
            | (bit_cast::<RW, 4>(self.dut.warp_kill.val()) << 266)
            | (bit_cast::<RW, 1>(self.dut.host_irq.val().into()) << 270)
            | (bit_cast::<RW, 1>(self.dut.bcast_out.val().into()) << 271)
            | (bit_cast::<RW, 32>(self.dut.vt_base.val()) << 272)
            | (bit_cast::<RW, 32>(self.dut.sr_rdata.val()) << 304)
            | (bit_cast::<RW, 32>(self.dut.csr_rdata.val()) << 336);
    }
}

pub fn supports(cfg: &Config) -> bool {
    cfg.warps == 4 && cfg.threads == 32 && cfg.pc_width == 32
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(supports(cfg), "BIST top of trap_controller is built for W = 4, T = 32, PC_W = 32; got {cfg:?}");
    emit_module(BistTrap::new(cfg, p), TOP, "trap_controller", super::bist_params(p, SW, RW))
}

/// The small config: 4 warps, spec defaults otherwise.
pub fn small_config() -> Config {
    Config::with_warps(4)
}

pub fn cosim_params() -> BistParams {
    BistParams {
        dut_name: "eu_trap_controller".into(),
        board: super::ICEBREAKER,
        cycles: super::DEFAULT_CYCLES,
        expected: None,
        fault_always: false,
    }
}

/// The trap controller alone (its ports give the BIST packing).
pub fn dut_module(cfg: &Config) -> EmittedModule {
    use crate::BlockGen;
    crate::trap_controller::Block::emit(cfg).expect("trap_controller emits").remove(0)
}
