//! Tests of the co-simulation harness itself on the `eu_selftest` design: port packing for
//! narrow, 33-bit and 96-bit ports, reset, settle vs tick, and the waveform written on mismatch.

use rand::{Rng, SeedableRng};
use sim::cosim::Dut;

const MODEL: &str = "selftest_default/eu_selftest";

/// Reference for the self-test design (from its doc comment in hdl/src/selftest.rs).
fn wide_ref(d: u128, a: u32) -> u128 {
    let a = a as u128;
    (d ^ (a | a << 32 | a << 64)) & ((1u128 << 96) - 1)
}

#[test]
fn random_vectors_match_reference_all_port_widths() {
    let mut dut = Dut::new(MODEL);
    let (clk_ce, a, b, wd) = (dut.input("ce"), dut.input("a"), dut.input("b"), dut.input("wide_d"));
    let (sum, wq, nib) = (dut.output("sum"), dut.output("wide_q"), dut.output("nibble"));
    dut.reset(1);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let (mut rsum, mut rwide) = (0u64, 0u128);
    for _ in 0..200_000 {
        let (ce, av, bv, wv): (bool, u32, u32, u128) = (rng.gen_bool(0.8), rng.gen(), rng.gen(), rng.gen::<u128>() >> 32);
        dut.set(clk_ce, ce as u64);
        dut.set(a, av as u64);
        dut.set(b, bv as u64);
        dut.set_field(wd, 0, 64, wv as u64);
        dut.set_field(wd, 64, 32, (wv >> 64) as u64);
        dut.tick();
        if ce {
            rsum = av as u64 + bv as u64;
            rwide = wide_ref(wv, av);
        }
        let mut e = dut.expected();
        e.set(sum, rsum).set(nib, (av & 15) as u64);
        e.set_field(wq, 0, 64, rwide as u64).set_field(wq, 64, 32, (rwide >> 64) as u64);
        dut.check(&e);
    }
}

#[test]
fn settle_shows_combinational_outputs_without_an_edge() {
    let mut dut = Dut::new(MODEL);
    let (a, ce, sum, nib) = (dut.input("a"), dut.input("ce"), dut.output("sum"), dut.output("nibble"));
    dut.reset(1);
    dut.set(ce, 1);
    dut.set(a, 0x1234_5677);
    dut.settle();
    assert_eq!(dut.get(nib), 7, "nibble is combinational");
    assert_eq!(dut.get(sum), 0, "sum is registered: no edge yet");
    dut.tick();
    assert_eq!(dut.get(sum), 0x1234_5677);
    dut.reset(1);
    assert_eq!(dut.get(sum), 0, "rst clears the registers");
}

#[test]
#[should_panic(expected = "does not fit")]
fn values_wider_than_the_port_are_rejected_not_truncated() {
    let mut dut = Dut::new(MODEL);
    let ce = dut.input("ce");
    dut.set(ce, 2);
}

#[test]
fn mismatch_reports_port_and_writes_a_waveform() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var("EU_TRACE_DIR", dir.path());
    let r = std::panic::catch_unwind(|| {
        let mut dut = Dut::new(MODEL);
        let (a, b, ce) = (dut.input("a"), dut.input("b"), dut.input("ce"));
        let sum = dut.output("sum");
        dut.reset(1);
        dut.set(ce, 1);
        for i in 0..100u64 {
            dut.set(a, i);
            dut.set(b, 1);
            dut.tick();
            // Deliberately wrong at cycle 51 (50 after the reset cycle): expect a+2 instead of a+1.
            let want = if i == 50 { i + 2 } else { i + 1 };
            dut.check_port(sum, want);
        }
    });
    let msg = match r {
        Ok(()) => panic!("the injected mismatch was not detected"),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    };
    assert!(msg.contains("at cycle 52"), "{msg}");
    assert!(msg.contains("port sum (33 bits): expected 33'h34 actual 33'h33"), "{msg}");
    let vcd: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(vcd.len(), 1, "one waveform written: {vcd:?}");
    let text = std::fs::read_to_string(&vcd[0]).unwrap();
    assert!(text.contains("$var") && text.contains(" sum "), "VCD declares the ports");
    assert!(msg.contains(&vcd[0].display().to_string()), "the message names the waveform");
}
