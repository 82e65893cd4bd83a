//! The Verilator co-simulation harness.
//!
//! `Dut::new("<block>_<variant>/<module>")` opens a Verilated model of the emitted Verilog. Ports
//! are looked up once by their spec names (`dut.input("in_valid")`), then set and read as `u64`
//! or as bit fields of wide ports. `tick()` runs one clock cycle; `settle()` propagates inputs
//! without an edge.
//!
//! Checking: fill an [`Expected`] (every output port must be given a value) and call
//! [`Dut::check`]. On the first mismatch the harness replays the inputs into a traced model,
//! writes a VCD of the failing window, and panics with the cycle, port, expected and actual
//! values and the trace path. Tracing costs nothing otherwise.

use std::ffi::{c_char, c_void, CString};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Debug)]
pub struct PortDesc {
    pub name: &'static str,
    pub width: usize,
    /// Offset in 32-bit words in the packed input or output buffer.
    pub offset: usize,
}

#[derive(Clone, Copy)]
pub struct Ffi {
    new: unsafe extern "C" fn(i32) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    step: unsafe extern "C" fn(*mut c_void, *const u32, *mut u32, i32),
    run: unsafe extern "C" fn(*mut c_void, *const u32, *mut u32, usize),
    trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> i32,
    trace_close: unsafe extern "C" fn(*mut c_void),
    in_words: unsafe extern "C" fn() -> usize,
    out_words: unsafe extern "C" fn() -> usize,
    /// X-initialisation builds only: sets the seed of Verilator's random initial values for
    /// the next `new` on this thread.
    xinit_seed: Option<unsafe extern "C" fn(i32)>,
}

pub struct ModelDesc {
    /// `<block>_<variant>/<module>`; a twin adds its suffix ([`XINIT_SUFFIX`], [`Netlist::suffix`]).
    pub id: &'static str,
    /// Verilog module name.
    pub module: &'static str,
    /// The Verilog file the model was built from.
    pub verilog: &'static str,
    pub params: &'static [(&'static str, &'static str)],
    /// Inputs except `clk` (the harness drives the clock).
    pub inputs: &'static [PortDesc],
    pub outputs: &'static [PortDesc],
    pub in_words: usize,
    pub out_words: usize,
    ffi: Ffi,
}

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/models.rs"));
}
pub use generated::MODELS;

impl ModelDesc {
    /// The port lists, for a timing diagram (`waves::wavedrom`).
    pub fn ports(&self) -> crate::waves::Ports<'static> {
        crate::waves::Ports { id: self.id, inputs: self.inputs, outputs: self.outputs }
    }
}

/// Every model the build verilated.
pub fn models() -> &'static [ModelDesc] {
    MODELS
}

/// The id suffix of a model's X-initialisation build (issue 18 item 3): the same Verilog
/// verilated with `--x-initial unique --x-assign unique`, whose every variable starts from a
/// seeded random value instead of 0. One small config per block has one (sim/build_twins.rs).
pub const XINIT_SUFFIX: &str = "+xinit";

/// A gate-level twin of a model (issue 18 item 4, sim/build_twins.rs): the yosys netlist of the
/// same Verilog for an FPGA family, simulated with the cell models that ship with yosys. Same
/// ports, so every driver and golden model applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Netlist {
    /// `synth_ice40 -dsp`, `ice40/cells_sim.v`.
    Ice40,
    /// `synth_ecp5`, `ecp5/cells_sim.v` (blocks without DP16KD / MULT18X18D only).
    Ecp5,
}

impl Netlist {
    /// The id suffix of the twin: `<block>_<variant>/<module>+ice40`.
    pub fn suffix(self) -> &'static str {
        match self {
            Netlist::Ice40 => "+ice40",
            Netlist::Ecp5 => "+ecp5",
        }
    }
}

/// Per-thread options of the harness, for the soak command and the X-initialisation tests
/// (ordinary tests leave them at their defaults). They apply to every `Dut` created on the
/// thread after [`set_thread_opts`], whichever driver creates it.
#[derive(Clone, Debug, Default)]
pub struct ThreadOpts {
    /// Where a mismatch's VCD is written (default: `$EU_TRACE_DIR`, else target/cosim-traces).
    pub trace_dir: Option<PathBuf>,
    /// Keep no input history: a mismatch then writes no VCD (the soak re-runs a failing chunk
    /// with history on instead, which saves memory and time on the passing ones).
    pub no_history: bool,
    /// Open the X-initialisation build of each model, its random initial state drawn from this
    /// seed (Verilator's `randReset(2)` and `randSeed`; 0 is not a seed).
    pub xinit_seed: Option<u32>,
    /// Open the gate-level twin of each model for this FPGA family instead of the RTL model.
    pub netlist: Option<Netlist>,
    /// Test-only fault injection: the first check at or after this cycle compares against an
    /// expectation with bit 0 of the first output port flipped, as a golden model with that
    /// one wrong bit would give (proves that the soak reports a mismatch).
    pub flip_at: Option<u64>,
}

thread_local! {
    static OPTS: std::cell::RefCell<ThreadOpts> = std::cell::RefCell::new(ThreadOpts::default());
    static LAST_TRACE: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
}

/// Sets this thread's harness options (see [`ThreadOpts`]).
pub fn set_thread_opts(o: ThreadOpts) {
    OPTS.with(|t| *t.borrow_mut() = o);
}

/// This thread's harness options.
pub fn thread_opts() -> ThreadOpts {
    OPTS.with(|t| t.borrow().clone())
}

/// The VCD written by the last failing check on this thread, taken.
pub fn take_last_trace() -> Option<PathBuf> {
    LAST_TRACE.with(|t| t.borrow_mut().take())
}

pub fn model(id: &str) -> &'static ModelDesc {
    MODELS.iter().find(|m| m.id == id).unwrap_or_else(|| {
        panic!(
            "no co-simulation model `{id}`; built models: {}",
            MODELS.iter().map(|m| m.id).collect::<Vec<_>>().join(", ")
        )
    })
}

/// An input port handle (index into the model's input list).
#[derive(Clone, Copy, Debug)]
pub struct In(usize);
/// An output port handle.
#[derive(Clone, Copy, Debug)]
pub struct Out(usize);

fn mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Writes `width` (≤ 64) bits of `v` at bit `lsb` of the field at word `base`, a word piece at
/// a time (this runs for every port of every cycle of every test).
fn write_field(buf: &mut [u32], base: usize, lsb: usize, width: usize, v: u64) {
    debug_assert!(width <= 64);
    // Fast path: a field inside one word (every bit, nibble and aligned 32-bit field of the
    // per-warp and per-lane vectors the drivers write, a few hundred per cycle).
    let sh = lsb % 32;
    if width > 0 && sh + width <= 32 {
        let m = (u32::MAX >> (32 - width)) << sh;
        let w = &mut buf[base + lsb / 32];
        *w = (*w & !m) | (((v as u32) << sh) & m);
        return;
    }
    let mut done = 0;
    while done < width {
        let bit = lsb + done;
        let sh = bit % 32;
        let n = (32 - sh).min(width - done);
        let m = (u32::MAX >> (32 - n)) << sh;
        let w = &mut buf[base + bit / 32];
        *w = (*w & !m) | (((v >> done) as u32) << sh & m);
        done += n;
    }
}

pub(crate) fn read_field(buf: &[u32], base: usize, lsb: usize, width: usize) -> u64 {
    // Fast paths: a field inside one word; a word-aligned field up to 64 bits.
    let sh = lsb % 32;
    if width > 0 && sh + width <= 32 {
        return (buf[base + lsb / 32] >> sh) as u64 & mask(width);
    }
    if sh == 0 && width <= 64 {
        let w = base + lsb / 32;
        let lo = buf[w] as u64;
        let v = if width > 32 { lo | (buf[w + 1] as u64) << 32 } else { lo };
        return v & mask(width);
    }
    debug_assert!(width <= 64);
    let (mut v, mut done) = (0u64, 0);
    while done < width {
        let bit = lsb + done;
        let sh = bit % 32;
        let n = (32 - sh).min(width - done);
        v |= ((buf[base + bit / 32] >> sh) as u64 & ((1u64 << n) - 1)) << done;
        done += n;
    }
    v
}

/// Expected values for every output port of a model, in the model's packed layout.
#[derive(Clone)]
pub struct Expected {
    desc: &'static ModelDesc,
    words: Vec<u32>,
    given: Vec<bool>,
    /// Lines printed with a mismatch ([`Expected::note`]).
    notes: Vec<String>,
}

impl Expected {
    pub fn set(&mut self, p: Out, v: u64) -> &mut Self {
        let d = &self.desc.outputs[p.0];
        assert!(d.width >= 64 || v >> d.width == 0, "expected {} = {v:#x} does not fit {} bits", d.name, d.width);
        assert!(d.width <= 64, "{} is {} bits wide: use set_field", d.name, d.width);
        write_field(&mut self.words, d.offset, 0, d.width, v);
        self.given[p.0] = true;
        self
    }
    /// Sets bits `[lsb, lsb+width)` of a (wide) output; the port counts as given.
    pub fn set_field(&mut self, p: Out, lsb: usize, width: usize, v: u64) -> &mut Self {
        let d = &self.desc.outputs[p.0];
        assert!(lsb + width <= d.width, "{}[{}+:{}] is outside a {}-bit port", d.name, lsb, width, d.width);
        assert!(width >= 64 || v >> width == 0, "expected {}[{lsb}+:{width}] = {v:#x} does not fit", d.name);
        write_field(&mut self.words, d.offset, lsb, width, v);
        self.given[p.0] = true;
        self
    }
    /// Sets a port to the value the model shows now (the port counts as given): for the bits a
    /// driver does not compare (dead state); it then sets the compared fields with `set_field`.
    pub fn keep_actual(&mut self, dut: &Dut, p: Out) -> &mut Self {
        let d = &self.desc.outputs[p.0];
        let n = d.width.div_ceil(32);
        self.words[d.offset..d.offset + n].copy_from_slice(&dut.out[d.offset..d.offset + n]);
        self.given[p.0] = true;
        self
    }
    /// A line printed with a mismatch (a driver's reading of it, e.g. which field differs).
    pub fn note(&mut self, line: impl Into<String>) -> &mut Self {
        self.notes.push(line.into());
        self
    }
    /// Marks a port as given with all-zero value (useful for wide ports built by set_field).
    pub fn zero(&mut self, p: Out) -> &mut Self {
        let d = &self.desc.outputs[p.0];
        for w in 0..d.width.div_ceil(32) {
            self.words[d.offset + w] = 0;
        }
        self.given[p.0] = true;
        self
    }
}

/// A Verilated model instance.
pub struct Dut {
    desc: &'static ModelDesc,
    h: *mut c_void,
    inp: Vec<u32>,
    out: Vec<u32>,
    cycle: u64,
    /// Input vectors (with the step mode) since the last reset, for replay into a traced model.
    hist_words: Vec<u32>,
    hist_modes: Vec<u8>,
    history_dropped: u64,
    rst: Option<In>,
    label: String,
    /// `capture_waves`: the cycles captured so far (figures).
    waves: Option<Vec<crate::waves::Cycle>>,
    /// `ThreadOpts` at creation.
    record: bool,
    flip_at: Option<u64>,
    xinit_seed: Option<u32>,
}

/// How many steps of input history are kept for the waveform replay. Beyond that the replay
/// starts from the oldest kept step (fine for pipelines, flagged in the message otherwise).
const HISTORY_CAP: usize = 1 << 20;
/// Steps before the failure that the VCD shows.
pub const TRACE_WINDOW: u64 = 64;

impl Dut {
    pub fn new(id: &str) -> Self {
        let opts = thread_opts();
        let desc = match (opts.xinit_seed, opts.netlist) {
            (Some(_), None) => model(&format!("{id}{XINIT_SUFFIX}")),
            (None, Some(n)) => model(&format!("{id}{}", n.suffix())),
            (None, None) => model(id),
            (Some(_), Some(_)) => panic!("{id}: no twin is both X-initialised and gate level"),
        };
        // Guard against a stale layout: the shim and the descriptor come from the same build.
        unsafe {
            assert_eq!((desc.ffi.in_words)(), desc.in_words);
            assert_eq!((desc.ffi.out_words)(), desc.out_words);
        }
        let h = open(desc, opts.xinit_seed, 0);
        let rst = desc.inputs.iter().position(|p| p.name == "rst").map(In);
        let mut d = Self {
            desc,
            h,
            inp: vec![0; desc.in_words],
            out: vec![0; desc.out_words],
            cycle: 0,
            hist_words: Vec::new(),
            hist_modes: Vec::new(),
            history_dropped: 0,
            rst,
            label: String::new(),
            waves: None,
            record: !opts.no_history,
            flip_at: opts.flip_at,
            xinit_seed: opts.xinit_seed,
        };
        d.settle();
        d
    }

    /// A label printed with any mismatch and used in the trace file name (e.g. the test vector).
    pub fn set_label(&mut self, label: impl Into<String>) {
        self.label = label.into();
    }

    pub fn desc(&self) -> &'static ModelDesc {
        self.desc
    }

    pub fn param(&self, name: &str) -> &'static str {
        self.desc
            .params
            .iter()
            .find(|(k, _)| *k == name)
            .unwrap_or_else(|| panic!("model {} has no parameter {name}", self.desc.id))
            .1
    }

    /// The input called `name`, if the model has one.
    pub fn try_input(&self, name: &str) -> Option<In> {
        self.desc.inputs.iter().position(|p| p.name == name).map(In)
    }

    /// The output called `name`, if the model has one.
    pub fn try_output(&self, name: &str) -> Option<Out> {
        self.desc.outputs.iter().position(|p| p.name == name).map(Out)
    }

    pub fn input(&self, name: &str) -> In {
        In(self.desc.inputs.iter().position(|p| p.name == name).unwrap_or_else(|| {
            panic!(
                "model {} has no input `{name}`; inputs: {}",
                self.desc.id,
                self.desc.inputs.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            )
        }))
    }

    pub fn output(&self, name: &str) -> Out {
        Out(self.desc.outputs.iter().position(|p| p.name == name).unwrap_or_else(|| {
            panic!(
                "model {} has no output `{name}`; outputs: {}",
                self.desc.id,
                self.desc.outputs.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            )
        }))
    }

    pub fn width_in(&self, p: In) -> usize {
        self.desc.inputs[p.0].width
    }
    pub fn width_out(&self, p: Out) -> usize {
        self.desc.outputs[p.0].width
    }

    /// Drives an input (≤ 64 bits). Panics if the value does not fit: nothing is truncated.
    pub fn set(&mut self, p: In, v: u64) {
        let d = &self.desc.inputs[p.0];
        assert!(d.width <= 64, "input {} is {} bits wide: use set_field", d.name, d.width);
        assert!(d.width == 64 || v >> d.width == 0, "input {} = {v:#x} does not fit {} bits", d.name, d.width);
        write_field(&mut self.inp, d.offset, 0, d.width, v);
    }

    /// Drives bits `[lsb, lsb+width)` of an input.
    pub fn set_field(&mut self, p: In, lsb: usize, width: usize, v: u64) {
        let d = &self.desc.inputs[p.0];
        assert!(lsb + width <= d.width, "{}[{}+:{}] is outside a {}-bit port", d.name, lsb, width, d.width);
        assert!(width >= 64 || v >> width == 0, "input {}[{lsb}+:{width}] = {v:#x} does not fit", d.name);
        write_field(&mut self.inp, d.offset, lsb, width, v);
    }

    /// Reads an output (≤ 64 bits) as of the last step.
    pub fn get(&self, p: Out) -> u64 {
        let d = &self.desc.outputs[p.0];
        assert!(d.width <= 64, "output {} is {} bits wide: use get_field", d.name, d.width);
        read_field(&self.out, d.offset, 0, d.width)
    }

    pub fn get_field(&self, p: Out, lsb: usize, width: usize) -> u64 {
        let d = &self.desc.outputs[p.0];
        assert!(lsb + width <= d.width, "{}[{}+:{}] is outside a {}-bit port", d.name, lsb, width, d.width);
        read_field(&self.out, d.offset, lsb, width)
    }

    /// Number of full clock cycles run so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    fn record(&mut self, mode: u32) {
        if !self.record {
            return;
        }
        let is_reset = self.rst.is_some_and(|r| read_field(&self.inp, self.desc.inputs[r.0].offset, 0, 1) == 1);
        if is_reset && mode == 1 {
            // A reset cycle clears all state: the replay can start here.
            self.hist_words.clear();
            self.hist_modes.clear();
            self.history_dropped = 0;
        }
        if self.hist_modes.len() >= 2 * HISTORY_CAP {
            self.hist_modes.drain(..HISTORY_CAP);
            self.hist_words.drain(..HISTORY_CAP * self.desc.in_words);
            self.history_dropped += HISTORY_CAP as u64;
        }
        self.hist_modes.push(mode as u8);
        self.hist_words.extend_from_slice(&self.inp);
    }

    /// Applies the inputs and evaluates without a clock edge (combinational outputs update).
    pub fn settle(&mut self) {
        self.record(0);
        unsafe { (self.desc.ffi.step)(self.h, self.inp.as_ptr(), self.out.as_mut_ptr(), 0) };
    }

    /// One clock cycle: inputs applied with the clock low, rising edge, falling edge.
    /// Outputs read afterwards show the state after the edge.
    pub fn tick(&mut self) {
        if let Some(w) = self.waves.as_mut() {
            // the cycle as a timing diagram shows it: this cycle's inputs, and the outputs before
            // the edge (an evaluation without an edge changes no state)
            unsafe { (self.desc.ffi.step)(self.h, self.inp.as_ptr(), self.out.as_mut_ptr(), 0) };
            w.push(crate::waves::Cycle { inputs: self.inp.clone(), outputs: self.out.clone() });
        }
        self.record(1);
        unsafe { (self.desc.ffi.step)(self.h, self.inp.as_ptr(), self.out.as_mut_ptr(), 1) };
        self.cycle += 1;
    }

    /// From now on every `tick` keeps its cycle for a timing diagram (`take_waves`).
    pub fn capture_waves(&mut self) {
        self.waves = Some(Vec::new());
    }

    /// The cycles captured since `capture_waves`; capturing stops.
    pub fn take_waves(&mut self) -> Vec<crate::waves::Cycle> {
        self.waves.take().expect("capture_waves was not called")
    }

    /// Holds `rst` high for `cycles` cycles with the other inputs as they are, then drops it.
    pub fn reset(&mut self, cycles: u32) {
        let r = self.rst.expect("model has a rst input");
        self.set(r, 1);
        for _ in 0..cycles {
            self.tick();
        }
        self.set(r, 0);
        self.settle();
    }

    /// Runs `inputs.len() / in_words` cycles without recording or checking (benchmarks).
    pub fn run_bare(&mut self, inputs: &[u32], outputs: &mut [u32]) {
        let n = inputs.len() / self.desc.in_words.max(1);
        assert!(outputs.len() >= n * self.desc.out_words);
        unsafe { (self.desc.ffi.run)(self.h, inputs.as_ptr(), outputs.as_mut_ptr(), n) };
        self.cycle += n as u64;
        self.hist_words.clear();
        self.hist_modes.clear();
    }

    /// The packed input buffer (for building bare-run vectors).
    pub fn inputs_raw(&self) -> &[u32] {
        &self.inp
    }

    pub fn expected(&self) -> Expected {
        Expected { desc: self.desc, words: vec![0; self.desc.out_words], given: vec![false; self.desc.outputs.len()], notes: Vec::new() }
    }

    /// Compares every output port with `exp`. All ports must have been given.
    pub fn check(&mut self, exp: &Expected) {
        if self.flip_at.is_some_and(|c| self.cycle >= c) {
            self.flip_at = None;
            let mut e = exp.clone();
            e.words[self.desc.outputs[0].offset] ^= 1;
            return self.check(&e);
        }
        if exp.words == self.out {
            if let Some(i) = exp.given.iter().position(|g| !g) {
                panic!("{}: Expected has no value for output `{}`", self.desc.id, self.desc.outputs[i].name);
            }
            return;
        }
        if let Some(i) = exp.given.iter().position(|g| !g) {
            panic!("{}: Expected has no value for output `{}`", self.desc.id, self.desc.outputs[i].name);
        }
        let mut msg = String::new();
        writeln!(msg, "co-sim mismatch in {} at cycle {} {}", self.desc.id, self.cycle, self.label).unwrap();
        for d in self.desc.outputs {
            let n = d.width.div_ceil(32);
            let e = &exp.words[d.offset..d.offset + n];
            let a = &self.out[d.offset..d.offset + n];
            if e != a {
                writeln!(msg, "  port {} ({} bits): expected {} actual {}", d.name, d.width, hex(e, d.width), hex(a, d.width))
                    .unwrap();
            }
        }
        for n in &exp.notes {
            writeln!(msg, "  {n}").unwrap();
        }
        writeln!(msg, "  inputs: {}", self.describe_inputs()).unwrap();
        match self.dump_trace() {
            Ok(p) => {
                writeln!(msg, "  waveform of the last {TRACE_WINDOW} steps: {}", p.display()).unwrap();
                LAST_TRACE.with(|t| *t.borrow_mut() = Some(p));
            }
            Err(e) => writeln!(msg, "  (no waveform: {e})").unwrap(),
        }
        writeln!(msg, "  Verilog: {}", self.desc.verilog).unwrap();
        panic!("{msg}");
    }

    /// Asserts one port (≤ 64 bits) and dumps a waveform on mismatch.
    pub fn check_port(&mut self, p: Out, expected: u64) {
        let got = self.get(p);
        if got != expected {
            let mut e = Expected { desc: self.desc, words: self.out.clone(), given: vec![true; self.desc.outputs.len()], notes: Vec::new() };
            e.set(p, expected);
            self.check(&e);
        }
    }

    fn describe_inputs(&self) -> String {
        self.desc
            .inputs
            .iter()
            .map(|d| format!("{}={}", d.name, hex(&self.inp[d.offset..d.offset + d.width.div_ceil(32)], d.width)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Replays the recorded inputs into a traced model and writes the last TRACE_WINDOW steps.
    pub fn dump_trace(&self) -> Result<PathBuf, String> {
        if !self.record {
            return Err("input history off (ThreadOpts::no_history)".into());
        }
        let dir = thread_opts().trace_dir.or_else(|| std::env::var_os("EU_TRACE_DIR").map(PathBuf::from)).unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/cosim-traces")
        });
        std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
        let thread = std::thread::current();
        let tname: String = thread
            .name()
            .unwrap_or("main")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .collect();
        // A gate-level twin is built without trace (sim/build_twins.rs): the same inputs go into
        // the RTL model of the same variant (same ports), whose waveform shows what the netlist
        // should have done.
        let twin_of = [Netlist::Ice40, Netlist::Ecp5].into_iter().find_map(|n| self.desc.id.strip_suffix(n.suffix()));
        let desc = match twin_of {
            Some(rtl) => model(rtl),
            None => self.desc,
        };
        let path = dir.join(format!("{}__{}__cycle{}.vcd", desc.id.replace('/', "__"), tname, self.cycle));
        let cpath = CString::new(path.to_string_lossy().as_bytes()).unwrap();
        let f = &desc.ffi;
        unsafe {
            let h = open(desc, self.xinit_seed, 1);
            let start = self.hist_modes.len().saturating_sub(TRACE_WINDOW as usize);
            let n = desc.in_words;
            let mut out = vec![0u32; desc.out_words];
            for (i, mode) in self.hist_modes.iter().enumerate() {
                let inp = &self.hist_words[i * n..(i + 1) * n];
                if i == start && (f.trace_open)(h, cpath.as_ptr()) == 0 {
                    (f.free)(h);
                    return Err(format!("could not open {}", path.display()));
                }
                (f.step)(h, inp.as_ptr(), out.as_mut_ptr(), *mode as i32);
            }
            (f.trace_close)(h);
            (f.free)(h);
        }
        if twin_of.is_some() {
            eprintln!("note: {} is a gate-level twin, built without trace: {} is the RTL model's waveform for the same inputs", self.desc.id, path.display());
        }
        if self.history_dropped > 0 {
            eprintln!(
                "note: the replay for {} started {} steps after the last reset (older inputs not kept); \
                 state older than that may differ in the waveform",
                path.display(),
                self.history_dropped
            );
        }
        Ok(path)
    }
}

/// A new model instance (`trace`: able to write a VCD); an X-initialisation build gets its seed
/// first.
fn open(desc: &ModelDesc, xinit_seed: Option<u32>, trace: i32) -> *mut c_void {
    unsafe {
        match (xinit_seed, desc.ffi.xinit_seed) {
            (Some(seed), Some(set)) => set(seed as i32),
            (None, None) => {}
            _ => unreachable!("{}: the X-initialisation seed goes with the X-initialisation build", desc.id),
        }
        (desc.ffi.new)(trace)
    }
}

fn hex(words: &[u32], width: usize) -> String {
    let mut s = String::new();
    for (i, w) in words.iter().enumerate().rev() {
        let top = width - 32 * i;
        let w = if top < 32 { w & ((1u32 << top) - 1) } else { *w };
        write!(s, "{w:08x}").unwrap();
    }
    let t = s.trim_start_matches('0');
    format!("{width}'h{}", if t.is_empty() { "0" } else { t })
}

impl Drop for Dut {
    fn drop(&mut self) {
        unsafe { (self.desc.ffi.free)(self.h) };
    }
}

#[cfg(test)]
mod tests {
    use super::{read_field, write_field};
    use rand::{Rng, SeedableRng};

    /// The word-piece field access against a bit-by-bit reference, over every alignment.
    #[test]
    fn field_access_matches_bitwise_reference() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20_000 {
            let (base, lsb, width) = (rng.gen_range(0..3), rng.gen_range(0..100), rng.gen_range(0..=64));
            let v: u64 = rng.gen::<u64>() & if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
            let mut buf: Vec<u32> = (0..8).map(|_| rng.gen()).collect();
            let mut want = buf.clone();
            for b in 0..width {
                let bit = lsb + b;
                let m = 1u32 << (bit % 32);
                want[base + bit / 32] = if (v >> b) & 1 == 1 { want[base + bit / 32] | m } else { want[base + bit / 32] & !m };
            }
            write_field(&mut buf, base, lsb, width, v);
            assert_eq!(buf, want, "write base {base} lsb {lsb} width {width}");
            assert_eq!(read_field(&buf, base, lsb, width), v, "read base {base} lsb {lsb} width {width}");
        }
    }
}
