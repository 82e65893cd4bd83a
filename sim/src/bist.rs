//! Expected signatures of the FPGA BIST tops (`hdl::bist`), from the golden models.
//!
//! [`signature`] is a pure-Rust model of `hdl::bist::BistCore` written from the recurrence
//! documented there (xorshift stimulus register, Mealy sampling of the DUT outputs, CRC-32 MISR
//! over the response folded to 32 bits), driving a block's golden [`CycleModel`]. The bitstream
//! builder (`eu-bist`, called by `scripts/fpga/build.sh`) bakes the result into the BIST top;
//! `sim/tests/fpga_bist.rs` checks it against the Verilated top.
//!
//! A block gets a BIST top by providing (see docs/fpga.md):
//! 1. `hdl/src/bist/<block>.rs`: the wiring top (like `hdl::bist::selftest`);
//! 2. a [`CycleModel`] of its golden model (one cycle, Mealy view);
//! 3. `entry()` in `sim::bist_models::<block>` (the registry lists it by the block's name).

use hdl::bist as hb;
use hdl::{Dir, EmittedModule, PortInfo};

/// A block's golden model seen one clock cycle at a time, as the BIST core sees the DUT.
///
/// Ports are packed like the co-simulation harness packs them, minus `clk` and `rst`: the
/// inputs except `clk`/`rst` in the module's port order, each in `ceil(width / 32)` `u32` words,
/// LSB first; the outputs likewise. [`Layout`] gives the offsets.
pub trait CycleModel {
    /// Synchronous reset (the DUT's `rst` held high for a cycle): every register to its reset value.
    fn reset(&mut self);
    /// One clock cycle with `inputs` applied: writes to `outputs` every output as it is just
    /// *before* the rising edge (registered outputs from the current state, combinational ones
    /// from the current state and `inputs`), then advances the state by the edge.
    /// In harness terms: set inputs, `settle()`, read outputs, `tick()`.
    fn step(&mut self, inputs: &[u32], outputs: &mut [u32]);
}

/// Port layout of a DUT: bit offsets in the BIST stimulus/response vectors and word offsets in
/// the packed [`CycleModel`] buffers.
#[derive(Clone, Debug)]
pub struct Layout {
    /// (port, bit offset in the stimulus/response vector, word offset in the packed buffer)
    pub inputs: Vec<(PortInfo, usize, usize)>,
    pub outputs: Vec<(PortInfo, usize, usize)>,
    pub sw: usize,
    pub rw: usize,
    pub in_words: usize,
    pub out_words: usize,
}

impl Layout {
    pub fn of(dut: &EmittedModule) -> Self {
        let pack = |dir: Dir| {
            let (mut bit, mut word, mut v) = (0, 0, Vec::new());
            for p in dut.ports.iter().filter(|p| p.dir == dir && p.name != "clk" && p.name != "rst") {
                v.push((p.clone(), bit, word));
                bit += p.width;
                word += p.width.div_ceil(32);
            }
            (v, bit, word)
        };
        let (inputs, sw, in_words) = pack(Dir::In);
        let (outputs, rw, out_words) = pack(Dir::Out);
        Self { inputs, outputs, sw, rw, in_words, out_words }
    }
}

fn get_bit(v: &[u64], i: usize) -> bool {
    (v[i / 64] >> (i % 64)) & 1 == 1
}

/// Copies `width` bits starting at bit `lo` of `src` (64-bit words) into `dst` (32-bit words) from bit 0.
pub fn unpack(src: &[u64], lo: usize, width: usize, dst: &mut [u32]) {
    for w in dst.iter_mut().take(width.div_ceil(32)) {
        *w = 0;
    }
    for b in 0..width {
        if get_bit(src, lo + b) {
            dst[b / 32] |= 1 << (b % 32);
        }
    }
}

/// The BIST core's stimulus generator: `x` xorshift LFSR, `s` the SW-bit stimulus register.
#[derive(Clone, Debug)]
pub struct Stimulus {
    pub x: u64,
    pub s: Vec<u64>,
    sw: usize,
}

impl Stimulus {
    pub fn new(sw: usize) -> Self {
        Self { x: hb::SEED, s: vec![0; sw.div_ceil(64).max(1)], sw }
    }
    /// `x' = xs(x)`, `S' = ((S << 64) | x') mod 2^SW`.
    pub fn advance(&mut self) {
        self.x = hb::xorshift64(self.x);
        for i in (1..self.s.len()).rev() {
            self.s[i] = self.s[i - 1];
        }
        self.s[0] = self.x;
        let top = self.sw % 64;
        if top != 0 {
            let n = self.s.len();
            self.s[n - 1] &= (1u64 << top) - 1;
        }
    }
}

/// The MISR: `M' = crc(M) ^ fold(Y)`.
pub fn misr_step(m: u32, fold: u32) -> u32 {
    hb::misr_shift(m) ^ fold
}

/// Runs the BIST sequence on a golden model and returns the signature `M_N`.
/// `fault` flips response bit 0 every cycle, as the top's fault injection does.
pub fn signature(layout: &Layout, model: &mut dyn CycleModel, cycles: u32, fault: bool) -> u32 {
    let mut st = Stimulus::new(layout.sw);
    for _ in 0..hb::reset_cycles(layout.sw) {
        st.advance();
    }
    model.reset();
    let mut inp = vec![0u32; layout.in_words];
    let mut out = vec![0u32; layout.out_words];
    let mut resp = vec![0u32; layout.rw.div_ceil(32) + 1];
    let mut m = 0u32;
    for _ in 0..cycles {
        for (p, bit, word) in &layout.inputs {
            unpack(&st.s, *bit, p.width, &mut inp[*word..]);
        }
        model.step(&inp, &mut out);
        resp.iter_mut().for_each(|w| *w = 0);
        for (p, bit, word) in &layout.outputs {
            for b in 0..p.width {
                if (out[word + b / 32] >> (b % 32)) & 1 == 1 {
                    let i = bit + b;
                    resp[i / 32] |= 1 << (i % 32);
                }
            }
        }
        if fault {
            resp[0] ^= 1;
        }
        m = misr_step(m, resp.iter().fold(0, |a, w| a ^ w));
        st.advance();
    }
    m
}

/// A padded top's spare stimulus bits (above the DUT's inputs) that its shaping uses, shown to
/// the golden model as one more input port (`bist_spare`, `bits` wide) after the DUT's inputs.
/// Only the port list changes (the layout); the Verilog is the DUT's.
pub fn with_spare_stimulus(mut dut: EmittedModule, bits: usize) -> EmittedModule {
    let (sw, _) = hb::port_widths(&dut.ports);
    assert!(bits >= 1 && sw + bits <= sw.max(64), "{}: {bits} spare bits above {sw} inputs exceed the padded core's 64", dut.name);
    dut.ports.push(PortInfo { name: "bist_spare".into(), dir: Dir::In, width: bits });
    dut
}

/// A block's config for the BIST: `"default"` is the spec defaults; any other name `C` is read
/// from `configs/<block>-C.toml` (the file `eu-gen --config` takes), validated, and its section
/// picked with `pick` (e.g. `|all| all.branch_unit`). Panics with the file and the error.
pub fn load_config<T: Default>(block: &str, config: &str, pick: impl FnOnce(hdl::EuConfig) -> Option<T>) -> T {
    if config == "default" {
        return T::default();
    }
    let path = config_path(block, config);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("BIST config {}: {e}", path.display()));
    let all = hdl::EuConfig::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    all.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    pick(all).unwrap_or_else(|| panic!("{} has no [{block}] section", path.display()))
}

/// `configs/<block>-<config>.toml`: in `$EU_CONFIG_DIR` when set, else in the current
/// directory's `configs/` when the file is there (`scripts/fpga/build.sh` runs `eu-bist` from its
/// checkout's root, as it runs `eu-gen check`: a binary built in another checkout must read this
/// one's configs, not those of the tree it was compiled in), else in this workspace's `configs/`
/// (tests, which run from `sim/`).
pub fn config_path(block: &str, config: &str) -> std::path::PathBuf {
    let file = format!("{block}-{config}.toml");
    if let Some(dir) = std::env::var_os("EU_CONFIG_DIR") {
        return std::path::Path::new(&dir).join(file);
    }
    let here = std::path::Path::new("configs").join(&file);
    if here.is_file() {
        return here;
    }
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("configs").join(file)
}

/// Golden cycle model of the harness self-test design (from its doc comment in
/// hdl/src/selftest.rs): `sum <= a + b` (33 bits) and `wide_q <= wide_d ^ {3{a}}` when `ce`,
/// both registered and cleared by `rst`; `nibble = a[3:0]` combinational.
/// Packed inputs: ce [0], a [1], b [2], wide_d [3..6]; outputs: sum [0..2], wide_q [2..5], nibble [5].
#[derive(Default, Clone, Debug)]
pub struct SelftestModel {
    sum: u64,
    wide: u128,
}

impl CycleModel for SelftestModel {
    fn reset(&mut self) {
        *self = Self::default();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let (ce, a, b) = (i[0] & 1 == 1, i[1], i[2]);
        let wide_d = i[3] as u128 | (i[4] as u128) << 32 | (i[5] as u128) << 64;
        o[0] = self.sum as u32;
        o[1] = (self.sum >> 32) as u32;
        o[2] = self.wide as u32;
        o[3] = (self.wide >> 32) as u32;
        o[4] = (self.wide >> 64) as u32;
        o[5] = a & 0xF;
        if ce {
            self.sum = a as u64 + b as u64;
            let a = a as u128;
            self.wide = wide_d ^ (a | a << 32 | a << 64);
        }
    }
}

/// Drives `ports` from a [`CycleModel`] word vector: each port takes `ceil(width / 32)` words, in
/// port order, low word first (the layout `check_model_against_dut` and the BIST use).
pub fn set_words(dut: &mut crate::cosim::Dut, ports: &[(crate::cosim::In, usize)], words: &[u32]) {
    let mut w = 0;
    for &(p, width) in ports {
        for k in 0..width.div_ceil(32) {
            dut.set_field(p, 32 * k, (width - 32 * k).min(32), words[w] as u64);
            w += 1;
        }
    }
}

/// Expects `ports` to carry a [`CycleModel`] output word vector (layout as in [`set_words`]).
pub fn expect_words(e: &mut crate::cosim::Expected, ports: &[(crate::cosim::Out, usize)], words: &[u32]) {
    let mut w = 0;
    for &(p, width) in ports {
        for k in 0..width.div_ceil(32) {
            e.set_field(p, 32 * k, (width - 32 * k).min(32), words[w] as u64);
            w += 1;
        }
    }
}

/// Co-simulates a [`CycleModel`] against the block's plain Verilated model (`model_id`, e.g.
/// `selftest_default/eu_selftest`) for `cycles` random cycles after a reset, comparing every
/// output every cycle in the Mealy view. Use it to check a block's adapter before its BIST top.
pub fn check_model_against_dut(model_id: &str, model: &mut dyn CycleModel, cycles: u32, seed: u64) {
    check_model_against_dut_except(model_id, model, cycles, seed, &[])
}

/// [`check_model_against_dut`] for a model whose layout leaves out the outputs `skip` (a state
/// tap the BIST top does not read, e.g. the branch unit's `dbg_stk`): they are not compared.
pub fn check_model_against_dut_except(model_id: &str, model: &mut dyn CycleModel, cycles: u32, seed: u64, skip: &[&str]) {
    use crate::cosim::Dut;
    use rand::{Rng, SeedableRng};
    let mut dut = Dut::new(model_id);
    let desc = dut.desc();
    let ins: Vec<_> =
        desc.inputs.iter().filter(|p| p.name != "rst").map(|p| (dut.input(p.name), p.width)).collect();
    let outs: Vec<_> = desc.outputs.iter().filter(|p| !skip.contains(&p.name)).map(|p| (dut.output(p.name), p.width)).collect();
    let skipped: Vec<_> = skip.iter().map(|n| dut.output(n)).collect();
    let in_words: usize = ins.iter().map(|(_, w)| w.div_ceil(32)).sum();
    let out_words: usize = outs.iter().map(|(_, w)| w.div_ceil(32)).sum();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut inp = vec![0u32; in_words];
    let mut out = vec![0u32; out_words];
    dut.reset(1);
    model.reset();
    for cyc in 0..cycles {
        let mut w = 0;
        for &(_, width) in &ins {
            for k in 0..width.div_ceil(32) {
                let n = (width - 32 * k).min(32);
                inp[w] = rng.gen::<u32>() & if n == 32 { u32::MAX } else { (1 << n) - 1 };
                w += 1;
            }
        }
        set_words(&mut dut, &ins, &inp);
        dut.settle();
        model.step(&inp, &mut out);
        let mut e = dut.expected();
        expect_words(&mut e, &outs, &out);
        for &p in &skipped {
            e.keep_actual(&dut, p);
        }
        dut.set_label(format!("(CycleModel check, seed {seed}, cycle {cyc})"));
        dut.check(&e);
        dut.tick();
    }
}
