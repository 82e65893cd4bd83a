//! branch_unit: placeholder until the block lands (see its issue). Same shape as every block:
//! `Config` (TOML section `[branch_unit]`), the rust-hdl RTL, and `Block: BlockGen`.

use crate::config::ConfigError;
use crate::emit::{EmitError, EmittedModule};
use crate::BlockGen;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {}

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = "branch_unit";
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
