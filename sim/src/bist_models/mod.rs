//! [`CycleModel`](crate::bist::CycleModel)s of the block golden models for the FPGA BIST tops
//! (`hdl::bist::<block>`), each in two layers:
//! * `<Block>Cycles`: the golden model seen one cycle at a time with the DUT's raw ports (checked
//!   against the plain Verilated block by `sim::bist::check_model_against_dut`);
//! * `<Block>Bist`: the stimulus shaping the BIST top applies in front of the DUT (documented in
//!   the top's module docs), then `<Block>Cycles` — the model `sim::bist::signature` runs.

//!
//! This module is also the BIST registry ([`registry`]): every block of `hdl::for_each_block!`
//! with its `entry()`. Imports run one way: the models use the core of `crate::bist`, the core
//! knows no model.

use hdl::declare_block_modules;
hdl::for_each_bist_block!(declare_block_modules);

use crate::bist::{load_config, signature, CycleModel, Layout, SelftestModel};
use hdl::bist::{self as hb, BistParams};
use hdl::{EmitError, EmittedModule, EuConfig};

/// A block that has a BIST top.
pub struct BistEntry {
    /// Block id (`selftest`, `branch_unit`, ...): the first argument of `scripts/fpga/build.sh`.
    pub block: &'static str,
    /// Config names the top can be built for (`small`, `full`, ...); the first is the default.
    pub configs: &'static [&'static str],
    /// The DUT module alone (for its port layout and name).
    pub dut: Box<dyn Fn(&str) -> EmittedModule>,
    /// The golden model of that DUT.
    pub model: Box<dyn Fn(&str) -> Box<dyn CycleModel>>,
    /// The BIST top around that DUT.
    pub top: Box<dyn Fn(&str, &BistParams) -> EmittedModule>,
}

/// The entry of a block with config type `C`: the config named `c` is read by
/// [`load_config`] and picked out of the file with `pick`; `dut`, `model` and `top` take it.
pub fn entry_of<C: Default + 'static>(
    block: &'static str,
    configs: &'static [&'static str],
    pick: fn(EuConfig) -> Option<C>,
    dut: fn(&C) -> EmittedModule,
    model: fn(&C) -> Box<dyn CycleModel>,
    top: fn(&C, &BistParams) -> Result<EmittedModule, EmitError>,
) -> BistEntry {
    let cfg = move |c: &str| load_config(block, c, pick);
    BistEntry {
        block,
        configs,
        dut: Box::new(move |c| dut(&cfg(c))),
        model: Box::new(move |c| model(&cfg(c))),
        top: Box::new(move |c, p| top(&cfg(c), p).unwrap_or_else(|e| panic!("{block} BIST top: {e}"))),
    }
}

macro_rules! define_bist_registry {
    ($($b:ident),* $(,)?) => {
        /// Every block with a BIST top: the harness self-test, then every block of the registry
        /// (`hdl::for_each_block!`). `scripts/fpga/report.sh` builds all of them.
        pub fn registry() -> Vec<BistEntry> {
            let selftest = BistEntry {
                block: "selftest",
                configs: &["default"],
                dut: Box::new(|_| hdl::bist::selftest::dut_module().expect("selftest emits")),
                model: Box::new(|_| Box::new(SelftestModel::default())),
                top: Box::new(|_, p| hdl::bist::selftest::emit(p).expect("selftest BIST top emits")),
            };
            vec![selftest, $($b::entry()),*]
        }
    };
}
hdl::for_each_bist_block!(define_bist_registry);

pub fn entry(block: &str) -> Option<BistEntry> {
    registry().into_iter().find(|e| e.block == block)
}

/// What `eu-bist` needs to build one bitstream.
pub struct Built {
    pub top: EmittedModule,
    pub params: BistParams,
    pub layout: Layout,
}

/// Computes the expected signature with the golden model and emits the BIST top with it baked in.
pub fn build(e: &BistEntry, config: &str, board: hb::Board, cycles: u32, fault_always: bool) -> Built {
    let dut = (e.dut)(config);
    let layout = Layout::of(&dut);
    let sig = signature(&layout, (e.model)(config).as_mut(), cycles, false);
    let params = BistParams { dut_name: dut.name.clone(), board, cycles, expected: Some(sig), fault_always };
    let top = (e.top)(config, &params);
    Built { top, params, layout }
}


/// The stimulus words `i`, copied for shaping into the allocation `buf` keeps between cycles
/// (taken out of it: put it back after the inner step, `self.buf = b`).
pub(crate) fn shaping_copy(buf: &mut Vec<u32>, i: &[u32]) -> Vec<u32> {
    let mut b = std::mem::take(buf);
    b.clear();
    b.extend_from_slice(i);
    b
}

/// Word offsets of a DUT's packed ports, looked up by name once.
pub(crate) struct Words {
    ins: Vec<(String, usize)>,
    outs: Vec<(String, usize)>,
}

impl Words {
    pub(crate) fn of(l: &Layout) -> Self {
        Words {
            ins: l.inputs.iter().map(|(p, _, w)| (p.name.clone(), *w)).collect(),
            outs: l.outputs.iter().map(|(p, _, w)| (p.name.clone(), *w)).collect(),
        }
    }
    pub(crate) fn i(&self, name: &str) -> usize {
        self.ins.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no input {name}")).1
    }
    pub(crate) fn o(&self, name: &str) -> usize {
        self.outs.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no output {name}")).1
    }
}

/// Writes `n` (≤ 64) bits of `v` at bit `lsb` of the packed port starting at word `w`.
pub(crate) fn put(o: &mut [u32], w: usize, lsb: usize, n: usize, v: u64) {
    for b in 0..n {
        let i = lsb + b;
        let m = 1u32 << (i % 32);
        if (v >> b) & 1 == 1 {
            o[w + i / 32] |= m;
        } else {
            o[w + i / 32] &= !m;
        }
    }
}

/// `n` bits from bit `lsb` of word `x`.
pub(crate) fn bits(x: u32, lsb: u32, n: u32) -> u32 {
    (x >> lsb) & ((1u64 << n) - 1) as u32
}

/// AND of `n` bits from bit `lsb` of a 64-bit word.
pub(crate) fn all(x: u64, lsb: u32, n: u32) -> bool {
    let m = (1u64 << n) - 1;
    (x >> lsb) & m == m
}
