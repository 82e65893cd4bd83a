//! `eu-asm`: the EU's assembler, disassembler and ISA-level runner (issue 19). The work is in
//! `sim::golden::eu_core::asm` (next to the ISA model it feeds, which is why this is a `sim` bin:
//! the assembler reuses the branch unit's program assembler from `sim::golden`, and `run` needs
//! the model; `eu-gen` writes Verilog and knows none of them).

use clap::{Parser, Subcommand};
use sim::golden::eu_core::asm::{assemble, disassemble};
use sim::golden::eu_core::{Config, Host, Model, Program};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "eu-asm",
    about = "Assembler, disassembler and ISA-level runner of the EU instruction set (docs/isa.md)",
    after_help = "\
Source: structured assembly (docs/isa.md \"Assembly language\"): if/else/endif, do/while, break, \
cont, branch/join, halt, call NAME, ret, .func NAME/.endfunc, .handler/.endhandler; the assembler \
lays the program out and computes every JIP/UIP with the branch unit's program assembler. A file \
starting with .raw is a flat listing with explicit jip=/uip= (what `disasm` writes).

Object format: one 128-bit instruction per line as 32 hex digits (Verilog $readmemh), IP 0 \
first; a first line `// handler <ip>` gives the trap handler's address.

Errors in the source are reported as `FILE:LINE: message`; exit status 1 on an error, 2 on bad \
arguments.

Examples:
  eu-asm asm kernels/fractal.s -o fractal.hex
  eu-asm disasm fractal.hex
  eu-asm run kernels/gcd_collatz.s --threads 4"
)]
struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Assemble a source file into hex words.
    Asm {
        file: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Disassemble hex words (or a source file, assembled first) into a .raw listing.
    Disasm { file: PathBuf },
    /// Run a program (source or hex) on the ISA-level model from zeroed registers and memory;
    /// print how it ended, cycles and retired instructions per thread.
    Run {
        file: PathBuf,
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=32))]
        threads: u16,
        /// Print the retired-instruction trace.
        #[arg(long)]
        trace: bool,
    },
}

fn to_hex(p: &Program) -> String {
    let mut s = String::new();
    if let Some(h) = p.handler {
        s += &format!("// handler {h}\n");
    }
    for w in &p.code {
        s += &format!("{w:032x}\n");
    }
    s
}

fn from_hex(text: &str) -> Result<Program, String> {
    let mut p = Program::default();
    for (n, l) in text.lines().enumerate() {
        let l = l.trim();
        if let Some(h) = l.strip_prefix("// handler") {
            p.handler = Some(h.trim().parse().map_err(|_| format!("line {}: bad handler address", n + 1))?);
        } else if !l.is_empty() && !l.starts_with("//") {
            p.code.push(u128::from_str_radix(l, 16).map_err(|_| format!("line {}: not 32 hex digits: `{l}`", n + 1))?);
        }
    }
    Ok(p)
}

/// A program from a file: hex words if every line is hex (or a comment), else source.
fn load(path: &PathBuf) -> Result<Program, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let hex = text.lines().map(str::trim).all(|l| l.is_empty() || l.starts_with("//") || (l.len() == 32 && l.chars().all(|c| c.is_ascii_hexdigit())));
    if hex && text.lines().any(|l| !l.trim().is_empty() && !l.trim().starts_with("//")) {
        from_hex(&text).map_err(|e| format!("{}: {e}", path.display()))
    } else {
        assemble(&text).map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.msg))
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let r = match args.cmd {
        Cmd::Asm { file, out } => load(&file).and_then(|p| match out {
            Some(o) => std::fs::write(&o, to_hex(&p)).map_err(|e| format!("{}: {e}", o.display())),
            None => {
                print!("{}", to_hex(&p));
                Ok(())
            }
        }),
        Cmd::Disasm { file } => load(&file).map(|p| print!("{}", disassemble(&p))),
        Cmd::Run { file, threads, trace } => load(&file).map(|p| {
            let r = Model::new(Config { threads: threads as usize, host: Host::Kill, ..Config::default() }, p).run();
            if trace {
                for x in &r.trace {
                    println!("cycle {:>7} thread {} ip {:>5} mask {:08b} writes {}", x.cycle, x.thread, x.ip, x.exec_mask, x.writes.len());
                }
            }
            for e in &r.exceptions {
                println!("exception: cycle {} thread {} ip {} cause {} ({})", e.cycle, e.thread, e.ip, e.cause, e.detail);
            }
            println!("end {:?} after {} cycles; killed threads {:#x}; host irq cycles {}", r.end, r.cycles, r.killed, r.irq_cycles);
            for t in 0..threads as usize {
                println!("thread {t}: {} retired", r.retired(t));
            }
        }),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eu-asm: {e}");
            ExitCode::from(1)
        }
    }
}
