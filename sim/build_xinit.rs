//! The X-initialisation twins of the co-simulation models (issue 18 item 3): one small config
//! per block ([`XINIT_VARIANTS`]) verilated again with `--x-initial unique --x-assign unique`,
//! so that every variable (and every explicit X) starts from a random value that the C shim
//! seeds before the model is constructed (`randReset(2)`, `randSeed(seed)`). The random tests
//! run on these twins under several seeds (sim/tests/xinit.rs): a result that differs from the
//! golden model means that `rst` leaves some state that matters uncleared.
//!
//! rust-hdl writes an `initial` block per register with its init value (`initial begin q = 0;
//! end`); Verilator honours them, so they would hide the random state. An ASIC has no initial
//! values, and `rst` alone must bring the state to what the spec says: the twin is built from
//! the block's Verilog with those blocks removed ([`strip_initial`]; nothing else is changed).
//!
//! This recipe lives beside `build_model.rs`, not in it, because that file's text is part of
//! every regular model's cache stamp: editing it would re-verilate all of them (tens of CPU
//! minutes). The twin's stamp hashes its Verilog, its shim, both recipe files (so the flags
//! below are part of the key) and the Verilator version.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::build_model::{hash_of, shim, Model};

/// `<block>_<variant>` of the co-sim builds that get an X-initialisation twin: each block's
/// small (or default) config.
pub const XINIT_VARIANTS: [&str; 5] =
    ["alu_pipeline_na3_d16", "branch_unit_n4", "region_addr_gen_cfg_a", "tanh_sigmoid_lanes1", "trap_controller_w4"];

/// The only modules of those builds the random tests drive (the RAG build also holds the
/// register-file gather and scatter blocks).
pub fn wants_xinit(variant: &str, module: &str) -> bool {
    XINIT_VARIANTS.contains(&variant) && (variant != "region_addr_gen_cfg_a" || module == "eu_region_addr_gen")
}

/// `verilog` without its `initial begin <reg> = <constant>; end` blocks. Panics on an initial
/// block of another form (e.g. memory contents), which must not be removed blindly.
pub fn strip_initial(verilog: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    let mut lines = verilog.lines();
    while let Some(l) = lines.next() {
        if l.trim() != "initial begin" {
            out.push_str(l);
            out.push('\n');
            continue;
        }
        for body in lines.by_ref() {
            let b = body.trim();
            if b == "end" {
                break;
            }
            let simple = b.split_once(" = ").is_some_and(|(lhs, rhs)| {
                lhs.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && rhs.strip_suffix(';').is_some_and(|v| v.chars().all(|c| c.is_ascii_hexdigit() || c == '\'' || c == 'h' || c == 'b' || c == 'd'))
            });
            assert!(simple, "build_xinit: an initial block holds `{b}`, not a register's init value");
        }
    }
    out
}

/// Verilator's X handling of the twins (the regular models use `fast` for both).
pub const XINIT_FLAGS: [&str; 4] = ["--x-assign", "unique", "--x-initial", "unique"];

/// The twin's C shim: the regular shim with the seeded random reset before construction, and
/// `<sym>_xinit_seed(seed)` to set the seed (per thread) of the next `<sym>_new`.
pub fn xinit_shim(m: &Model) -> String {
    let s = &m.sym;
    let base = shim(m);
    let new_fn = format!("void* {s}_new(int trace) {{");
    let reset = "s->ctx.randReset(0);";
    assert!(base.contains(&new_fn) && base.contains(reset), "the shim of build_model.rs changed: update build_xinit.rs");
    base.replace(
        &new_fn,
        &format!("static thread_local int xinit_seed = 1;\nvoid {s}_xinit_seed(int seed) {{ xinit_seed = seed; }}\n{new_fn}"),
    )
    .replace(reset, "s->ctx.randReset(2); s->ctx.randSeed(xinit_seed);   // random initial state, seeded")
}

/// Builds (or finds in `cache`) the twin's static library and tells cargo to link it; `m.sym`
/// is already the twin's own (`<sym>__xinit`).
pub fn build_xinit_model(m: &Model, root: &Path, cache: &Path, tool_stamp: &str) {
    let shim_src = xinit_shim(m);
    let stamp = hash_of(&[&m.module.verilog, &shim_src, RECIPE, XINIT_RECIPE, tool_stamp]);
    let final_dir = cache.join(format!("{}-{stamp}", m.sym));
    let lib = format!("eumodel_{}", m.sym);
    let link = |dir: &Path| {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static={lib}");
    };
    if final_dir.join(format!("lib{lib}.a")).exists() {
        let _ = fs::write(final_dir.join("used"), "");
        link(&final_dir);
        return;
    }
    let dir = cache.join(format!(".tmp-{}-{stamp}-{}", m.sym, std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let st = Command::new("verilator")
        .args(["--cc", "--no-timing", "-O3", "--trace"])
        .args(XINIT_FLAGS)
        .args(["-Wno-fatal", "-Wno-lint", "-Wno-style"])
        .arg("--top-module")
        .arg(&m.module.name)
        .arg("--prefix")
        .arg(format!("V{}", m.sym))
        .arg("-Mdir")
        .arg(&dir)
        .arg(&m.vfile)
        .output()
        .expect("run verilator");
    if !st.status.success() {
        panic!("verilator failed on {} ({}):\n{}", m.id, m.vfile.display(), String::from_utf8_lossy(&st.stderr));
    }
    let shim_file = dir.join("shim.cpp");
    fs::write(&shim_file, shim_src).unwrap();
    // As build_model: construction and trace code at -O0, the per-cycle code at -O2.
    let inc = root.join("include");
    let base = |opt: u32| {
        let mut b = cc::Build::new();
        b.cpp(true)
            .std("c++17")
            .opt_level(opt)
            .debug(false)
            .warnings(false)
            .flag_if_supported("-faligned-new")
            .flag_if_supported("-fcf-protection=none")
            .include(&inc)
            .include(inc.join("vltstd"))
            .include(&dir)
            .out_dir(&dir);
        b
    };
    let (mut fast, mut slow) = (base(2), base(0));
    fast.file(&shim_file);
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cpp") && p != shim_file {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains("__Slow") || name.contains("__Trace") {
                slow.file(p);
            } else {
                fast.file(p);
            }
        }
    }
    fast.objects(slow.compile_intermediates());
    fast.cargo_metadata(false).compile(&lib);
    fs::write(dir.join("used"), "").unwrap();
    if fs::rename(&dir, &final_dir).is_err() {
        let _ = fs::remove_dir_all(&dir);
    }
    link(&final_dir);
}

const RECIPE: &str = include_str!("build_model.rs");
const XINIT_RECIPE: &str = include_str!("build_xinit.rs");
