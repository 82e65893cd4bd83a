#!/usr/bin/env python3
"""Summary of one scripts/fpga/build.sh run directory, as shell assignments (result.env); and
the FPGA results tables of docs/fpga.md and README.md, generated from docs/fpga-results.csv.

    summarize.py DIR ice40|ecp5            after routing: nextpnr's report.json
    summarize.py DIR ice40|ecp5 --unrouted place and route stopped at build.sh's --pnr-timeout:
                                           utilisation from nextpnr.log (after packing) and the
                                           post-placement Fmax estimate (fmax_est); fmax=0
    summarize.py tables [--check] [--root R]
                                           rewrite the tables between the `fpga-table` markers
                                           (docs/fpga.md) and `fpga-summary` markers (README.md)
                                           from docs/fpga-results.csv; --check writes nothing and
                                           exits 1 (with a diff) if a table is not what the csv
                                           gives, so the docs cannot drift from the data

Keys: lc ff bram dsp io fmax fmax_est routed dut_lut dut_ff dut_bram dut_dsp crit levels carry
(lc..io: the whole BIST top; dut_*: the DUT alone from yosys' stat-dut.txt; crit: first -> last
cell of the worst register-to-register path, levels / carry: its LUT levels / carry steps,
route_pct: the share of its delay spent in routing).
"""
import csv
import difflib
import json
import os
import re
import sys

CSV_HEADER = ["block", "config", "target", "seed", "lc_or_lut", "ff", "ebr", "dsp", "fmax_mhz", "status"]
STATUSES = ("ok", "no-fit", "below-board-clock", "not-routed", "tool-error")
# Per target: name in tables, board clock (MHz), capacity of the part (LC or LUT, EBR, DSP) for
# the no-fit entries.
TARGETS = {
    "up5k": ("UP5K", 12, {"lc_or_lut": (5280, "LC"), "ebr": (30, "EBR"), "dsp": (8, "DSP")}),
    "hx8k": ("HX8K", 12, {"lc_or_lut": (7680, "LC"), "ebr": (32, "EBR"), "dsp": (0, "DSP")}),
    "ecp5-85f": ("ECP5-85F", 25, {"lc_or_lut": (83640, "LUT"), "ebr": (208, "EBR"), "dsp": (156, "DSP")}),
}
# The Fmax goals of ../shared/spec/timing-closure.md §1, per (block, config) and target, in MHz
# ("fits" is implied by a goal: a run that does not fit misses it). A (block, config, target)
# missing here has no goal (a "—" in §1; the selftest). An extra LUT cap is a third element.
GOALS = {
    ("region_addr_gen", "small"): {"up5k": 40, "hx8k": 100, "ecp5-85f": 150},
    ("region_addr_gen", "rf64"): {"up5k": 40, "hx8k": 100, "ecp5-85f": 150},
    ("region_addr_gen", "default"): {"ecp5-85f": 150},
    # the same register file at pipe 6 (configs/region_addr_gen-default_p6.toml)
    ("region_addr_gen", "default_p6"): {"ecp5-85f": 150},
    ("branch_unit", "small"): {"up5k": 40, "hx8k": 100, "ecp5-85f": 150},
    ("branch_unit", "t8"): {"hx8k": 80, "ecp5-85f": 150},
    ("trap_controller", "small"): {"up5k": 40, "hx8k": 100, "ecp5-85f": 150},
    ("alu_pipeline", "small"): {"up5k": 30, "hx8k": 80, "ecp5-85f": 120},
    ("alu_pipeline", "default"): {"ecp5-85f": 100},
    ("tanh_sigmoid", "small"): {"up5k": 30, "ecp5-85f": 125},
    ("tanh_sigmoid", "half"): {"up5k": 40, "hx8k": 60, "ecp5-85f": 150},
    # issue 19's target for the execution unit (not in §1): >= 100 MHz in <= 25 % of the LUTs
    ("eu_core", "small"): {"ecp5-85f": 100},
}
# Area caps of §1 beside the Fmax goals (LC or LUT of the BIST top); eu_core's is issue 19's
# 25 % of the ECP5-85F's 83 640 LUTs.
LUT_CAPS = {("alu_pipeline", "default", "ecp5-85f"): 8000, ("eu_core", "small", "ecp5-85f"): 20910}


def goal(block, config, target):
    return GOALS.get((block, config), {}).get(target)
DOC_MARKERS = ("<!-- fpga-table:begin -->", "<!-- fpga-table:end -->")
README_MARKERS = ("<!-- fpga-summary:begin -->", "<!-- fpga-summary:end -->")


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != CSV_HEADER:
        sys.exit(f"{path}: the header must be exactly {','.join(CSV_HEADER)}")
    out = []
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(CSV_HEADER):
            sys.exit(f"{path}:{n}: {len(r)} fields, want {len(CSV_HEADER)}")
        d = dict(zip(CSV_HEADER, r))
        if d["status"] not in STATUSES:
            sys.exit(f"{path}:{n}: status '{d['status']}' is not one of {', '.join(STATUSES)}")
        if d["target"] not in TARGETS:
            sys.exit(f"{path}:{n}: unknown target '{d['target']}'")
        if (d["status"] in ("ok", "below-board-clock")) != bool(d["fmax_mhz"]):
            sys.exit(f"{path}:{n}: fmax_mhz is given exactly for the routed runs (ok, below-board-clock)")
        out.append(d)
    return out


def groups(rows):
    """Rows grouped by (block, config, target), in the csv's order."""
    g = {}
    for r in rows:
        g.setdefault((r["block"], r["config"], r["target"]), []).append(r)
    return g


def num(v):
    return f"{int(v):,}".replace(",", " ") if v else "-"


def same(runs, key):
    vals = list(dict.fromkeys(r[key] for r in runs))
    return " / ".join(num(v) for v in vals)


def no_fit(runs, target):
    caps = TARGETS[target][2]
    over = [f"{num(r[k])} {name} (of {num(str(cap))})" for r in runs[:1] for k, (cap, name) in caps.items() if r[k] and int(r[k]) > cap]
    return "does not fit: " + (", ".join(over) or "see the run's nextpnr.log")


def status_text(runs, target):
    st = [r["status"] for r in runs]
    board = TARGETS[target][1]
    if "no-fit" in st:
        return no_fit(runs, target)
    if "tool-error" in st:
        return "tool error (see the run's log)"
    if "not-routed" in st:
        return "not routed within build.sh's --pnr-timeout"
    if "below-board-clock" in st:
        return f"Fmax below the {board} MHz board clock: that bitstream would not work (build.sh exit 4)"
    return "ok"


def min_fmax(runs):
    f = [float(r["fmax_mhz"]) for r in runs if r["fmax_mhz"]]
    return min(f) if f else None


def doc_table(rows):
    lines = [
        "| block | config | target | seeds | LC / LUT | FF | EBR | DSP | Fmax MHz per seed | min Fmax | §1 goal met | status |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (block, config, target), runs in groups(rows).items():
        seeds = ", ".join(r["seed"] for r in runs)
        m = min_fmax(runs)
        g = goal(block, config, target)
        if m is None:
            per, mins = "-", "-"
            meets = "-" if g is None else f"no (≥ {g})"
        else:
            per = " / ".join(r["fmax_mhz"] or "-" for r in runs)
            mins = f"**{m:.2f}**"
            meets = "-" if g is None else (f"yes (≥ {g})" if m >= g else f"no: ≥ {g}, short by {g - m:.1f}")
        cap = LUT_CAPS.get((block, config, target))
        if cap is not None and meets != "-":
            meets += f"; ≤ {cap:,} LUT: {'yes' if all(r['lc_or_lut'] and int(r['lc_or_lut']) <= cap for r in runs) else 'no'}".replace(",", " ")
        lines.append(f"| {block} | {config} | {target} | {seeds} | {same(runs, 'lc_or_lut')} | {same(runs, 'ff')} | "
                     f"{same(runs, 'ebr')} | {same(runs, 'dsp')} | {per} | {mins} | {meets} | {status_text(runs, target)} |")
    return "\n".join(lines)


def readme_table(rows):
    g = groups(rows)
    heads = [f"{TARGETS[t][0]} {TARGETS[t][2]['lc_or_lut'][1]} / Fmax MHz" for t in TARGETS]
    lines = [f"| block | config | {' | '.join(heads)} | timing-closure §1 goals |", "|---|---|" + "---|" * (len(TARGETS) + 1)]
    for block, config in dict.fromkeys((b, c) for b, c, _ in g):
        cells, missed = [], []
        for t, (name, board, caps) in TARGETS.items():
            runs = g.get((block, config, t))
            want = goal(block, config, t)
            if not runs:
                cells.append("not run")
                if want is not None:
                    missed.append(f"{name} ≥ {want} not run")
                continue
            st = [r["status"] for r in runs]
            m = min_fmax(runs)
            if "no-fit" in st:
                cells.append(no_fit(runs, t))
            elif "tool-error" in st:
                cells.append("tool error")
            elif "not-routed" in st:
                cells.append(f"{same(runs, 'lc_or_lut')} / **not routed**")
            else:
                c = f"{same(runs, 'lc_or_lut')} / {m:.1f}"
                if "below-board-clock" in st:
                    c += f" (below the {board} MHz board clock)"
                cells.append(c)
            if want is not None and (m is None or "no-fit" in st or m < want):
                missed.append(f"{name} ≥ {want}")
            cap = LUT_CAPS.get((block, config, t))
            if cap is not None and not all(r["lc_or_lut"] and int(r["lc_or_lut"]) <= cap for r in runs):
                missed.append(f"{name} ≤ {cap} LUT")
        if not any(goal(block, config, t) is not None for t in TARGETS):
            verdict = "no goal"
        else:
            verdict = "met" if not missed else "missed: " + ", ".join(missed)
        lines.append(f"| {block} | {config} | {' | '.join(cells)} | {verdict} |")
    return "\n".join(lines)


def splice(text, markers, body, path):
    b, e = markers
    if b not in text or e not in text:
        sys.exit(f"{path}: no {b} ... {e} markers")
    i, j = text.index(b) + len(b), text.index(e)
    return text[:i] + "\n" + body + "\n" + text[j:]


def tables(argv):
    check = "--check" in argv
    root = argv[argv.index("--root") + 1] if "--root" in argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
    rows = read_csv(os.path.join(root, "docs/fpga-results.csv"))
    ok = True
    for rel, markers, body in (("docs/fpga.md", DOC_MARKERS, doc_table(rows)), ("README.md", README_MARKERS, readme_table(rows))):
        path = os.path.join(root, rel)
        old = open(path).read()
        new = splice(old, markers, body, rel)
        if new == old:
            continue
        if check:
            ok = False
            sys.stderr.write(f"{rel}: the FPGA table differs from what docs/fpga-results.csv gives "
                             f"(regenerate: python3 scripts/fpga/summarize.py tables):\n")
            sys.stderr.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), rel, rel + " (from the csv)"))
        else:
            open(path, "w").write(new)
            print(f"summarize.py: {rel}: table regenerated from docs/fpga-results.csv", file=sys.stderr)
    sys.exit(0 if ok else 1)


if len(sys.argv) > 1 and sys.argv[1] == "tables":
    tables(sys.argv[2:])

out, family = sys.argv[1], sys.argv[2]
routed = "--unrouted" not in sys.argv[3:]


def cellcounts(path):
    # yosys <= 0.3x prints "   CELL   count", newer versions "   count   CELL".
    t = open(path).read()
    c = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+([A-Za-z_$][\w$]*)\s+(\d+)\s*$", t, re.M)}
    c.update({m.group(2): int(m.group(1)) for m in re.finditer(r"^\s+(\d+)\s+([A-Za-z_$][\w$]*)\s*$", t, re.M)})
    return c


log = open(f"{out}/nextpnr.log", errors="replace").read()
# The last post-placement (or post-routing) estimate nextpnr printed.
est = [float(m) for m in re.findall(r"Max frequency for clock '[^']*': ([\d.]+) MHz", log)]
fmax_est = est[-1] if est else 0.0
if routed:
    rep = json.load(open(f"{out}/report.json"))
    util = {k: v["used"] for k, v in rep.get("utilization", {}).items()}
    fmax = min((v["achieved"] for v in rep.get("fmax", {}).values()), default=0.0)
    paths = rep.get("critical_paths", [])
else:
    block = log.split("Device utilisation:")[-1]
    util = {t: int(u) for t, u in re.findall(r"^Info:\s+(\w+):\s+(\d+)/\s*\d+", block, re.M)}
    fmax, paths = 0.0, []
cells = cellcounts(f"{out}/stat.txt")
if family == "ice40":
    lc = util.get("ICESTORM_LC", 0); bram = util.get("ICESTORM_RAM", 0) + util.get("ICESTORM_SPRAM", 0)
    dsp = util.get("ICESTORM_DSP", 0); io = util.get("SB_IO", 0)
    ff = sum(n for c, n in cells.items() if c.startswith("SB_DFF"))
else:
    lc = util.get("TRELLIS_COMB", 0); ff = util.get("TRELLIS_FF", 0)
    bram = util.get("DP16KD", 0); dsp = util.get("MULT18X18D", 0); io = util.get("TRELLIS_IO", 0)
d = cellcounts(f"{out}/stat-dut.txt")
if family == "ice40":
    dlut = d.get("SB_LUT4", 0); dff = sum(n for c, n in d.items() if c.startswith("SB_DFF"))
    dbram = d.get("SB_RAM40_4K", 0) + d.get("SB_SPRAM256KA", 0); ddsp = d.get("SB_MAC16", 0)
else:
    dlut = d.get("LUT4", 0) + 2 * d.get("CCU2C", 0); dff = sum(n for c, n in d.items() if c.startswith("TRELLIS_FF"))
    dbram = d.get("DP16KD", 0); ddsp = d.get("MULT18X18D", 0)
# Critical path: first and last cell of the worst register-to-register path.
crit, levels, carry, route_pct = "-", 0, 0, 0
for cp in paths:
    if cp["from"].startswith("posedge") and cp["to"].startswith("posedge") and cp["path"]:
        short = lambda c: ".".join(c.split(".")[:2]).split("_SB_")[0].split("_TRELLIS")[0].split("$")[0]
        p0 = cp["path"][0]
        first = p0["to"]["cell"] if p0["type"] == "clk-to-q" else p0["from"]["cell"]
        crit = short(first) + "->" + short(cp["path"][-1]["to"]["cell"])
        # Logic cells on the path: LUT levels, and carry-chain steps (fast, counted apart).
        logic = [(seg["from"].get("port", ""), seg["to"].get("port", "")) for seg in cp["path"] if seg["type"] == "logic"]
        is_carry = lambda f, t: f in ("CIN", "FCI") or t in ("COUT", "FCO")
        carry = sum(1 for f, t in logic if is_carry(f, t))
        levels = sum(1 for f, t in logic if not is_carry(f, t) and "GLOBAL" not in f)
        # Share of the path's delay spent in routing (the rest: clock-to-q, cells, setup).
        total = sum(seg["delay"] for seg in cp["path"])
        route_pct = round(100 * sum(seg["delay"] for seg in cp["path"] if seg["type"] == "routing") / total) if total else 0
        break
print(f"lc={lc}\nff={ff}\nbram={bram}\ndsp={dsp}\nio={io}\nfmax={fmax:.2f}\nfmax_est={fmax_est:.2f}\nrouted={int(routed)}")
print(f"dut_lut={dlut}\ndut_ff={dff}\ndut_bram={dbram}\ndut_dsp={ddsp}\ncrit='{crit}'\nlevels={levels}\ncarry={carry}\nroute_pct={route_pct}")
