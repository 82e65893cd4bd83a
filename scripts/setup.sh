#!/usr/bin/env bash
# Installs the tools the tests need when they are missing (Debian/Ubuntu, via apt-get):
#   verilator (co-simulation), yosys (lint/synthesis gate, formal), z3 (formal solver).
#   scripts/setup.sh --fpga  also: nextpnr-ice40, fpga-icestorm (iCE40 place-and-route).
# Prints what it does; exits non-zero with a clear message if a tool cannot be installed.
set -euo pipefail
pkgs=()
need() { command -v "$1" >/dev/null 2>&1 || pkgs+=("$2"); }
need verilator verilator
need yosys yosys
need z3 z3
need g++ g++
if [ "${1:-}" = "--fpga" ]; then
  need nextpnr-ice40 nextpnr-ice40
  need icepack fpga-icestorm
fi
[ ${#pkgs[@]} -eq 0 ] && exit 0

echo "setup: installing ${pkgs[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: need root (or sudo) to run: apt-get install -y ${pkgs[*]}" >&2; exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: no apt-get here; install ${pkgs[*]} with your package manager (Verilator >= 5.006, yosys >= 0.23)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null
for p in "${pkgs[@]}"; do echo "setup: installed $p"; done
verilator --version
