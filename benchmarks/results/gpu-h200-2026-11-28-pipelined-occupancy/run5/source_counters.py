import csv,sys,collections,re
def load(fn):
    rows=list(csv.reader(open(fn)))
    hdr=rows[1]; ia=hdr.index('Address'); isrc=hdr.index('Source'); ie=hdr.index('Instructions Executed'); iw=hdr.index('Warp Stall Sampling (All Samples)')
    out=[]
    for r in rows[2:]:
        if len(r)<=ie: continue
        try: out.append((int(r[ia],16),r[isrc].strip(),int(r[ie]),int(r[iw])))
        except: pass
    base=out[0][0]
    return [(a-base,s,e,w) for a,s,e,w in out]
def op(t):
    t=re.sub(r'^@!?U?P\w+\s+','',t); return t.split()[0] if t else ''
a=load(sys.argv[1]); b=load(sys.argv[2]); db=float(sys.argv[3])
ta=sum(x[2] for x in a); tb=sum(x[2] for x in b)/db
print('total instr executed: %.2fM vs %.2fM per sweep'%(ta/1e6,tb/1e6))
ma=collections.Counter(); mb=collections.Counter()
for x in a: ma[op(x[1])]+=x[2]
for x in b: mb[op(x[1])]+=x[2]/db
keys=sorted(set(ma)|set(mb),key=lambda k:-(abs(mb[k]-ma[k])))
for k in keys[:25]: print('%-20s %10.3fM %10.3fM  diff %+8.3fM'%(k,ma[k]/1e6,mb[k]/1e6,(mb[k]-ma[k])/1e6))
