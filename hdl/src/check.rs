//! The config-check core every block depends on: [`ConfigError`] and the range checks.
//!
//! Imports run one way: blocks use this module; the registry (`crate::registry`) uses the blocks;
//! nothing here knows any block.

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
