#!/usr/bin/env python3
"""Stage diagram of a block, drawn from its emitted Verilog (issue 20: pictures that cannot drift).

    stage_diagram.py VERILOG TOP OUT.dot [--title T] [--group 'LABEL=REGEX' ...] [--svg OUT.svg]

yosys reads the Verilog as emitted (the rust-hdl hierarchy: one module per sub-block), runs
`proc; opt_clean; memory -nomap` so registers, memories and multipliers are cells, and writes
JSON. The diagram has one node per sub-block instance of TOP, named with its instance name and
what it holds: flip-flop bits, memory bits (a `$mem`: EBR or LUT-RAM after mapping) and
multipliers (DSP candidates), counted over its whole sub-tree. An edge joins the sub-block that
drives a signal to every sub-block (or output port) that reads it, through the top's own glue
logic, labelled with the driving port names and the bit count. `--group` merges the instances
whose name matches REGEX into one node LABEL (`\\1` in LABEL takes the first group), e.g. the
registers of one pipeline join. Inputs sit on the left, outputs on the right.

The .dot text is deterministic (sorted), so a test can compare it with the committed copy; the
SVG is `dot -Tsvg` of it.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FF_TYPES = ("$dff", "$dffe", "$sdff", "$sdffe", "$sdffce", "$adff", "$adffe", "$aldff", "$dffsr", "$dffsre")


def die(msg, code=2):
    print(f"stage_diagram.py: {msg}", file=sys.stderr)
    sys.exit(code)


def yosys_json(verilog, top):
    if not shutil.which("yosys"):
        die("yosys not found: install it with scripts/setup.sh (apt-get install -y yosys)", 3)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "design.json")
        script = f"read_verilog -sv {verilog}; hierarchy -top {top}; proc; opt_clean; memory -nomap; opt_clean; write_json {out}"
        r = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
        if r.returncode != 0:
            die(f"yosys failed on {verilog}:\n{r.stderr[-2000:]}", 1)
        return json.load(open(out))


def module_stats(mods):
    """(ff bits, memory bits, multipliers) per module, over its sub-tree."""
    memo = {}

    def stats(name):
        if name in memo:
            return memo[name]
        ff = mem = mul = 0
        for c in mods[name]["cells"].values():
            t, p = c["type"], c.get("parameters", {})
            if t in FF_TYPES:
                ff += int(p.get("WIDTH", "1"), 2) if isinstance(p.get("WIDTH"), str) else int(p.get("WIDTH", 1))
            elif t.startswith("$mem"):
                w = p.get("WIDTH", 0); s = p.get("SIZE", 0)
                w = int(w, 2) if isinstance(w, str) else int(w)
                s = int(s, 2) if isinstance(s, str) else int(s)
                mem += w * s
            elif t == "$mul":
                mul += 1
            elif t in mods:
                a, b, m = stats(t)
                ff, mem, mul = ff + a, mem + b, mul + m
        memo[name] = (ff, mem, mul)
        return memo[name]

    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("verilog")
    ap.add_argument("top")
    ap.add_argument("dot")
    ap.add_argument("--title", default=None)
    ap.add_argument("--group", action="append", default=[], help="LABEL=REGEX: merge matching instances")
    ap.add_argument("--svg", default=None)
    a = ap.parse_args()
    if not os.path.isfile(a.verilog):
        die(f"{a.verilog}: no such file")
    groups = []
    for g in a.group:
        if "=" not in g:
            die(f"--group {g!r}: want LABEL=REGEX")
        label, rx = g.split("=", 1)
        groups.append((label, re.compile(rx)))
    mods = json.load(open(a.verilog)) if a.verilog.endswith(".json") else yosys_json(a.verilog, a.top)
    mods = mods["modules"]
    if a.top not in mods:
        die(f"no module {a.top} in {a.verilog}")
    stats = module_stats(mods)
    top = mods[a.top]

    def node_of(inst):
        for label, rx in groups:
            m = rx.fullmatch(inst)
            if m:
                return m.expand(label)
        return inst

    # Bit drivers: ("in", port) for top inputs, (node, port) for sub-block outputs, ("glue", id) for top logic.
    driver = {}
    glue_inputs = {}
    readers = collections.defaultdict(list)
    for pname, p in top["ports"].items():
        for b in p["bits"]:
            if isinstance(b, int):
                if p["direction"] == "input":
                    driver[b] = ("in:" + pname, pname)
                else:
                    readers[b].append(("out:" + pname, pname))
    members = collections.defaultdict(list)
    for cname, c in sorted(top["cells"].items()):
        dirs = c.get("port_directions", {})
        if c["type"] in mods:
            node = node_of(cname)
            members[node].append(c["type"])
            for port, bits in c["connections"].items():
                for b in bits:
                    if not isinstance(b, int):
                        continue
                    if dirs.get(port) == "output":
                        driver[b] = (node, port)
                    else:
                        readers[b].append((node, port))
        else:  # top-level glue logic: its outputs depend on all its inputs
            ins = [b for port, bits in c["connections"].items() if dirs.get(port) != "output" for b in bits if isinstance(b, int)]
            for port, bits in c["connections"].items():
                if dirs.get(port) == "output":
                    for b in bits:
                        if isinstance(b, int):
                            driver[b] = ("glue", cname)
                            glue_inputs[b] = ins

    # The sub-block ports behind a bit, through any depth of glue. Memoised per bit (a wide
    # word-level cell, e.g. a shift whose every output bit reads every input bit, would otherwise
    # be walked once per reader bit: minutes for the trap controller's 544-bit state tap); a bit
    # met again while its own cone is being walked (a combinational loop) adds nothing.
    memo = {}

    def sources(bit):
        if bit in memo:
            return memo[bit]
        d = driver.get(bit)
        if d is None:
            return set()
        if d[0] != "glue":
            return {d}
        memo[bit] = set()
        out = set()
        for b in glue_inputs[bit]:
            out |= sources(b)
        memo[bit] = frozenset(out)
        return memo[bit]

    edges = collections.defaultdict(lambda: collections.defaultdict(int))  # (src, dst) -> {src port: bits}
    for bit, rs in readers.items():
        for src, sport in sources(bit):
            for dst, _ in rs:
                if src != dst and sport not in ("clock", "clk"):
                    # the elements of a port array (rust-hdl `Vec` ports: name$0, name$1, ...) as one name
                    edges[(src, dst)][re.sub(r"\$\d+$", "[]", sport)] += 1
    # clock and reset go everywhere: leave them out of the picture
    edges = {k: v for k, v in edges.items() if k[0] not in ("in:clk", "in:rst")}

    nodes = {}
    for node, types in members.items():
        ff = mem = mul = 0
        for t in types:
            x, y, z = stats(t)
            ff, mem, mul = ff + x, mem + y, mul + z
        parts = []
        if ff:
            parts.append(f"{ff} FF")
        if mem:
            parts.append(f"{mem} RAM bits")
        if mul:
            parts.append(f"{mul} mul")
        kind = "" if len(types) == 1 else f" ({len(types)} blocks)"
        nodes[node] = (f"{node}{kind}", ", ".join(parts) or "logic only", ff > 0 or mem > 0)

    def q(s):
        return '"' + s.replace('"', '\\"') + '"'

    lines = ["digraph stages {", "  rankdir=LR;", '  node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=8];']
    if a.title:
        lines.append(f"  label={q(a.title)}; labelloc=t; fontname=\"Helvetica\";")
    used = {n for e in edges for n in e}
    ins = sorted(n for n in used if n.startswith("in:"))
    outs = sorted(n for n in used if n.startswith("out:"))
    lines.append("  { rank=source; " + " ".join(q(n) for n in ins) + " }")
    lines.append("  { rank=sink; " + " ".join(q(n) for n in outs) + " }")
    for n in ins + outs:
        lines.append(f"  {q(n)} [shape=plaintext, label={q(n.split(':', 1)[1])}];")
    for n in sorted(nodes):
        name, what, regs = nodes[n]
        style = ', style="filled", fillcolor="#dbe8f6"' if regs else ""
        label = name + "\\n" + what
        lines.append(f"  {q(n)} [label={q(label)}{style}];")
    for (s, d) in sorted(edges):
        ports = edges[(s, d)]
        total = sum(ports.values())
        names = sorted(ports)
        lab = ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")
        if s.startswith("in:"):
            lab = ""
        lines.append(f"  {q(s)} -> {q(d)} [label={q(lab + (' ' if lab else '') + f'[{total}]')}];")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    open(a.dot, "w").write(text)
    if a.svg:
        if not shutil.which("dot"):
            die("dot (Graphviz) not found: install it with scripts/setup.sh (apt-get install -y graphviz)", 3)
        r = subprocess.run(["dot", "-Tsvg", a.dot, "-o", a.svg], capture_output=True, text=True)
        if r.returncode != 0:
            die(f"dot failed: {r.stderr}", 1)


if __name__ == "__main__":
    main()
