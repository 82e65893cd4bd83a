#!/usr/bin/env bash
# alu_pipeline: do the gated bank flops map to clock-enable flops (SB_DFFE* on iCE40)?
#
#   scripts/alu_ce_check.sh [CONFIG.toml | X.v]   (default: num_alus = 1, imem_depth = 1, ALL)
#
# Runs synth_ice40's own steps up to and including its flop mapping (begin, flatten, the `opt`
# passes of `coarse` that extract enables and sync resets, then `map_ffs`' dfflegalize + ff_map
# on the flops only), skipping fsm/share/alumacc and all LUT/gate mapping, which do not create or
# remove flop enables and take most of the time. Every SB_DFF* cell is attributed to the RTL
# register that drives its Q (the RDff instance name without its sub-block path, e.g.
# `lanes$2.a1.q` -> `a1`, `control.cx1.q` -> `cx1`), and the
# counts are printed per register group as CE (SB_DFFE*) / plain (other SB_DFF*).
# Exit status 1 if any bit of a gated bank (B1: op1 wd1 a1 b1 c1 d1 cx1, B2: op2 wd2 p2 q2 cx2,
# B3: wd3 r3 cx3) is not an enable flop, 2 on tool errors.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
arg=${1:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [[ "$arg" == *.v ]]; then
  v=$arg
else
  cfg=$arg
  if [ -z "$cfg" ]; then
    cfg=$tmp/small.toml; printf '[alu_pipeline]\nnum_alus = 1\nimem_depth = 1\n' > "$cfg"
  fi
  gen=${EU_GEN:-}
  if [ -z "$gen" ]; then
    (cd "$root" && cargo build -q -p eu-gen) || exit 2
    gen=$root/target/debug/eu-gen
  fi
  "$gen" --config "$cfg" --out "$tmp/v" >/dev/null || exit 2
  v=$tmp/v/eu_alu_pipeline.v
fi
ff='t:$dff t:$dffe t:$sdff t:$sdffe t:$sdffce t:$adff t:$adffe t:$dffsr t:$dffsre t:$aldff t:$aldffe'
yosys -q -p "read_verilog -D ICE40_HX -lib -specify +/ice40/cells_sim.v; read_verilog $v; \
  hierarchy -check -top eu_alu_pipeline; proc; flatten; tribuf -logic; deminout; \
  opt_expr; opt_clean; check; opt -nodffe -nosdff; opt; wreduce; opt_clean; \
  simplemap $ff; \
  dfflegalize -cell \$_DFF_?_ 0 -cell \$_DFFE_?P_ 0 -cell \$_DFF_?P?_ 0 -cell \$_DFFE_?P?P_ 0 \
    -cell \$_SDFF_?P?_ 0 -cell \$_SDFFCE_?P?P_ 0 -cell \$_DLATCH_?_ x -mince -1; \
  techmap -map +/ice40/ff_map.v; opt_clean; \
  select -assert-none t:\$_*DFF* t:\$*dff*; \
  write_json $tmp/net.json" >"$tmp/yosys.log" 2>&1 || { cat "$tmp/yosys.log" | tail -20; exit 2; }
python3 - "$tmp/net.json" <<'PY'
import json, re, sys, collections
d = json.load(open(sys.argv[1]))
m = d["modules"]["eu_alu_pipeline"]
names = collections.defaultdict(list)
for n, w in m["netnames"].items():
    for b in w["bits"]:
        if isinstance(b, int):
            names[b].append((w.get("hide_name", 0), n))
def group(n):
    n = re.sub(r"^\\\\", "", n)
    n = re.sub(r"[.$]q$", "", n)          # DFF output wire
    n = n.rsplit(".", 1)[-1]              # drop the sub-block path: `lanes$2.a1` -> `a1`, `buffers.regs$3` -> `regs$3`
    n = re.sub(r"[.$]\d+$", "", n)        # vector index of a Vec<DFF>
    return n
cnt = collections.defaultdict(lambda: [0, 0])
kinds = collections.Counter()
for c in m["cells"].values():
    t = c["type"]
    if not t.startswith("SB_DFF"):
        continue
    kinds[t] += 1
    q = c["connections"]["Q"][0]
    # prefer the DFF output wire (`x$q` / `x.q`) over port or temporary names on the same net
    cands = sorted((h, not re.search(r"[.$]q$", n), n) for h, n in names.get(q, [(1, "?")]))
    g = group(cands[0][2]) if cands[0][0] == 0 else "(unnamed)"
    cnt[g][0 if t.startswith("SB_DFFE") else 1] += 1
banks = {"B1": "op1 wd1 a1 b1 c1 d1 cx1", "B2": "op2 wd2 p2 q2 cx2", "B3": "wd3 r3 cx3"}
print("cell types: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
tot = [sum(v[0] for v in cnt.values()), sum(v[1] for v in cnt.values())]
print(f"total: {tot[0]} CE (SB_DFFE*), {tot[1]} plain")
bad = 0
for b, gs in banks.items():
    ce = sum(cnt[g][0] for g in gs.split()); pl = sum(cnt[g][1] for g in gs.split())
    print(f"bank {b} ({gs}): {ce} CE, {pl} plain")
    bad += pl
    if ce + pl == 0:
        # no flop attributed to the bank: the names changed, and the check would pass vacuously
        print(f"FAIL: no flop of bank {b} found (register names changed?)"); sys.exit(1)
print("per register group (CE / plain):")
for g in sorted(cnt):
    print(f"  {g:12s} {cnt[g][0]:6d} {cnt[g][1]:6d}")
if bad:
    print(f"FAIL: {bad} gated bank flops are not clock-enable flops"); sys.exit(1)
print("OK: every gated bank flop is a clock-enable flop")
PY
