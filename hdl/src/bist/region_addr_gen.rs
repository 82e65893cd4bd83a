//! BIST top for the region address generator `eu_region_addr_gen` (RAG only; the RFG/RFS are not
//! wrapped). Built for the small config (`configs/region_addr_gen-small.toml`: RB 8 x NR 5,
//! N_MAX 16 — the spec's Cfg A, monomorphised instance (16, 3, 3)).
//!
//! Stimulus bits (DUT inputs except clk/rst, port order): `in_valid` [0], `in_enc_err` [1],
//! `in_reg` [2..5), `in_sub` [5..8), `in_type` [8..11), `in_exec_log2` [11..14),
//! `in_width_log2` [14..17), `in_hs` [17..24), `in_vs` [24..32), `in_is_dst` [32],
//! `in_colmajor` [33], `in_tag` [34..38), `out_ready` [38] → SW = 39 (padded to 64).
//! Response bits (outputs, port order): `in_ready` [0], `out_valid` [1], `out_addr` [2..98),
//! `out_esize_log2` [98..100), `out_ch_valid` [100..116), `out_straddle` [116..132),
//! `out_err` [132..143), `out_warn` [143..147), `out_tag` [147..151) → RW = 151.
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

use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::region_addr_gen::enc::type_code;
use crate::region_addr_gen::{Config, Rag};
use rust_hdl::prelude::*;

/// The instance this top is built for: (N_MAX, RN_W, RB_W) = (16, 3, 3).
pub const NMAX: usize = 16;
pub const RNW: usize = 3;
pub const RBW: usize = 3;
pub const SW: usize = 64;
pub const RW: usize = 151;
pub const TOP: &str = "eu_bist_region_addr_gen";

bist_top! {
    pub struct BistRag {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: Rag<16, 3, 3, 6, 96> = Rag::new(cfg),
        fault_always = Constant::new(p.fault_always),
        /// NR as 4 bits (NR = 8 = 2^RN_W is allowed: then no register number is out of range).
        k_nr: Constant<Bits<4>> = Constant::new((cfg.num_regs as u64).into()),
        k_nlog: Constant<Bits<3>> = Constant::new((cfg.n_max.trailing_zeros() as u64).into()),
        k_type_reserved: Constant<Bits<3>> = Constant::new(type_code::RESERVED.into()),
        k_type_f: Constant<Bits<3>> = Constant::new(type_code::F.into()),
        wild: Signal<Local, Bit> = Default::default(),
        ty: Signal<Local, Bits<3>> = Default::default(),
        ex: Signal<Local, Bits<3>> = Default::default(),
        wd: Signal<Local, Bits<3>> = Default::default(),
        rg: Signal<Local, Bits<3>> = Default::default(),
    }
    pub fn new(cfg: &Config, p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side: shaped stimulus (see the module docs).
        self.wild.next = self.core.stim.val().get_bit(1) & self.core.stim.val().get_bit(33);
        self.ty.next = self.core.stim.val().get_bits::<3>(8);
        self.ex.next = self.core.stim.val().get_bits::<3>(11);
        self.wd.next = self.core.stim.val().get_bits::<3>(14);
        self.rg.next = self.core.stim.val().get_bits::<3>(2);
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
            if bit_cast::<4, 3>(self.rg.val()) >= self.k_nr.val() {
                self.rg.next = self.rg.val() - self.k_nr.val().get_bits::<3>(0);
            }
        }
        self.dut.in_valid.next = self.core.stim.val().get_bit(0) | self.core.stim.val().get_bit(37);
        self.dut.in_enc_err.next = self.wild.val() & self.core.stim.val().get_bit(34);
        self.dut.in_reg.next = self.rg.val();
        self.dut.in_sub.next = self.core.stim.val().get_bits::<3>(5);
        self.dut.in_type.next = self.ty.val();
        self.dut.in_exec_log2.next = self.ex.val();
        self.dut.in_width_log2.next = self.wd.val();
        self.dut.in_hs.next = self.core.stim.val().get_bits::<7>(17);
        self.dut.in_vs.next = self.core.stim.val().get_bits::<8>(24);
        self.dut.in_is_dst.next = self.core.stim.val().get_bit(32);
        self.dut.in_colmajor.next = self.wild.val() & self.core.stim.val().get_bit(35);
        self.dut.in_tag.next = self.core.stim.val().get_bits::<4>(34);
        self.dut.out_ready.next = self.core.stim.val().get_bit(38) | self.core.stim.val().get_bit(36);
        self.core.resp.next = bit_cast::<RW, 1>(self.dut.in_ready.val().into())
            | (bit_cast::<RW, 1>(self.dut.out_valid.val().into()) << 1)
            | (bit_cast::<RW, 96>(self.dut.out_addr.val()) << 2)
            | (bit_cast::<RW, 2>(self.dut.out_esize_log2.val()) << 98)
            | (bit_cast::<RW, 16>(self.dut.out_ch_valid.val()) << 100)
            | (bit_cast::<RW, 16>(self.dut.out_straddle.val()) << 116)
            | (bit_cast::<RW, 11>(self.dut.out_err.val()) << 132)
            | (bit_cast::<RW, 4>(self.dut.out_warn.val()) << 143)
            | (bit_cast::<RW, 4>(self.dut.out_tag.val()) << 147);
    }
}

/// Checks that the config is the instance this top is built for.
pub fn supports(cfg: &Config) -> bool {
    cfg.n_max as usize == NMAX && cfg.rn_w() == RNW && cfg.rb_w() == RBW
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(supports(cfg), "BIST top of region_addr_gen is built for N_MAX 16, RN_W 3, RB_W 3 (e.g. RB 8 x NR 5); got {cfg:?}");
    emit_module(BistRag::new(cfg, p), TOP, "region_addr_gen", super::bist_params(p, SW, RW))
}

/// The small config (RB 8 x NR 5 = the spec's Cfg A; wrap on, full dst profile, row-major).
pub fn small_config() -> Config {
    Config::cfg(8, 5)
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
