//! BIST top for the region address generator `eu_region_addr_gen` (RAG only; the RFG/RFS are not
//! wrapped). Built for N_MAX 16 with RB 8 × NR 5..8 (the FPGA configs `small`, the spec's Cfg A,
//! and `rf64`: instance (16, 3, 3)) and RB 32 × NR 65..128 (the default config: (16, 7, 5)).
//!
//! Stimulus bits (DUT inputs except clk/rst, port order, RN_W/RB_W wide `in_reg`/`in_sub`):
//! `in_valid`, `in_enc_err`, `in_reg`, `in_sub`, `in_type` (3), `in_exec_log2` (3),
//! `in_width_log2` (3), `in_hs` (7), `in_vs` (8), `in_is_dst`, `in_colmajor`, `in_tag` (4),
//! `out_ready` → SW = 33 + RN_W + RB_W (padded to 64). Response bits (outputs, port order):
//! `in_ready`, `out_valid`, `out_addr` (16·A_W), `out_esize_log2` (2), `out_ch_valid` (16),
//! `out_straddle` (16), `out_err` (11), `out_warn` (4), `out_tag` (4) → RW = 16·A_W + 55
//! (151 for the small config, 247 for the default).
//!
//! # Stimulus mapping (modelled identically by `sim::bist_models::region_addr_gen`)
//! Raw bits would make almost every descriptor fatal (enc_err 1/2, colmajor 1/2, reserved
//! type, exec > N_MAX, width > exec, reg ≥ NR). The top therefore shapes them; `s.x` are the raw
//! stimulus fields:
//! * `wild = s.enc_err & s.colmajor` (1/4 of the cycles): `enc_err = s.tag[0]`,
//!   `colmajor = s.tag[1]`, every other field raw (the fatal paths).
//! * otherwise ("tame"): `enc_err = 0`, `colmajor = 0`, `type = s.type == RESERVED ? F : s.type`,
//!   `exec = s.exec > log2(N_MAX) ? s.exec - log2(N_MAX) : s.exec`, `width = min(s.width, exec)`,
//!   `reg = s.reg >= NR ? s.reg - NR : s.reg`; sub, hs, vs, is_dst raw.
//! * `in_valid = s.in_valid | s.tag[3]`, `out_ready = s.out_ready | s.tag[2]` (3/4 each), the
//!   tag itself raw.
//! * The shaped inputs pass one register (reset with the DUT) before the DUT: the DUT sees in
//!   cycle t the stimulus of cycle t − 1 (zeros in the first cycle after reset), so the shaping
//!   is not on the DUT's input paths.

use crate::prims::RDff;
use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::region_addr_gen::enc::type_code;
use crate::region_addr_gen::{Config, Rag};
use rust_hdl::prelude::*;

/// N_MAX of every instance this top is built for.
pub const NMAX: usize = 16;
pub const SW: usize = 64;
pub const TOP: &str = "eu_bist_region_addr_gen";
/// The (RN_W, RB_W) instances: RB 8 × NR 5..8, and RB 32 × NR 65..128.
pub const INSTANCES: [(usize, usize); 2] = [(3, 3), (7, 5)];

/// Response width for an address width A_W.
pub const fn rw(aw: usize) -> usize {
    16 * aw + 55
}

bist_top! {
    pub struct BistRag<const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize, const RW: usize> {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: Rag<16, RNW, RBW, AW, ADDRW> = Rag::new(cfg),
        fault_always = Constant::new(p.fault_always),
        /// NR as 9 bits (NR = 2^RN_W is allowed: then no register number is out of range).
        k_nr: Constant<Bits<9>> = Constant::new((cfg.num_regs as u64).into()),
        k_nlog: Constant<Bits<3>> = Constant::new((cfg.n_max.trailing_zeros() as u64).into()),
        k_type_reserved: Constant<Bits<3>> = Constant::new(type_code::RESERVED.into()),
        k_type_f: Constant<Bits<3>> = Constant::new(type_code::F.into()),
        // stimulus bit positions (port order)
        k_s_reg: Constant<Bits<8>> = Constant::new(2u64.into()),
        k_s_sub: Constant<Bits<8>> = Constant::new(((2 + RNW) as u64).into()),
        k_s_type: Constant<Bits<8>> = Constant::new(((2 + RNW + RBW) as u64).into()),
        k_s_exec: Constant<Bits<8>> = Constant::new(((5 + RNW + RBW) as u64).into()),
        k_s_width: Constant<Bits<8>> = Constant::new(((8 + RNW + RBW) as u64).into()),
        k_s_hs: Constant<Bits<8>> = Constant::new(((11 + RNW + RBW) as u64).into()),
        k_s_vs: Constant<Bits<8>> = Constant::new(((18 + RNW + RBW) as u64).into()),
        k_s_is_dst: Constant<Bits<8>> = Constant::new(((26 + RNW + RBW) as u64).into()),
        k_s_colmajor: Constant<Bits<8>> = Constant::new(((27 + RNW + RBW) as u64).into()),
        k_s_tag: Constant<Bits<8>> = Constant::new(((28 + RNW + RBW) as u64).into()),
        k_s_tag1: Constant<Bits<8>> = Constant::new(((29 + RNW + RBW) as u64).into()),
        k_s_tag2: Constant<Bits<8>> = Constant::new(((30 + RNW + RBW) as u64).into()),
        k_s_tag3: Constant<Bits<8>> = Constant::new(((31 + RNW + RBW) as u64).into()),
        k_s_out_ready: Constant<Bits<8>> = Constant::new(((32 + RNW + RBW) as u64).into()),
        // response bit positions
        k_r_esize: Constant<Bits<16>> = Constant::new(((2 + ADDRW) as u64).into()),
        k_r_ch_valid: Constant<Bits<16>> = Constant::new(((4 + ADDRW) as u64).into()),
        k_r_straddle: Constant<Bits<16>> = Constant::new(((20 + ADDRW) as u64).into()),
        k_r_err: Constant<Bits<16>> = Constant::new(((36 + ADDRW) as u64).into()),
        k_r_warn: Constant<Bits<16>> = Constant::new(((47 + ADDRW) as u64).into()),
        k_r_tag: Constant<Bits<16>> = Constant::new(((51 + ADDRW) as u64).into()),
        k_r_addr: Constant<Bits<16>> = Constant::new(2u64.into()),
        k_r_valid: Constant<Bits<16>> = Constant::new(1u64.into()),
        wild: Signal<Local, Bit> = Default::default(),
        ty: Signal<Local, Bits<3>> = Default::default(),
        ex: Signal<Local, Bits<3>> = Default::default(),
        wd: Signal<Local, Bits<3>> = Default::default(),
        rg: Signal<Local, Bits<RNW>> = Default::default(),
        /// The shaped stimulus, registered: the DUT's inputs come from flops, so the shaping's
        /// compares and subtracts are not on the DUT's input paths (they were the UP5K/HX8K
        /// worst paths: stimulus -> `min(width, exec)` -> decode).
        r_in_valid: RDff<Bit> = Default::default(),
        r_in_enc_err: RDff<Bit> = Default::default(),
        r_in_reg: RDff<Bits<RNW>> = Default::default(),
        r_in_sub: RDff<Bits<RBW>> = Default::default(),
        r_in_type: RDff<Bits<3>> = Default::default(),
        r_in_exec_log2: RDff<Bits<3>> = Default::default(),
        r_in_width_log2: RDff<Bits<3>> = Default::default(),
        r_in_hs: RDff<Bits<7>> = Default::default(),
        r_in_vs: RDff<Bits<8>> = Default::default(),
        r_in_is_dst: RDff<Bit> = Default::default(),
        r_in_colmajor: RDff<Bit> = Default::default(),
        r_in_tag: RDff<Bits<4>> = Default::default(),
        r_out_ready: RDff<Bit> = Default::default(),
    }
    pub fn new(cfg: &Config, p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side: shaped stimulus (see the module docs), registered once.
        self.r_in_valid.clock.next = self.clk.val();
        self.r_in_valid.rst.next = self.core.dut_rst.val();
        self.r_in_enc_err.clock.next = self.clk.val();
        self.r_in_enc_err.rst.next = self.core.dut_rst.val();
        self.r_in_reg.clock.next = self.clk.val();
        self.r_in_reg.rst.next = self.core.dut_rst.val();
        self.r_in_sub.clock.next = self.clk.val();
        self.r_in_sub.rst.next = self.core.dut_rst.val();
        self.r_in_type.clock.next = self.clk.val();
        self.r_in_type.rst.next = self.core.dut_rst.val();
        self.r_in_exec_log2.clock.next = self.clk.val();
        self.r_in_exec_log2.rst.next = self.core.dut_rst.val();
        self.r_in_width_log2.clock.next = self.clk.val();
        self.r_in_width_log2.rst.next = self.core.dut_rst.val();
        self.r_in_hs.clock.next = self.clk.val();
        self.r_in_hs.rst.next = self.core.dut_rst.val();
        self.r_in_vs.clock.next = self.clk.val();
        self.r_in_vs.rst.next = self.core.dut_rst.val();
        self.r_in_is_dst.clock.next = self.clk.val();
        self.r_in_is_dst.rst.next = self.core.dut_rst.val();
        self.r_in_colmajor.clock.next = self.clk.val();
        self.r_in_colmajor.rst.next = self.core.dut_rst.val();
        self.r_in_tag.clock.next = self.clk.val();
        self.r_in_tag.rst.next = self.core.dut_rst.val();
        self.r_out_ready.clock.next = self.clk.val();
        self.r_out_ready.rst.next = self.core.dut_rst.val();
        self.wild.next = self.core.stim.val().get_bit(1) & self.core.stim.val().get_bit(self.k_s_colmajor.val().index());
        self.ty.next = self.core.stim.val().get_bits::<3>(self.k_s_type.val().index());
        self.ex.next = self.core.stim.val().get_bits::<3>(self.k_s_exec.val().index());
        self.wd.next = self.core.stim.val().get_bits::<3>(self.k_s_width.val().index());
        self.rg.next = self.core.stim.val().get_bits::<RNW>(self.k_s_reg.val().index());
        if !self.wild.val() {
            if self.ty.val() == self.k_type_reserved.val() {
                self.ty.next = self.k_type_f.val();
            }
            if self.ex.val() > self.k_nlog.val() {
                self.ex.next = self.ex.val() - self.k_nlog.val();
            }
            if self.wd.val() > self.ex.val() {
                self.wd.next = self.ex.val();
            }
            if bit_cast::<9, RNW>(self.rg.val()) >= self.k_nr.val() {
                self.rg.next = self.rg.val() - self.k_nr.val().get_bits::<RNW>(0);
            }
        }
        self.r_in_valid.d.next = self.core.stim.val().get_bit(0) | self.core.stim.val().get_bit(self.k_s_tag3.val().index());
        self.dut.in_valid.next = self.r_in_valid.q.val();
        self.r_in_enc_err.d.next = self.wild.val() & self.core.stim.val().get_bit(self.k_s_tag.val().index());
        self.dut.in_enc_err.next = self.r_in_enc_err.q.val();
        self.r_in_reg.d.next = self.rg.val();
        self.dut.in_reg.next = self.r_in_reg.q.val();
        self.r_in_sub.d.next = self.core.stim.val().get_bits::<RBW>(self.k_s_sub.val().index());
        self.dut.in_sub.next = self.r_in_sub.q.val();
        self.r_in_type.d.next = self.ty.val();
        self.dut.in_type.next = self.r_in_type.q.val();
        self.r_in_exec_log2.d.next = self.ex.val();
        self.dut.in_exec_log2.next = self.r_in_exec_log2.q.val();
        self.r_in_width_log2.d.next = self.wd.val();
        self.dut.in_width_log2.next = self.r_in_width_log2.q.val();
        self.r_in_hs.d.next = self.core.stim.val().get_bits::<7>(self.k_s_hs.val().index());
        self.dut.in_hs.next = self.r_in_hs.q.val();
        self.r_in_vs.d.next = self.core.stim.val().get_bits::<8>(self.k_s_vs.val().index());
        self.dut.in_vs.next = self.r_in_vs.q.val();
        self.r_in_is_dst.d.next = self.core.stim.val().get_bit(self.k_s_is_dst.val().index());
        self.dut.in_is_dst.next = self.r_in_is_dst.q.val();
        self.r_in_colmajor.d.next = self.wild.val() & self.core.stim.val().get_bit(self.k_s_tag1.val().index());
        self.dut.in_colmajor.next = self.r_in_colmajor.q.val();
        self.r_in_tag.d.next = self.core.stim.val().get_bits::<4>(self.k_s_tag.val().index());
        self.dut.in_tag.next = self.r_in_tag.q.val();
        self.r_out_ready.d.next = self.core.stim.val().get_bit(self.k_s_out_ready.val().index())
            | self.core.stim.val().get_bit(self.k_s_tag2.val().index());
        self.dut.out_ready.next = self.r_out_ready.q.val();
        self.core.resp.next = bit_cast::<RW, 1>(self.dut.in_ready.val().into())
            | (bit_cast::<RW, 1>(self.dut.out_valid.val().into()) << self.k_r_valid.val())
            | (bit_cast::<RW, ADDRW>(self.dut.out_addr.val()) << self.k_r_addr.val())
            | (bit_cast::<RW, 2>(self.dut.out_esize_log2.val()) << self.k_r_esize.val())
            | (bit_cast::<RW, 16>(self.dut.out_ch_valid.val()) << self.k_r_ch_valid.val())
            | (bit_cast::<RW, 16>(self.dut.out_straddle.val()) << self.k_r_straddle.val())
            | (bit_cast::<RW, 11>(self.dut.out_err.val()) << self.k_r_err.val())
            | (bit_cast::<RW, 4>(self.dut.out_warn.val()) << self.k_r_warn.val())
            | (bit_cast::<RW, 4>(self.dut.out_tag.val()) << self.k_r_tag.val());
    }
}

/// Checks that the config is an instance this top is built for.
pub fn supports(cfg: &Config) -> bool {
    cfg.n_max as usize == NMAX && INSTANCES.contains(&(cfg.rn_w(), cfg.rb_w()))
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(
        supports(cfg),
        "BIST top of region_addr_gen is built for N_MAX 16 with (RN_W, RB_W) in {INSTANCES:?} (RB 8 x NR 5..8, RB 32 x NR 65..128); got {cfg:?}"
    );
    if (cfg.rn_w(), cfg.rb_w()) == (3, 3) {
        emit_module(BistRag::<3, 3, 6, 96, { rw(6) }>::new(cfg, p), TOP, "region_addr_gen", super::bist_params(p, SW, rw(6)))
    } else {
        emit_module(BistRag::<7, 5, 12, 192, { rw(12) }>::new(cfg, p), TOP, "region_addr_gen", super::bist_params(p, SW, rw(12)))
    }
}

/// The small config (`configs/region_addr_gen-small.toml`: RB 8 x NR 5 = the spec's Cfg A; wrap
/// on, full dst profile, row-major; pipe 6, the co-sim variant `cfg_a_p`).
pub fn small_config() -> Config {
    Config { pipe: 6, ..Config::cfg(8, 5) }
}

/// The co-simulation variant: expected signature from the `expected` port, iCEBreaker clock.
pub fn cosim_params() -> BistParams {
    BistParams {
        dut_name: "eu_region_addr_gen".into(),
        board: super::ICEBREAKER,
        cycles: super::DEFAULT_CYCLES,
        expected: None,
        fault_always: false,
    }
}

/// The RAG alone (its ports give the BIST packing).
pub fn dut_module(cfg: &Config) -> EmittedModule {
    use crate::BlockGen;
    crate::region_addr_gen::Block::emit(cfg).expect("RAG emits").remove(0)
}
