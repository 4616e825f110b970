# Summarises an ncu source page (SASS, CSV; `ncu --import r.ncu-rep --page source --csv --print-source sass`): stall
# samples by reason, by execution count (code run as often shares a count: e.g. once per warp and sweep), and the
# hottest instructions with their main stall reason.
# Usage: python3 sass_regions.py ncu_case_sass.csv [top]
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr, data = rows[1], rows[2:]
def num(x):
    try: return int(x.replace(',', ''))
    except ValueError: return 0
iS, iE, isrc = hdr.index("Warp Stall Sampling (All Samples)"), hdr.index("Instructions Executed"), hdr.index("Source")
reasons = [c for c in hdr if c.startswith("stall_") and "Not Issued" not in c]
tot_s = sum(num(r[iS]) for r in data); tot_e = sum(num(r[iE]) for r in data)
print(f"{len(data)} SASS instructions, {tot_s} stall samples, {tot_e} warp instructions executed")
by = {c: sum(num(r[hdr.index(c)]) for r in data) for c in reasons}
print("samples by reason:", ", ".join(f"{c[6:]} {100 * v / tot_s:.1f}%" for c, v in sorted(by.items(), key=lambda kv: -kv[1])[:8]))
top = sorted(range(len(data)), key=lambda i: -num(data[i][iS]))[:int(sys.argv[2]) if len(sys.argv) > 2 else 12]
for i in sorted(top):
    r = data[i]
    main = max(reasons, key=lambda c: num(r[hdr.index(c)]))
    print(f"  #{i:5d} {r[isrc].strip()[:48]:48s} samples {100 * num(r[iS]) / tot_s:5.1f}% ({main[6:]}) executed {num(r[iE])}")
from collections import defaultdict
e, s = defaultdict(int), defaultdict(int)
for r in data:
    k = num(r[iE]); e[k] += k; s[k] += num(r[iS])
print("by execution count (count: share of instructions, share of samples):",
      "; ".join(f"{k}: {100 * e[k] / tot_e:.1f} %, {100 * s[k] / tot_s:.1f} %" for k in sorted(e, key=lambda k: -s[k])[:5]))
