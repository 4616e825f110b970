#!/usr/bin/env python3
"""Per-kernel time and DRAM bytes of PCG-MG iterations from two ncu CSV logs of the same solve stopped after
A and B iterations (run3.sh): (sum over kernels named K in B) - (in A), divided by B - A.
Usage: kernel_table.py ncu_X_3.csv ncu_X_6.csv [3 6]"""
import collections
import csv
import re
import sys


def load(path):
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    h = rows[0]
    i_name, i_m, i_v, i_id = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
    sums = collections.defaultdict(collections.Counter)
    name_of = {}
    for r in rows[1:]:
        name = re.sub(r"<.*", "", r[i_name])[:40]
        name_of.setdefault(r[i_id], name)
        sums[name][r[i_m]] += float(r[i_v].replace(",", ""))
    return sums, collections.Counter(name_of.values())


a, ca = load(sys.argv[1])
b, cb = load(sys.argv[2])
ia, ib = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (3, 6)
k = ib - ia
rows, total_us, total_mb = [], 0.0, 0.0
for name in b:
    calls = (cb[name] - ca[name]) / k
    if calls <= 0:
        continue
    us = (b[name]["gpu__time_duration.sum"] - a[name]["gpu__time_duration.sum"]) / k / 1e3
    mb = sum(b[name][m] - a[name][m] for m in ("dram__bytes_read.sum", "dram__bytes_write.sum")) / k / 1e6
    rows.append((us, name, calls, mb))
    total_us += us
    total_mb += mb
print("%-40s %6s %10s %10s %8s" % ("kernel", "calls", "us/iter", "MB/iter", "TB/s"))
for us, name, calls, mb in sorted(rows, reverse=True):
    print("%-40s %6.1f %10.1f %10.1f %8.2f" % (name, calls, us, mb, mb / us if us > 0 else 0.0))
print("%-40s %6s %10.1f %10.1f" % ("total per iteration", "", total_us, total_mb))
