# Compares two `cuobjdump -res-usage` listings by demangled kernel name (anonymous-namespace mangled names differ
# between builds): how many kernels have the same registers and stack, and the ones that differ.
import re, subprocess, sys
def load(f):
    d, name = {}, None
    for line in open(f):
        m = re.match(r"\s*Function (\S+):", line)
        if m: name = m.group(1); continue
        m = re.search(r"REG:(\d+) STACK:(\d+)", line)
        if m and name: d[name] = (int(m.group(1)), int(m.group(2))); name = None
    keys = sorted(d)
    dem = subprocess.run(["c++filt"], input="\n".join(keys), capture_output=True, text=True).stdout.split("\n")
    out = {}
    for k, n in zip(keys, dem):
        n = re.sub(r"\(anonymous namespace\)::", "", n)
        out.setdefault(n, []).append(d[k])
    return {n: sorted(v) for n, v in out.items()}
a, b = load(sys.argv[1]), load(sys.argv[2])
names = sorted(set(a) | set(b))
diff = [n for n in names if a.get(n) != b.get(n)]
print(f"kernels: {len(a)} / {len(b)} by name; same registers and stack: {len(names) - len(diff)}; differing: {len(diff)}")
for n in diff[:40]: print("*", n[:220], a.get(n), "->", b.get(n))
