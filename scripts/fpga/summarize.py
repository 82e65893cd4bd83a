#!/usr/bin/env python3
"""Summary of one scripts/fpga/build.sh run directory, as shell assignments (result.env).

    summarize.py DIR ice40|ecp5            after routing: nextpnr's report.json
    summarize.py DIR ice40|ecp5 --unrouted place and route stopped at build.sh's --pnr-timeout:
                                           utilisation from nextpnr.log (after packing) and the
                                           post-placement Fmax estimate (fmax_est); fmax=0

Keys: lc ff bram dsp io fmax fmax_est routed dut_lut dut_ff dut_bram dut_dsp crit levels carry
(lc..io: the whole BIST top; dut_*: the DUT alone from yosys' stat-dut.txt; crit: first -> last
cell of the worst register-to-register path, levels / carry: its LUT levels / carry steps,
route_pct: the share of its delay spent in routing).
"""
import json
import re
import sys

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
