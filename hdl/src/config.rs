//! The `eu-gen` configuration: one optional TOML section per block.
//!
//! A section that is present is emitted; an absent section is not. The built-in default config
//! (`EuConfig::default_all()`) has every block at its spec defaults. Unknown keys are errors
//! (`deny_unknown_fields` on every section), so a typo never silently falls back to a default.

use crate::{alu_pipeline, branch_unit, region_addr_gen, tanh_sigmoid, trap_controller, BlockGen};
use crate::emit::{EmitError, EmittedModule};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A config value that is out of range: names the full key and the allowed values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// e.g. `region_addr_gen.reg_bytes`
    pub key: String,
    /// e.g. `must be a power of two in 4..=64, got 12`
    pub msg: String,
}

impl ConfigError {
    pub fn new(key: impl Into<String>, msg: impl Into<String>) -> Self {
        Self { key: key.into(), msg: msg.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "config key `{}`: {}", self.key, self.msg)
    }
}
impl std::error::Error for ConfigError {}

/// Checks `value` is one of `allowed`; the error names the key and lists the allowed values.
pub fn check_one_of<T: PartialEq + fmt::Display>(
    section: &str,
    key: &str,
    value: T,
    allowed: &[T],
) -> Result<(), ConfigError> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        let list = allowed.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ");
        Err(ConfigError::new(format!("{section}.{key}"), format!("must be one of {{{list}}}, got {value}")))
    }
}

/// Checks `lo <= value <= hi`.
pub fn check_range(section: &str, key: &str, value: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
    if (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(ConfigError::new(format!("{section}.{key}"), format!("must be in {lo}..={hi}, got {value}")))
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EuConfig {
    pub region_addr_gen: Option<region_addr_gen::Config>,
    pub branch_unit: Option<branch_unit::Config>,
    pub alu_pipeline: Option<alu_pipeline::Config>,
    pub trap_controller: Option<trap_controller::Config>,
    pub tanh_sigmoid: Option<tanh_sigmoid::Config>,
}

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

impl EuConfig {
    /// Every block at its defaults: what `eu-gen` emits with no `--config`.
    pub fn default_all() -> Self {
        Self {
            region_addr_gen: Some(Default::default()),
            branch_unit: Some(Default::default()),
            alu_pipeline: Some(Default::default()),
            trap_controller: Some(Default::default()),
            tanh_sigmoid: Some(Default::default()),
        }
    }

    /// Parses and validates a TOML text. Errors name the key and the allowed values.
    pub fn from_toml(text: &str) -> Result<Self, GenError> {
        let cfg: EuConfig = toml::from_str(text).map_err(|e| GenError::Parse(format!("config: {e}")))?;
        cfg.validate()?;
        Ok(cfg)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        check::<region_addr_gen::Block>(&self.region_addr_gen)?;
        check::<branch_unit::Block>(&self.branch_unit)?;
        check::<alu_pipeline::Block>(&self.alu_pipeline)?;
        check::<trap_controller::Block>(&self.trap_controller)?;
        check::<tanh_sigmoid::Block>(&self.tanh_sigmoid)?;
        Ok(())
    }

    /// Validates everything first, then emits every configured block: nothing is produced
    /// for a config with any error.
    pub fn emit(&self) -> Result<Vec<EmittedModule>, GenError> {
        self.validate()?;
        let mut out = Vec::new();
        run::<region_addr_gen::Block>(&self.region_addr_gen, &mut out)?;
        run::<branch_unit::Block>(&self.branch_unit, &mut out)?;
        run::<alu_pipeline::Block>(&self.alu_pipeline, &mut out)?;
        run::<trap_controller::Block>(&self.trap_controller, &mut out)?;
        run::<tanh_sigmoid::Block>(&self.tanh_sigmoid, &mut out)?;
        Ok(out)
    }
}
