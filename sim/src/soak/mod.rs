//! The soak run (`eu-soak`, issue 18 item 5): long random co-simulation of each block's default
//! co-sim model(s) against the golden model, every output port every cycle, through the same
//! lock-step drivers as the tests.
//!
//! Work is cut into chunks: chunk `k` of a model runs `chunk` cycles from seed `seed + k`, on a
//! fresh model after reset, so any chunk can be replayed alone (`--seed seed+k`, the chunk's
//! cycles) and a run can be resumed from any chunk. A shard `i/n` takes the chunks with
//! `k mod n = i`, so n machines (a CI matrix, a batch array job) share one run with no other
//! change, and their `--summary` files add up. Chunks run on `jobs` threads; the first mismatch
//! stops the run, and its chunk is run again with the input history on to write the VCD.

pub mod stimulus;

use crate::cosim::{self, ThreadOpts};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The blocks the soak knows, in `--block all` order.
pub const BLOCKS: [&str; 5] = ["alu_pipeline", "branch_unit", "region_addr_gen", "tanh_sigmoid", "trap_controller"];

/// A co-sim model to soak: `block/variant` (the model `<block>_<variant>/eu_<block>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub block: String,
    pub variant: String,
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.block, self.variant)
    }
}

/// A block's default co-sim models: its default config, and that config's pipelined twin where
/// the block has one (RAG pipe = 6, trap controller pipe = 1).
pub fn default_variants(block: &str) -> &'static [&'static str] {
    match block {
        "alu_pipeline" => &["all"],
        "branch_unit" => &["n16"],
        "region_addr_gen" => &["default", "default_p"],
        "tanh_sigmoid" => &["lanes8"],
        "trap_controller" => &["w8", "w8_p"],
        _ => &[],
    }
}

/// `all`, a block name (its default models) or `block/variant` (any co-sim variant of the
/// block's top), comma-separated.
pub fn parse_targets(spec: &str) -> Result<Vec<Target>, String> {
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let blocks: Vec<&str> = if part == "all" { BLOCKS.to_vec() } else { vec![part.split('/').next().unwrap()] };
        for b in blocks {
            if !BLOCKS.contains(&b) {
                return Err(format!("unknown block `{b}`: expected all, one of {}, or <block>/<variant>", BLOCKS.join(", ")));
            }
            match part.split_once('/') {
                Some((_, v)) => {
                    let id = format!("{b}_{v}/eu_{b}");
                    if !cosim::models().iter().any(|m| m.id == id) {
                        let vs: Vec<&str> = cosim::models()
                            .iter()
                            .filter_map(|m| m.id.strip_suffix(&format!("/eu_{b}"))?.strip_prefix(&format!("{b}_")))
                            .collect();
                        return Err(format!("`{b}` has no co-sim variant `{v}`; variants: {}", vs.join(", ")));
                    }
                    out.push(Target { block: b.into(), variant: v.into() });
                }
                None => out.extend(default_variants(b).iter().map(|v| Target { block: b.into(), variant: (*v).into() })),
            }
        }
    }
    Ok(out)
}

/// A count such as `1e9`, `2.5e6`, `10_000_000` or `1000`.
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    if let Ok(v) = t.parse::<u64>() {
        return Ok(v);
    }
    match t.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.fract() == 0.0 && v < 1.8e19 => Ok(v as u64),
        _ => Err(format!("`{s}` is not a whole number of cycles (e.g. 1e9, 10000000)")),
    }
}

/// `i/n` with `i < n`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s.split_once('/').ok_or_else(|| format!("shard `{s}` is not of the form i/n (e.g. 0/4)"))?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| format!("shard index `{i}` is not a number"))?,
        n.trim().parse().map_err(|_| format!("shard count `{n}` is not a number"))?,
    );
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= i < n"));
    }
    Ok((i, n))
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub targets: Vec<Target>,
    /// Cycles per model.
    pub cycles: u64,
    /// Seed of chunk 0.
    pub seed: u64,
    /// Cycles per chunk.
    pub chunk: u64,
    /// This shard's `(i, n)`.
    pub shard: (u64, u64),
    pub jobs: usize,
    /// Where the VCD of a mismatch goes.
    pub vcd_dir: PathBuf,
    /// Draw a progress bar (on stderr, if it is a terminal).
    pub progress: bool,
    /// Test-only: every chunk's golden output gets one bit flipped at this cycle.
    pub inject_mismatch: Option<u64>,
}

/// One chunk: a model, its index and seed, its cycles.
#[derive(Clone, Debug)]
pub struct Chunk {
    pub target: usize,
    pub index: u64,
    pub seed: u64,
    pub cycles: u64,
}

impl Plan {
    /// This shard's chunks, model by model.
    pub fn chunks(&self) -> Vec<Chunk> {
        let n_chunks = self.cycles.div_ceil(self.chunk.max(1));
        let mut v = Vec::new();
        for t in 0..self.targets.len() {
            for k in (self.shard.0..n_chunks).step_by(self.shard.1 as usize) {
                let cycles = self.chunk.min(self.cycles - k * self.chunk);
                v.push(Chunk { target: t, index: k, seed: self.seed.wrapping_add(k), cycles });
            }
        }
        v
    }
}

/// The first mismatch of a run.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub target: Target,
    pub seed: u64,
    pub chunk_cycles: u64,
    /// The model's cycle at the mismatch (None: the failure was not a port mismatch, e.g. a
    /// golden-model invariant; see `message`).
    pub cycle: Option<u64>,
    pub message: String,
    /// The VCD of the replay.
    pub vcd: Option<PathBuf>,
    /// The command that replays the chunk alone.
    pub replay: String,
}

/// Per-model figures of a run.
#[derive(Clone, Debug, Default)]
pub struct TargetStats {
    pub cycles: u64,
    pub chunks: u64,
    pub first_seed: Option<u64>,
    pub last_seed: Option<u64>,
    /// Seconds spent in this model's chunks, summed over threads.
    pub chunk_seconds: f64,
    pub mismatches: u64,
}

pub struct Report {
    pub plan: Plan,
    pub stats: Vec<TargetStats>,
    pub wall_seconds: f64,
    pub mismatch: Option<Mismatch>,
}

/// Polled by a chunk's loop: adds the cycles run to the shared count, says whether to go on.
pub struct Meter<'a> {
    done: &'a AtomicU64,
    stop: &'a AtomicBool,
    last: u64,
    bar: Option<&'a indicatif::ProgressBar>,
}

impl Meter<'_> {
    /// `cycle`: the model's cycle count now. False once the run must stop.
    pub fn at(&mut self, cycle: u64) -> bool {
        if cycle >= self.last + 4096 {
            self.flush(cycle);
            return !self.stop.load(Ordering::Relaxed);
        }
        true
    }
    fn flush(&mut self, cycle: u64) {
        let d = cycle.saturating_sub(self.last);
        self.done.fetch_add(d, Ordering::Relaxed);
        if let Some(b) = self.bar {
            b.inc(d);
        }
        self.last = cycle.max(self.last);
    }
}

/// Runs one chunk on this thread with the given harness options; Err(panic message) on a
/// mismatch or any failed check.
pub fn run_chunk(target: &Target, seed: u64, cycles: u64, opts: ThreadOpts, meter: &mut Meter) -> Result<u64, String> {
    cosim::set_thread_opts(opts);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| stimulus::run(&target.block, &target.variant, seed, cycles, meter)));
    cosim::set_thread_opts(ThreadOpts::default());
    r.map_err(|e| {
        e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "panic".into())
    })
}

/// Runs `cycles` cycles of `target` from `seed` as one chunk, outside a plan (tests, the X-init
/// runs): Ok(cycles run) or Err(the failure).
pub fn run_one(target: &Target, seed: u64, cycles: u64, opts: ThreadOpts) -> Result<u64, String> {
    let (done, stop) = (AtomicU64::new(0), AtomicBool::new(false));
    let mut m = Meter { done: &done, stop: &stop, last: 0, bar: None };
    run_chunk(target, seed, cycles, opts, &mut m)
}

fn cycle_of(msg: &str) -> Option<u64> {
    let rest = msg.split("co-sim mismatch in ").nth(1)?;
    let rest = rest.split(" at cycle ").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// Runs the plan. Panics of the chunks are caught (and kept quiet while the run goes on); the
/// report says what failed.
pub fn run(plan: &Plan) -> Report {
    let chunks = plan.chunks();
    let total: u64 = chunks.iter().map(|c| c.cycles).sum();
    let bar = if plan.progress { indicatif::ProgressBar::new(total) } else { indicatif::ProgressBar::hidden() };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} cycles, {per_sec}, ETA {eta} {msg}",
        )
        .unwrap(),
    );
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let stats = Mutex::new(vec![TargetStats::default(); plan.targets.len()]);
    let failure: Mutex<Option<(Chunk, String)>> = Mutex::new(None);
    let t0 = Instant::now();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    std::thread::scope(|s| {
        for j in 0..plan.jobs.max(1).min(chunks.len().max(1)) {
            let (chunks, done, stop, next, stats, failure, bar) = (&chunks, &done, &stop, &next, &stats, &failure, &bar);
            std::thread::Builder::new()
                .name(format!("soak{j}"))
                .spawn_scoped(s, move || loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(c) = chunks.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let target = &plan.targets[c.target];
                    let opts = ThreadOpts { no_history: true, flip_at: plan.inject_mismatch, ..Default::default() };
                    let t = Instant::now();
                    let mut m = Meter { done, stop, last: 0, bar: Some(bar) };
                    let r = run_chunk(target, c.seed, c.cycles, opts, &mut m);
                    let secs = t.elapsed().as_secs_f64();
                    let mut st = stats.lock().unwrap();
                    let e = &mut st[c.target];
                    e.chunk_seconds += secs;
                    match r {
                        Ok(n) => {
                            m.flush(n);
                            e.cycles += n;
                            e.chunks += 1;
                            e.first_seed = Some(e.first_seed.map_or(c.seed, |f| f.min(c.seed)));
                            e.last_seed = Some(e.last_seed.map_or(c.seed, |l| l.max(c.seed)));
                        }
                        Err(msg) => {
                            e.mismatches += 1;
                            stop.store(true, Ordering::Relaxed);
                            failure.lock().unwrap().get_or_insert((c.clone(), msg));
                        }
                    }
                })
                .expect("spawn a soak thread");
        }
    });
    bar.finish_and_clear();
    let mut mismatch = None;
    if let Some((c, msg)) = failure.into_inner().unwrap() {
        // the same chunk again, with the input history on: the harness writes the VCD of the
        // cycles before the mismatch into vcd_dir
        let target = plan.targets[c.target].clone();
        let _ = std::fs::create_dir_all(&plan.vcd_dir);
        let opts = ThreadOpts { trace_dir: Some(plan.vcd_dir.clone()), flip_at: plan.inject_mismatch, ..Default::default() };
        let again = run_one(&target, c.seed, c.cycles, opts);
        let vcd = cosim::take_last_trace();
        let message = match again {
            Err(m2) => m2,
            Ok(_) => format!("{msg}\n(the replay with waves on passed: the failure did not repeat)"),
        };
        let inject = plan.inject_mismatch.map(|c| format!(" --inject-mismatch {c}")).unwrap_or_default();
        mismatch = Some(Mismatch {
            replay: format!(
                "eu-soak --block {target} --cycles {} --chunk {} --seed {} --jobs 1{inject}",
                c.cycles, plan.chunk, c.seed
            ),
            cycle: cycle_of(&message),
            target,
            seed: c.seed,
            chunk_cycles: c.cycles,
            message,
            vcd,
        });
    }
    std::panic::set_hook(hook);
    Report { plan: plan.clone(), stats: stats.into_inner().unwrap(), wall_seconds: t0.elapsed().as_secs_f64(), mismatch }
}

impl Report {
    /// The shard's summary: per model cycles, chunks, seeds, seconds and mismatches; the
    /// shard's wall time; the first mismatch with its replay command. Shards of one run add up
    /// by their `cycles`, `chunks` and `mismatches`.
    pub fn summary(&self) -> Value {
        let p = &self.plan;
        let models: Vec<Value> = p
            .targets
            .iter()
            .zip(&self.stats)
            .map(|(t, s)| {
                json!({
                    "block": t.block,
                    "variant": t.variant,
                    "model": format!("{}_{}/eu_{}", t.block, t.variant, t.block),
                    "cycles": s.cycles,
                    "chunks": s.chunks,
                    "seeds": { "first": s.first_seed, "last": s.last_seed, "stride": p.shard.1 },
                    "chunk_seconds": (s.chunk_seconds * 1000.0).round() / 1000.0,
                    "cycles_per_second": if s.chunk_seconds > 0.0 { (s.cycles as f64 / s.chunk_seconds).round() } else { 0.0 },
                    "mismatches": s.mismatches,
                })
            })
            .collect();
        json!({
            "shard": format!("{}/{}", p.shard.0, p.shard.1),
            "seed": p.seed,
            "cycles_per_model": p.cycles,
            "chunk_cycles": p.chunk,
            "jobs": p.jobs,
            "wall_seconds": (self.wall_seconds * 1000.0).round() / 1000.0,
            "models": models,
            "mismatches": self.stats.iter().map(|s| s.mismatches).sum::<u64>(),
            "first_mismatch": self.mismatch.as_ref().map(|m| json!({
                "block": m.target.block,
                "variant": m.target.variant,
                "seed": m.seed,
                "cycle": m.cycle,
                "vcd": m.vcd.as_ref().map(|v| v.display().to_string()),
                "replay": m.replay,
            })),
        })
    }

    /// The human-readable result: one line per model, then the mismatch if any.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for (t, st) in self.plan.targets.iter().zip(&self.stats) {
            let rate = if st.chunk_seconds > 0.0 { st.cycles as f64 / st.chunk_seconds } else { 0.0 };
            writeln!(
                s,
                "{t}: {} cycles in {} chunks (seeds {}..={} step {}), {:.0} cycles/s per thread, {} mismatches",
                st.cycles,
                st.chunks,
                st.first_seed.map_or("-".into(), |v| v.to_string()),
                st.last_seed.map_or("-".into(), |v| v.to_string()),
                self.plan.shard.1,
                rate,
                st.mismatches
            )
            .unwrap();
        }
        writeln!(s, "wall time {:.1} s", self.wall_seconds).unwrap();
        if let Some(m) = &self.mismatch {
            writeln!(
                s,
                "\nMISMATCH in {} (seed {}, cycle {}):\n{}\nreplay: {}\nVCD: {}",
                m.target,
                m.seed,
                m.cycle.map_or("?".into(), |c| c.to_string()),
                m.message.trim_end(),
                m.replay,
                m.vcd.as_ref().map_or("(none written)".into(), |v| v.display().to_string())
            )
            .unwrap();
        }
        s
    }
}
