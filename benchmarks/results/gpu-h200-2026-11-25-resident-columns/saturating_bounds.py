#!/usr/bin/env python3
"""Upper bounds of the PERKS speed-up on the saturating (and large) domains of a perks_bench JSON.

Caching a fraction f of the cells of an apply sweep removes at most their read and write, so the speed-up over a
per-sweep kernel at the same efficiency is at most 1 / (1 - f), with f = min(1, C / (cells * sizeof(T))) for an
on-chip capacity C (the iterate cached in place). Two capacities of an H200 (132 SMs):
  * smem: 227 KB of shared memory per block, one block per SM (what the resident kernel can hold): 30.0 MB;
  * all:  shared memory + the whole 256 KB register file of every SM: 63.9 MB (no register left for the kernel,
          so not reachable; an upper bound of upper bounds).
Usage: saturating_bounds.py perks_bench.json [class ...]   (default class: saturating)
"""
import json
import math
import sys

SMS = 132
CAPS = {"smem": SMS * 227 * 1024, "all": SMS * (227 + 256) * 1024}


def main():
    d = json.load(open(sys.argv[1]))
    classes = sys.argv[2:] or ["saturating"]
    for cls in classes:
        rows = [r for r in d["records"] if r["class"] == cls]
        print(f"class {cls} ({d['device']}, {d['git_revision']}): {len(rows)} cases")
        print(f"{'case':8} {'prec':4} {'extents':>16} {'MB':>6} {'f smem':>7} {'bound':>6} {'f all':>6} {'bound':>6} {'measured':>8}")
        logs = {k: 0.0 for k in ("smem", "all", "meas")}
        for r in rows:
            size = 8 if r["precision"] == "fp64" else 4
            bytes_ = r["cells"] * size
            out = []
            for k in ("smem", "all"):
                f = min(1.0, CAPS[k] / bytes_)
                b = 1.0 / (1.0 - f) if f < 1.0 else math.inf
                logs[k] += math.log(b) if math.isfinite(b) else math.log(1e3)
                out += [f, b]
            logs["meas"] += math.log(r["speedup"])
            ext = "x".join(str(e) for e in r["extents"])
            print(f"{r['case']:8} {r['precision']:4} {ext:>16} {bytes_ / 1e6:6.0f} {out[0]:7.3f} {out[1]:6.2f} {out[2]:6.3f} "
                  f"{out[3]:6.2f} {r['speedup']:8.3f}")
        n = len(rows)
        print(f"geometric mean: bound (smem) {math.exp(logs['smem'] / n):.3f}  bound (all, capped at 1000x) "
              f"{math.exp(logs['all'] / n):.3f}  measured {math.exp(logs['meas'] / n):.3f}\n")


if __name__ == "__main__":
    main()
