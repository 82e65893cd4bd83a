//! Runs a formal script of `scripts/formal/` on the emitted Verilog of a co-sim model, for the
//! blocks' formal tests (one place that finds the script and the Verilog and reads the result).

/// `bash scripts/formal/<script> <the model's Verilog> <args>`: (exit status 0, stdout + stderr).
/// Panics with the install command when yosys or yosys-abc is missing, so a missing tool fails
/// the test instead of passing or skipping it.
pub fn run(script: &str, model: &str, args: &[&str]) -> (bool, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/formal").join(script);
    let verilog = crate::cosim::model(model).verilog;
    let out = std::process::Command::new("bash")
        .arg(&path)
        .arg(verilog)
        .args(args)
        .output()
        .expect("bash runs the formal script");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{} {model} {:?}: {}", path.display(), args, text.trim());
    assert!(!text.contains("not on PATH"), "the formal check needs yosys and yosys-abc (apt-get install -y yosys): {text}");
    (out.status.success(), text)
}
