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
    assert_eq!(blocks, ["region_addr_gen", "branch_unit", "alu_pipeline", "trap_controller", "tanh_sigmoid"]);
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
