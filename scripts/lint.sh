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
# All these checks are independent and run on $LINT_JOBS cores (default: all).
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

# One file's gate; prints "ok   <top>" or the FAIL lines, exit status 1 on a finding.
lint_one() {
  local f=$1 top log
  top=$(basename "$f" .v)
  log=$(mktemp)
  if ! verilator --lint-only -Wall --top-module "$top" "$waivers" "$f" >"$log" 2>&1; then
    echo "FAIL verilator lint: $top"; grep -E '^%(Warning|Error)' "$log" | grep -v 'Exiting due' | head -20; rm -f "$log"; return 1
  fi
  # Latches after proc are $dlatch/$adlatch/$dlatchsr cells; `check -assert` fails on undriven
  # wires, multiple drivers and combinational loops.
  if ! yosys -q -p "read_verilog $f; hierarchy -check -top $top; proc; check -assert; \
        select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr t:\$sr; \
        synth -top $top -run begin:fine; check -assert" >"$log" 2>&1; then
    echo "FAIL yosys: $top"; grep -iE 'error|warning|assert' "$log" | head -20; rm -f "$log"; return 1
  fi
  rm -f "$log"
  echo "ok   $top"
}

# One run with every file: module names must be unique across blocks.
lint_all_verilator() {
  local log; log=$(mktemp)
  if ! verilator --lint-only -Wall -Wno-MULTITOP "$waivers" "${files[@]}" >"$log" 2>&1; then
    echo "FAIL verilator: the files do not read together"; grep -E '^%' "$log" | head -20; rm -f "$log"; return 1
  fi
  rm -f "$log"; echo "ok   all ${#files[@]} files in one Verilator run"
}
lint_all_yosys() {
  local log; log=$(mktemp)
  if ! yosys -q -p "read_verilog ${files[*]}; hierarchy -check; proc; check -assert" >"$log" 2>&1; then
    echo "FAIL yosys: the files do not read together"; grep -iE 'error|re-definition' "$log" | head -20; rm -f "$log"; return 1
  fi
  rm -f "$log"; echo "ok   all ${#files[@]} files in one yosys run"
}

# Every check is independent: run them on $LINT_JOBS cores (default nproc), the two whole-set
# runs and then the files largest first, so that the longest ones do not start last; print the
# results in a fixed order (files, then the two whole-set runs).
jobs=${LINT_JOBS:-$(nproc 2>/dev/null || echo 1)}
results=$(mktemp -d); trap 'rm -rf "$results"; [ -z "${1:-}" ] && rm -rf "$dir"' EXIT
tasks=("all_yosys" "all_verilator")
while read -r _ f; do tasks+=("$f"); done < <(for f in "${files[@]}"; do echo "$(stat -c %s "$f") $f"; done | sort -rn)
running=0
for t in "${tasks[@]}"; do
  key=$(basename "$t")
  ( case $t in
      all_yosys) cmd=(lint_all_yosys) ;;
      all_verilator) cmd=(lint_all_verilator) ;;
      *) cmd=(lint_one "$t") ;;
    esac
    if "${cmd[@]}" >"$results/$key.out" 2>&1; then rc=0; else rc=1; fi
    echo $rc >"$results/$key.rc" ) &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
for f in "${files[@]}" all_verilator all_yosys; do
  key=$(basename "$f")
  cat "$results/$key.out"
  [ "$(cat "$results/$key.rc")" = 0 ] || fail=1
done
exit $fail
