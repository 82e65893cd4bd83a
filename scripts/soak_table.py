#!/usr/bin/env python3
# The README's soak table (issue 18 item 5) from the shard summaries in docs/soak/:
#   python3 scripts/soak_table.py            (prints the markdown table)
# A block with two soak models reaches 1e9 with shards 0-4, one with one model needs 0-9.
import json,glob,collections,os
DIR=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'docs', 'soak')
rows=[]
for b in ['trap_controller','region_addr_gen','tanh_sigmoid','branch_unit','alu_pipeline']:
    fs=sorted(glob.glob(os.path.join(DIR, f'{b}-shard*of10.json')))
    if not fs: continue
    per=collections.OrderedDict(); shards=[]; wall=0.0; seeds=[]
    for f in fs:
        d=json.load(open(f)); shards.append(int(d['shard'].split('/')[0])); wall+=d['wall_seconds']
        for m in d['models']:
            t=per.setdefault(m['variant'],{'cycles':0,'chunks':0,'rates':[],'mism':0,'first':[],'last':[]})
            t['cycles']+=m['cycles']; seeds.append((m['seeds']['first'],m['seeds']['last'])); t['chunks']+=m['chunks']; t['rates'].append(m['cycles_per_second']); t['mism']+=m['mismatches']
    nmod=len(per); need=5 if nmod==2 else 10
    total=sum(t['cycles'] for t in per.values())
    status='**done**' if len(shards)>=need else f'{len(shards)} of {need}'
    sh=sorted(shards); shs=f'{sh[0]}–{sh[-1]}' if sh==list(range(sh[0],sh[-1]+1)) and len(sh)>1 else ','.join(map(str,sh))
    cyc='; '.join(f"`{v}` {t['cycles']:,}".replace(',', ' ') for v,t in per.items())
    rate='; '.join(f"`{v}` {min(t['rates'])/1e3:.0f}–{max(t['rates'])/1e3:.0f} k" for v,t in per.items())
    mism=sum(t['mism'] for t in per.values())
    chunks=sum(t['chunks'] for t in per.values())
    cpm=chunks//nmod; lo=min(a for a,_ in seeds); hi=max(z for _,z in seeds)
    sd=(f"{cpm} chunks, seeds {lo}..={hi}" if nmod==1 else f"{nmod} × {cpm} chunks, seeds {lo}..={hi} with (seed − 1) mod 10 in {shs} (the same for both models)")
    rows.append(f"| {b} | {shs} ({status}) | {cyc} | {total/1e9:.2f}e9 | {sd} | {wall/3600:.1f} h | {rate} | {mism} |")
print('| block | shards | cycles per model | block total | seeds | wall time (2 threads) | cycles/s per thread | mismatches |')
print('|---|---|---|---|---|---|---|---|')
print('\n'.join(rows))
