//! RTL of the tanh/sigmoid datapath in rust-hdl (see docs/tanh_sigmoid.md for the arithmetic):
//! the top `TanhSigmoid` (lanes, valid/mask/tag delay lines, output assembly).
//!
//! A lane is `Front` (front.rs, stages 1-3: `Decode` (decode.rs), ROM + squarer, the two
//! coefficient products), the combinational `Accumulate` (accumulate.rs: sum, tanh clamp, sigmoid
//! reflection) and a tail (lane.rs):
//! - `Lane` (FUSED = 1, LAT = 6): 4 accumulate and select the fused multiplicand min(|x|, 1),
//!   5 N*m product, 6 `RoundPack` (round_pack.rs: normalise, RNE round, pack, bypass, mask);
//! - `LaneUnfused` (FUSED = 0, LAT = 4): 4 accumulate and `RoundPack` in one stage.
//!
//! Every register is an `RDff`, whose synchronous reset sits in its clocked block: no
//! combinational logic reads `rst`, so Verilator evaluates only the stage-1 decode in its
//! input-combinational region and the rest of the lane once per cycle (docs/tanh_sigmoid.md,
//! "Where the RTL co-sim time goes"). The products are `prims::Mul<32, 32, 64>` (registered, one
//! `*` each) and the valid/mask/tag delay lines `prims::Delay`.

pub use super::front::coefficient_rom;
use super::half::{HalfCuts, HalfLane};
use super::lane::{Lane, LaneUnfused};
use crate::prims::Delay;
use rust_hdl::prelude::*;

/// The pipeline cuts that `lat` above the spec's LAT adds inside the datapath, in this fixed order
/// (each one cycle): A `round_split` (normalise | round + pack, `RoundPack`), B `rom_reg` (a second
/// register on the ROM word, the EBR's output register, `Front`), C `mul_dsp` (the coefficient
/// multipliers with DSP input registers, `prims::MulDsp`, `Front`), with the fused tail only D
/// `mul3_dsp` (the N*m multiplier as `MulDsp`, `Lane`) and E `sum_reg` (a register on the 64-bit
/// sum of the N*m product parts, `Lane`), then F `shift_reg` (a register on the shift amount
/// before the normalising shift, `RoundPack`) and G `decode_reg` (a register between the input's
/// widening to fp32 and the rest of the stage-1 decode, `Front`), with the fused tail only H
/// `accum_reg` (a register inside the stage-4 accumulate, `AccumulateCut`) and I `mul3_pp` (the
/// N*m multiplier as `prims::MulDspPp`: its 16x16 piece products registered before their sum,
/// `Lane`) and J `mul_pp` (the two coefficient multipliers the same way, `Front`), and with the
/// fused tail only K `refl_reg` (a register between the shift by k and the sigmoid reflection's
/// subtract, in `AccumulateCut`'s second half: needs H) and L `shift_split` (a register inside
/// the normalising shift, between its coarse and fine halves, `RoundPack`). Cycles beyond these
/// are output registers behind the datapath.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    pub round_split: bool,
    pub rom_reg: bool,
    pub mul_dsp: bool,
    pub mul3_dsp: bool,
    pub sum_reg: bool,
    pub shift_reg: bool,
    pub decode_reg: bool,
    pub accum_reg: bool,
    pub mul3_pp: bool,
    pub mul_pp: bool,
    pub refl_reg: bool,
    pub shift_split: bool,
}

impl Cuts {
    /// The cuts for `extra` = lat − LAT cycles: the first `extra` of A, B, C, D, E, F, G, H, I, J, K,
    /// L (D, E, H … L only with the fused tail: D, E and I are in its N*m multiplier; H … L
    /// come last so that every lat below them keeps the cuts, i.e. the timing, it had before they
    /// existed; FUSED = 0's extra cycles after G are output registers).
    pub fn for_extra(extra: usize, fused: bool) -> Self {
        if fused {
            Self {
                round_split: extra >= 1,
                rom_reg: extra >= 2,
                mul_dsp: extra >= 3,
                mul3_dsp: extra >= 4,
                sum_reg: extra >= 5,
                shift_reg: extra >= 6,
                decode_reg: extra >= 7,
                accum_reg: extra >= 8,
                mul3_pp: extra >= 9,
                mul_pp: extra >= 10,
                refl_reg: extra >= 11,
                shift_split: extra >= 12,
            }
        } else {
            Self {
                round_split: extra >= 1,
                rom_reg: extra >= 2,
                mul_dsp: extra >= 3,
                mul3_dsp: false,
                sum_reg: false,
                shift_reg: extra >= 4,
                decode_reg: extra >= 5,
                accum_reg: false,
                mul3_pp: false,
                mul_pp: false,
                refl_reg: false,
                shift_split: false,
            }
        }
    }
    /// Cycles they add.
    pub fn cycles(self) -> usize {
        [self.round_split, self.rom_reg, self.mul_dsp, self.mul3_dsp, self.sum_reg, self.shift_reg, self.decode_reg, self.accum_reg, self.mul3_pp, self.mul_pp, self.refl_reg, self.shift_split]
            .iter()
            .filter(|&&c| c)
            .count()
    }
}

/// `tanh_sigmoid_dp` (spec §6.1) with LANES lanes, DW = 32*LANES, tag width TAGW. Exactly one of
/// `fused` / `unfused` / `half` holds the LANES lanes (config FUSED, config `formats = "half"`:
/// `HalfLane`, half.rs); the others are empty and emit nothing.
#[derive(LogicBlock)]
pub struct TanhSigmoid<const LANES: usize, const DW: usize, const TAGW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_op: Signal<In, Bits<2>>,
    pub in_fmt: Signal<In, Bits<2>>,
    pub in_ftz: Signal<In, Bit>,
    pub in_mask: Signal<In, Bits<LANES>>,
    pub in_data: Signal<In, Bits<DW>>,
    pub in_tag: Signal<In, Bits<TAGW>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_mask: Signal<Out, Bits<LANES>>,
    pub out_data: Signal<Out, Bits<DW>>,
    pub out_tag: Signal<Out, Bits<TAGW>>,
    fused: Vec<Lane>,
    unfused: Vec<LaneUnfused>,
    half: Vec<HalfLane>,
    dvalid: Delay<Bits<1>>,
    dmask: Delay<Bits<LANES>>,
    dtag: Delay<Bits<TAGW>>,
    /// `lat` above the spec's LAT and its cuts: one delay line of the remaining
    /// `lat − LAT − cuts` stages on the data (none while the cuts cover `lat`).
    retime: Vec<Delay<Bits<DW>>>,
    collect: Signal<Local, Bits<DW>>,
    lo: Signal<Local, Bits<32>>,
    mask32: Signal<Local, Bits<32>>,
    top: Constant<Bits<16>>,
    _n_fused: usize,
    _n_unfused: usize,
    _n_half: usize,
    _n_retime: usize,
}

impl<const LANES: usize, const DW: usize, const TAGW: usize> TanhSigmoid<LANES, DW, TAGW> {
    /// `lat` is the config's latency: at least the spec's (6 with the fused tail, 4 without);
    /// cycles above it are first the datapath cuts of [`Cuts`], then output register stages.
    pub fn new(fused: bool, canon_nan: bool, lat: usize) -> Self {
        Self::with_formats(fused, canon_nan, lat, false)
    }
    /// `half`: config `formats = "half"`, the half lanes (fused only, LAT 6; `lat` above it adds
    /// first the half lane's cuts (`half::HalfCuts`), then output register stages).
    pub fn with_formats(fused: bool, canon_nan: bool, lat: usize, half: bool) -> Self {
        assert_eq!(DW, 32 * LANES);
        assert!(fused || !half, "the half lane has the fused tail");
        let base = if fused { 6 } else { 4 };
        assert!(lat >= base, "lat {lat} below the datapath's {base}");
        let (nf, nu, nh) = if half {
            (0, 0, LANES)
        } else if fused {
            (LANES, 0, 0)
        } else {
            (0, LANES, 0)
        };
        let cuts = if half { Cuts::default() } else { Cuts::for_extra(lat - base, fused) };
        let hcuts = if half { HalfCuts::for_extra(lat - base) } else { HalfCuts::default() };
        let behind = lat - base - cuts.cycles() - hcuts.cycles();
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_op: Default::default(),
            in_fmt: Default::default(),
            in_ftz: Default::default(),
            in_mask: Default::default(),
            in_data: Default::default(),
            in_tag: Default::default(),
            out_valid: Default::default(),
            out_mask: Default::default(),
            out_data: Default::default(),
            out_tag: Default::default(),
            fused: (0..nf).map(|_| Lane::new(canon_nan, cuts)).collect(),
            unfused: (0..nu).map(|_| LaneUnfused::new(canon_nan, cuts)).collect(),
            half: (0..nh).map(|_| HalfLane::new(canon_nan, hcuts)).collect(),
            dvalid: Delay::new(lat),
            dmask: Delay::new(lat),
            dtag: Delay::new(lat),
            retime: (0..behind).take(1).map(|_| Delay::new(behind)).collect(),
            collect: Default::default(),
            lo: Default::default(),
            mask32: Default::default(),
            top: Constant::new(((DW - 32) as u64).into()),
            _n_fused: nf,
            _n_unfused: nu,
            _n_half: nh,
            _n_retime: (behind > 0) as usize,
        }
    }
}

impl<const LANES: usize, const DW: usize, const TAGW: usize> Logic for TanhSigmoid<LANES, DW, TAGW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.dvalid.clock.next = self.clk.val();
        self.dmask.clock.next = self.clk.val();
        self.dtag.clock.next = self.clk.val();
        self.dvalid.rst.next = self.rst.val();
        self.dmask.rst.next = self.rst.val();
        self.dtag.rst.next = self.rst.val();
        self.dvalid.d.next = bit_cast::<1, 1>(self.in_valid.val().into());
        self.dmask.d.next = self.in_mask.val();
        self.dtag.d.next = self.in_tag.val();
        self.out_valid.next = self.dvalid.q.val().any();
        self.out_mask.next = self.dmask.q.val();
        self.out_tag.next = self.dtag.q.val();
        self.mask32.next = bit_cast::<32, LANES>(self.in_mask.val());
        // lane i reads in_data[32i+31:32i] and writes out_data[32i+31:32i]; out_data is shifted
        // in from the top, one lane at a time
        self.collect.next = 0.into();
        for i in 0..self._n_fused {
            self.fused[i].clk.next = self.clk.val();
            self.fused[i].rst.next = self.rst.val();
            self.fused[i].en.next = self.in_valid.val() & self.mask32.val().get_bit(i);
            self.fused[i].op.next = self.in_op.val();
            self.fused[i].fmt.next = self.in_fmt.val();
            self.fused[i].ftz.next = self.in_ftz.val();
            self.fused[i].din.next = self.in_data.val().get_bits::<32>(32 * i);
            self.lo.next = self.fused[i].dout.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<DW, 32>(self.lo.val()) << self.top.val());
        }
        for i in 0..self._n_unfused {
            self.unfused[i].clk.next = self.clk.val();
            self.unfused[i].rst.next = self.rst.val();
            self.unfused[i].en.next = self.in_valid.val() & self.mask32.val().get_bit(i);
            self.unfused[i].op.next = self.in_op.val();
            self.unfused[i].fmt.next = self.in_fmt.val();
            self.unfused[i].ftz.next = self.in_ftz.val();
            self.unfused[i].din.next = self.in_data.val().get_bits::<32>(32 * i);
            self.lo.next = self.unfused[i].dout.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<DW, 32>(self.lo.val()) << self.top.val());
        }
        for i in 0..self._n_half {
            self.half[i].clk.next = self.clk.val();
            self.half[i].rst.next = self.rst.val();
            self.half[i].en.next = self.in_valid.val() & self.mask32.val().get_bit(i);
            self.half[i].op.next = self.in_op.val();
            self.half[i].fmt.next = self.in_fmt.val();
            self.half[i].ftz.next = self.in_ftz.val();
            self.half[i].din.next = self.in_data.val().get_bits::<32>(32 * i);
            self.lo.next = self.half[i].dout.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<DW, 32>(self.lo.val()) << self.top.val());
        }
        self.out_data.next = self.collect.val();
        for i in 0..self._n_retime {
            self.retime[i].clock.next = self.clk.val();
            self.retime[i].rst.next = self.rst.val();
            self.retime[i].d.next = self.collect.val();
            self.out_data.next = self.retime[i].q.val();
        }
    }
}
