//! The block registry: everything that lists the blocks is generated from [`for_each_block!`],
//! the one place where a block's name is written down.
//!
//! Imports run one way: the registry uses the blocks, the blocks use only the core
//! (`check`, `emit`, `enc`, `prims`), never the registry.
//!
//! From the list come: the `eu-gen` config ([`EuConfig`], one optional TOML section per block),
//! its validation and emission, the co-simulation builds (`cosim_builds`, which `sim/build.rs`
//! verilates), the encodings headers ([`encodings`]), the module declarations of the `hdl` crate
//! and of its BIST tops, and on the `sim` side the golden models, the BIST cycle models and the
//! BIST registry (`sim::bist_models::registry`).

use crate::check::ConfigError;
use crate::emit::{EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Calls the macro `$m` with the list of blocks: `$m! { region_addr_gen, branch_unit, ... }`.
///
/// **Adding a block is one name here** (plus the block's own files, see docs/adding-a-block.md).
/// Each name is a module of `hdl` (`hdl/src/<name>/`), of `hdl::bist` (its BIST top), of
/// `sim::golden` (its golden model) and of `sim::bist_models` (its BIST cycle model), and the
/// name of the block's TOML section.
#[macro_export]
macro_rules! for_each_block {
    ($m:ident) => {
        $m! { region_addr_gen, branch_unit, alu_pipeline, trap_controller, tanh_sigmoid, eu_core }
    };
}

/// The blocks of [`for_each_block!`] that have an FPGA BIST top (`hdl::bist::<block>`,
/// `sim::bist_models::<block>`): all of them (eu_core's runs a kernel, hdl/src/bist/eu_core.rs).
#[macro_export]
macro_rules! for_each_bist_block {
    ($m:ident) => {
        $m! { region_addr_gen, branch_unit, alu_pipeline, trap_controller, tanh_sigmoid, eu_core }
    };
}

/// Declares `pub mod <block>;` for every block (used by `hdl`, `hdl::bist`, `sim::golden`,
/// `sim::bist_models`): `hdl::for_each_block!(declare_block_modules);`.
#[macro_export]
macro_rules! declare_block_modules {
    ($($b:ident),* $(,)?) => { $(pub mod $b;)* };
}

/// Config parse, validation and emission errors of `eu-gen`.
#[derive(Debug)]
pub enum GenError {
    Parse(String),
    Config(ConfigError),
    Emit(EmitError),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Parse(s) => write!(f, "{s}"),
            GenError::Config(e) => write!(f, "{e}"),
            GenError::Emit(e) => write!(f, "{e}"),
        }
    }
}
impl std::error::Error for GenError {}
impl From<ConfigError> for GenError {
    fn from(e: ConfigError) -> Self {
        GenError::Config(e)
    }
}
impl From<EmitError> for GenError {
    fn from(e: EmitError) -> Self {
        GenError::Emit(e)
    }
}

fn run<B: BlockGen>(cfg: &Option<B::Config>, out: &mut Vec<EmittedModule>) -> Result<(), GenError> {
    if let Some(c) = cfg {
        B::validate(c)?;
        out.extend(B::emit(c)?);
    }
    Ok(())
}

fn check<B: BlockGen>(cfg: &Option<B::Config>) -> Result<(), ConfigError> {
    cfg.as_ref().map_or(Ok(()), B::validate)
}

fn add_cosim<B: BlockGen>(out: &mut Vec<(String, Vec<EmittedModule>)>) {
    for (variant, cfg) in B::cosim_configs() {
        B::validate(&cfg).unwrap_or_else(|e| panic!("{}_{variant}: {e}", B::NAME));
        let mut mods = B::emit(&cfg).unwrap_or_else(|e| panic!("{}_{variant}: {e}", B::NAME));
        mods.retain(|m| B::cosim_keeps(variant, &m.name));
        out.push((format!("{}_{variant}", B::NAME), mods));
    }
}

/// Checks a block's [`BlockGen::config_matrix`] against its co-simulation variants and returns
/// the matrix as a markdown table (docs/<block>.md, between [`MATRIX_BEGIN`] and [`MATRIX_END`]):
/// an error names the key that has no row, the row that names no key, or the value or pair that
/// no variant co-simulates.
pub fn config_matrix<B: BlockGen>() -> Result<String, String> {
    let table = |c: &B::Config| toml::Table::try_from(c).map_err(|e| format!("{}: config does not serialise: {e}", B::NAME));
    let m = B::config_matrix();
    let default = table(&B::Config::default())?;
    let variants: Vec<(&str, toml::Table)> =
        B::cosim_configs().into_iter().map(|(v, c)| table(&c).map(|t| (v, t))).collect::<Result<_, _>>()?;
    for k in default.keys() {
        if !m.keys.iter().any(|r| r.key == k) {
            return Err(format!("{}.{k}: no row in the block's config_matrix()", B::NAME));
        }
    }
    let has = |t: &toml::Table, k: &str, v: &str| t.get(k).is_some_and(|x| x.to_string() == v);
    let names = |vs: Vec<&str>| {
        let n = vs.len();
        let mut s = vs.iter().take(4).map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
        if n > 4 {
            s += &format!(" and {} more", n - 4);
        }
        s
    };
    let mut md = String::from("| key | default | value | co-simulated by | why these values |\n|---|---|---|---|---|\n");
    for r in &m.keys {
        let Some(d) = default.get(r.key) else {
            return Err(format!("{}.{}: config_matrix() names a key the config does not have", B::NAME, r.key));
        };
        for (i, v) in r.values.iter().enumerate() {
            let by: Vec<&str> = variants.iter().filter(|(_, t)| has(t, r.key, v)).map(|(n, _)| *n).collect();
            if by.is_empty() {
                return Err(format!("{}.{} = {v} is accepted but no co-simulation variant has it", B::NAME, r.key));
            }
            let (key, dflt, why) = if i == 0 { (format!("`{}`", r.key), format!("`{d}`"), r.why) } else { (String::new(), String::new(), "") };
            md += &format!("| {key} | {dflt} | `{v}` | {} | {why} |\n", names(by));
        }
    }
    for [(ka, va), (kb, vb)] in &m.pairs {
        let by: Vec<&str> = variants.iter().filter(|(_, t)| has(t, ka, va) && has(t, kb, vb)).map(|(n, _)| *n).collect();
        if by.is_empty() {
            return Err(format!("{}: no co-simulation variant has both {ka} = {va} and {kb} = {vb}", B::NAME));
        }
        md += &format!("| `{ka}`, `{kb}` | | `{va}`, `{vb}` | {} | together (structure) |\n", names(by));
    }
    Ok(md)
}

/// The config of co-simulation variant `variant` of block `B` (its `cosim_configs` name); panics
/// naming the block and variant if there is none (a test or driver asking for a model that is
/// not built).
pub fn cosim_config<B: BlockGen>(variant: &str) -> B::Config {
    B::cosim_configs()
        .into_iter()
        .find(|(n, _)| *n == variant)
        .unwrap_or_else(|| panic!("{} has no co-simulation variant {variant}", B::NAME))
        .1
}

/// Markers around the generated config matrix in docs/<block>.md.
pub const MATRIX_BEGIN: &str = "<!-- config matrix: generated by `eu-gen matrix`, do not edit -->";
/// End marker of the generated config matrix.
pub const MATRIX_END: &str = "<!-- end of config matrix -->";

/// A block's name and encodings tables, as the registry lists them.
#[derive(Clone, Copy, Debug)]
pub struct BlockInfo {
    /// Config section / module prefix, e.g. `branch_unit`.
    pub name: &'static str,
    /// The block's encodings (op, error, event, state codes); empty if it has none.
    pub encodings: &'static [&'static crate::enc::Table],
}

macro_rules! define_registry {
    ($($b:ident),* $(,)?) => {
        /// The `eu-gen` configuration: one optional TOML section per block.
        ///
        /// A section that is present is emitted; an absent section is not. The built-in default
        /// config ([`EuConfig::default_all`]) has every block at its defaults. Unknown keys are
        /// errors (`deny_unknown_fields` on every section), so a typo never silently falls back.
        #[derive(Debug, Clone, Default, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct EuConfig {
            $(pub $b: Option<crate::$b::Config>,)*
        }

        impl EuConfig {
            /// Every block at its defaults: what `eu-gen` emits with no `--config`.
            pub fn default_all() -> Self {
                Self { $($b: Some(Default::default()),)* }
            }

            pub fn validate(&self) -> Result<(), ConfigError> {
                $(check::<crate::$b::Block>(&self.$b)?;)*
                Ok(())
            }

            /// Validates everything first, then emits every configured block: nothing is
            /// produced for a config with any error.
            pub fn emit(&self) -> Result<Vec<EmittedModule>, GenError> {
                self.validate()?;
                let mut out = Vec::new();
                $(run::<crate::$b::Block>(&self.$b, &mut out)?;)*
                Ok(out)
            }

            /// The blocks whose section is present, in registry order.
            pub fn enabled(&self) -> Vec<&'static str> {
                let mut v = Vec::new();
                $(if self.$b.is_some() { v.push(stringify!($b)); })*
                v
            }
        }

        /// Every block's config matrix ([`config_matrix`]), in registry order.
        pub fn config_matrices() -> Vec<(&'static str, Result<String, String>)> {
            vec![$((stringify!($b), config_matrix::<crate::$b::Block>()),)*]
        }

        /// Every block, in registry order.
        pub const BLOCKS: &[BlockInfo] = &[
            $(BlockInfo { name: stringify!($b), encodings: <crate::$b::Block as BlockGen>::ENCODINGS },)*
        ];

        fn block_cosim(out: &mut Vec<(String, Vec<EmittedModule>)>) {
            $(add_cosim::<crate::$b::Block>(out);)*
        }
    };
}
crate::for_each_block!(define_registry);

macro_rules! define_bist_cosim {
    ($($b:ident),* $(,)?) => {
        /// Every BIST block's top at its BIST co-simulation parameters (`bist_<block>`).
        fn bist_cosim(out: &mut Vec<(String, Vec<EmittedModule>)>) {
            $(
                let top = crate::bist::$b::emit(&crate::bist::$b::small_config(), &crate::bist::$b::cosim_params())
                    .unwrap_or_else(|e| panic!("BIST top of {}: {e}", stringify!($b)));
                out.push((concat!("bist_", stringify!($b)).to_string(), vec![top]));
            )*
        }
    };
}
crate::for_each_bist_block!(define_bist_cosim);

impl EuConfig {
    /// Parses and validates a TOML text. Errors name the key and the allowed values.
    pub fn from_toml(text: &str) -> Result<Self, GenError> {
        let cfg: EuConfig = toml::from_str(text).map_err(|e| GenError::Parse(format!("config: {e}")))?;
        cfg.validate()?;
        Ok(cfg)
    }
}

/// The registry entry of `block`, if there is one.
pub fn block(name: &str) -> Option<&'static BlockInfo> {
    BLOCKS.iter().find(|b| b.name == name)
}

/// The encodings tables of `block` (empty for an unknown block or one without encodings).
pub fn encodings(block: &str) -> &'static [&'static crate::enc::Table] {
    self::block(block).map_or(&[], |b| b.encodings)
}

/// Every co-simulation build: (model id prefix `<block>_<variant>`, modules). The harness
/// self-test and every block's BIST top come first, then every block's `cosim_configs`.
pub fn cosim_builds() -> Vec<(String, Vec<EmittedModule>)> {
    let mut out = vec![("selftest_default".to_string(), vec![crate::selftest::emit().expect("selftest emits")])];
    out.push((
        "bist_selftest".to_string(),
        vec![crate::bist::selftest::emit(&crate::bist::selftest::cosim_params()).expect("BIST top emits")],
    ));
    bist_cosim(&mut out);
    block_cosim(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block's tables are well formed, and its header gives back exactly the tables.
    #[test]
    fn encodings_tables_and_headers_agree() {
        for b in BLOCKS {
            let mut want = Vec::new();
            for t in b.encodings {
                t.check().unwrap_or_else(|e| panic!("{}: {e}", b.name));
                for c in t.codes {
                    want.push((crate::enc::verilog_name(b.name, t, c), t.width, c.value));
                }
            }
            let got = crate::enc::parse_verilog_header(&crate::enc::verilog_header(b.name, b.encodings));
            assert_eq!(got, want, "{}", b.name);
        }
    }

    /// `docs/<block>.md` carries the block's encoding tables exactly as generated (regenerate
    /// with `eu-gen encodings --markdown`), so the docs cannot drift from the RTL's codes.
    #[test]
    fn block_docs_carry_the_generated_encodings() {
        for b in BLOCKS.iter().filter(|b| !b.encodings.is_empty()) {
            let path = format!("{}/../docs/{}.md", env!("CARGO_MANIFEST_DIR"), b.name);
            let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let (Some(i), Some(j)) = (doc.find(crate::enc::DOC_BEGIN), doc.find(crate::enc::DOC_END)) else {
                panic!("{path} has no encodings section between `{}` and `{}`", crate::enc::DOC_BEGIN, crate::enc::DOC_END);
            };
            let section = doc[i + crate::enc::DOC_BEGIN.len()..j].trim();
            assert_eq!(section, crate::enc::markdown(b.name, b.encodings).trim(), "{path}: encodings section is stale; paste `eu-gen encodings --markdown`");
        }
    }

    /// Every key of every block's config has a matrix row, every listed value and pair is
    /// co-simulated by some variant, and docs/<block>.md carries the generated table (paste
    /// `eu-gen matrix`).
    #[test]
    fn config_matrix_is_covered_and_documented() {
        let mut errors = Vec::new();
        for (b, m) in config_matrices() {
            match m {
                Err(e) => errors.push(e),
                Ok(md) => {
                    let path = format!("{}/../docs/{b}.md", env!("CARGO_MANIFEST_DIR"));
                    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                    match (doc.find(MATRIX_BEGIN), doc.find(MATRIX_END)) {
                        (Some(i), Some(j)) if doc[i + MATRIX_BEGIN.len()..j].trim() == md.trim() => {}
                        (Some(_), Some(_)) => errors.push(format!("{path}: config matrix is stale; paste `eu-gen matrix`")),
                        _ => errors.push(format!("{path}: no config matrix between `{MATRIX_BEGIN}` and `{MATRIX_END}`")),
                    }
                }
            }
        }
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }

    /// A key without a row, a value no variant has and a pair no variant has are each reported.
    #[test]
    fn config_matrix_reports_what_is_not_covered() {
        use crate::trap_controller::Block as T;
        struct Missing<const K: u8>;
        impl<const K: u8> BlockGen for Missing<K> {
            const NAME: &'static str = "t";
            type Config = <T as BlockGen>::Config;
            fn validate(c: &Self::Config) -> Result<(), ConfigError> {
                T::validate(c)
            }
            fn emit(c: &Self::Config) -> Result<Vec<EmittedModule>, EmitError> {
                T::emit(c)
            }
            fn cosim_configs() -> Vec<(&'static str, Self::Config)> {
                T::cosim_configs()
            }
            fn config_matrix() -> crate::ConfigMatrix {
                let mut m = T::config_matrix();
                match K {
                    0 => {
                        m.keys.retain(|r| r.key != "pipe");
                    }
                    1 => m.keys.iter_mut().filter(|r| r.key == "warps").for_each(|r| r.values.push("64")),
                    2 => m = m.pair(("warps", "32"), ("pipe", "1")),
                    _ => m = m.key("no_such_key", &["1"], ""),
                }
                m
            }
        }
        assert!(config_matrix::<T>().is_ok());
        assert_eq!(config_matrix::<Missing<0>>().unwrap_err(), "t.pipe: no row in the block's config_matrix()");
        assert_eq!(config_matrix::<Missing<1>>().unwrap_err(), "t.warps = 64 is accepted but no co-simulation variant has it");
        assert_eq!(config_matrix::<Missing<2>>().unwrap_err(), "t: no co-simulation variant has both warps = 32 and pipe = 1");
        assert!(config_matrix::<Missing<3>>().unwrap_err().contains("no_such_key"));
    }

    /// The registry, the config sections and the default config list the same blocks.
    #[test]
    fn registry_lists_every_config_section() {
        let names: Vec<&str> = BLOCKS.iter().map(|b| b.name).collect();
        assert_eq!(EuConfig::default_all().enabled(), names);
        let text = toml::to_string(&EuConfig::default_all()).unwrap();
        for n in &names {
            assert!(text.contains(&format!("[{n}]")), "default config has no [{n}] section");
        }
        assert!(block("no_such_block").is_none() && encodings("no_such_block").is_empty());
    }
}
