#!/usr/bin/env bash
# Installs the tools the tests need when they are missing:
#   apt-get (Debian/Ubuntu): verilator (co-simulation), yosys (lint/synthesis gate, formal),
#     z3 (formal solver), iverilog (the board builds' BIST tops simulated from power-up)
#     graphviz (`dot`: the stage diagrams of docs/figures)
#   pip, into the venv ${EU_TOOLS_VENV:-~/.cache/eu-rtl/tools-venv} when not already on PATH:
#     fusesoc (the suite checks that eu-gen's CAPI2 core file is accepted) and
#     wavedrom 2.0.3.post3 (`wavedrompy`: the timing diagrams of docs/figures; pinned, because the
#     committed SVGs are compared byte for byte)
#   scripts/setup.sh --fpga  also: nextpnr-ice40, fpga-icestorm (iCE40 place-and-route).
# Prints what it does; exits non-zero with a clear message if a tool cannot be installed.
# Every test that needs one of these tools fails (naming this script) when it is missing.
set -euo pipefail
pkgs=()
need() { command -v "$1" >/dev/null 2>&1 || pkgs+=("$2"); }
need verilator verilator
need yosys yosys
need z3 z3
need g++ g++
need iverilog iverilog
need dot graphviz
if [ "${1:-}" = "--fpga" ]; then
  need nextpnr-ice40 nextpnr-ice40
  need icepack fpga-icestorm
fi

# Python tools from PyPI (Debian's python refuses a system-wide pip install): a venv of our own.
tools_venv=${EU_TOOLS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eu-rtl/tools-venv}
pip_tool() {  # pip_tool COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 && return 0
  [ -x "$tools_venv/bin/$1" ] && return 0
  echo "setup: installing $2 (PyPI) into $tools_venv"
  [ -x "$tools_venv/bin/pip" ] || python3 -m venv "$tools_venv" || { echo "setup: python3 -m venv failed (apt-get install -y python3-venv)" >&2; exit 1; }
  "$tools_venv/bin/pip" install -q "$2" || { echo "setup: pip install $2 failed" >&2; exit 1; }
  echo "setup: installed $2"
}
pip_tools() {
  pip_tool fusesoc fusesoc
  pip_tool wavedrompy wavedrom==2.0.3.post3
}

if [ ${#pkgs[@]} -eq 0 ]; then pip_tools; exit 0; fi

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
pip_tools
