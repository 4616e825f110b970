# Per-kernel table from ncu --print-summary per-kernel logs (gpu__time_duration, dram bytes): one column per log.
# Usage: python3 ncu_per_kernel.py A.log [B.log ...]
import re,sys
def parse(f):
    d={}; name=None
    for line in open(f):
        m=re.match(r'\s+(void .*?|\S.*?) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\), Device.*Invocations (\d+)',line)
        if m: name=(m.group(1), m.group(2)+'x'+m.group(5)); d[name]={'inv':int(m.group(8))}; continue
        m=re.match(r'\s+(gpu__time_duration.sum|dram__bytes_read.sum|dram__bytes_write.sum)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)',line)
        if m and name:
            unit=m.group(2); s={'us':1,'ms':1000,'ns':1e-3,'byte':1e-6,'Kbyte':1e-3,'Mbyte':1,'Gbyte':1e3}[unit]
            d[name][m.group(1).split('__')[1].split('.')[0]]=float(m.group(5).replace(',',''))*s
    return d
a=[parse(f) for f in sys.argv[1:]]
def tot(x,k): return x.get(k,{}).get('inv',0)*x.get(k,{}).get('time_duration',0)
keys=sorted(set().union(*a), key=lambda k:-max(tot(x,k) for x in a))
def short(n): n=re.sub(r'cuda_detail::|cuda_ops::|unnamed>::','',n); n=re.sub(r'\(.*$','',n); return n[:110]
T=[0]*len(a)
for k in keys:
    cells=[]
    for i,x in enumerate(a):
        r=x.get(k); 
        if not r: cells.append('-'); continue
        T[i]+=tot(x,k)
        cells.append(f"{r['inv']}x{r.get('time_duration',0):.1f}us rd{r.get('bytes_read',0):.1f} wr{r.get('bytes_write',0):.1f}MB")
    print(f"{short(k[0])} [{k[1]}] | "+" | ".join(cells))
print("total us", [round(t) for t in T])
