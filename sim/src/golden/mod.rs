//! Golden models, one per block of the registry (`hdl::for_each_block!`), written from the specs
//! in ../shared/spec (never from the RTL): `sim/src/golden/<block>.rs` or `<block>/mod.rs`.

use hdl::declare_block_modules;
hdl::for_each_block!(declare_block_modules);
