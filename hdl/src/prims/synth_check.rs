//! Test-only helper: synthesise emitted Verilog with the Debian yosys (0.23) and count cells.
//!
//! A missing yosys fails the test with the install command (tests never pass by skipping).

use crate::emit::EmittedModule;
use std::collections::BTreeMap;
use std::process::Command;

/// Cell counts of the whole design after `flow` (e.g. `synth_ice40 -dsp`), by cell type.
pub fn cells(m: &EmittedModule, flow: &str) -> BTreeMap<String, u64> {
    cells_with(m, "", flow)
}

/// As `cells`, with options for `read_verilog` (e.g. `-D EU_ECP5`, as the ECP5 FPGA flow reads).
pub fn cells_with(m: &EmittedModule, read_opts: &str, flow: &str) -> BTreeMap<String, u64> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let v = dir.path().join(format!("{}.v", m.name));
    std::fs::write(&v, &m.verilog).expect("write Verilog");
    let stat = dir.path().join("stat.json");
    let script = format!(
        "read_verilog {read_opts} {}; {flow} -top {}; tee -q -o {} stat -json",
        v.display(),
        m.name,
        stat.display()
    );
    let out = match Command::new("yosys").args(["-q", "-p", &script]).output() {
        Ok(o) => o,
        Err(e) => panic!("yosys not runnable ({e}): install it with `apt-get install -y yosys` (scripts/setup.sh does)"),
    };
    assert!(
        out.status.success(),
        "yosys failed on `{script}`:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stat).expect("stat.json")).expect("stat -json output");
    json["design"]["num_cells_by_type"]
        .as_object()
        .expect("design.num_cells_by_type in yosys stat -json")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().expect("cell count")))
        .collect()
}

/// Sum of the counts of the cell types whose name starts with one of `prefixes`.
pub fn count(cells: &BTreeMap<String, u64>, prefixes: &[&str]) -> u64 {
    cells.iter().filter(|(k, _)| prefixes.iter().any(|p| k.starts_with(p))).map(|(_, v)| v).sum()
}

/// Flip-flop cell types of both families.
pub const ICE40_FF: &[&str] = &["SB_DFF"];
pub const ECP5_FF: &[&str] = &["TRELLIS_FF"];

/// `verilator --lint-only -Wall` with the project's waivers (scripts/lint-waivers.vlt, as
/// scripts/lint.sh runs it) plus one for the test tops' `rst` input, which the reset-free
/// primitives (memories, `MulDsp`) leave unread.
pub fn lint(m: &EmittedModule) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let v = dir.path().join(format!("{}.v", m.name));
    std::fs::write(&v, &m.verilog).expect("write Verilog");
    let extra = dir.path().join("top_rst.vlt");
    std::fs::write(&extra, "`verilator_config\nlint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'rst'\"\n")
        .expect("write waiver");
    let waivers = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/lint-waivers.vlt");
    let out = match Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", &m.name])
        .arg(waivers)
        .arg(&extra)
        .arg(&v)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("verilator not runnable ({e}): install it with `apt-get install -y verilator` (scripts/setup.sh does)"),
    };
    assert!(out.status.success(), "verilator lint of {}:\n{}", m.name, String::from_utf8_lossy(&out.stderr));
}
