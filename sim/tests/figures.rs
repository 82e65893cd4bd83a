//! The documentation figures (docs/figures, issue 20) are what the design gives now: `eu-figures
//! --check` re-runs every timing scenario (golden model compared every cycle) and redraws every
//! stage diagram, and fails when a committed file differs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn figures(args: &[&str], out: &Path) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_eu-figures")).args(args).arg("--out").arg(out).output().expect("run eu-figures");
    (o.status.success(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn committed_figures_are_what_the_design_gives() {
    let (ok, err) = figures(&["--check"], &repo().join("docs/figures"));
    assert!(ok, "docs/figures is stale (or a tool is missing: scripts/setup.sh installs them):\n{err}");
}

/// The check is not vacuous: a copy of the RAG's figures with one timing diagram changed (a
/// value in the WaveDrom source) and one stage diagram missing fails and names both files.
#[test]
fn check_names_a_changed_and_a_missing_figure() {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(repo().join("docs/figures")).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("region_addr_gen-") && name != "region_addr_gen-stages.dot" {
            std::fs::copy(e.path(), dir.path().join(&name)).unwrap();
        }
    }
    let json = dir.path().join("region_addr_gen-regions.json");
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"wave\""), "{text}");
    std::fs::write(&json, text.replacen("\"wave\": \"", "\"wave\": \"1", 1)).unwrap();
    let (ok, err) = figures(&["--check", "--block", "region_addr_gen"], dir.path());
    assert!(!ok, "a changed figure must fail the check:\n{err}");
    assert!(err.contains("region_addr_gen-regions.json: differs"), "{err}");
    assert!(err.contains("region_addr_gen-stages.dot: missing"), "{err}");
    assert!(!err.contains("stale: region_addr_gen-backpressure"), "unchanged files are not reported:\n{err}");
}

#[test]
fn unknown_block_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_eu-figures")).args(["--block", "nope", "--out"]).arg(dir.path()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no figures for block `nope`"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
}
