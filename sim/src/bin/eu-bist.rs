//! `eu-bist`: emits a block's FPGA BIST top with the expected signature computed from the golden
//! model (used by `scripts/fpga/build.sh`).
//!
//! Commands, options and where a named config is read from: `HELP` below (`eu-bist --help`;
//! `sim::bist::config_path`).

use hdl::bist::{board, BOARDS, DEFAULT_CYCLES};
use hdl::Dir;
use sim::bist::{signature, Layout};
use sim::bist_models::{build, entry, registry};
use std::fmt::Write as _;
use std::process::ExitCode;

struct Opts {
    pos: Vec<String>,
    config: Option<String>,
    cycles: u32,
    fault: bool,
    out: Option<String>,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts { pos: vec![], config: None, cycles: DEFAULT_CYCLES, fault: false, out: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--config" => o.config = Some(val("--config")?),
            "--cycles" => {
                let v = val("--cycles")?;
                o.cycles = v.parse().map_err(|_| format!("--cycles: not a number: {v}"))?;
                if o.cycles == 0 {
                    return Err("--cycles must be at least 1".into());
                }
            }
            "--out" => o.out = Some(val("--out")?),
            "--fault" => o.fault = true,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s => o.pos.push(s.to_string()),
        }
    }
    Ok(o)
}

fn block_and_config(o: &Opts) -> Result<(sim::bist_models::BistEntry, String), String> {
    let name = o.pos.get(1).ok_or("missing <block>")?;
    let e = entry(name).ok_or_else(|| {
        format!(
            "block `{name}` has no BIST top; blocks with one: {}",
            registry().iter().map(|e| e.block).collect::<Vec<_>>().join(", ")
        )
    })?;
    let c = o.config.clone().unwrap_or_else(|| e.configs[0].to_string());
    if !e.configs.contains(&c.as_str()) {
        return Err(format!("block `{name}` has no BIST config `{c}`; configs: {}", e.configs.join(", ")));
    }
    Ok((e, c))
}

fn run(args: &[String]) -> Result<(), String> {
    let o = parse(args)?;
    match o.pos.first().map(String::as_str) {
        Some("list") => {
            for e in registry() {
                println!("{} {}", e.block, e.configs.join(" "));
            }
        }
        Some("targets") => {
            for b in BOARDS {
                println!("{} {} {} {}", b.target, b.clk_hz, b.constraints, b.name.replace(' ', "_"));
            }
        }
        Some("sig") => {
            let (e, c) = block_and_config(&o)?;
            let layout = Layout::of(&(e.dut)(&c));
            println!("{:08x}", signature(&layout, (e.model)(&c).as_mut(), o.cycles, o.fault));
        }
        Some("emit") => {
            let (e, c) = block_and_config(&o)?;
            let t = o.pos.get(2).ok_or("missing <target>")?;
            let b = board(t).ok_or_else(|| {
                format!("unknown target `{t}`; targets: {}", BOARDS.iter().map(|b| b.target).collect::<Vec<_>>().join(", "))
            })?;
            let out = o.out.as_ref().ok_or("emit needs --out DIR")?;
            let built = build(&e, &c, b, o.cycles, o.fault);
            std::fs::create_dir_all(out).map_err(|e| format!("{out}: {e}"))?;
            let top = &built.top;
            let vfile = format!("{out}/{}.v", top.name);
            std::fs::write(&vfile, &top.verilog).map_err(|e| format!("{vfile}: {e}"))?;
            // The DUT alone (same config), for its out-of-context synthesis figures.
            let dut = (e.dut)(&c);
            let dfile = format!("{out}/{}.v", dut.name);
            std::fs::write(&dfile, &dut.verilog).map_err(|e| format!("{dfile}: {e}"))?;
            let names = |d: Dir| top.ports.iter().filter(|p| p.dir == d).map(|p| p.name.clone()).collect::<Vec<_>>().join(" ");
            let mut env = String::new();
            let p = &built.params;
            let sig = p.expected.unwrap();
            // What the board prints and shows: the expected signature, or for a `--fault` build
            // the faulty one its MISR ends with (so a user can check the FAIL line digit by digit).
            let board_sig = if o.fault { signature(&built.layout, (e.model)(&c).as_mut(), p.cycles, true) } else { sig };
            writeln!(env, "BLOCK={}\nCONFIG={c}\nTOP={}\nDUT={}\nTARGET={}", e.block, top.name, p.dut_name, b.target).unwrap();
            writeln!(env, "CLK_HZ={}\nCYCLES={}\nSIG={sig:08x}\nBOARD_SIG={board_sig:08x}\nFAULT={}", b.clk_hz, p.cycles, o.fault as u8).unwrap();
            writeln!(env, "SW={}\nRW={}\nCONSTRAINTS={}", built.layout.sw, built.layout.rw, b.constraints).unwrap();
            writeln!(env, "INPUTS=\"{}\"\nOUTPUTS=\"{}\"", names(Dir::In), names(Dir::Out)).unwrap();
            std::fs::write(format!("{out}/bist.env"), env).map_err(|e| format!("{out}/bist.env: {e}"))?;
            println!(
                "eu-bist: {vfile}: {} around {} ({} stimulus, {} response bits), {} cycles, expected signature {sig:08x}{}",
                top.name,
                p.dut_name,
                built.layout.sw,
                built.layout.rw,
                p.cycles,
                if o.fault { format!(", fault injection always on: the board must show FAIL with sig={board_sig:08x}") } else { String::new() }
            );
        }
        _ => return Err("unknown command; `eu-bist --help` lists the commands and options".into()),
    }
    Ok(())
}

const HELP: &str = "\
eu-bist: a block's FPGA BIST top (stimulus LFSR, the block, MISR, UART) with the signature the
golden model predicts; scripts/fpga/build.sh drives it.

  eu-bist list                              blocks with a BIST top and their configs
  eu-bist targets                           FPGA targets (board, clock, constraint file)
  eu-bist sig  <block> [--config C] [--cycles N] [--fault]
                                            the expected signature
  eu-bist emit <block> <target> --out DIR [--config C] [--cycles N] [--fault]
                                            DIR/<top>.v, DIR/<dut>.v (the block alone) and
                                            DIR/bist.env (TOP, SIG, BOARD_SIG, INPUTS, OUTPUTS, ...)

  --config C   configs/<block>-C.toml of the current directory ($EU_CONFIG_DIR if set; else the
               configs/ of the workspace eu-bist was built in); default: the block's first config
  --cycles N   stimulus cycles before the signature is compared
  --fault      fault injection always on: that bitstream must show FAIL (BOARD_SIG is its signature)
Exit status: 0, or 2 with a message for a bad block, config, target or option.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") || args.is_empty() {
        print!("{HELP}");
        return if args.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eu-bist: {e}");
            ExitCode::from(2)
        }
    }
}
