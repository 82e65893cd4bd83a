//! `eu-figures`: the documentation figures, generated from the design so they cannot drift.
//!
//! For every block: timing diagrams of short co-simulation scenarios (the Verilated model driven
//! with the golden model compared every port every cycle, as in the tests; a scenario that
//! mismatches panics with its waveform like a test) written as WaveDrom JSON and rendered to SVG
//! by `wavedrompy`, and a stage diagram of the emitted Verilog's sub-blocks drawn by
//! `scripts/docs/stage_diagram.py` (yosys + Graphviz `dot`). `--check` writes nothing: it
//! regenerates into a temporary directory and fails (exit 1) if any file differs from `--out`.

use clap::Parser;
use sim::figures::{self, Stage, BLOCKS};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(Parser)]
#[command(
    name = "eu-figures",
    about = "Timing diagrams (WaveDrom, from co-simulation runs checked against the golden models) and stage diagrams (Graphviz, from the emitted Verilog) for the docs",
    after_help = "Needs wavedrompy (pip install wavedrom==2.0.3.post3), yosys, python3 and dot (graphviz); scripts/setup.sh installs them.\n\
                  Exit status: 0 done (or --check: figures up to date), 1 --check found a stale or missing figure, 2 bad arguments, 3 a tool is missing or failed."
)]
struct Args {
    /// Directory of the figures.
    #[arg(long, default_value = "docs/figures")]
    out: PathBuf,
    /// Write nothing; exit 1 if a figure in --out differs from what the design now gives.
    #[arg(long)]
    check: bool,
    /// Only these blocks (repeatable); default: every block with figures.
    #[arg(long = "block", value_name = "NAME")]
    blocks: Vec<String>,
}

fn tool_error(msg: String) -> ExitCode {
    eprintln!("eu-figures: {msg}");
    ExitCode::from(3)
}

/// `wavedrompy` on PATH, else in the tools venv scripts/setup.sh installs it into.
fn wavedrompy() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("wavedrompy")).find(|f| f.is_file()))
        .unwrap_or(None);
    on_path.unwrap_or_else(|| {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let venv = var("EU_TOOLS_VENV").unwrap_or_else(|| {
            var("XDG_CACHE_HOME").unwrap_or_else(|| var("HOME").unwrap_or_default().join(".cache")).join("eu-rtl/tools-venv")
        });
        venv.join("bin/wavedrompy")
    })
}

fn render_wavedrom(json: &Path, svg: &Path) -> Result<(), String> {
    let o = Command::new(wavedrompy()).arg("-i").arg(json).arg("-s").arg(svg).output().map_err(|e| {
        format!("wavedrompy not found ({e}): pip install wavedrom==2.0.3.post3 (scripts/setup.sh installs it)")
    })?;
    if !o.status.success() {
        return Err(format!("wavedrompy failed on {}: {}", json.display(), String::from_utf8_lossy(&o.stderr)));
    }
    Ok(())
}

fn draw_stages(s: &Stage, dir: &Path) -> Result<(), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/docs/stage_diagram.py");
    let mut c = Command::new("python3");
    c.arg(&script)
        .arg(s.verilog)
        .arg(s.top)
        .arg(dir.join(format!("{}.dot", s.stem)))
        .arg("--svg")
        .arg(dir.join(format!("{}.svg", s.stem)))
        .arg("--title")
        .arg(&s.title);
    for g in &s.groups {
        c.arg("--group").arg(g);
    }
    let o = c.output().map_err(|e| format!("python3 not found ({e}): apt-get install -y python3"))?;
    if !o.status.success() {
        return Err(format!("{} failed: {}", script.display(), String::from_utf8_lossy(&o.stderr)));
    }
    Ok(())
}

/// Every file name in `dir` (sorted).
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// One block's timing diagrams and stage diagram into `gen`; its progress lines, or the error.
fn block_figures(block: &str, gen: &Path) -> Result<Vec<String>, String> {
    let mut log = vec![format!("eu-figures: {block}: running the timing scenarios (golden model compared every cycle)")];
    for t in figures::timing(block) {
        let json = gen.join(format!("{}.json", t.stem));
        std::fs::write(&json, &t.json).map_err(|e| format!("{}: {e}", json.display()))?;
        render_wavedrom(&json, &gen.join(format!("{}.svg", t.stem)))?;
        log.push(format!("eu-figures:   {}.json / .svg", t.stem));
    }
    let s = figures::stage(block);
    log.push(format!("eu-figures: {block}: stage diagram of {} (yosys, dot)", s.top));
    draw_stages(&s, gen)?;
    log.push(format!("eu-figures:   {}.dot / .svg", s.stem));
    Ok(log)
}

fn main() -> ExitCode {
    let a = Args::parse();
    for b in &a.blocks {
        if !BLOCKS.contains(&b.as_str()) {
            eprintln!("eu-figures: no figures for block `{b}` (blocks: {})", BLOCKS.join(", "));
            return ExitCode::from(2);
        }
    }
    let blocks: Vec<&str> = if a.blocks.is_empty() { BLOCKS.to_vec() } else { a.blocks.iter().map(|s| s.as_str()).collect() };
    // Everything is generated into a fresh directory first: a failing scenario or tool leaves
    // --out as it was.
    let tmp = match tempfile::tempdir() {
        Ok(t) => t,
        Err(e) => return tool_error(format!("temporary directory: {e}")),
    };
    let gen = tmp.path();
    // The blocks are independent (their own models, yosys and dot runs): on all cores, each
    // block's messages printed together, in block order.
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get()).min(blocks.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<Vec<String>, String>>>> = blocks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(s, || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(block) = blocks.get(i) else { break };
                    *results[i].lock().unwrap() = Some(block_figures(block, gen));
                })
                .expect("spawn an eu-figures worker");
        }
    });
    for r in results {
        match r.into_inner().unwrap().expect("every block ran") {
            Ok(log) => log.iter().for_each(|l| eprintln!("{l}")),
            Err(e) => return tool_error(e),
        }
    }
    let produced = listing(gen);
    if a.check {
        let mut stale = Vec::new();
        for f in &produced {
            let (new, old) = (std::fs::read(gen.join(f)).ok(), std::fs::read(a.out.join(f)).ok());
            match old {
                None => stale.push(format!("{f}: missing in {}", a.out.display())),
                Some(o) if Some(&o) != new.as_ref() => stale.push(format!("{f}: differs from what the design now gives")),
                _ => {}
            }
        }
        if stale.is_empty() {
            eprintln!("eu-figures: {} figure files in {} are up to date", produced.len(), a.out.display());
            return ExitCode::SUCCESS;
        }
        for s in &stale {
            eprintln!("eu-figures: stale: {s}");
        }
        eprintln!("eu-figures: regenerate with: cargo run --release -p sim --bin eu-figures -- --out {}", a.out.display());
        return ExitCode::from(1);
    }
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        return tool_error(format!("{}: {e}", a.out.display()));
    }
    for f in &produced {
        if let Err(e) = std::fs::copy(gen.join(f), a.out.join(f)) {
            return tool_error(format!("{}: {e}", a.out.join(f).display()));
        }
    }
    eprintln!("eu-figures: wrote {} files to {}", produced.len(), a.out.display());
    ExitCode::SUCCESS
}
