#!/usr/bin/env python3
"""Warp-level instructions executed per sweep (and the ULDC among them) from the ncu per-SASS CSVs of runs 1-5.
The pipelined launches ran 10 sweeps, the per-sweep kernel one. Usage: python3 count_instructions.py"""
import csv
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [("per-sweep kernel (run 2)", "run2/sass_sw_{}.csv.gz", 1),
         ("pipelined, base 60438e2 (run 1)", "run1/sass_pip_{}.csv.gz", 10),
         ("pipelined, parity copies 6b3105a (run 3)", "run3/sass_pip_{}.csv.gz", 10),
         ("pipelined, no ghost fill (run 4, diagnostic)", "run4/sass_pip_{}.csv.gz", 10),
         ("pipelined, fill out of line 2d71c8c (run 5)", "run5/sass_pip_{}.csv.gz", 10)]
for shape in ("3d27pt", "2d21pt"):
    for label, pattern, sweeps in CASES:
        with gzip.open(os.path.join(HERE, pattern.format(shape)), "rt") as f:
            rows = list(csv.reader(f))
        head, data = rows[1], rows[2:]
        col = head.index("Instructions Executed")
        total = sum(int(r[col]) for r in data if r[col].isdigit())
        uldc = sum(int(r[col]) for r in data if r[col].isdigit() and "ULDC" in r[1])
        print(f"{shape} fp64  {label:46s} {total / sweeps / 1e6:6.1f} M per sweep, ULDC {uldc / sweeps / 1e6:5.1f} M")
