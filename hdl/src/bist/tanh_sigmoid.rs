//! BIST top for the tanh/sigmoid datapath `eu_tanh_sigmoid`, built for the small config
//! (`configs/tanh_sigmoid-small.toml`: LANES = 1, TAGW = 8, FUSED = 1; the monomorphised
//! instance `TanhSigmoid<1, 32, 8>`).
//!
//! Stimulus bits (DUT inputs except clk/rst, port order): `in_valid` [0], `in_op` [1..3),
//! `in_fmt` [3..5), `in_ftz` [5], `in_mask` [6], `in_data` [7..39), `in_tag` [39..47) → SW = 47
//! (padded to 64; the spare bits `c = s[47..64)` are control randomness). Response bits (outputs,
//! port order): `out_valid` [0], `out_mask` [1], `out_data` [2..34), `out_tag` [34..42) → RW = 42.
//!
//! # Stimulus mapping (modelled identically by `sim::bist_models::tanh_sigmoid`)
//! Raw bits would give a reserved op or format on 7/16 of the vectors (result 0x7FC00000), and
//! uniformly random fp32/bf16 exponents, which land in the clamp or tiny bypass paths on ~93 % of
//! the inputs instead of the interpolator (biased exponents 115..131). The top shapes them:
//! * `in_valid = s.in_valid | c[0]`, `in_mask = s.in_mask | c[7]` (3/4 each);
//! * `in_op = s.in_op == 3 & (c[1] | c[2]) ? {0, c[3]} : s.in_op` (TANH_PRE / SIGMOID / TANH,
//!   reserved op 3 on 1/16), likewise `in_fmt` with `c[4], c[5], c[6]` (fp32 / fp16 / bf16,
//!   reserved on 1/16); `in_ftz`, `in_tag` raw;
//! * `in_data`, by the shaped format, on the exponent field `E` (fp32 bits 30:23, bf16 14:7,
//!   fp16 14:10): "special" (`c[10:8] == 0`, 1/8): `E` all ones if `c[11]` (±∞ / NaN) else all
//!   zeros (±0 / subnormal); "wild" (`c[10:8] == 1`, 1/8): raw; otherwise (3/4) fp32/bf16
//!   `E = 112 + E[4:0]` (112..143: tiny, interpolated 115..131 and clamped), fp16 `E` raw (its
//!   5-bit exponents already cover the interpolated range). Other bits raw.

use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::tanh_sigmoid::rtl::TanhSigmoid;
use crate::tanh_sigmoid::enc::{fmt, op};
use crate::tanh_sigmoid::Config;
use rust_hdl::prelude::*;

pub const SW: usize = 64;
pub const RW: usize = 42;
pub const TOP: &str = "eu_bist_tanh_sigmoid";
/// Stimulus bits above the DUT's 47 inputs that the shaping uses (`c`); `sim::bist` shows them
/// to the golden model as one extra input after the DUT's (`with_spare_stimulus`).
pub const SPARE_BITS: usize = 17;
const _: () = assert!(SPARE_BITS == 17 && SW - SPARE_BITS == 47, "update the literals in `update`");
/// Bias added to the low five exponent bits of tame fp32/bf16 inputs.
pub const TAME_EXP_BASE: u64 = 112;

/// Mask of an exponent field: fp32 [30:23], bf16 [14:7], fp16 [14:10].
fn field_mask(lsb: u32, n: u32) -> Bits<32> {
    ((((1u64 << n) - 1) << lsb) as u64).into()
}

bist_top! {
    pub struct BistTanh {
        core: BistCore<SW, RW> = BistCore::new(p),
        // The configs `supports` accepts: one lane, fused tail, NaN payloads kept; `lat` is the
        // config's (until 2026-11-26 this took `small_config()`'s, so a BIST built for another
        // `lat` silently had none of its pipeline cuts); `formats` is the config's too (the half
        // lane for `formats = "half"`, configs/tanh_sigmoid-half.toml).
        dut: TanhSigmoid<1, 32, 8> = crate::tanh_sigmoid::rtl::TanhSigmoid::with_formats(true, false, crate::tanh_sigmoid::lat(cfg), crate::tanh_sigmoid::is_half(cfg)),
        fault_always = Constant::new(p.fault_always),
        k_op_reserved: Constant<Bits<2>> = Constant::new(op::RESERVED.into()),
        k_fmt_reserved: Constant<Bits<2>> = Constant::new(fmt::RESERVED.into()),
        k_fmt_fp32: Constant<Bits<2>> = Constant::new(fmt::FP32.into()),
        k_fmt_bf16: Constant<Bits<2>> = Constant::new(fmt::BF16.into()),
        k_wild: Constant<Bits<3>> = Constant::new(1.into()),
        k_base8: Constant<Bits<8>> = Constant::new(TAME_EXP_BASE.into()),
        k_ones8: Constant<Bits<8>> = Constant::new(0xFF.into()),
        k_ones5: Constant<Bits<5>> = Constant::new(0x1F.into()),
        k_m_fp32: Constant<Bits<32>> = Constant::new(field_mask(23, 8)),
        k_m_bf16: Constant<Bits<32>> = Constant::new(field_mask(7, 8)),
        k_m_fp16: Constant<Bits<32>> = Constant::new(field_mask(10, 5)),
        c: Signal<Local, Bits<SPARE_BITS>> = Default::default(),
        fmt: Signal<Local, Bits<2>> = Default::default(),
        d: Signal<Local, Bits<32>> = Default::default(),
        e8: Signal<Local, Bits<8>> = Default::default(),
        e5: Signal<Local, Bits<5>> = Default::default(),
    }
    pub fn new(cfg: &Config, p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side: shaped stimulus (see the module docs).
        // Literal width and offset (hdl_gen copies the expressions into the Verilog): SPARE_BITS at SW - SPARE_BITS.
        self.c.next = self.core.stim.val().get_bits::<17>(47);
        self.dut.in_valid.next = self.core.stim.val().get_bit(0) | self.c.val().get_bit(0);
        if (self.core.stim.val().get_bits::<2>(1) == self.k_op_reserved.val()) & (self.c.val().get_bit(1) | self.c.val().get_bit(2)) {
            self.dut.in_op.next = bit_cast::<2, 1>(self.c.val().get_bit(3).into());
        } else {
            self.dut.in_op.next = self.core.stim.val().get_bits::<2>(1);
        }
        self.fmt.next = self.core.stim.val().get_bits::<2>(3);
        if (self.fmt.val() == self.k_fmt_reserved.val()) & (self.c.val().get_bit(4) | self.c.val().get_bit(5)) {
            self.fmt.next = bit_cast::<2, 1>(self.c.val().get_bit(6).into());
        }
        self.dut.in_fmt.next = self.fmt.val();
        self.dut.in_ftz.next = self.core.stim.val().get_bit(5);
        self.dut.in_mask.next = (self.core.stim.val().get_bit(6) | self.c.val().get_bit(7)).into();
        self.d.next = self.core.stim.val().get_bits::<32>(7);
        self.e8.next = 0.into();
        self.e5.next = 0.into();
        if !self.c.val().get_bits::<3>(8).any() {
            if self.c.val().get_bit(11) {
                self.e8.next = self.k_ones8.val();
                self.e5.next = self.k_ones5.val();
            }
            if self.fmt.val() == self.k_fmt_fp32.val() {
                self.d.next = (self.d.val() & !self.k_m_fp32.val()) | (bit_cast::<32, 8>(self.e8.val()) << 23);
            } else if self.fmt.val() == self.k_fmt_bf16.val() {
                self.d.next = (self.d.val() & !self.k_m_bf16.val()) | (bit_cast::<32, 8>(self.e8.val()) << 7);
            } else {
                self.d.next = (self.d.val() & !self.k_m_fp16.val()) | (bit_cast::<32, 5>(self.e5.val()) << 10);
            }
        } else if self.c.val().get_bits::<3>(8) != self.k_wild.val() {
            if self.fmt.val() == self.k_fmt_fp32.val() {
                self.e8.next = self.k_base8.val() + bit_cast::<8, 5>(self.d.val().get_bits::<5>(23));
                self.d.next = (self.d.val() & !self.k_m_fp32.val()) | (bit_cast::<32, 8>(self.e8.val()) << 23);
            } else if self.fmt.val() == self.k_fmt_bf16.val() {
                self.e8.next = self.k_base8.val() + bit_cast::<8, 5>(self.d.val().get_bits::<5>(7));
                self.d.next = (self.d.val() & !self.k_m_bf16.val()) | (bit_cast::<32, 8>(self.e8.val()) << 7);
            }
        }
        self.dut.in_data.next = self.d.val();
        self.dut.in_tag.next = self.core.stim.val().get_bits::<8>(39);
        self.core.resp.next = bit_cast::<RW, 1>(self.dut.out_valid.val().into())
            | (bit_cast::<RW, 1>(self.dut.out_mask.val()) << 1)
            | (bit_cast::<RW, 32>(self.dut.out_data.val()) << 2)
            | (bit_cast::<RW, 8>(self.dut.out_tag.val()) << 34);
    }
}

/// The config this top is built for: one lane, 8-bit tag.
pub fn supports(cfg: &Config) -> bool {
    cfg.lanes == 1 && cfg.tag_width == 8 && cfg.fused == 1 && cfg.canon_nan == 0
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(supports(cfg), "BIST top of tanh_sigmoid is built for lanes = 1, tag_width = 8; got {cfg:?}");
    emit_module(BistTanh::new(cfg, p), TOP, "tanh_sigmoid", super::bist_params(p, SW, RW))
}

/// The small config: one lane, every datapath cut (`lat` 18 = LAT + 12, configs/tanh_sigmoid-small.toml), spec defaults otherwise.
pub fn small_config() -> Config {
    Config { lanes: 1, lat: 18, ..Config::default() }
}

pub fn cosim_params() -> BistParams {
    BistParams {
        dut_name: "eu_tanh_sigmoid".into(),
        board: super::ICEBREAKER,
        cycles: super::DEFAULT_CYCLES,
        expected: None,
        fault_always: false,
    }
}

/// The datapath alone (its ports give the BIST packing).
pub fn dut_module(cfg: &Config) -> EmittedModule {
    use crate::BlockGen;
    crate::tanh_sigmoid::Block::emit(cfg).expect("tanh_sigmoid emits").remove(0)
}
