//! `eu-soak`: long random co-simulation of the blocks against their golden models (issue 18
//! item 5). The work is in `sim::soak`; this is its command line.

use clap::Parser;
use sim::soak::{self, Plan};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "eu-soak",
    about = "Soak: random co-simulation of each block's default co-sim model(s) against the golden model, \
             every output port every cycle, in seeded chunks on several threads, until the cycle count or \
             the first mismatch",
    long_about = None,
    after_help = "\
How the work is cut: each model runs --cycles cycles in chunks of --chunk cycles. Chunk k uses \
seed SEED+k, a fresh model and a reset, so any chunk replays alone. --jobs threads take chunks in \
turn.

Sharding: --shard i/n runs only the chunks k with k mod n = i; n machines with the same other \
arguments (a CI matrix, a batch array job with i = the task index) cover the run exactly once, \
and their --summary files add up (cycles, chunks, mismatches per model).

Resume: the chunks are independent, so a run that stopped after chunk k resumes with \
--seed SEED+k+1 and --cycles reduced by (k+1) x --chunk.

On a mismatch the run stops, prints the block, seed, cycle and the failing ports, re-runs that \
chunk with the input history on to write a VCD of the cycles before the mismatch into --vcd-dir, \
and prints the command that replays the chunk.

Models (--block): all; a block name for its default models (alu_pipeline: all; branch_unit: n16; \
region_addr_gen: default, default_p; tanh_sigmoid: lanes8; trap_controller: w8, w8_p); or \
block/variant for any co-sim variant (e.g. trap_controller/w4_p); comma-separated.

Exit status: 0 no mismatch, 1 a mismatch (or a failed check), 2 bad arguments.

Example: eu-soak --block all --cycles 1e9 --seed 1 --jobs 2 --shard 0/4 --summary shard0.json"
)]
struct Args {
    /// Which models: all, a block (its default models), or block/variant; comma-separated.
    #[arg(long, value_name = "NAME|all", required = true, value_parser = targets)]
    block: Vec<Targets>,
    /// Cycles per model (1e9, 2.5e6 and 10_000_000 are all accepted).
    #[arg(long, value_parser = soak::parse_count, default_value = "1e9")]
    cycles: u64,
    /// Seed of chunk 0 (chunk k uses SEED+k); to resume, the seed of the first chunk not done.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Cycles per chunk: the unit of seeding, sharding, resuming and replay.
    #[arg(long, value_parser = soak::parse_count, default_value = "1e6")]
    chunk: u64,
    /// Threads (one chunk each at a time).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
    /// Run only shard i of n: the chunks k with k mod n = i.
    #[arg(long, value_name = "i/n", value_parser = soak::parse_shard, default_value = "0/1")]
    shard: (u64, u64),
    /// Write this shard's summary as JSON (per model: cycles, chunks, seeds, seconds, mismatches).
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Where the VCD of a mismatch is written.
    #[arg(long, value_name = "DIR", default_value = "target/soak-vcd")]
    vcd_dir: PathBuf,
    /// No progress bar (it is drawn only on a terminal anyway).
    #[arg(long)]
    quiet: bool,
    /// Test-only: flip one expected output bit at this cycle of every chunk (a wrong golden
    /// model), to show that a mismatch is caught and reported.
    #[arg(long, hide = true, value_parser = soak::parse_count)]
    inject_mismatch: Option<u64>,
}

/// The models of one `--block` value.
#[derive(Clone)]
struct Targets(Vec<soak::Target>);

fn targets(s: &str) -> Result<Targets, String> {
    soak::parse_targets(s).map(Targets)
}

fn main() -> ExitCode {
    let a = Args::parse();
    if a.chunk == 0 || a.cycles == 0 {
        eprintln!("eu-soak: --cycles and --chunk must be at least 1");
        return ExitCode::from(2);
    }
    let plan = Plan {
        targets: a.block.into_iter().flat_map(|t| t.0).collect(),
        cycles: a.cycles,
        seed: a.seed,
        chunk: a.chunk,
        shard: a.shard,
        jobs: a.jobs as usize,
        vcd_dir: a.vcd_dir,
        progress: !a.quiet && std::io::stderr().is_terminal(),
        inject_mismatch: a.inject_mismatch,
    };
    let chunks = plan.chunks().len();
    eprintln!(
        "eu-soak: {} model(s), {} cycles each, chunks of {} from seed {}, shard {}/{} ({chunks} chunks), {} thread(s)",
        plan.targets.len(),
        plan.cycles,
        plan.chunk,
        plan.seed,
        plan.shard.0,
        plan.shard.1,
        plan.jobs
    );
    let report = soak::run(&plan);
    print!("{}", report.text());
    if let Some(path) = &a.summary {
        let text = serde_json::to_string_pretty(&report.summary()).unwrap() + "\n";
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("eu-soak: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if report.mismatch.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
