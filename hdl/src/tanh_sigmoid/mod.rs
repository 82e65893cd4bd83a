//! tanh_sigmoid: placeholder until the block lands (see its issue). Same shape as every block:
//! `Config` (TOML section `[tanh_sigmoid]`), the rust-hdl RTL, and `Block: BlockGen`.

pub mod tables;

use crate::config::ConfigError;
use crate::emit::{EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {}

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = "tanh_sigmoid";
    type Config = Config;
    fn validate(_cfg: &Config) -> Result<(), ConfigError> {
        Ok(())
    }
    fn emit(_cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        Ok(vec![])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        vec![]
    }
}
