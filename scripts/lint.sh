#!/usr/bin/env bash
# Lint and synthesis gate for emitted Verilog.
#
#   scripts/lint.sh [DIR]    DIR holds eu-gen output (*.v, manifest.json). Without DIR, eu-gen's
#                            default config is generated into a temporary directory first.
#
# For every module file: `verilator --lint-only -Wall` with only the waivers in
# scripts/lint-waivers.vlt (each justified there), then yosys `hierarchy -check; proc;
# check -assert` with no latch cells, then yosys' coarse-grain `synth` (up to `fine`: opt, fsm,
# memory, wreduce, alumacc, share) and `check -assert` (no undriven wires, no multiple drivers).
# The fine-grain tech mapping and ABC are left to the FPGA flow (scripts/fpga): they add nothing
# to these checks and take over ten minutes on the largest blocks (tanh_sigmoid: 732 s).
# Finally all files are read into ONE Verilator and ONE yosys run, which fails on any
# duplicate module name between blocks. Exit status is non-zero on any finding.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
waivers="$here/lint-waivers.vlt"

for t in verilator yosys; do
  command -v $t >/dev/null || { echo "lint.sh: $t not found; run scripts/setup.sh (apt-get install -y verilator yosys)" >&2; exit 2; }
done

dir=${1:-}
if [ -z "$dir" ]; then
  dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
  (cd "$root" && cargo run -q --release -p eu-gen -- --out "$dir" >/dev/null)
fi
shopt -s nullglob
files=("$dir"/*.v)
[ ${#files[@]} -gt 0 ] || { echo "lint.sh: no .v files in $dir" >&2; exit 2; }

fail=0
log=$(mktemp); trap 'rm -f "$log"; [ -z "${1:-}" ] && rm -rf "$dir"' EXIT
for f in "${files[@]}"; do
  top=$(basename "$f" .v)
  if ! verilator --lint-only -Wall --top-module "$top" "$waivers" "$f" >"$log" 2>&1; then
    echo "FAIL verilator lint: $top"; grep -E '^%(Warning|Error)' "$log" | grep -v 'Exiting due' | head -20; fail=1; continue
  fi
  # Latches after proc are $dlatch/$adlatch/$dlatchsr cells; `check -assert` fails on undriven
  # wires, multiple drivers and combinational loops.
  if ! yosys -q -p "read_verilog $f; hierarchy -check -top $top; proc; check -assert; \
        select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr t:\$sr; \
        synth -top $top -run begin:fine; check -assert" >"$log" 2>&1; then
    echo "FAIL yosys: $top"; grep -iE 'error|warning|assert' "$log" | head -20; fail=1; continue
  fi
  echo "ok   $top"
done

# One run with every file: module names must be unique across blocks.
if ! verilator --lint-only -Wall -Wno-MULTITOP "$waivers" "${files[@]}" >"$log" 2>&1; then
  echo "FAIL verilator: the files do not read together"; grep -E '^%' "$log" | head -20; fail=1
else
  echo "ok   all ${#files[@]} files in one Verilator run"
fi
if ! yosys -q -p "read_verilog ${files[*]}; hierarchy -check; proc; check -assert" >"$log" 2>&1; then
  echo "FAIL yosys: the files do not read together"; grep -iE 'error|re-definition' "$log" | head -20; fail=1
else
  echo "ok   all ${#files[@]} files in one yosys run"
fi
exit $fail
