import re, sys, subprocess
def load(f):
    d, name = {}, None
    for line in open(f):
        m = re.match(r"\s*Function (\S+):", line)
        if m: name = m.group(1); continue
        m = re.search(r"REG:(\d+) STACK:(\d+)", line)
        if m and name: d[name] = (int(m.group(1)), int(m.group(2))); name = None
    return d
a, v = load(sys.argv[1]), load(sys.argv[2])
pat = sys.argv[3] if len(sys.argv) > 3 else "perks_(pipelined|resident)_kernel"
keys = [k for k in sorted(set(a) | set(v)) if re.search(pat, k)]
dem = subprocess.run(["c++filt"], input="\n".join(keys), capture_output=True, text=True).stdout.split("\n")
for k, d in zip(keys, dem):
    d = d.replace("perksolve::cuda_detail::", "").replace("perksolve::", "")
    d = re.sub(r"\(PerksArgs<\w+>\)", "", d).replace("void ", "")
    same = a.get(k) == v.get(k)
    if not same or len(sys.argv) > 4: print(("  " if same else "* ") + d, a.get(k), "->", v.get(k))
