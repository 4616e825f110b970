import csv,sys,collections,re
def load(fn):
    rows=open(fn).read().split('\n')
    i=[k for k,l in enumerate(rows) if l.startswith('"ID"')][0]
    r=csv.DictReader(rows[i:])
    d=collections.defaultdict(lambda: [0,0.0,0.0])
    ids={}
    for x in r:
        if not x.get('Kernel Name'): continue
        name=re.sub(r'\(.*','',x['Kernel Name'])[:60]
        m=re.search(r'<(.*)',x['Kernel Name']); 
        key=(name+x['Kernel Name'][len(name):len(name)+40], x['Grid Size'], x['Block Size'])
        if x['Metric Name']=='gpu__time_duration.sum':
            d[key][0]+=1; d[key][1]+=float(x['Metric Value'].replace(',',''))/1e3
    return d
a=load('f3.csv'); b=load('f6.csv')
tot=0; cnt=0
out=[]
for k in b:
    c=(b[k][0]-a.get(k,[0,0,0])[0])/3; t=(b[k][1]-a.get(k,[0,0,0])[1])/3
    if c>0.01: out.append((t,c,k)); tot+=t; cnt+=c
for t,c,k in sorted(out,reverse=True): print(f"{t:8.1f} {c:5.1f}  {k[1]:>16} {k[2]:>14} {k[0][:100]}")
print(tot,cnt)
