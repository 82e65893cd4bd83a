//! Tests of the `eu-gen` command line: what a user runs first.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eu_gen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eu-gen")).args(args).output().expect("run eu-gen")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn default_config_writes_every_block_and_a_manifest_that_matches_the_files() {
    let out = tempfile::tempdir().unwrap();
    let o = eu_gen(&["--out", out.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(out.path());
    let modules = m["modules"].as_array().unwrap();
    let blocks: std::collections::BTreeSet<&str> = modules.iter().map(|m| m["block"].as_str().unwrap()).collect();
    for b in ["region_addr_gen", "branch_unit", "alu_pipeline", "trap_controller", "tanh_sigmoid"] {
        assert!(blocks.contains(b), "default config emits {b}: {blocks:?}");
    }
    let files = std::fs::read_to_string(out.path().join("files.f")).unwrap();
    assert_eq!(files.lines().count(), modules.len());
    for module in modules {
        let name = module["name"].as_str().unwrap();
        let block = module["block"].as_str().unwrap();
        assert!(name.starts_with("eu_"), "{name}");
        let text = std::fs::read_to_string(out.path().join(module["file"].as_str().unwrap())).unwrap();
        // Every module in the file carries the top's name as prefix, so files can be mixed.
        for line in text.lines().filter(|l| l.starts_with("module ")) {
            let m = line.trim_start_matches("module ").split('(').next().unwrap();
            assert!(m == name || m.starts_with(&format!("{name}$")), "{m} in {name}.v ({block})");
        }
        // The manifest's ports are the module's ports, with clk and rst on every block.
        let ports = module["ports"].as_array().unwrap();
        for req in ["clk", "rst"] {
            assert!(ports.iter().any(|p| p["name"] == req && p["dir"] == "in" && p["width"] == 1), "{name}: {req}");
        }
        let header = text.lines().find(|l| l.starts_with(&format!("module {name}("))).unwrap();
        let args: Vec<&str> = header.split('(').nth(1).unwrap().trim_end_matches(");").split(',').collect();
        let names: Vec<&str> = ports.iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(args, names, "{name}: manifest ports = Verilog port list");
    }
}

#[test]
fn emitted_verilog_passes_the_lint_and_synthesis_gate() {
    let out = tempfile::tempdir().unwrap();
    let o = eu_gen(&["--out", out.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let st = Command::new(repo().join("scripts/lint.sh")).arg(out.path()).output().unwrap();
    let text = String::from_utf8_lossy(&st.stdout);
    println!("{text}{}", String::from_utf8_lossy(&st.stderr));
    assert!(st.status.success(), "lint/synthesis gate failed:\n{text}");
    assert!(text.contains("files in one Verilator run") && text.contains("files in one yosys run"));
}

#[test]
fn lint_gate_fails_on_a_real_problem() {
    // The gate must be able to fail: a latch and an undriven output are both findings.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("eu_bad.v"),
        "module eu_bad(clk, rst, en, d, q, z);\n input wire clk; input wire rst; input wire en; input wire d;\n \
         output reg q; output wire z;\n always @(*) if (en) q = d;\nendmodule\n",
    )
    .unwrap();
    let st = Command::new(repo().join("scripts/lint.sh")).arg(dir.path()).output().unwrap();
    let text = String::from_utf8_lossy(&st.stdout);
    assert!(!st.status.success(), "the gate accepted a latch:\n{text}");
    assert!(text.contains("FAIL"), "{text}");
}

#[test]
fn committed_default_config_is_the_built_in_default() {
    let o = eu_gen(&["default-config"]);
    assert!(o.status.success());
    let printed: toml::Value = toml::from_str(&String::from_utf8_lossy(&o.stdout)).unwrap();
    let file: toml::Value =
        toml::from_str(&std::fs::read_to_string(repo().join("configs/default.toml")).unwrap()).unwrap();
    assert_eq!(printed, file, "configs/default.toml drifted: regenerate with `eu-gen default-config`");
    let o = eu_gen(&["--config", repo().join("configs/default.toml").to_str().unwrap(), "check"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A bad config exits 2, names the key, and writes nothing.
fn rejected(config: &str, must_mention: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, config).unwrap();
    let out = dir.path().join("out");
    let o = eu_gen(&["--config", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "config {config:?} must be rejected; stderr: {err}");
    for m in must_mention {
        assert!(err.contains(m), "error for {config:?} should mention {m:?}: {err}");
    }
    assert!(!out.exists(), "nothing may be written for a bad config");
}

#[test]
fn unknown_section_and_unknown_key_are_rejected() {
    rejected("[branch_unt]\n", &["branch_unt"]);
    rejected("[branch_unit]\nlanez = 4\n", &["lanez"]);
    rejected("[region_addr_gen]\nreg_byts = 32\n", &["reg_byts"]);
    rejected("[tanh_sigmoid]\n[tanh_sigmoid]\n", &["tanh_sigmoid"]);
}

#[test]
fn wrong_value_type_is_rejected_with_the_key() {
    rejected("[branch_unit]\nlanes = \"sixteen\"\n", &["lanes"]);
}

#[test]
fn missing_config_file_is_a_clear_error() {
    let o = eu_gen(&["--config", "/nonexistent/eu.toml", "check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read config /nonexistent/eu.toml"));
}

#[test]
fn empty_config_enables_nothing_and_says_so() {
    rejected("", &["enables no block"]);
}

#[test]
fn help_explains_the_outputs() {
    let o = eu_gen(&["--help"]);
    let t = String::from_utf8_lossy(&o.stdout);
    for w in ["manifest.json", "default-config", "[branch_unit]", "exit status is 2"] {
        assert!(t.contains(w), "--help mentions {w}");
    }
    // every block of the registry, by its config section
    for b in hdl::registry::BLOCKS {
        assert!(t.contains(&format!("[{}]", b.name)), "--help lists the section [{}]", b.name);
    }
}

/// `eu-gen matrix` prints every block's config matrix between the markers the block docs use,
/// each docs/<block>.md carries exactly that table, and an unknown block is named (exit 2).
#[test]
fn matrix_prints_every_block_as_the_docs_carry_it() {
    let o = eu_gen(&["matrix"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = String::from_utf8_lossy(&o.stdout);
    let (begin, end) = (hdl::registry::MATRIX_BEGIN, hdl::registry::MATRIX_END);
    for b in hdl::registry::BLOCKS {
        let one = eu_gen(&["matrix", "--block", b.name]);
        let one = String::from_utf8_lossy(&one.stdout).into_owned();
        assert!(t.contains(&one) && one.contains(&format!("### {}", b.name)), "{}", b.name);
        let table = &one[one.find(begin).unwrap()..one.find(end).unwrap() + end.len()];
        let doc = std::fs::read_to_string(repo().join(format!("docs/{}.md", b.name))).unwrap();
        assert!(doc.contains(table), "docs/{}.md: config matrix differs from `eu-gen matrix`", b.name);
    }
    let o = eu_gen(&["matrix", "--block", "no_such_block"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no block `no_such_block`") && stderr(&o).contains("branch_unit"), "{}", stderr(&o));
}

/// `eu-gen tables` prints the ROMs the table generator fits, the same words the RTL's ROM and the
/// golden model are built from, every time the same; `--hex` writes them for `$readmemh`.
#[test]
fn tables_prints_the_fitted_roms_deterministically() {
    use hdl::tanh_sigmoid::tables::{tables, ROWS};
    let dir = tempfile::tempdir().unwrap();
    let hex = dir.path().join("roms");
    let a = eu_gen(&["tables", "--hex", hex.to_str().unwrap()]);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = eu_gen(&["tables"]);
    assert_eq!(a.stdout, b.stdout, "the table generator must be deterministic");
    let text = String::from_utf8(a.stdout).unwrap();
    let t = tables();
    for (title, tab, file) in [("# TANH ROM", &t.tanh, "tanh"), ("# SIGMOID ROM", &t.sig, "sigmoid")] {
        let section = text.split(title).nth(1).unwrap_or_else(|| panic!("no {title} section"));
        let rows: Vec<&str> = section.lines().skip(1).filter(|l| !l.starts_with('#') && !l.trim().is_empty()).take(ROWS).collect();
        assert_eq!(rows.len(), ROWS);
        let words = std::fs::read_to_string(hex.join(format!("tanh_sigmoid_rom_{file}.hex"))).unwrap();
        assert_eq!(words.lines().count(), ROWS);
        for (e, ((line, word), row)) in rows.iter().zip(words.lines()).zip(&tab.rows).enumerate() {
            let printed = u128::from_str_radix(line.split_whitespace().last().unwrap(), 16).unwrap();
            assert_eq!(printed, row.word(), "{title} row {e}");
            assert_eq!(u128::from_str_radix(word, 16).unwrap(), row.word(), "{file}.hex row {e}");
        }
    }
}

/// Every block's encodings header is written next to its Verilog, listed in the manifest, gives
/// back exactly the block's tables, and is legal Verilog inside a module (Verilator -Wall).
#[test]
fn encodings_headers_are_written_listed_and_lint_clean() {
    let out = tempfile::tempdir().unwrap();
    let o = eu_gen(&["--out", out.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let headers = manifest(out.path())["headers"].as_array().unwrap().clone();
    let blocks: Vec<&str> = headers.iter().map(|h| h["block"].as_str().unwrap()).collect();
    // one header per registered block with encodings, in registry order (every block has some)
    let registered: Vec<&str> = hdl::registry::BLOCKS.iter().filter(|b| !b.encodings.is_empty()).map(|b| b.name).collect();
    assert_eq!(blocks, registered);
    assert!(registered.len() >= 6, "the five blocks and eu_core: {registered:?}");
    for h in &headers {
        let (block, file) = (h["block"].as_str().unwrap(), h["file"].as_str().unwrap());
        assert_eq!(file, format!("eu_{block}_defs.vh"));
        let text = std::fs::read_to_string(out.path().join(file)).unwrap();
        let mut want = Vec::new();
        for t in hdl::registry::encodings(block) {
            for c in t.codes {
                want.push((hdl::enc::verilog_name(block, t, c), t.width, c.value));
            }
        }
        assert!(!want.is_empty(), "{block} has no encodings");
        assert_eq!(hdl::enc::parse_verilog_header(&text), want, "{file}");
        // Included twice (two modules of one compilation unit): no include guard may hide it.
        let wrapper = out.path().join(format!("{block}_defs_lint.v"));
        std::fs::write(
            &wrapper,
            format!("module {block}_defs_a;\n`include \"{file}\"\nendmodule\nmodule {block}_defs_b;\n`include \"{file}\"\nendmodule\n"),
        )
        .unwrap();
        let v = Command::new("verilator")
            .args(["--lint-only", "-Wall", "-Wno-UNUSEDPARAM", "-Wno-DECLFILENAME", "-Wno-MULTITOP"])
            .arg(format!("-I{}", out.path().display()))
            .arg(&wrapper)
            .output()
            .expect("verilator is needed: run scripts/setup.sh (apt-get install -y verilator)");
        assert!(v.status.success(), "{file}: {}", String::from_utf8_lossy(&v.stderr));
    }
}

/// `fusesoc`: on PATH, else in the venv scripts/setup.sh installs it into. Missing, the test
/// fails with the install command (a test never passes by skipping its tool).
fn fusesoc() -> PathBuf {
    let on_path = Command::new("fusesoc").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if on_path {
        return PathBuf::from("fusesoc");
    }
    let venv = std::env::var_os("EU_TOOLS_VENV").map(PathBuf::from).unwrap_or_else(|| {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
        cache.join("eu-rtl/tools-venv")
    });
    let bin = venv.join("bin/fusesoc");
    assert!(bin.exists(), "fusesoc not found (not on PATH, not in {}): run scripts/setup.sh (pip install fusesoc)", venv.display());
    bin
}

/// eu-gen's FuseSoC CAPI2 core is accepted by `fusesoc`: `core-info` finds it by its VLNV with
/// one target per top module, and setting up a target hands the tool exactly the emitted Verilog
/// files plus the encodings headers as include files, with that module as the top.
#[test]
fn fusesoc_accepts_the_capi2_core_with_every_file_and_top() {
    let out = tempfile::tempdir().unwrap();
    let o = eu_gen(&["--out", out.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(out.path());
    let vlnv = m["core"]["vlnv"].as_str().unwrap().to_string();
    assert_eq!(m["core"]["file"], "eu_rtl.core");
    assert!(out.path().join("eu_rtl.core").exists());
    let modules: Vec<String> = m["modules"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap().to_string()).collect();
    let headers: Vec<String> = m["headers"].as_array().unwrap().iter().map(|x| x["file"].as_str().unwrap().to_string()).collect();
    // A header for every emitted block that has encodings tables (the same rule eu-gen follows).
    let blocks: std::collections::BTreeSet<String> = m["modules"].as_array().unwrap().iter().map(|x| x["block"].as_str().unwrap().to_string()).collect();
    let with_tables: Vec<String> =
        blocks.iter().filter(|b| !hdl::registry::encodings(b).is_empty()).map(|b| format!("eu_{b}_defs.vh")).collect();
    let mut sorted_headers = headers.clone();
    sorted_headers.sort();
    assert_eq!(sorted_headers, with_tables, "manifest headers");
    let fs = fusesoc();
    let run = |args: &[&str]| {
        let o = Command::new(&fs).arg("--cores-root").arg(out.path()).args(args).output().expect("run fusesoc");
        let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "fusesoc {args:?} failed:\n{text}");
        text
    };
    let info = run(&["core-info", &vlnv]);
    assert!(info.contains(&format!("Name:        {vlnv}")) || info.contains(&vlnv), "{info}");
    for name in &modules {
        assert!(info.lines().any(|l| l.split_whitespace().next() == Some(name.as_str())), "core-info lists no target {name}:\n{info}");
    }
    // Setting up a target (no tool is run) writes the EDAM description fusesoc hands the tool.
    let top = &modules[0];
    let build = tempfile::tempdir().unwrap();
    run(&["run", "--setup", "--build-root", build.path().to_str().unwrap(), "--target", top, "--tool", "verilator", &vlnv]);
    let eda = walk(build.path()).into_iter().find(|p| p.to_string_lossy().ends_with(".eda.yml")).expect("an .eda.yml");
    let eda = std::fs::read_to_string(eda).unwrap();
    assert!(eda.lines().any(|l| l == format!("toplevel: {top}")), "{eda}");
    // The `files:` list: one `- ...` entry per file, its keys on the following lines.
    let files = eda.split("\nfiles:\n").nth(1).unwrap().split("\nvpi:").next().unwrap();
    let mut listed: Vec<(String, bool)> = Vec::new();
    for entry in files.split("\n- ").map(|e| e.trim_start_matches("- ")) {
        let key = |k: &str| entry.lines().map(|l| l.trim()).find_map(|l| l.strip_prefix(k)).map(|v| v.trim().to_string());
        let name = key("name:").unwrap();
        let file = Path::new(&name).file_name().unwrap().to_string_lossy().into_owned();
        listed.push((file, key("is_include_file:").as_deref() == Some("true")));
    }
    let mut want: Vec<(String, bool)> = modules.iter().map(|n| (format!("{n}.v"), false)).collect();
    want.extend(headers.iter().map(|h| (h.clone(), true)));
    listed.sort();
    want.sort();
    assert_eq!(listed, want, "fusesoc's file list = the emitted Verilog + the headers as include files");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p);
        }
    }
    v
}

/// `summarize.py tables --check` on a repository root: (success, stderr).
fn fpga_tables_check(root: &Path) -> (bool, String) {
    let o = Command::new("python3")
        .arg(repo().join("scripts/fpga/summarize.py"))
        .args(["tables", "--check", "--root"])
        .arg(root)
        .output()
        .expect("python3 not found: scripts/fpga/summarize.py needs it (apt-get install -y python3)");
    (o.status.success(), stderr(&o))
}

/// The FPGA tables of README.md and docs/fpga.md are what docs/fpga-results.csv gives (the data
/// report.sh writes), and the check notices a table that drifted from the csv.
#[test]
fn fpga_tables_are_generated_from_the_csv() {
    let (ok, err) = fpga_tables_check(&repo());
    assert!(ok, "{err}");
    let csv = std::fs::read_to_string(repo().join("docs/fpga-results.csv")).unwrap();
    assert_eq!(csv.lines().next(), Some("block,config,target,seed,lc_or_lut,ff,ebr,dsp,fmax_mhz,status"));
    // A copy of the three files with one Fmax changed in the csv: both tables are now stale.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("docs")).unwrap();
    for f in ["README.md", "docs/fpga.md"] {
        std::fs::copy(repo().join(f), dir.path().join(f)).unwrap();
    }
    let line = csv.lines().find(|l| l.ends_with(",ok")).unwrap();
    let fields: Vec<&str> = line.split(',').collect();
    let changed = format!("{},{}", fields[..8].join(","), "1.00,ok");
    std::fs::write(dir.path().join("docs/fpga-results.csv"), csv.replacen(line, &changed, 1)).unwrap();
    let (ok, err) = fpga_tables_check(dir.path());
    assert!(!ok, "a csv change must make the tables stale");
    assert!(err.contains("README.md") && err.contains("docs/fpga.md") && err.contains("1.00"), "{err}");
}

/// The goal column checks each row against timing-closure §1's goal for that block, config and
/// part: a csv where the RAG's small config reaches 40 / 100 / 150 MHz meets its goals, and the
/// same rows with the ECP5 at 149.9 MHz miss exactly the ECP5 goal, by 0.1 MHz.
#[test]
fn fpga_tables_judge_each_row_by_its_own_timing_closure_goal() {
    let header = "block,config,target,seed,lc_or_lut,ff,ebr,dsp,fmax_mhz,status";
    let rows = |ecp5: &str| {
        format!(
            "{header}\nregion_addr_gen,small,up5k,1,4000,600,0,0,40.00,ok\nregion_addr_gen,small,hx8k,1,4000,600,0,0,100.00,ok\n\
             region_addr_gen,small,ecp5-85f,1,2800,600,0,0,{ecp5},ok\n"
        )
    };
    let tables = |csv: String| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("docs")).unwrap();
        for f in ["README.md", "docs/fpga.md"] {
            std::fs::copy(repo().join(f), dir.path().join(f)).unwrap();
        }
        std::fs::write(dir.path().join("docs/fpga-results.csv"), csv).unwrap();
        let o = Command::new("python3")
            .arg(repo().join("scripts/fpga/summarize.py"))
            .args(["tables", "--root"])
            .arg(dir.path())
            .output()
            .expect("python3 not found: scripts/fpga/summarize.py needs it (apt-get install -y python3)");
        assert!(o.status.success(), "{}", stderr(&o));
        let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap();
        (read("README.md"), read("docs/fpga.md"))
    };
    let (readme, _) = tables(rows("150.00"));
    assert!(readme.contains("| region_addr_gen | small | 4 000 / 40.0 | 4 000 / 100.0 | 2 800 / 150.0 | met |"), "{readme}");
    let (readme, doc) = tables(rows("149.90"));
    assert!(readme.contains("| 2 800 / 149.9 | missed: ECP5-85F ≥ 150 |"), "{readme}");
    assert!(doc.contains("no: ≥ 150, short by 0.1"), "{doc}");
    assert!(doc.contains("yes (≥ 40)") && doc.contains("yes (≥ 100)"), "{doc}");
}

/// scripts/fpga/build.sh rejects bad arguments with exit 2, a clear message and no output folder,
/// before it builds or synthesises anything. eu-bist and eu-gen are stand-ins here (EU_BIST /
/// EU_GEN, which build.sh takes instead of building them): they answer `list` like eu-bist and
/// record any other call, which would mean the script went on to generate a top.
#[test]
fn fpga_build_rejects_bad_arguments_with_exit_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls");
    let stub = |name: &str| {
        let p = dir.path().join(name);
        std::fs::write(
            &p,
            format!(
                "#!/bin/sh\nif [ \"$1\" = list ]; then printf 'selftest default\\nregion_addr_gen small rf64\\n'; exit 0; fi\n\
                 echo \"{name} $*\" >> {}\nexit 99\n",
                calls.display()
            ),
        )
        .unwrap();
        #[cfg(unix)]
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        p
    };
    let (bist, gen) = (stub("eu-bist"), stub("eu-gen"));
    let out = dir.path().join("out");
    let run = |args: &[&str], must_mention: &str| {
        let o = Command::new("bash")
            .arg(repo().join("scripts/fpga/build.sh"))
            .args(args)
            .env("EU_BIST", &bist)
            .env("EU_GEN", &gen)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "build.sh {args:?} must exit 2 (usage error); stderr: {err}");
        assert!(err.contains(must_mention), "build.sh {args:?}: stderr should mention {must_mention:?}: {err}");
        assert!(!err.contains("unbound variable"), "{args:?}: {err}");
        assert!(!out.exists(), "build.sh {args:?} left an output folder");
        assert!(!calls.exists(), "build.sh {args:?} went on to run {}", std::fs::read_to_string(&calls).unwrap_or_default());
    };
    let o = out.to_str().unwrap();
    run(&["selftest", "up5k", "--out", o, "--seed"], "--seed needs a value");
    run(&["selftest", "up5k", "--seed", "--fault", "--out", o], "--seed needs a value");
    run(&["selftest", "up5k", "--out", o, "--seed", "one"], "--seed wants a whole number");
    run(&["selftest", "up5k", "--out", o, "--config"], "--config needs a value");
    run(&["selftest", "up5k", "--out", o, "--bogus"], "unknown option --bogus");
    run(&["selftest", "nosuch", "--out", o], "unknown target 'nosuch'");
    run(&["selftest"], "usage");
    run(&["nosuch_block", "up5k", "--out", o], "unknown block 'nosuch_block'; blocks with a BIST top: selftest, region_addr_gen");
    run(&["region_addr_gen", "up5k", "--config", "nosuch", "--out", o], "unknown config 'nosuch' for region_addr_gen");
    run(&["region_addr_gen", "up5k", "--config", "rf6", "--out", o], "its BIST configs: small rf64");
    // Without --out: the default folder under target/fpga is not created either.
    run(&["nosuch_block", "up5k"], "unknown block");
    assert!(!repo().join("target/fpga/nosuch_block-default-up5k-s1").exists());
}

/// scripts/fpga/carry_check.py (run by build.sh on every iCE40 netlist): an adder whose two
/// operands are one net is rejected with the net's name, a doubling written as a shift and an
/// ordinary adder pass. nextpnr-ice40 0.4 never finishes routing the first (the RAG's doublings
/// kept every RAG config off the HX8K until they became shifts).
#[test]
fn carry_check_rejects_an_adder_whose_operands_are_one_net() {
    let dir = tempfile::tempdir().unwrap();
    let check = |body: &str| {
        let v = dir.path().join("t.v");
        let json = dir.path().join("t.json");
        std::fs::write(&v, format!("module t(input [5:0] x, input [5:0] z, output [6:0] y);\n  assign y = {body};\nendmodule\n")).unwrap();
        let y = Command::new("yosys")
            .args(["-q", "-p", &format!("read_verilog {}; synth_ice40 -top t -json {}", v.display(), json.display())])
            .output()
            .expect("yosys (scripts/setup.sh installs it)");
        assert!(y.status.success(), "yosys failed: {}", stderr(&y));
        let o = Command::new("python3").arg(repo().join("scripts/fpga/carry_check.py")).arg(&json).output().unwrap();
        (o.status.code(), stderr(&o))
    };
    let (code, err) = check("x + x");
    assert_eq!(code, Some(1), "x + x must be rejected: {err}");
    assert!(err.contains("I0 == I1") && err.contains("net x"), "the message names the net: {err}");
    assert_eq!(check("{x, 1'b0}"), (Some(0), String::new()), "a doubling as a shift passes");
    assert_eq!(check("x + z"), (Some(0), String::new()), "an ordinary adder passes");
}
