//! X-initialisation (issue 18 item 3): each block's small config also has a model verilated
//! with `--x-initial unique --x-assign unique` (sim/build_twins.rs), whose every variable starts
//! from a seeded random value instead of 0. The block's random stimulus (the soak's, through
//! the block's lock-step driver) runs on it from three random initial states; after the
//! driver's reset every output port must equal the golden model's in every cycle, i.e. `rst`
//! clears all state that matters.

use sim::cosim::{self, Dut, ThreadOpts};
use sim::soak::{self, Target};

/// The X-initialisation models: `<block>_<variant>` as in sim/build_twins.rs.
const XINIT: [(&str, &str); 5] = [
    ("alu_pipeline", "na3_d16"),
    ("branch_unit", "n4"),
    ("region_addr_gen", "cfg_a"),
    ("tanh_sigmoid", "lanes1"),
    ("trap_controller", "w4"),
];
const SEEDS: [u32; 3] = [1, 2, 3];
const CYCLES: u64 = 100_000;

fn xinit(seed: u32) -> ThreadOpts {
    ThreadOpts { xinit_seed: Some(seed), ..Default::default() }
}

/// Every output bit of a model right after construction (no reset), 32 bits at a time.
fn outputs_before_reset(id: &str, opts: ThreadOpts) -> Vec<u64> {
    cosim::set_thread_opts(opts);
    let d = Dut::new(id);
    cosim::set_thread_opts(ThreadOpts::default());
    let mut v = Vec::new();
    for p in d.desc().outputs {
        let o = d.output(p.name);
        for lsb in (0..p.width).step_by(32) {
            v.push(d.get_field(o, lsb, 32.min(p.width - lsb)));
        }
    }
    v
}

/// The twins really start from random state: before reset, each one's outputs differ between
/// two seeds and from the zero-initialised regular model (otherwise the runs below would prove
/// nothing).
#[test]
fn xinit_models_start_from_seeded_random_state() {
    for (block, variant) in XINIT {
        let id = format!("{block}_{variant}/eu_{block}");
        let zero = outputs_before_reset(&id, ThreadOpts::default());
        let (a, b) = (outputs_before_reset(&id, xinit(1)), outputs_before_reset(&id, xinit(2)));
        assert_eq!(a, outputs_before_reset(&id, xinit(1)), "{id}: the same seed gives the same state");
        assert_ne!(a, b, "{id}: seeds 1 and 2 gave the same outputs before reset");
        assert_ne!(a, zero, "{id}: seed 1 gave the zero-initialised model's outputs");
    }
}

fn random_after_reset(block: &str, variant: &str) {
    let t = Target { block: block.into(), variant: variant.into() };
    for seed in SEEDS {
        match soak::run_one(&t, 0x5EED, CYCLES, xinit(seed)) {
            Ok(n) => println!("{t}: X-init seed {seed}: {n} cycles, every port equal to the golden model"),
            Err(msg) => panic!("{t}: X-init seed {seed}: reset does not clear all state that matters:\n{msg}"),
        }
    }
}

#[test]
fn alu_pipeline_random_after_random_initial_state() {
    random_after_reset("alu_pipeline", "na3_d16");
}
#[test]
fn branch_unit_random_after_random_initial_state() {
    random_after_reset("branch_unit", "n4");
}
#[test]
fn region_addr_gen_random_after_random_initial_state() {
    random_after_reset("region_addr_gen", "cfg_a");
}
#[test]
fn tanh_sigmoid_random_after_random_initial_state() {
    random_after_reset("tanh_sigmoid", "lanes1");
}
#[test]
fn trap_controller_random_after_random_initial_state() {
    random_after_reset("trap_controller", "w4");
}
