#!/usr/bin/env python3
"""Plots of perksolve output (matplotlib + h5py from Debian: python3-matplotlib python3-h5py).

  plot_output.py history output/perksolve_history.csv -o history.png
      residual history (relative residual against iteration, log scale) and the time per iteration
  plot_output.py slice output/perksolve_000100.h5 -o slice.png [--field solution] [--axis z] [--index N]
      a 2D slice of a field at its physical coordinates (3D: the plane index N normal to --axis,
      middle by default; 2D files: the whole field)

Writes PNG without a display (Agg backend).
"""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_history(args):
    its, rel, dt = [], [], []
    with open(args.csv) as f:
        for row in csv.DictReader(f):
            its.append(int(row["iteration"]))
            rel.append(float(row["relative_residual"]))
            dt.append(float(row["iteration_s"]))
    if not its:
        sys.exit(f"{args.csv}: no rows")
    has_residual = any(r > 0 for r in rel)
    fig, axes = plt.subplots(2 if has_residual else 1, 1, figsize=(7, 6 if has_residual else 3.5), squeeze=False)
    ax = axes[0][0]
    if has_residual:
        ax.semilogy(its, [r if r > 0 else float("nan") for r in rel], lw=1.2)
        ax.set_ylabel("||r|| / ||r0||")
        ax.set_title(args.title or f"residual history ({args.csv})")
        ax.grid(True, which="both", alpha=0.3)
        ax = axes[1][0]
    ax.plot(its, [1e3 * d for d in dt], lw=0.8, color="tab:gray")
    ax.set_ylabel("time per iteration [ms]")
    ax.set_xlabel("iteration")
    ax.grid(True, alpha=0.3)
    if not has_residual:
        ax.set_title(args.title or f"time per step ({args.csv})")
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    print(f"wrote {args.output}")


def plot_slice(args):
    import h5py
    import numpy as np

    with h5py.File(args.h5, "r") as f:
        if "fields" not in f or args.field not in f["fields"]:
            have = list(f["fields"].keys()) if "fields" in f else []
            sys.exit(f"{args.h5}: no field '{args.field}' (has: {', '.join(have)})")
        data = f["fields"][args.field][...]
        coords = {a: f["grid"][a][...] for a in ("x", "y", "z") if a in f["grid"]}
        iteration = int(f.attrs.get("iteration", -1))
    if data.ndim == 3:  # dims (z, y, x)
        axis = {"x": 2, "y": 1, "z": 0}[args.axis]
        n = data.shape[axis]
        index = n // 2 if args.index is None else args.index
        if not 0 <= index < n:
            sys.exit(f"--index {index} out of range [0, {n})")
        plane = np.take(data, index, axis=axis)
        h, v = {"x": ("y", "z"), "y": ("x", "z"), "z": ("x", "y")}[args.axis]
        where = f", {args.axis} = {coords[args.axis][index]:.4g}"
    else:
        plane, h, v, where = data, "x", "y", ""
    fig, ax = plt.subplots(figsize=(6.5, 5))
    mesh = ax.pcolormesh(coords[h], coords[v], plane, shading="nearest", cmap="viridis")
    fig.colorbar(mesh, ax=ax, label=args.field)
    ax.set_xlabel(h)
    ax.set_ylabel(v)
    ax.set_aspect("equal")
    ax.set_title(args.title or f"{args.field}, iteration {iteration}{where}")
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    print(f"wrote {args.output}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    h = sub.add_parser("history", help="residual history plot from PREFIX_history.csv")
    h.add_argument("csv")
    s = sub.add_parser("slice", help="2D slice of a field from an output .h5 file")
    s.add_argument("h5")
    s.add_argument("--field", default="solution")
    s.add_argument("--axis", choices=["x", "y", "z"], default="z")
    s.add_argument("--index", type=int, default=None)
    for p in (h, s):
        p.add_argument("-o", "--output", required=True, help="PNG file to write")
        p.add_argument("--title", default=None)
        p.add_argument("--dpi", type=int, default=100)
    args = ap.parse_args()
    plot_history(args) if args.what == "history" else plot_slice(args)


if __name__ == "__main__":
    main()
