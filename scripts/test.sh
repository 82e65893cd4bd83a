#!/usr/bin/env bash
# The EU-RTL test command: installs what is missing, then runs every test of the workspace
# (unit tests, golden-model tests, Verilator co-simulation of every block, the eu-gen CLI
# tests, and the lint/synthesis gate, which the CLI tests run through scripts/lint.sh).
#
#   scripts/test.sh              everything
#   scripts/test.sh -p sim --test branch_unit     extra args go to `cargo test`
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Co-sim tests are optimised through [profile.test]; tests of one binary run on both cores.
start=$(date +%s)
if [ $# -gt 0 ]; then cargo test "$@"; else cargo test --workspace; fi
echo "scripts/test.sh: all tests passed in $(( $(date +%s) - start )) s"
