//! The documentation figures (issue 20): timing diagrams of short co-simulation scenarios, each
//! run through a block's Verilated model with the golden model compared every port every cycle
//! (the tests' drivers), and stage diagrams drawn from the emitted Verilog's hierarchy by
//! `scripts/docs/stage_diagram.py`. `eu-figures` writes them to docs/figures; the test
//! `sim/tests/figures.rs` fails when a committed figure is not what the design now gives.

use crate::cosim::model;

pub mod alu_pipeline;
pub mod branch_unit;
pub mod eu_core;
pub mod region_addr_gen;
pub mod tanh_sigmoid;
pub mod trap_controller;

/// A timing diagram: WaveDrom source, written as `<stem>.json` and rendered to `<stem>.svg`.
pub struct Timing {
    pub stem: &'static str,
    pub json: String,
}

/// A stage diagram: drawn from `verilog` (module `top`) to `<stem>.dot` and `<stem>.svg`.
pub struct Stage {
    pub stem: String,
    pub verilog: &'static str,
    pub top: &'static str,
    pub title: String,
    /// `LABEL=REGEX` merges of sub-block instances into one node (e.g. one pipeline join).
    pub groups: Vec<&'static str>,
}

/// The blocks with figures, in the README's order.
pub const BLOCKS: &[&str] = &["region_addr_gen", "branch_unit", "alu_pipeline", "tanh_sigmoid", "trap_controller", "eu_core"];

/// Runs the block's scenarios (each checked against the golden model as it runs).
pub fn timing(block: &str) -> Vec<Timing> {
    match block {
        "region_addr_gen" => region_addr_gen::timing(),
        "branch_unit" => branch_unit::timing(),
        "alu_pipeline" => alu_pipeline::timing(),
        "tanh_sigmoid" => tanh_sigmoid::timing(),
        "trap_controller" => trap_controller::timing(),
        "eu_core" => eu_core::timing(),
        _ => panic!("no figures for block {block}"),
    }
}

/// The block's stage diagram: which co-sim model, and how its instances group.
pub fn stage(block: &str) -> Stage {
    // `inside`: draw this sub-block's module instead of the top (tanh: the lane, where the stages are)
    let mut inside: Option<&'static str> = None;
    let (id, title, groups): (&str, &str, Vec<&'static str>) = match block {
        "region_addr_gen" => (
            "region_addr_gen_cfg_a_p/eu_region_addr_gen",
            "eu_region_addr_gen, Cfg A, pipe 6: sections and the pipeline joins between them",
            vec![
                r"join \1=(?:j|carry)(\d)(?:_.*)?",
                r"output register=out_.*_r",
                r"table-lo=(?:col|row)_(?:dbl_)?lo.*",
                r"table-hi=(?:col|row)_(?:dbl_)?hi.*",
            ],
        ),
        "branch_unit" => (
            "branch_unit_n4/eu_branch_unit",
            "eu_branch_unit, 4 lanes: the §6.4 step in sub-blocks (one cycle, registered response)",
            vec![],
        ),
        "alu_pipeline" => (
            "alu_pipeline_all/eu_alu_pipeline",
            "eu_alu_pipeline, GATE_SCOPE = ALL: sequencer, buffers, lanes and the bank enables",
            vec![r"lanes=lanes\$\d+"],
        ),
        "tanh_sigmoid" => {
            inside = Some("eu_tanh_sigmoid$fused$0");
            (
                "tanh_sigmoid_lanes1_lat18/eu_tanh_sigmoid",
                "eu_tanh_sigmoid, one lane at lat = 18 (cuts A-L, the BIST config): front (ROM, squarer, coefficient products), accumulate, N*m, round; stage registers",
                vec![r"stage-\1 registers=[a-z]+([45])"],
            )
        }
        "trap_controller" => (
            "trap_controller_w4/eu_trap_controller",
            "eu_trap_controller, W = 4: global mode, per-warp state and step (the four warps as one node), CSR/SR access, status",
            vec![r"warps=warp\$\d+"],
        ),
        "eu_core" => (
            "eu_core_default/eu_eu_core",
            "eu_eu_core, 4 threads: fetch (S0), decode + flags + register-file address + branch unit (S1), the predecoded regions out of pre_ram and the register file's gathers and output registers and issue (S2), execute + data memory (S3), writeback registers in execute and the scatter (S4)",
            vec![],
        ),
        _ => panic!("no stage diagram for block {block}"),
    };
    let m = model(id);
    Stage { stem: format!("{block}-stages"), verilog: m.verilog, top: inside.unwrap_or(m.module), title: title.to_string(), groups }
}
