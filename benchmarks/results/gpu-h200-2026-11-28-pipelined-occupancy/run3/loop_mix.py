import re,sys,collections
def parse(fn):
    ins=[]
    for l in open(fn):
        m=re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);',l)
        if m: ins.append((int(m.group(1),16),m.group(2).strip()))
    return ins
def loop(fn,frm,to):
    ins=parse(fn); 
    return [t for a,t in ins if int(frm,16)<=a<=int(to,16)]
def op(t):
    t=re.sub(r'^@!?U?P\w+\s+','',t)
    return t.split()[0]
specs=[s.split(':') for s in sys.argv[1:]]
mixes=[collections.Counter(op(t) for t in loop(f,a,b)) for f,a,b in specs]
keys=sorted(set().union(*mixes),key=lambda k:-max(m[k] for m in mixes))
print('%-22s'%'op'+''.join('%10s'%s[0][5:13] for s in specs))
for k in keys:
    v=[m[k] for m in mixes]
    if len(set(v))>1 or v[0]>10: print('%-22s'%k+''.join('%10d'%x for x in v))
print('%-22s'%'total'+''.join('%10d'%sum(m.values()) for m in mixes))
