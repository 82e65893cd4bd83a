//! The soak command (`eu-soak`, sim::soak): every default model runs and its summary adds up,
//! shards cover a run exactly once, an injected mismatch is reported with its seed, cycle,
//! replay command and a VCD, and bad arguments are refused.

use sim::soak::{self, Plan};
use std::process::Command;

fn plan(block: &str, cycles: u64, chunk: u64, seed: u64, shard: (u64, u64), vcd: &std::path::Path) -> Plan {
    Plan {
        targets: soak::parse_targets(block).unwrap(),
        cycles,
        seed,
        chunk,
        shard,
        jobs: 2,
        vcd_dir: vcd.to_path_buf(),
        progress: false,
        inject_mismatch: None,
    }
}

/// Every block's default models, 3 chunks each (20 000 cycles in chunks of 8 000): no mismatch,
/// and the summary gives each model its 3 chunks, seeds 5..=7 and at least its cycles.
#[test]
fn every_default_model_runs_and_the_summary_adds_up() {
    let tmp = tempfile::tempdir().unwrap();
    let p = plan("all", 20_000, 8_000, 5, (0, 1), tmp.path());
    let names: Vec<String> = p.targets.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        names,
        [
            "alu_pipeline/all",
            "branch_unit/n16",
            "region_addr_gen/default",
            "region_addr_gen/default_p",
            "tanh_sigmoid/lanes8",
            "trap_controller/w8",
            "trap_controller/w8_p"
        ]
    );
    let r = soak::run(&p);
    print!("{}", r.text());
    assert!(r.mismatch.is_none(), "{}", r.text());
    let s = r.summary();
    assert_eq!(s["mismatches"], 0);
    assert_eq!(s["shard"], "0/1");
    let models = s["models"].as_array().unwrap();
    assert_eq!(models.len(), 7);
    for m in models {
        let cycles = m["cycles"].as_u64().unwrap();
        // a chunk runs until the model has seen its cycles (the trap run then drains)
        assert!((20_000..21_000).contains(&cycles), "{m}");
        assert_eq!((m["chunks"].as_u64(), m["seeds"]["first"].as_u64(), m["seeds"]["last"].as_u64()), (Some(3), Some(5), Some(7)), "{m}");
        assert_eq!(m["mismatches"], 0);
        assert!(m["cycles_per_second"].as_f64().unwrap() > 0.0);
    }
}

/// Two shards of a run together do exactly the chunks of the unsharded run, with the same
/// cycles (a chunk depends only on its seed).
#[test]
fn shards_cover_the_run_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = soak::run(&plan("region_addr_gen/cfg_a,tanh_sigmoid/lanes1", 25_000, 5_000, 100, (0, 1), tmp.path())).summary();
    let a = soak::run(&plan("region_addr_gen/cfg_a,tanh_sigmoid/lanes1", 25_000, 5_000, 100, (0, 2), tmp.path())).summary();
    let b = soak::run(&plan("region_addr_gen/cfg_a,tanh_sigmoid/lanes1", 25_000, 5_000, 100, (1, 2), tmp.path())).summary();
    for m in 0..2 {
        let (w, a, b) = (&whole["models"][m], &a["models"][m], &b["models"][m]);
        assert_eq!(w["chunks"], 5);
        assert_eq!((a["chunks"].as_u64(), b["chunks"].as_u64()), (Some(3), Some(2)));
        assert_eq!((a["seeds"]["first"].as_u64(), a["seeds"]["last"].as_u64()), (Some(100), Some(104)));
        assert_eq!((b["seeds"]["first"].as_u64(), b["seeds"]["last"].as_u64()), (Some(101), Some(103)));
        assert_eq!(a["cycles"].as_u64().unwrap() + b["cycles"].as_u64().unwrap(), w["cycles"].as_u64().unwrap());
    }
}

/// A golden model with one wrong bit (the hidden fault injection) is caught: the run stops,
/// names the model, the chunk's seed and the cycle, writes a VCD, and its replay command
/// fails the same way.
#[test]
fn an_injected_mismatch_is_reported_with_seed_cycle_replay_and_vcd() {
    let tmp = tempfile::tempdir().unwrap();
    let mut p = plan("trap_controller/w4", 30_000, 10_000, 42, (0, 1), tmp.path());
    p.jobs = 1;
    p.inject_mismatch = Some(3_000);
    let r = soak::run(&p);
    print!("{}", r.text());
    let m = r.mismatch.as_ref().expect("the injected mismatch is reported");
    assert_eq!((m.target.to_string().as_str(), m.seed), ("trap_controller/w4", 42));
    let c = m.cycle.expect("a port mismatch names its cycle");
    assert!((3_000..3_010).contains(&c), "cycle {c}");
    assert!(m.message.contains("co-sim mismatch in trap_controller_w4/eu_trap_controller"), "{}", m.message);
    let vcd = m.vcd.as_ref().expect("a VCD is written");
    assert!(vcd.starts_with(tmp.path()));
    let text = std::fs::read_to_string(vcd).unwrap();
    assert!(text.contains("$enddefinitions") && text.contains("warp_halt"), "{}", vcd.display());
    assert!(m.replay.contains("--block trap_controller/w4") && m.replay.contains("--seed 42"), "{}", m.replay);
    let s = r.summary();
    assert_eq!(s["mismatches"], 1);
    assert_eq!(s["first_mismatch"]["seed"], 42);
    assert_eq!(s["first_mismatch"]["cycle"], c);
}

/// The binary end to end: a passing run exits 0 with its summary file; the injected mismatch
/// exits 1 and prints the replay command; bad arguments exit 2 with clap's message.
#[test]
fn the_command_line() {
    let exe = env!("CARGO_BIN_EXE_eu-soak");
    let tmp = tempfile::tempdir().unwrap();
    let sum = tmp.path().join("s.json");
    let out = Command::new(exe)
        .args(["--block", "branch_unit/n4", "--cycles", "2e4", "--chunk", "1e4", "--seed", "9", "--jobs", "1", "--shard", "1/2"])
        .arg("--summary")
        .arg(&sum)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sum).unwrap()).unwrap();
    assert_eq!((s["shard"].as_str(), s["models"][0]["chunks"].as_u64(), s["models"][0]["seeds"]["first"].as_u64()), (Some("1/2"), Some(1), Some(10)));

    let out = Command::new(exe)
        .args(["--block", "tanh_sigmoid/lanes1", "--cycles", "1e4", "--seed", "7", "--jobs", "1", "--inject-mismatch", "500"])
        .arg("--vcd-dir")
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("MISMATCH in tanh_sigmoid/lanes1 (seed 7, cycle 50"), "{text}");
    assert!(text.contains("replay: eu-soak --block tanh_sigmoid/lanes1 --cycles 10000 --chunk 1000000 --seed 7"), "{text}");

    for (args, want) in [
        (vec!["--block", "nope"], "unknown block `nope`"),
        (vec!["--block", "trap_controller/w5"], "no co-sim variant `w5`"),
        (vec!["--block", "all", "--shard", "2/2"], "need 0 <= i < n"),
        (vec!["--block", "all", "--cycles", "lots"], "not a whole number"),
        (vec!["--cycles", "1e3"], "--block"),
    ] {
        let out = Command::new(exe).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let out = Command::new(exe).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for w in ["--shard", "--summary", "--vcd-dir", "Resume", "replays", "mod n"] {
        assert!(help.contains(w), "--help lacks {w}");
    }
    assert!(!help.contains("inject"), "the test-only option is hidden");
}
