# Sourced by the formal scripts (trap_controller.sh, branch_unit.sh): one runner for the three
# engines, so that every check reads its result the same way.
#
#   formal_run   (exits: 0 PASS, 1 FAIL with the log's relevant lines)
#
# Expects: $front  yosys commands that leave the checker module $top flattened, with asserts
#          $top    the checker module          $engine  sat | bmc | pdr
#          $steps  frames for sat / bmc          $pdr_timeout  seconds for pdr
#          $work   a scratch folder              $log     the yosys/abc log file
#          $what   the PASS line's description   $keep_log  copy the log there on FAIL (may be empty)
#          $sat_show  extra `sat` options (e.g. -show-regs), may be empty
#   sat: yosys `sat -seq $steps -prove-asserts` from the all-zero state (the design's reset values).
#   bmc / pdr: the checker as one AIG whose output is 1 when any assertion fails (`miter -assert`),
#   registers starting at 0 (the checker's `started` holds rst high in the first cycle), undefined
#   constants 0; abc `bmc3 -F $steps` (bounded) or `pdr` (a proof for every depth).
formal_run() {
  set +e
  if [ "$engine" = sat ]; then
    yosys -q -l "$log" -p "$front
techmap
opt -fast
opt_clean -purge
sat -seq $steps -prove-asserts -set-init-zero -verify -show-inputs $sat_show -timeout 1200 $top
" >/dev/null 2>&1
    rc=$?
    set -e
    if [ $rc -eq 0 ] && grep -q "SAT proof finished - no model found: SUCCESS" "$log"; then
      echo "PASS: all assertions hold for $steps cycles from reset ($what; yosys sat)"
      exit 0
    fi
  else
    command -v yosys-abc >/dev/null || { echo "FAIL: yosys-abc not on PATH (apt-get install -y yosys)" >&2; exit 1; }
    yosys -q -l "$log" -p "$front
miter -assert $top miter
hierarchy -top miter
flatten
opt -fast
setundef -undriven -zero
setundef -zero
techmap
opt -fast
dffunmap
aigmap
opt_clean -purge
write_aiger -zinit $work/miter.aig
" >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
      if [ "$engine" = bmc ]; then
        cmd="bmc3 -F $steps"
      else
        cmd="pdr -T $pdr_timeout"
      fi
      yosys-abc -c "read_aiger $work/miter.aig; strash; $cmd; print_status" >>"$log" 2>&1
      rc=$?
    fi
    set -e
    if [ $rc -eq 0 ] && [ "$engine" = bmc ] && grep -q "No output asserted in $steps frames" "$log"; then
      echo "PASS: all assertions hold for $steps cycles from reset ($what; abc bmc3)"
      exit 0
    fi
    if [ $rc -eq 0 ] && [ "$engine" = pdr ] && grep -q "Property proved" "$log"; then
      echo "PASS: all assertions hold in every cycle from reset: proved ($what; abc pdr)"
      exit 0
    fi
    grep -E "asserted in frame|Property|Reached|limit" "$log" | head -5 || true
  fi
  grep -E "failed|FAIL|ERROR|Assert" "$log" | head -20 || true
  [ -n "$keep_log" ] && cp "$log" "$keep_log"
  echo "FAIL: $(grep -c . "$log") log lines"
  exit 1
}
