//! `eu-gen`: reads an EU-RTL TOML config, writes one Verilog file per module and a manifest.

use clap::{Parser, Subcommand};
use hdl::{EmittedModule, EuConfig, GenError};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const ABOUT: &str = "EU-RTL generator: GPU execution-unit blocks in rust-hdl, emitted as Verilog.";

const LONG_ABOUT: &str = "\
EU-RTL generator: GPU execution-unit blocks in rust-hdl, emitted as Verilog.

With no subcommand, eu-gen reads the config (or the built-in default, which enables every block at
its spec defaults), validates every key, and writes into --out:
  <module>.v       one file per top module, self-contained (the module and its submodules);
                   every module name starts with eu_<block>, so all files can be read into one
                   synthesis or simulation run
  manifest.json    every module: block, file, parameters, ports with direction and width
  files.f          the file list, for `verilator -f` / `yosys` scripts
  eu_<block>_defs.vh  for each emitted block that has encodings (op, error, event, state codes):
                   the codes as sized localparams (EU_<BLOCK>_<KIND>_<NAME>), generated from the
                   same tables as the RTL and the golden models; `include it inside a module body
  eu_rtl.core      a FuseSoC CAPI2 core (VLNV eu-rtl:eu:eu_rtl:<version>) of these files: the
                   Verilog, the headers as include files, and one target per top module
                   (`fusesoc --cores-root <out> run --target <module> --tool <tool> eu-rtl:eu:eu_rtl`)

A config has one TOML section per block; a block is emitted only if its section is present:
  [region_addr_gen]  [branch_unit]  [alu_pipeline]  [trap_controller]  [tanh_sigmoid]  [eu_core]
Keys left out take the spec's defaults. `eu-gen default-config` prints the full default config.
Unknown keys and out-of-range values are errors that name the key and the allowed values; on any
error nothing is written and the exit status is 2.";

#[derive(Parser)]
#[command(name = "eu-gen", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    /// TOML config; without it the built-in default config (all blocks, spec defaults) is used.
    #[arg(long, short, global = true)]
    config: Option<PathBuf>,
    /// Output directory for the Verilog files and the manifest (created if missing).
    #[arg(long, short, default_value = "build/verilog")]
    out: PathBuf,
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Validate the config and list the modules it would emit, writing nothing.
    Check,
    /// Print the built-in default config as TOML (every block, every key).
    DefaultConfig,
    /// Print the modules of the config with their parameters and ports.
    List,
    /// Print the encodings (op, error, event, state codes) of the config's blocks: the Verilog
    /// headers eu-gen writes (eu_<block>_defs.vh), or with --markdown the tables the block docs
    /// carry between their encodings markers.
    Encodings {
        /// Markdown tables instead of Verilog.
        #[arg(long)]
        markdown: bool,
    },
    /// Print each block's config matrix: for every config key, the values the co-simulation
    /// covers (extremes, default, values that change structure) and the variants that cover
    /// them, as the markdown table docs/<block>.md carries between its config-matrix markers.
    /// Fails (exit 1) naming the key, value or pair that no co-simulation variant covers.
    Matrix {
        /// Only this block (default: every block).
        #[arg(long)]
        block: Option<String>,
    },
    /// Print the tanh/sigmoid ROMs as the table generator fits them (per-segment minimax
    /// quadratics, quantised and locally searched against the fixed-point datapath): fit errors
    /// per region, then one line per row with its coefficients and ROM word. Deterministic: the
    /// RTL's ROM and the golden model use exactly these words.
    Tables {
        /// Also write one `$readmemh` file per ROM into this directory
        /// (tanh_sigmoid_rom_tanh.hex, tanh_sigmoid_rom_sigmoid.hex), one word per row.
        #[arg(long, value_name = "DIR")]
        hex: Option<PathBuf>,
    },
}

#[derive(Serialize)]
struct ManifestModule<'a> {
    name: &'a str,
    block: &'a str,
    file: String,
    params: std::collections::BTreeMap<&'a str, &'a str>,
    ports: &'a [hdl::PortInfo],
}

#[derive(Serialize)]
struct ManifestHeader {
    block: &'static str,
    file: String,
}

#[derive(Serialize)]
struct Manifest<'a> {
    generator: String,
    config: String,
    modules: Vec<ManifestModule<'a>>,
    /// The encodings headers, one per emitted block that has encodings.
    headers: Vec<ManifestHeader>,
    /// The FuseSoC CAPI2 core file of these files, and its VLNV.
    core: ManifestCore,
}

#[derive(Serialize)]
struct ManifestCore {
    file: &'static str,
    vlnv: String,
}

/// File name of the FuseSoC core eu-gen writes.
const CORE_FILE: &str = "eu_rtl.core";

fn core_vlnv() -> String {
    format!("eu-rtl:eu:eu_rtl:{}", env!("CARGO_PKG_VERSION"))
}

/// The FuseSoC CAPI2 core of the emitted files: one fileset (the Verilog files, the encodings
/// headers as include files), a `default` target, and one target per top module with that
/// module as `toplevel`. Names are eu-gen's own (`eu_<block>...`), so they need no YAML quoting.
fn capi2_core(modules: &[EmittedModule], headers: &[(&'static str, String, String)], config_name: &str) -> String {
    let mut s = String::from("CAPI=2:\n");
    s += &format!("# Written by eu-gen {} from config {config_name}; regenerate rather than edit.\n", env!("CARGO_PKG_VERSION"));
    s += &format!("name: {}\n", core_vlnv());
    s += "description: EU-RTL GPU execution-unit blocks (Verilog emitted by eu-gen)\n\n";
    s += "filesets:\n  rtl:\n    file_type: verilogSource\n    files:\n";
    for (_, f, _) in headers {
        s += &format!("      - {f}: {{is_include_file: true}}\n");
    }
    for m in modules {
        s += &format!("      - {}.v\n", m.name);
    }
    s += "\ntargets:\n  default:\n    filesets: [rtl]\n";
    for m in modules {
        s += &format!("  {0}:\n    description: top module {0} (block {1})\n    filesets: [rtl]\n    toplevel: {0}\n", m.name, m.block);
    }
    s
}

/// The encodings headers of the config's blocks: (block, file name, text).
fn headers(cfg: &EuConfig) -> Vec<(&'static str, String, String)> {
    cfg.enabled()
        .into_iter()
        .filter_map(|b| {
            let tables = hdl::registry::encodings(b);
            (!tables.is_empty()).then(|| (b, format!("eu_{b}_defs.vh"), hdl::enc::verilog_header(b, tables)))
        })
        .collect()
}

fn load_config(path: Option<&Path>) -> Result<(EuConfig, String), GenError> {
    match path {
        None => Ok((EuConfig::default_all(), "(built-in default)".into())),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| GenError::Parse(format!("cannot read config {}: {e}", p.display())))?;
            let cfg = EuConfig::from_toml(&text).map_err(|e| match e {
                GenError::Parse(m) => GenError::Parse(format!("{}: {m}", p.display())),
                other => other,
            })?;
            Ok((cfg, p.display().to_string()))
        }
    }
}

fn write_all(out: &Path, modules: &[EmittedModule], headers: &[(&'static str, String, String)], config_name: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(out)?;
    let manifest = Manifest {
        generator: format!("eu-gen {}", env!("CARGO_PKG_VERSION")),
        config: config_name.to_string(),
        modules: modules
            .iter()
            .map(|m| ManifestModule {
                name: &m.name,
                block: &m.block,
                file: format!("{}.v", m.name),
                params: m.params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
                ports: &m.ports,
            })
            .collect(),
        headers: headers.iter().map(|(b, f, _)| ManifestHeader { block: b, file: f.clone() }).collect(),
        core: ManifestCore { file: CORE_FILE, vlnv: core_vlnv() },
    };
    let mut files: Vec<(String, String)> =
        modules.iter().map(|m| (format!("{}.v", m.name), m.verilog.clone())).collect();
    files.push(("manifest.json".into(), serde_json::to_string_pretty(&manifest).unwrap() + "\n"));
    files.push((
        "files.f".into(),
        modules.iter().map(|m| format!("{}.v\n", m.name)).collect::<String>(),
    ));
    files.extend(headers.iter().map(|(_, f, text)| (f.clone(), text.clone())));
    files.push((CORE_FILE.into(), capi2_core(modules, headers, config_name)));
    // Each file is written to a temporary name in the same directory and renamed into place,
    // so a reader never sees a half-written file.
    let mut perms = std::fs::metadata(out)?.permissions();
    for (name, text) in files {
        let mut tmp = tempfile::NamedTempFile::new_in(out)?;
        std::io::Write::write_all(&mut tmp, text.as_bytes())?;
        // tempfile creates 0600 files; generated sources are ordinary readable files.
        #[cfg(unix)]
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
        tmp.as_file().set_permissions(perms.clone())?;
        tmp.persist(out.join(&name)).map_err(|e| e.error)?;
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), (u8, String)> {
    let cfg_err = |e: GenError| (2u8, format!("eu-gen: {e}"));
    match cli.cmd {
        Some(Cmd::DefaultConfig) => {
            let text = toml::to_string_pretty(&EuConfig::default_all()).expect("default config serialises");
            print!("# EU-RTL default config: every block at its spec defaults.\n\n{text}");
            Ok(())
        }
        Some(Cmd::Encodings { markdown }) => {
            let (cfg, _) = load_config(cli.config.as_deref()).map_err(cfg_err)?;
            for b in cfg.enabled() {
                let tables = hdl::registry::encodings(b);
                if tables.is_empty() {
                    continue;
                }
                if markdown {
                    println!("### {b}\n\n{}", hdl::enc::markdown(b, tables));
                } else {
                    print!("{}", hdl::enc::verilog_header(b, tables));
                }
            }
            Ok(())
        }
        Some(Cmd::Matrix { block }) => {
            let all = hdl::registry::config_matrices();
            if let Some(b) = &block {
                if !all.iter().any(|(n, _)| n == b) {
                    let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
                    return Err((2, format!("eu-gen: no block `{b}` (blocks: {})", names.join(", "))));
                }
            }
            for (name, m) in all.into_iter().filter(|(n, _)| block.as_deref().is_none_or(|b| b == *n)) {
                let md = m.map_err(|e| (1u8, format!("eu-gen: {e}")))?;
                println!("### {name}\n\n{}\n{md}{}\n", hdl::registry::MATRIX_BEGIN, hdl::registry::MATRIX_END);
            }
            Ok(())
        }
        Some(Cmd::Tables { hex }) => {
            use hdl::tanh_sigmoid::tables::{tables, tables_report, WORD_BITS};
            print!("{}", tables_report());
            if let Some(dir) = hex {
                let t = tables();
                let digits = (WORD_BITS as usize).div_ceil(4);
                let io_err = |e: std::io::Error| (1u8, format!("eu-gen: writing {}: {e}", dir.display()));
                std::fs::create_dir_all(&dir).map_err(io_err)?;
                for (name, tab) in [("tanh", &t.tanh), ("sigmoid", &t.sig)] {
                    let text: String = tab.rows.iter().map(|r| format!("{:0digits$x}\n", r.word())).collect();
                    let path = dir.join(format!("tanh_sigmoid_rom_{name}.hex"));
                    std::fs::write(&path, text).map_err(io_err)?;
                    eprintln!("wrote {}", path.display());
                }
            }
            Ok(())
        }
        Some(Cmd::Check) | Some(Cmd::List) => {
            let (cfg, name) = load_config(cli.config.as_deref()).map_err(cfg_err)?;
            let modules = cfg.emit().map_err(cfg_err)?;
            println!("config {name}: OK, {} module(s)", modules.len());
            let verbose = matches!(cli.cmd, Some(Cmd::List));
            for m in &modules {
                let params = m.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
                println!("  {:<28} [{}] {}", m.name, m.block, params);
                if verbose {
                    for p in &m.ports {
                        println!("      {:<4} {:>5}  {}", format!("{:?}", p.dir).to_lowercase(), p.width, p.name);
                    }
                }
            }
            Ok(())
        }
        None => {
            let (cfg, name) = load_config(cli.config.as_deref()).map_err(cfg_err)?;
            let modules = cfg.emit().map_err(cfg_err)?;
            if modules.is_empty() {
                return Err((2, format!("eu-gen: config {name} enables no block (add a section such as [branch_unit])")));
            }
            let headers = headers(&cfg);
            write_all(&cli.out, &modules, &headers, &name)
                .map_err(|e| (1, format!("eu-gen: writing {}: {e}", cli.out.display())))?;
            for m in &modules {
                println!("wrote {}", cli.out.join(format!("{}.v", m.name)).display());
            }
            for (_, f, _) in &headers {
                println!("wrote {}", cli.out.join(f).display());
            }
            println!("wrote {}", cli.out.join("manifest.json").display());
            println!("wrote {} (FuseSoC core {})", cli.out.join(CORE_FILE).display(), core_vlnv());
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, msg)) => {
            eprintln!("{msg}");
            ExitCode::from(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The core's text for a module and a header: the header is an include file of the same
    /// fileset, the module a target with itself as `toplevel` (the shape `fusesoc` was seen to
    /// accept; the CLI test runs fusesoc on the real output).
    #[test]
    fn capi2_core_lists_headers_as_include_files_and_a_target_per_module() {
        let m = EmittedModule {
            name: "eu_x".into(),
            block: "x".into(),
            params: vec![],
            ports: vec![],
            verilog: String::new(),
        };
        let hdr = vec![("x", "eu_x_defs.vh".to_string(), String::new())];
        let core = capi2_core(&[m], &hdr, "cfg.toml");
        assert!(core.starts_with("CAPI=2:\n"));
        assert!(core.contains(&format!("\nname: {}\n", core_vlnv())));
        assert!(core.contains("      - eu_x_defs.vh: {is_include_file: true}\n"), "{core}");
        assert!(core.contains("      - eu_x.v\n"), "{core}");
        assert!(core.contains("  eu_x:\n    description: top module eu_x (block x)\n    filesets: [rtl]\n    toplevel: eu_x\n"), "{core}");
    }
}
