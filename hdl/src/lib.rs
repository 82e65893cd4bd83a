//! EU-RTL: GPU execution-unit blocks in rust-hdl.
//!
//! Every block has the same shape (docs/adding-a-block.md): `hdl/src/<block>` holds the RTL as
//! a composition of stage sub-blocks, its `Config` (one TOML section), its encodings (`enc`) and a
//! `Block` type implementing [`BlockGen`]; `sim/src/golden/<block>.rs` is its golden model;
//! `sim/tests/<block>.rs` co-simulates the emitted Verilog against it. The list of blocks is
//! written once, in [`for_each_block!`] (`registry.rs`).
//!
//! Imports run one way: the core (`check`, `emit`, `enc`, `prims`) knows no block; blocks use
//! the core; the registry uses the blocks.

pub mod check;
pub mod emit;
pub mod enc;
pub mod prims;
#[macro_use]
pub mod registry;

for_each_block!(declare_block_modules);
/// Harness self-test design (not a GPU block, not emitted by eu-gen).
pub mod selftest;
/// FPGA bring-up: BIST tops (stimulus LFSR + MISR + UART report) around blocks.
pub mod bist;

pub use check::ConfigError;
pub use registry::{cosim_builds, EuConfig, GenError};
pub use emit::{Dir, EmitError, EmittedModule, PortInfo};

/// What every block provides to `eu-gen` and to the co-simulation build.
pub trait BlockGen {
    /// Config section / block id, e.g. `region_addr_gen`.
    const NAME: &'static str;
    type Config: Default + Clone + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned;
    /// Checks every key; the error names the key and the allowed values.
    fn validate(cfg: &Self::Config) -> Result<(), ConfigError>;
    /// Emits the block's Verilog modules for a validated config.
    fn emit(cfg: &Self::Config) -> Result<Vec<EmittedModule>, EmitError>;
    /// The configs the co-simulation build verilates, each with a short variant name
    /// (`<block>_<variant>` becomes the model id used by tests).
    fn cosim_configs() -> Vec<(&'static str, Self::Config)>;
    /// Whether variant `variant`'s module `module` is verilated. Every model costs minutes of
    /// C++ build, so a block drops the modules no test of that variant drives.
    fn cosim_keeps(_variant: &str, _module: &str) -> bool {
        true
    }
    /// The block's encodings tables (`hdl/src/<block>/enc.rs`), from which `eu-gen` writes
    /// `eu_<block>_defs.vh` and the docs their encoding tables.
    const ENCODINGS: &'static [&'static enc::Table] = &[];
    /// What co-simulation must cover of the block's config (README, "Config
    /// matrix"): every key of the section with its value classes. `registry::config_matrix`
    /// checks that some variant of [`BlockGen::cosim_configs`] has each value and each pair, and
    /// that no key is left out, so a new key or an uncovered value fails the build's tests.
    fn config_matrix() -> ConfigMatrix;
}

/// The value classes of a block's config that co-simulation covers ([`BlockGen::config_matrix`]).
#[derive(Debug, Clone, Default)]
pub struct ConfigMatrix {
    /// One row per config key: the values that must each be co-simulated (the extremes, the
    /// default, and any value that builds different structure), as TOML literals (`4`, `true`,
    /// `"ALL"`), and why these values (the accepted range, what changes).
    pub keys: Vec<MatrixKey>,
    /// Pairs of `key = value` that change structure together: some one variant has both.
    pub pairs: Vec<[(&'static str, &'static str); 2]>,
}

/// One row of a [`ConfigMatrix`].
#[derive(Debug, Clone)]
pub struct MatrixKey {
    pub key: &'static str,
    pub values: Vec<&'static str>,
    pub why: &'static str,
}

impl ConfigMatrix {
    /// Adds a key with the values co-simulation must cover.
    pub fn key(mut self, key: &'static str, values: &[&'static str], why: &'static str) -> Self {
        self.keys.push(MatrixKey { key, values: values.to_vec(), why });
        self
    }
    /// Adds a structural pair that some one variant must have.
    pub fn pair(mut self, a: (&'static str, &'static str), b: (&'static str, &'static str)) -> Self {
        self.pairs.push([a, b]);
        self
    }
}
