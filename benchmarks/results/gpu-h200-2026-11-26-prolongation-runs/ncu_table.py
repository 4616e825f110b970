import csv,gzip,collections,sys
for f in sys.argv[1:]:
    rows=list(csv.reader(gzip.open(f,'rt')))
    hdr=None
    data=collections.defaultdict(dict)
    for r in rows:
        if r and r[0]=='ID': hdr=r; continue
        if not hdr or len(r)!=len(hdr): continue
        d=dict(zip(hdr,r))
        name=d['Kernel Name']
        try: v=float(d['Metric Value'].replace(',',''))
        except: continue
        data[(d['ID'],name)][d['Metric Name']]=v
    agg=collections.defaultdict(lambda: collections.defaultdict(list))
    for (i,n),m in data.items():
        short=n.split('(')[0]
        if 'jacobi_pair_kernel' in n: short=n.split('(')[0]+'<'+n.split('<')[1].split('>')[0]+'>'
        for k,v in m.items(): agg[short][k].append(v)
    print(f)
    for n,m in agg.items():
        t=m['gpu__time_duration.sum']
        print(f"  {n[:70]:70s} n={len(t)} mean={sum(t)/len(t)/1000:.1f}us min={min(t)/1000:.1f} max={max(t)/1000:.1f} inst={sum(m['smsp__inst_executed.sum'])/len(t):.3g} dramR={sum(m['dram__bytes_read.sum'])/len(t)/1e6:.1f}MB dramW={sum(m['dram__bytes_write.sum'])/len(t)/1e6:.1f}MB")
