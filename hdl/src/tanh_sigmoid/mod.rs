//! tanh_sigmoid: the tanh/sigmoid piecewise-quadratic interpolation datapath of a GPU EU math pipe
//! (spec: ../shared/spec/tanh-sigmoid.md, module `tanh_sigmoid_dp`; deviations in
//! docs/tanh_sigmoid.md). `enc` names the op and format codes, `tables` fits the coefficient ROMs,
//! `rtl` is the rust-hdl design.

pub mod accumulate;
pub mod decode;
pub mod enc;
pub mod front;
pub mod half;
pub mod lane;
pub mod rtl;
pub mod round_pack;
pub mod tables;
pub mod tables_half;

use crate::check::{check_one_of, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};

/// TOML section `[tanh_sigmoid]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// SIMD lanes per vector (spec default 8).
    pub lanes: usize,
    /// Width of the opaque tag sideband (spec default 8).
    pub tag_width: usize,
    /// 1: op TANH (fused min/mul tail), LAT = 6; 0: op TANH is reserved, LAT = 4 (spec §6.1/§6.2).
    pub fused: u8,
    /// 0: NaN results keep sign and payload (quieted); 1: the format's canonical quiet NaN (§6.4).
    pub canon_nan: u8,
    /// LAT, the latency in cycles (spec §6.2, timing-closure §3.5). 0: the spec's LAT (6 with the
    /// fused tail, 4 without), today's timing exactly. A larger value adds `lat − LAT` stages
    /// (allowed up to LAT + 12): first the datapath cuts in their fixed order (`rtl::Cuts`: LAT + 1
    /// splits normalise | round + pack, LAT + 2 adds the ROM output register, LAT + 3 the DSP input
    /// registers of the coefficient multipliers, LAT + 4 and LAT + 5 (fused only) those of the N*m
    /// multiplier and a register on the sum of its product parts, then a register on the
    /// normalising shift amount (LAT + 6 fused, LAT + 4 unfused), one inside the stage-1 decode
    /// (LAT + 7 fused, LAT + 5 unfused), (fused only) one inside the stage-4 accumulate (LAT + 8)
    /// and (fused only) registers on the 16x16 piece products before their sum, first in the N*m
    /// multiplier (LAT + 9), then in the two coefficient multipliers (LAT + 10)) and (fused only)
    /// one between the shift and the subtract of the sigmoid reflection (LAT + 11) and (fused
    /// only) one inside the normalising shift, between its coarse and fine halves (LAT + 12), then output
    /// registers behind the datapath.
    pub lat: usize,
    /// "all" (default): fp32, fp16 and bf16; "half": fp16 and bf16 only (issue 15), the narrow
    /// datapath of `half` (`tables_half`: LUT multipliers, a 640 x 43 ROM), fp32 requests give
    /// the reserved-format result 0x7FC00000 (§6.4). Needs fused = 1 (LAT 6); `lat` above 6 adds
    /// the half lane's cuts (`half::HalfCuts`: LAT + 1 a register inside the round stage, LAT + 2
    /// one inside the stage-4 accumulate, LAT + 3 one between the stage-1 widen and decode, LAT + 4
    /// one after the round stage's leading-zero count, LAT + 5 the products as `MulDsp` with their
    /// input and output registers, one cycle more in stage 3, LAT + 6 one inside the round between
    /// the subnormal shift and the RNE increment, LAT + 7 one after the stage-4 range reduction),
    /// then output registers behind the lanes.
    pub formats: String,
}

impl Default for Config {
    fn default() -> Self {
        Self { lanes: 8, tag_width: 8, fused: 1, canon_nan: 0, lat: 0, formats: "all".into() }
    }
}

/// Supported values (the RTL is monomorphised per lane count and tag width).
pub const LANES_ALLOWED: [usize; 5] = [1, 2, 4, 8, 16];
pub const TAGW_ALLOWED: [usize; 3] = [4, 8, 16];

/// The spec's pipeline latency (§6.2): 6 with the fused TANH tail, 4 without.
pub fn spec_lat(cfg: &Config) -> usize {
    if cfg.fused == 1 {
        6
    } else {
        4
    }
}

/// The `formats` values.
pub const FORMATS_ALLOWED: [&str; 2] = ["all", "half"];

/// The config selects the half-only datapath (`formats = "half"`).
pub fn is_half(cfg: &Config) -> bool {
    cfg.formats == "half"
}

/// How many output stages `lat` may add to the spec's latency.
pub const MAX_EXTRA_LAT: usize = 12;

/// The configured latency: `lat`, or the spec's when `lat` is 0.
pub fn lat(cfg: &Config) -> usize {
    if cfg.lat == 0 {
        spec_lat(cfg)
    } else {
        cfg.lat
    }
}

pub struct Block;

/// Prints the fitted ROM tables (what `eu-gen tables` shows).
pub fn tables_report(_cfg: &Config) -> String {
    tables::tables_report()
}

macro_rules! emit_lanes_tag {
    ($cfg:expr, $params:expr, $( ($l:literal, $dw:literal) ),*) => {{
        let (fused, canon, lat, half) = ($cfg.fused == 1, $cfg.canon_nan == 1, lat($cfg), is_half($cfg));
        match ($cfg.lanes, $cfg.tag_width) {
            $(
                ($l, 4) => emit_module(rtl::TanhSigmoid::<$l, $dw, 4>::with_formats(fused, canon, lat, half), "eu_tanh_sigmoid", Block::NAME, $params),
                ($l, 8) => emit_module(rtl::TanhSigmoid::<$l, $dw, 8>::with_formats(fused, canon, lat, half), "eu_tanh_sigmoid", Block::NAME, $params),
                ($l, 16) => emit_module(rtl::TanhSigmoid::<$l, $dw, 16>::with_formats(fused, canon, lat, half), "eu_tanh_sigmoid", Block::NAME, $params),
            )*
            _ => unreachable!("validated config"),
        }
    }};
}

impl BlockGen for Block {
    const NAME: &'static str = "tanh_sigmoid";
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] = &[&enc::op::TABLE, &enc::fmt::TABLE];
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of(Self::NAME, "lanes", cfg.lanes, &LANES_ALLOWED)?;
        check_one_of(Self::NAME, "tag_width", cfg.tag_width, &TAGW_ALLOWED)?;
        check_one_of(Self::NAME, "fused", cfg.fused, &[0, 1])?;
        check_one_of(Self::NAME, "canon_nan", cfg.canon_nan, &[0, 1])?;
        check_one_of(Self::NAME, "formats", cfg.formats.as_str(), &FORMATS_ALLOWED)?;
        if is_half(cfg) && cfg.fused != 1 {
            return Err(ConfigError::new(
                format!("{}.formats", Self::NAME),
                "\"half\" is built with the fused TANH tail only (LAT 6): set fused = 1".to_string(),
            ));
        }
        let base = spec_lat(cfg);
        if cfg.lat != 0 && !(base..=base + MAX_EXTRA_LAT).contains(&cfg.lat) {
            return Err(ConfigError::new(
                format!("{}.lat", Self::NAME),
                format!("must be 0 (the spec's LAT, {base} with fused = {}) or in {base}..={}, got {}", cfg.fused, base + MAX_EXTRA_LAT, cfg.lat),
            ));
        }
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let params = crate::params!(
            "lanes" => cfg.lanes, "tag_width" => cfg.tag_width, "fused" => cfg.fused,
            "canon_nan" => cfg.canon_nan, "lat" => lat(cfg), "formats" => cfg.formats
        );
        let m = emit_lanes_tag!(cfg, params, (1, 32), (2, 64), (4, 128), (8, 256), (16, 512))?;
        Ok(vec![m])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        vec![
            ("lanes1", Config { lanes: 1, ..Config::default() }),
            ("lanes8", Config::default()),
            // FUSED = 0 (LAT = 4, op TANH reserved) and CANON_NAN = 1 together: one small model
            ("lanes1_unfused_canon", Config { lanes: 1, fused: 0, canon_nan: 1, ..Config::default() }),
            // test-only: the latency raised by 1, 4, 7, 8, 9, 10, 11 and 12 cycles, i.e. the
            // datapath cuts A, A-D, A-G, A-H, A-I, A-J, A-K and A-L of `lat` (rtl::Cuts), checked through the
            // latency-aware golden wrapper (sim::latency::FixedLatency)
            ("lanes1_lat7", Config { lanes: 1, lat: 7, ..Config::default() }),
            ("lanes1_lat10", Config { lanes: 1, lat: 10, ..Config::default() }),
            ("lanes1_lat13", Config { lanes: 1, lat: 13, ..Config::default() }),
            ("lanes1_lat14", Config { lanes: 1, lat: 14, ..Config::default() }),
            ("lanes1_lat15", Config { lanes: 1, lat: 15, ..Config::default() }),
            ("lanes1_lat16", Config { lanes: 1, lat: 16, ..Config::default() }),
            ("lanes1_lat17", Config { lanes: 1, lat: 17, ..Config::default() }),
            ("lanes1_lat18", Config { lanes: 1, lat: 18, ..Config::default() }),
            // FUSED = 0 at LAT + 6: all five of its cuts (A, B, C, F, G) and one output register
            ("lanes1_unfused_canon_lat10", Config { lanes: 1, fused: 0, canon_nan: 1, lat: 10, ..Config::default() }),
            // the config matrix's corners (docs "Config matrix"): the widest unit with the widest
            // tag and both options on; two lanes with the narrowest tag and both options off
            ("lanes16_tag16_canon", Config { lanes: 16, tag_width: 16, fused: 1, canon_nan: 1, lat: 0, ..Config::default() }),
            ("lanes2_tag4_unfused", Config { lanes: 2, tag_width: 4, fused: 0, canon_nan: 0, lat: 0, ..Config::default() }),
            // formats = "half" (issue 15): the half lane at LAT 6, at lat 7 (cut A), two lanes
            // with canonical NaNs, 4-bit tags and lat 9 (cuts A, B and C), and one lane at lat 11
            // (all five cuts: A-C, D the register after the leading-zero count, E the products as
            // `MulDsp`)
            ("lanes1_half", Config { lanes: 1, formats: "half".into(), ..Config::default() }),
            ("lanes1_half_lat7", Config { lanes: 1, lat: 7, formats: "half".into(), ..Config::default() }),
            ("lanes2_half_tag4_canon_lat9", Config { lanes: 2, tag_width: 4, canon_nan: 1, lat: 9, formats: "half".into(), ..Config::default() }),
            ("lanes1_half_lat11", Config { lanes: 1, lat: 11, formats: "half".into(), ..Config::default() }),
            // and at lat 13 (all seven: F the register between the subnormal shift and the RNE
            // increment, G the one after the range reduction)
            ("lanes1_half_lat13", Config { lanes: 1, lat: 13, formats: "half".into(), ..Config::default() }),
        ]
    }
    fn config_matrix() -> crate::ConfigMatrix {
        crate::ConfigMatrix::default()
            .key("lanes", &["1", "8", "16"], "1, 2, 4, 8, 16: the extremes and the default (lane count only replicates the lane)")
            .key("tag_width", &["4", "8", "16"], "4, 8, 16: every value")
            .key("fused", &["0", "1"], "the fused TANH tail (LAT 6) or not (LAT 4)")
            .key("canon_nan", &["0", "1"], "NaN payloads kept or canonical")
            .key("lat", &["0", "7", "18"], "0 (the spec's LAT) or LAT..=LAT+12: the spec's, one cut, every cut")
            .pair(("fused", "0"), ("canon_nan", "0"))
            .pair(("fused", "0"), ("canon_nan", "1"))
            .pair(("fused", "1"), ("canon_nan", "0"))
            .pair(("fused", "1"), ("canon_nan", "1"))
            .pair(("fused", "0"), ("lat", "10"))
            .key("formats", &["\"all\"", "\"half\""], "every value: the all-formats lane or the half lane (fp16/bf16 only)")
            .pair(("formats", "\"half\""), ("canon_nan", "1"))
            .pair(("formats", "\"half\""), ("lat", "7"))
            .pair(("formats", "\"half\""), ("lat", "9"))
            .pair(("formats", "\"half\""), ("lat", "11"))
            .pair(("formats", "\"half\""), ("lat", "13"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn config_errors_name_the_key() {
        let e = Block::validate(&Config { lanes: 3, ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.lanes");
        let e = Block::validate(&Config { fused: 2, ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.fused");
        let e = Block::validate(&Config { tag_width: 7, ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.tag_width");
        let e = Block::validate(&Config { canon_nan: 2, ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.canon_nan");
        let e = Block::validate(&Config { formats: "quarter".into(), ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.formats");
        let e = Block::validate(&Config { formats: "half".into(), fused: 0, ..Config::default() }).unwrap_err();
        assert_eq!(e.key, "tanh_sigmoid.formats");
        assert!(Block::validate(&Config { formats: "half".into(), lat: 17, ..Config::default() }).is_ok());
        for (fused, canon_nan) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            assert!(Block::validate(&Config { fused, canon_nan, ..Config::default() }).is_ok());
        }
    }
}
