# Per-case small-class comparison from a small.log of this folder: python3 compare_small.py runN/small.log v1,v2,...
# (mean speed-up over the repetitions, best time per sweep, geometric means).
import sys,math,collections
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
  f=line.split()
  v,rep,shape,prec=f[0],f[1],f[2],f[3]
  ps=float(f[f.index("per-sweep")+1]); pe=float(f[f.index("persistent")+1])
  d[(shape,prec,v)].append((ps,pe))
vs=sys.argv[2].split(',')
keys=sorted(set((k[0],k[1]) for k in d))
lg={v:[] for v in vs}
for s,p in keys:
  out=f"{s:8s} {p}"
  for v in vs:
    xs=d[(s,p,v)]; sp=[a/b for a,b in xs]
    out+=f"  {v} {min(b for a,b in xs)*1e6:6.2f}us {sum(sp)/len(sp):.3f}"
    lg[v].append(math.log(sum(sp)/len(sp)))
  print(out)
for v in vs: print(v, "geomean", round(math.exp(sum(lg[v])/len(lg[v])),3))
