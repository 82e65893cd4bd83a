//! EU-RTL: GPU execution-unit blocks in rust-hdl.
//!
//! Every block has the same shape: `hdl/src/<block>.rs` holds the RTL, its `Config` (one TOML
//! section) and a `Block` type implementing [`BlockGen`]; `sim/src/golden/<block>.rs` is its golden
//! model; `sim/tests/<block>.rs` co-simulates the emitted Verilog against it.

pub mod config;
pub mod emit;

pub mod alu_pipeline;
pub mod branch_unit;
pub mod region_addr_gen;
pub mod tanh_sigmoid;
pub mod trap_controller;
/// Harness self-test design (not a GPU block, not emitted by eu-gen).
pub mod selftest;
/// FPGA bring-up: BIST tops (stimulus LFSR + MISR + UART report) around blocks.
pub mod bist;

pub use config::{ConfigError, EuConfig, GenError};
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
}

/// Every block's co-simulation builds: (model id prefix `<block>_<variant>`, modules).
pub fn cosim_builds() -> Vec<(String, Vec<EmittedModule>)> {
    fn add<B: BlockGen>(out: &mut Vec<(String, Vec<EmittedModule>)>) {
        for (variant, cfg) in B::cosim_configs() {
            B::validate(&cfg).unwrap_or_else(|e| panic!("{}_{variant}: {e}", B::NAME));
            let mut mods = B::emit(&cfg).unwrap_or_else(|e| panic!("{}_{variant}: {e}", B::NAME));
            mods.retain(|m| B::cosim_keeps(variant, &m.name));
            out.push((format!("{}_{variant}", B::NAME), mods));
        }
    }
    let mut out = vec![("selftest_default".to_string(), vec![selftest::emit().expect("selftest emits")])];
    // BIST tops (expected signature from a port, so the golden model stays in `sim`).
    out.push(("bist_selftest".to_string(), vec![bist::selftest::emit(&bist::selftest::cosim_params()).expect("BIST top emits")]));
    out.push((
        "bist_region_addr_gen".to_string(),
        vec![bist::region_addr_gen::emit(&bist::region_addr_gen::small_config(), &bist::region_addr_gen::cosim_params()).expect("BIST top emits")],
    ));
    out.push((
        "bist_branch_unit".to_string(),
        vec![bist::branch_unit::emit(&bist::branch_unit::small_config(), &bist::branch_unit::cosim_params()).expect("BIST top emits")],
    ));
    out.push((
        "bist_trap_controller".to_string(),
        vec![bist::trap_controller::emit(&bist::trap_controller::small_config(), &bist::trap_controller::cosim_params()).expect("BIST top emits")],
    ));
    out.push((
        "bist_alu_pipeline".to_string(),
        vec![bist::alu_pipeline::emit(&bist::alu_pipeline::small_config(), &bist::alu_pipeline::cosim_params()).expect("BIST top emits")],
    ));
    out.push((
        "bist_tanh_sigmoid".to_string(),
        vec![bist::tanh_sigmoid::emit(&bist::tanh_sigmoid::small_config(), &bist::tanh_sigmoid::cosim_params()).expect("BIST top emits")],
    ));
    add::<region_addr_gen::Block>(&mut out);
    add::<branch_unit::Block>(&mut out);
    add::<alu_pipeline::Block>(&mut out);
    add::<trap_controller::Block>(&mut out);
    add::<tanh_sigmoid::Block>(&mut out);
    out
}
