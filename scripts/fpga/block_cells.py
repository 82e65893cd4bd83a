#!/usr/bin/env python3
"""Where a block's FPGA cells go: yosys cell counts per sub-block instance of TOP (issue 16).

    block_cells.py VERILOG TOP [--family ice40|ecp5] [--dsp] [--out PREFIX]

yosys reads the Verilog as emitted (one module per rust-hdl sub-block), marks every direct
sub-block of TOP and every RAM leaf (`prims::Ram`, recognised by its `(* no_rw_check *)`) with
`keep_hierarchy`, and runs `synth_ice40` (or `synth_ecp5`); everything below a kept module is
flattened into it. The table lists, per direct sub-block of TOP, its own cells plus those of
its RAM leaves (the RAM leaves' share is also given separately), then TOP's own glue and the
total. The kept boundaries stop cross-module constant propagation, so the total is a little
above a flat `synth_ice40` of the same Verilog (compare with its `stat`).
"""
import argparse
import collections
import os
import re
import subprocess
import sys

ICE40 = [("LUT4", r"SB_LUT4"), ("CARRY", r"SB_CARRY"), ("FF", r"SB_DFF\w*"), ("RAM40", r"SB_RAM40_4K"), ("MAC16", r"SB_MAC16")]
ECP5 = [("LUT4", r"LUT4"), ("PFUMX/L6", r"PFUMX|L6MUX21"), ("CCU2C", r"CCU2C"), ("FF", r"TRELLIS_FF"),
        ("DPR16X4", r"TRELLIS_DPR16X4"), ("DP16KD", r"DP16KD"), ("MULT18", r"MULT18X18D")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("verilog")
    ap.add_argument("top")
    ap.add_argument("--family", default="ice40", choices=["ice40", "ecp5"])
    ap.add_argument("--dsp", action="store_true", help="synth_ice40 -dsp (UP5K)")
    ap.add_argument("--out", default=None, help="keep the yosys log and stat as PREFIX.log / PREFIX.stat")
    ap.add_argument("--stat", default=None, help="tabulate this stat file of an earlier run (no yosys)")
    a = ap.parse_args()
    src = open(a.verilog).read()
    # module name -> instantiated module names; RAM leaves
    bodies = re.findall(r"^module\s+(\S+)\s*\((.*?)^endmodule", src, re.S | re.M)
    if not any(m == a.top for m, _ in bodies):
        sys.exit(f"block_cells.py: no module {a.top} in {a.verilog}")
    names = {m for m, _ in bodies}
    rams = {m for m, b in bodies if "no_rw_check" in b}
    children = collections.OrderedDict()
    for m, b in bodies:
        inst = []
        for line in b.splitlines():
            t = line.split()
            if len(t) >= 2 and t[0] in names:
                inst.append((t[0], t[1].rstrip("(")))
        children[m] = inst
    top_children = [t for t, _ in children[a.top]]
    keep = sorted(set(top_children) | rams)
    prefix = a.out or f"/tmp/block_cells.{os.getpid()}"
    synth = f"synth_ice40 -top {a.top}" + (" -dsp" if a.dsp else "") if a.family == "ice40" else f"synth_ecp5 -top {a.top}"
    # ECP5: the multipliers' EU_ECP5 body (MULT18X18D with its own registers), as build.sh reads it
    read = "read_verilog" if a.family == "ice40" else "read_verilog -lib +/ecp5/cells_bb.v; read_verilog -D EU_ECP5"
    script = (f"{read} {a.verilog}; hierarchy -check -top {a.top}; "
              f"setattr -mod -set keep_hierarchy 1 {' '.join(keep)}; {synth}; tee -q -o {prefix}.stat stat")
    stat = a.stat or f"{prefix}.stat"
    if not a.stat:
        r = subprocess.run(["yosys", "-q", "-l", f"{prefix}.log", "-p", script], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"block_cells.py: yosys failed ({prefix}.log)")
    cols = ICE40 if a.family == "ice40" else ECP5
    own = {}
    cur = None
    for line in open(stat):
        m = re.match(r"=== (.+) ===", line.strip())
        if m:  # a module's section; the closing "design hierarchy" section sums them (skipped)
            cur = None if m.group(1) == "design hierarchy" else m.group(1).lstrip("\\")
            if cur:
                own[cur] = collections.Counter()
            continue
        m = re.match(r"\s+(\S+)\s+(\d+)$", line)
        if cur and m:
            own[cur][m.group(1).lstrip("\\$")] += int(m.group(2))

    def count(mod):
        c = collections.Counter()
        for name, pat in cols:
            c[name] = sum(v for t, v in own.get(mod, {}).items() if re.fullmatch(pat, t))
        return c

    def tree(mod):
        """own cells + RAM leaves below (kept modules under a top child are RAM leaves only)"""
        c, rc = count(mod), collections.Counter()
        for t, _ in children.get(mod, []):
            if t in own:
                s, _ = tree(t)
                c += s
                rc += s
        return c, rc

    hdr = ["sub-block"] + [n for n, _ in cols] + ["of which in RAM leaves"]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    total = count(a.top)
    rows = []
    for t, inst in children[a.top]:
        c, rc = tree(t)
        total += c
        rows.append((inst, c, rc))
    for inst, c, rc in rows:
        extra = ", ".join(f"{n} {rc[n]}" for n, _ in cols if rc[n]) or ""
        print(f"| {inst} | " + " | ".join(str(c[n]) for n, _ in cols) + f" | {extra} |")
    g = count(a.top)
    print(f"| (top glue) | " + " | ".join(str(g[n]) for n, _ in cols) + " | |")
    print(f"| **total** | " + " | ".join(str(total[n]) for n, _ in cols) + " | |")


if __name__ == "__main__":
    main()
