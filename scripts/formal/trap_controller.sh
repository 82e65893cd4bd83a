#!/usr/bin/env bash
# Bounded model check of the emitted eu_trap_controller (W=4) with yosys `sat`.
#
#   scripts/formal/trap_controller.sh <eu_trap_controller W=4 .v> [--steps N] [--pipe1]
#        [--mutate-design | --mutate-property]
#
# Reads the emitted Verilog, exposes the state registers the properties talk about (mode, ctrl,
# ws[w], lcause[w]: the top-level wires of the sub-blocks' register outputs) as ports, wraps the design in trap_controller_check.sv (assertions, reset in
# the first cycle), maps it to gates so that everything outside the properties' cone of influence
# is removed, and proves every assertion in every one of N cycles from reset (default 22:
# reset + 21 cycles). Prints PASS (exit 0) or FAIL (exit 1, counterexample in the log).
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
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps="$2"; shift 2 ;;
    --mutate-design) mutate_design=1; shift ;;
    --mutate-property) defs="$defs -DMUTATE_PROPERTY"; shift ;;
    --pipe1) defs="$defs -DPIPE1"; pipe=1; shift ;;
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
log="$work/yosys.log"
set +e
yosys -q -l "$log" -p "
read_verilog $design
hierarchy -top eu_trap_controller
proc
flatten
expose w:mode_ctl\$mode_q w:csr\$ctrl_q w:warps\$0\$ws_q w:warps\$1\$ws_q w:warps\$2\$ws_q w:warps\$3\$ws_q w:warps\$0\$lcause_q w:warps\$1\$lcause_q w:warps\$2\$lcause_q w:warps\$3\$lcause_q
read_verilog -formal $defs $here/trap_controller_check.sv
hierarchy -top tc_formal
proc
flatten
opt -fast
techmap
opt -fast
opt_clean -purge
sat -seq $steps -prove-asserts -set-init-zero -verify -show-inputs $show -timeout 1200 tc_formal
" >/dev/null 2>&1
rc=$?
set -e
if [ $rc -eq 0 ] && grep -q "SAT proof finished - no model found: SUCCESS" "$log"; then
  echo "PASS: all assertions hold for $steps cycles from reset (W=4, pipe $pipe)"
  exit 0
fi
grep -E "failed|FAIL|ERROR|Assert" "$log" | head -20 || true
[ -n "${TC_FORMAL_KEEP_LOG:-}" ] && cp "$log" "$TC_FORMAL_KEEP_LOG"
echo "FAIL: $(grep -c . "$log") log lines"
exit 1
