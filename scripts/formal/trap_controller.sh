#!/usr/bin/env bash
# Bounded model check of the emitted eu_trap_controller (any W; T = PC_W = 32) with yosys `sat`.
#
#   scripts/formal/trap_controller.sh <eu_trap_controller .v> [--steps N] [--pipe1] [--free-data]
#        [--no-data-props] [--engine sat|bmc|pdr] [--mutate-design | --mutate-property]
#
# Reads the emitted Verilog (W from the width of warp_valid), exposes the state registers the
# properties talk about (mode, ctrl, gpend, htmask, fvalid, ws[w], lcause[w], gpw[w]: the
# top-level wires of the sub-blocks' register outputs) as ports, wraps the design in
# trap_controller_check.sv (assertions, reset in the first cycle; the connections of the exposed
# ports are generated for W), maps it to gates so that everything outside the properties' cone of
# influence is removed, and proves every assertion in every one of N cycles from reset (default
# 22: reset + 21 cycles). Prints PASS (exit 0) or FAIL (exit 1, counterexample in the log).
#   --engine E         sat (default): yosys `sat -seq N`; bmc: the checker as an AIG
#                      (`miter -assert`, `write_aiger -zinit`) checked by `yosys-abc` `bmc3 -F N`
#                      (N frames from reset; much faster than `sat` at depth); pdr: the same AIG
#                      proved for every depth by abc `pdr` (time limit --pdr-timeout S, 600).
#   --no-data-props    leaves out P_EPC and P_ENTRY (the properties that read PCs and masks).
#   --free-data        the wide data inputs (exc_pc, exc_mask, warp_pc, warp_mask, sr_wdata) are
#                      free; without it they are tied to 0 (the data properties then see zeros).
#   --data-bit K       those inputs free in bit K only, the other bits 0: the data properties
#                      P_EPC / P_ENTRY at one bit per word (the controller moves these words
#                      bit for bit, so one free bit position stands for all; the checker says why).
#   --mutate-data      breaks the EPC path (an SR read of EPC returns warp 0's EPC for every
#                      warp; needs W >= 2): with the data properties on it must FAIL.
#   --mutate-design    first breaks the RTL text (a second exception in DRAIN overwrites the
#                      first one's LCAUSE, and warp 0 may issue in the ENTER cycle): must FAIL.
#   --mutate-property  adds a false assertion ("no warp ever reaches TRAP"): must FAIL.
#   --pipe1            the Verilog is a pipe = 1 build (inputs registered once, timing-closure
#                      §3.3): the checker's shadow logic reads the inputs one cycle late too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:?usage: $0 <eu_trap_controller.v> [--steps N] [--mutate-design|--mutate-property]}"
shift
steps=22
show="${TC_FORMAL_SHOW:-}"
defs=""
pipe=0
mutate_design=0
mutate_data=0
data="tied to 0"
engine=sat
pdr_timeout=600
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps="$2"; shift 2 ;;
    --mutate-design) mutate_design=1; shift ;;
    --mutate-property) defs="$defs -DMUTATE_PROPERTY"; shift ;;
    --pipe1) defs="$defs -DPIPE1"; pipe=1; shift ;;
    --free-data) defs="$defs -DFREE_DATA"; data="free"; shift ;;
    --data-bit)
      case "$2" in ''|*[!0-9]*) echo "--data-bit takes a bit number 0..31" >&2; exit 2 ;; esac
      [ "$2" -le 31 ] || { echo "--data-bit takes a bit number 0..31" >&2; exit 2; }
      defs="$defs -DDATA_BIT=$2"; data="free in bit $2"; shift 2 ;;
    --mutate-data) mutate_data=1; shift ;;
    --no-data-props) defs="$defs -DNO_DATA_PROPS"; shift ;;
    --engine)
      case "$2" in sat|bmc|pdr) engine="$2" ;; *) echo "--engine takes sat, bmc or pdr" >&2; exit 2 ;; esac
      shift 2 ;;
    --pdr-timeout) pdr_timeout="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
design="$work/design.v"
cp "$src" "$design"
if [ "$mutate_design" = 1 ]; then
  # (a) DRAIN no longer checks "first exception of the episode" for any warp (in every warp step)
  sed -i 's/(m_drain \&\& lcause == k_cause_none)/(m_drain)/g' "$design"
  # (b) warp 0 is released whenever it is TRAP, not only in HANDLER
  sed -i '/^module eu_trap_controller\$warps\$0(/,/^endmodule/ s/|| (m_handler \&\& ws\$q == k_ws_trap))/|| (ws$q == k_ws_trap))/' "$design"
  if cmp -s "$src" "$design"; then echo "mutation did not apply" >&2; exit 2; fi
fi
if [ "$mutate_data" = 1 ]; then
  # the SR read port's EPC of every warp w >= 1 comes from warp 0
  sed -i 's/sr\$epc\$\([1-9][0-9]*\) = warps\$[0-9]*\$sr_epc;/sr$epc$\1 = warps$0$sr_epc;/' "$design"
  if cmp -s "$src" "$design"; then echo "data mutation did not apply" >&2; exit 2; fi
fi
command -v yosys >/dev/null || { echo "FAIL: yosys not on PATH (apt-get install -y yosys)" >&2; exit 1; }
# W and the warp-id width from the top module's port declarations
width() {
  awk -v p="$1" '/^module eu_trap_controller\(/{t=1; next} t && /^endmodule/{exit}
    t && $0 ~ "input wire +(\\[[0-9]+:0\\] )?" p ";" {
      if (match($0, /\[[0-9]+:/)) print substr($0, RSTART+1, RLENGTH-2)+1; else print 1; exit}' "$design"
}
nw="$(width warp_valid)"
widw="$(width sr_wid)"
if [ -z "$nw" ] || [ -z "$widw" ]; then echo "FAIL: cannot read the port widths of $src" >&2; exit 1; fi
# the exposed registers and their connections to the checker's vectors
regs="w:mode_ctl\$mode_q w:csr\$ctrl_q w:global\$gpend_q w:global\$htmask_q w:episode\$fvalid_q"
conns='    .\mode_ctl$mode_q (mode), .\csr$ctrl_q (ctrl), .\global$gpend_q (gpend),'$'\n'
conns="$conns"'    .\global$htmask_q (htmask), .\episode$fvalid_q (fvalid)'
for ((w = 0; w < nw; w++)); do
  regs="$regs w:warps\$$w\$ws_q w:warps\$$w\$lcause_q w:warps\$$w\$gpw_q"
  conns="$conns,"$'\n'"    .\\warps\$$w\$ws_q (wsv[$((3 * w)) +: 3]), .\\warps\$$w\$lcause_q (lcv[$((4 * w)) +: 4]), .\\warps\$$w\$gpw_q (gpw[$w])"
done
printf '%s\n' "$conns" >"$work/tc_ports.vh"
log="$work/yosys.log"
front="
read_verilog $design
hierarchy -top eu_trap_controller
proc
flatten
expose $regs
read_verilog -formal -I$work -DW=$nw -DWID_W=$widw $defs $here/trap_controller_check.sv
hierarchy -top tc_formal
proc
flatten
opt -fast"
top=tc_formal
what="W=$nw, pipe $pipe, data inputs $data"
keep_log="${TC_FORMAL_KEEP_LOG:-}"
sat_show="$show"
# shellcheck source=engine.sh
. "$here/engine.sh"
formal_run
