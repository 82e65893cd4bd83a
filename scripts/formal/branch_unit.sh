#!/usr/bin/env bash
# Bounded model check of the emitted eu_branch_unit (threads 1, pipe 0, any N) with yosys `sat`.
#
#   scripts/formal/branch_unit.sh <eu_branch_unit .v> [--steps N]
#        [--mutate-commit | --mutate-mask | --mutate-property] [--only mask|err] [--engine sat|bmc|pdr]
#
# Reads the emitted Verilog, flattens it and exposes every state register (the flattened
# register outputs `*.flop$0.q`: lane counters, CICs, every stack entry, loop_nest, fault) as a
# port, generates the DUT connections for branch_unit_check.sv from that port list (so the same
# checker serves every N), maps the whole to gates and proves every assertion in every one of
# N cycles from reset (default 12: reset + 11 steps), every request input free.
# Prints PASS (exit 0) or FAIL (exit 1, counterexample inputs in the log).
#   --mutate-commit    breaks the RTL text: lane 0's counter takes its park code even when the
#                      step is not committed (an error no longer suppresses that write): must FAIL.
#   --mutate-mask      breaks the RTL text: lane_mask shows the counters' next value (E') instead
#                      of the current one (E): must FAIL.
#   --mutate-property  adds a false assertion (an error leaves fault unchanged): must FAIL.
#   --engine E         sat (default): yosys `sat -seq N`; bmc: the checker as an AIG
#                      (`miter -assert`, `write_aiger -zinit`) checked by `yosys-abc` `bmc3 -F N`
#                      (N frames from reset); pdr: the same AIG proved for every depth by abc
#                      `pdr` (time limit --pdr-timeout S, default 600).
#   --only mask|err    checks only P_MASK/P_FAULT or only P_ERR_* (to show that a mutation is
#                      caught by the property it targets).
# BU_FORMAL_KEEP_LOG=<file> copies the yosys log there on FAIL.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: $0 <eu_branch_unit.v> [--steps N] [--mutate-commit|--mutate-mask|--mutate-property] [--only mask|err] [--engine sat|bmc|pdr]"
src="${1:?$usage}"
shift
steps=12
engine=sat
pdr_timeout=600
defs=""
mutate=""
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps="$2"; shift 2 ;;
    --mutate-commit) mutate=commit; shift ;;
    --mutate-mask) mutate=mask; shift ;;
    --mutate-property) defs="$defs -DMUTATE_PROPERTY"; shift ;;
    --engine)
      case "$2" in sat|bmc|pdr) engine="$2" ;; *) echo "--engine takes sat, bmc or pdr" >&2; exit 2 ;; esac
      shift 2 ;;
    --pdr-timeout) pdr_timeout="$2"; shift 2 ;;
    --only)
      case "$2" in
        mask) defs="$defs -DONLY_MASK" ;;
        err) defs="$defs -DONLY_ERR" ;;
        *) echo "--only takes mask or err" >&2; exit 2 ;;
      esac
      shift 2 ;;
    *) echo "unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
  esac
done
command -v yosys >/dev/null || { echo "FAIL: yosys not on PATH (apt-get install -y yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
design="$work/design.v"
cp "$src" "$design"
case "$mutate" in
  commit)
    # lane 0's park arm: `if (commit) begin <newline> cnt_n$0$d = park_n;` loses its commit gate
    perl -0pi -e 's/if \(commit\) begin(\s*)cnt_n\$0\$d = park_n;/if (1\x27b1) begin$1cnt_n\$0\$d = park_n;/' "$design" ;;
  mask)
    sed -i 's/^\(\s*\)lane_mask = ((step_y\$y_e)/\1lane_mask = ((lanes$en_next)/' "$design" ;;
esac
if [ -n "$mutate" ] && cmp -s "$src" "$design"; then echo "mutation did not apply" >&2; exit 2; fi

# the widths the checker needs, from the top module's port declarations
width() {
  awk -v p="$1" '/^module eu_branch_unit\(/{t=1; next} t && /^endmodule/{exit}
    t && $0 ~ "(input|output) (wire|reg) +\\[[0-9]+:0\\] " p ";" {match($0, /\[[0-9]+:/); print substr($0, RSTART+1, RLENGTH-2)+1; exit}' "$design"
}
n="$(width lane_mask)"
ipw="$(width req_ip)"
cntw="$(width dbg_cnt)"
if [ -z "$n" ] || [ -z "$ipw" ] || [ -z "$cntw" ]; then echo "FAIL: cannot read the port widths of $src" >&2; exit 1; fi
cw=$((cntw / n))

log="$work/yosys.log"
set +e
# pass 1: flatten, expose the state registers, write the flat design
yosys -q -l "$log" -p "
read_verilog $design
hierarchy -top eu_branch_unit
proc
flatten
expose w:*.flop\$0.q
opt_clean
write_verilog -noattr $work/flat.v
" >/dev/null 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then grep -E "ERROR" "$log" | head; echo "FAIL: yosys could not read $src"; exit 1; fi

# the DUT connections: fault apart, every other state register into `st`, counters also into cnt_q
grep -E '^\s*output (\[[0-9]+:0\] )?\\[^ ]*\.flop\$0\.q ;' "$work/flat.v" \
  | sed -E 's/^\s*output (\[([0-9]+):0\] )?\\([^ ]*) ;/\3 x\2/' | sort >"$work/regs.txt"
: >"$work/bu_ports.vh"
: >"$work/bu_assign.vh"
off=0
conns=""
while read -r name hi; do
  hi="${hi#x}"
  w=$(( ${hi:-0} + 1 ))
  if [ "$name" = "nest.fault_r.store.flop\$0.q" ]; then
    conns="$conns    .\\$name (fault_q),"$'\n'
    continue
  fi
  conns="$conns    .\\$name (st[$off +: $w]),"$'\n'
  if [[ "$name" =~ ^lanes\.cnt_n\$([0-9]+)\.store\.flop\$0\.q$ ]]; then
    echo "  assign cnt_q[${BASH_REMATCH[1]}*$cw +: $cw] = st[$off +: $w];" >>"$work/bu_assign.vh"
  fi
  off=$((off + w))
done <"$work/regs.txt"
# the last connection without its comma
printf '%s' "${conns%,$'\n'}" >"$work/bu_ports.vh"
echo >>"$work/bu_ports.vh"
ncnt=$(grep -c "cnt_q" "$work/bu_assign.vh" || true)
if [ "$ncnt" != "$n" ] || ! grep -q fault_q "$work/bu_ports.vh"; then
  echo "FAIL: found $ncnt lane counters (expected $n) or no fault register in $src" >&2; exit 1
fi
nregs=$(wc -l <"$work/regs.txt")

front="
read_verilog $work/flat.v
read_verilog -formal -I$work -DN=$n -DIPW=$ipw -DCW=$cw -DS=$off $defs $here/branch_unit_check.sv
hierarchy -top bu_formal
proc
flatten
opt -fast"
what="N=$n, IPW=$ipw, CW=$cw; $nregs state registers, $((off + 1)) bits"
top=bu_formal
keep_log="${BU_FORMAL_KEEP_LOG:-}"
sat_show=""
# shellcheck source=engine.sh
. "$here/engine.sh"
formal_run
