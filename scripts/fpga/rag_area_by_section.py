#!/usr/bin/env python3
# Usage: yosys -p "read_verilog eu_region_addr_gen.v; hierarchy -top eu_region_addr_gen; synth_ice40 -top eu_region_addr_gen; write_json n.json"
#        scripts/fpga/rag_area_by_section.py eu_region_addr_gen.v n.json
# (docs/region_addr_gen.md, "Area on the UP5K"): LUT4 / SB_CARRY / FF of the flattened RAG per block.
# Attribute the cells of a flattened yosys netlist (write_json) to the RAG's top-level sections.
# A cell's section: the first hierarchical name on its output net, else on the nets it feeds (BFS).
# Names of a module's output port win over the input-port names of the block it feeds.
import json, re, sys, collections
vfile, jfile = sys.argv[1], sys.argv[2]
top = 'eu_region_addr_gen'
outs = {}
ins = {}
cur = None
for line in open(vfile):
    m = re.match(r'module (\S+?)\(', line)
    if m: cur = m.group(1); outs[cur] = set(); continue
    m = re.match(r'\s*(output|input)\s+(?:reg\s+|wire\s+)?(?:\[[^\]]*\]\s*)?(\w+)', line)
    if m and cur:
        (outs if m.group(1) == 'output' else ins).setdefault(cur, set()).add(m.group(2))
d = json.load(open(jfile))['modules'][top]
names = collections.defaultdict(list)
for n, v in d['netnames'].items():
    if n.startswith('$'): continue
    for b in v['bits']:
        if isinstance(b, int): names[b].append(n)
def section(bit):
    # rank: 0 a local of a block (unique to it), 1 an output port, 2 an input port
    best = None
    for n in names.get(bit, []):
        parts = n.split('.')
        if len(parts) < 2: continue
        mod = top + '$' + '$'.join(parts[:-1])
        port = parts[-1]
        if mod not in outs and mod not in ins: continue
        r = 1 if port in outs.get(mod, ()) else 2 if port in ins.get(mod, ()) else 0
        if best is None or r < best[0]: best = (r, '.'.join(parts[:2]) if parts[0] == 'channels' and len(parts) > 2 else parts[0])
    return best[1] if best else None
consumers = collections.defaultdict(list)
cells = d['cells']
outp = {'SB_LUT4': 'O', 'SB_CARRY': 'CO'}
for cn, c in cells.items():
    for p, dirn in c['port_directions'].items():
        if dirn == 'input':
            for b in c['connections'][p]:
                if isinstance(b, int): consumers[b].append(cn)
def cell_out(c):
    t = c['type']
    if t in outp: return c['connections'][outp[t]]
    if t.startswith('SB_DFF'): return c['connections']['Q']
    return []
agg = collections.defaultdict(collections.Counter)
for cn, c in cells.items():
    t = c['type']
    kind = 'FF' if t.startswith('SB_DFF') else t
    if kind == 'FF':
        q = c['connections']['Q'][0]
        fl = [n for n in names[q] if n.endswith('.flop.q')]
        if fl:
            p = fl[0].split('.')[:-2]
            agg[re.sub(r'\$\d+$', '', '.'.join(p[:2]) if p[0] == 'channels' else p[0])][kind] += 1
            continue
    seen = set(); frontier = [b for b in cell_out(c) if isinstance(b, int)]
    sec = None; depth = 0
    while frontier and sec is None and depth < 12:
        for b in frontier:
            s = section(b)
            if s: sec = s; break
        if sec: break
        nxt = []
        for b in frontier:
            for cc in consumers[b]:
                if cc in seen: continue
                seen.add(cc); nxt += [x for x in cell_out(cells[cc]) if isinstance(x, int)]
        frontier = nxt; depth += 1
    if sec is None:
        # a carry's CO often feeds only the next carry: use its I0/I1 input names
        sec = '(unnamed)'
    sec = re.sub(r'\$\d+$', '', sec)
    agg[sec][kind] += 1
tot = collections.Counter()
print(f"{'section':16s} {'LUT4':>6s} {'CARRY':>6s} {'FF':>6s}")
for s, c in sorted(agg.items(), key=lambda kv: -(kv[1]['SB_LUT4'] + kv[1]['FF'])):
    print(f"{s:16s} {c['SB_LUT4']:6d} {c['SB_CARRY']:6d} {c['FF']:6d}")
    tot += c
print(f"{'total':16s} {tot['SB_LUT4']:6d} {tot['SB_CARRY']:6d} {tot['FF']:6d}")
