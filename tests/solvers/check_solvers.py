#!/usr/bin/env python3
"""Acceptance checks of issue 3 (CG, PCG, geometric multigrid, Matrix Market), run through the
perksolve executable. Each check prints the measured numbers (docs/solvers.md quotes them).

Usage: check_solvers.py --perksolve EXE --mpiexec MPIEXEC --source SRC CHECK
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

A = None


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(args, np=None, expect=None, timeout=900, env=None):
    cmd = [A.perksolve] + args
    if np is not None:
        cmd = [A.mpiexec, "-n", str(np), "--oversubscribe"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=None if env is None else {**os.environ, **env})
    if expect is not None and p.returncode != expect:
        fail(f"{' '.join(cmd)}\nexit code {p.returncode}, expected {expect}\nstdout:\n{p.stdout[-4000:]}\nstderr:\n{p.stderr[-4000:]}")
    return p


def deck(name):
    return os.path.join(A.source, "inputs", "solvers", name)


def initial_residual(out):
    m = re.search(r"\(initial (\S+), rel", out)
    if not m:
        fail("no initial residual in:\n" + out[-3000:])
    return float(m.group(1))


def iterations(out):
    m = re.search(r"(?:converged|did not converge) due to \S+ .*?iterations (\d+); residual norm (\S+)", out)
    if not m:
        fail("no final line in:\n" + out[-3000:])
    return int(m.group(1)), float(m.group(2))


def history(out):
    return [float(m.group(1)) for m in re.finditer(r"^\s+\d+ \S+ residual norm (\S+)", out, re.M)]


def expect_auto_history_as_off(label, args):
    """On the kokkos backend solver.persistent = "auto" runs the operation loop: the same residual history as
    "off" (args: the deck, then overrides)."""
    hist = {}
    for mode in ("auto", "off"):
        p = run([args[0], f'solver.persistent="{mode}"'] + args[1:] + ["monitor.every=1"], expect=0)
        hist[mode] = history(p.stdout)
    if len(hist["auto"]) < 3 or hist["auto"] != hist["off"]:
        fail(f"{label} auto vs off on the kokkos backend: {hist['auto']} vs {hist['off']}")
    print(f"{label} = auto on the kokkos backend: {len(hist['auto']) - 1} iterations, the same history as off")


def true_residual(out):
    m = re.search(r"true relative residual \|\|b - A x\|\| / \|\|b\|\| = (\S+)", out)
    if not m:
        fail("no true residual in:\n" + out[-3000:])
    return float(m.group(1))


def grid_rows(out):
    m = re.search(r"; rows of (\d+) elements", out)
    if not m:
        fail("no grid rows in:\n" + out[-3000:])
    return int(m.group(1))


def max_error(out):
    m = re.search(r"error vs exact solution: max (\S+)", out)
    if not m:
        fail("no error line in:\n" + out[-3000:])
    return float(m.group(1))


def factor(hist, last=5):
    """Asymptotic convergence factor: geometric mean over the last `last` cycles."""
    h = [x for x in hist if x > 0]
    k = min(last, len(h) - 1)
    return (h[-1] / h[-1 - k]) ** (1.0 / k)


# ---- multigrid convergence factors --------------------------------------------------------------

def check_mg_factor(sizes):
    results = {}
    for smoother, limit in (("jacobi", 0.30), ("chebyshev", 0.20), ("rbgs", 0.20)):
        fs = []
        for n in sizes:
            p = run([deck("mg_poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", f"solver.smoother.type=\"{smoother}\"",
                     "solver.stop.rtol=1e-10"], expect=0)
            f = factor(history(p.stdout))
            its, _ = iterations(p.stdout)
            fs.append(f)
            print(f"V(2,2) {smoother:9s} {n+1}^3 intervals ({n}^3 unknowns): factor {f:.4f}, {its} cycles to 1e-10")
        results[smoother] = fs
        if max(fs) > limit:
            fail(f"{smoother}: convergence factor {max(fs):.3f} > {limit}")
        if max(fs) > 1.25 * min(fs) + 0.01:
            fail(f"{smoother}: factors {fs} depend on the grid size")
    print("note: the weighted-Jacobi V(2,2) factor is bounded below by the smoothing factor (5/7)^4 = 0.260 "
          "in 3D, the 0.15 target of issue 3 is not met by any smoother here (see docs/solvers.md)")


# ---- FMG -----------------------------------------------------------------------------------------

def check_fmg():
    for dim, n, smoother in ((2, 255, "rbgs"), (3, 63, "jacobi")):
        ext = "[" + ",".join([str(n)] * dim) + "]"
        base = [deck("fmg_poisson2d.toml"), f"grid.dimension={dim}", f"grid.extents={ext}",
                f"solver.smoother.type=\"{smoother}\"", "monitor.every=0"]
        exact = max_error(run(base + ["solver.stop.rtol=1e-11", "solver.stop.max_iterations=100"], expect=0).stdout)
        errs = []
        for cycles in (1, 2, 3):  # FMG pass, + 1 V-cycle, + 2 V-cycles
            p = run(base + [f"solver.stop.max_iterations={cycles}", "solver.stop.rtol=1e-30"], expect=2)
            errs.append(max_error(p.stdout))
        ratios = [e / exact for e in errs]
        print(f"FMG {dim}D {n}^{dim} ({smoother}): discrete-solution error {exact:.4e}; after FMG {ratios[0]:.3f}x, "
              f"+1 V {ratios[1]:.3f}x, +2 V {ratios[2]:.3f}x")
        if min(ratios) > 1.2:
            fail(f"FMG {dim}D did not reach 1.2 x the discretisation error within one F-cycle + 2 V-cycles")


# ---- PCG / CG --------------------------------------------------------------------------------------

def check_pcg(sizes):
    for n in sizes:
        p = run([deck("pcg_mg_poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", "monitor.every=0"], expect=0)
        its, _ = iterations(p.stdout)
        tr = true_residual(p.stdout)
        line = f"PCG (V(2,2) Jacobi) {n}^3: {its} iterations, true relative residual {tr:.2e}"
        if n <= 63:
            q = run([deck("cg_poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", "monitor.every=0"], expect=0)
            line += f"; plain CG {iterations(q.stdout)[0]} iterations"
            if grid_rows(q.stdout) != (n + 2 + 3) // 4 * 4:
                fail(f"plain CG grid rows of {grid_rows(q.stdout)} elements for n = {n} (one sector: 4 doubles)")
        d = run([deck("pcg_mg_poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", "monitor.every=0",
                 'solver.preconditioner.coarse.type="direct"'], expect=0)
        its_direct = iterations(d.stdout)[0]
        line += f"; with the direct coarse solve {its_direct} iterations"
        # The cycle in float for the double CG: the same iteration count, the same accuracy.
        f = run([deck("pcg_mg_poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", "monitor.every=0",
                 'solver.preconditioner.coarse.type="direct"', 'solver.preconditioner.precision="float"'], expect=0)
        its_float, tr_float = iterations(f.stdout)[0], true_residual(f.stdout)
        # PCG-MG's grid rows start on whole 32-element lines, the other solvers' on 32-byte sectors (4 doubles) where
        # lines would cost more than 2 % of a row (Solver::grid_rows_on_lines, Decomposition::grid_layout).
        rows_pcg, rows_float = grid_rows(d.stdout), grid_rows(f.stdout)
        if rows_pcg != rows_float or rows_pcg != (n + 2 + 31) // 32 * 32:
            fail(f"PCG-MG grid rows of {rows_pcg} elements ({rows_float} with the float cycle) for n = {n}")
        line += f"; cycle in float {its_float} iterations (true relative residual {tr_float:.2e})"
        # Chebyshev smoothing of degree 2 (product form) on [0.2, 1.08] lambda_max: fewer iterations.
        c = run([deck("pcg_mg_poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", "monitor.every=0",
                 'solver.preconditioner.coarse.type="direct"', 'solver.preconditioner.smoother.type="chebyshev"',
                 "solver.preconditioner.smoother.lower=0.2"], expect=0)
        its_cheb = iterations(c.stdout)[0]
        line += f"; Chebyshev {its_cheb} iterations"
        print(line)
        if its_direct != its:
            fail(f"direct coarse solve: {its_direct} iterations, CG coarse solve {its}")
        if its_float != its_direct or tr_float > 1e-10:
            fail(f"cycle in float: {its_float} iterations (double cycle {its_direct}), true relative residual {tr_float}")
        if its_cheb >= its_direct:
            fail(f"Chebyshev smoothing: {its_cheb} iterations, not fewer than Jacobi's {its_direct}")
        if its > 12:
            fail(f"PCG needed {its} > 12 iterations at {n}^3")
        if tr > 1e-10:
            fail(f"true relative residual {tr}")


# ---- Matrix Market ----------------------------------------------------------------------------------

def splitmix(seed, i):
    m = (1 << 64) - 1
    x = (seed * 0x100000001B3 + i + 0x9E3779B97F4A7C15) & m
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
    x ^= x >> 31
    return (x >> 11) * 2.0 ** -53


def write_mtx(path, n, entries, symmetric=True):
    with open(path, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real {'symmetric' if symmetric else 'general'}\n")
        rows = [(r, c, v) for (r, c, v) in entries if (not symmetric or c <= r)]
        f.write(f"{n} {n} {len(rows)}\n")
        for r, c, v in rows:
            f.write(f"{r + 1} {c + 1} {v!r}\n")


def laplace(dims, scale=(1.0, 1.0, 1.0)):
    nx, ny, nz = (list(dims) + [1, 1])[:3]
    idx = lambda i, j, k: i + nx * (j + ny * k)
    ent = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                r = idx(i, j, k)
                d = 0.0
                for a, (di, dj, dk) in enumerate(((1, 0, 0), (0, 1, 0), (0, 0, 1))):
                    if [nx, ny, nz][a] == 1:
                        continue
                    d += 2 * scale[a]
                    for s in (-1, 1):
                        ii, jj, kk = i + s * di, j + s * dj, k + s * dk
                        if 0 <= ii < nx and 0 <= jj < ny and 0 <= kk < nz:
                            ent.append((r, idx(ii, jj, kk), -scale[a]))
                ent.append((r, r, d))
    return nx * ny * nz, ent


def graph_laplacian(n, seed):
    ent, deg, s = [], [0.0] * n, seed
    for i in range(n):
        for t in range(3):
            s += 1
            j = int(splitmix(99, s) * n)
            if j == i:
                continue
            w = 0.5 + splitmix(98, s)
            ent += [(i, j, -w), (j, i, -w)]
            deg[i] += w
            deg[j] += w
    ent += [(i, i, deg[i] + 0.1 + splitmix(97, i)) for i in range(n)]
    return n, ent


def dense_solve(n, entries, b):
    M = [[0.0] * n for _ in range(n)]
    for r, c, v in entries:
        M[r][c] += v
    x = list(b)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        x[c], x[p] = x[p], x[c]
        for r in range(c + 1, n):
            f = M[r][c] / M[c][c]
            if f:
                for k in range(c, n):
                    M[r][k] -= f * M[c][k]
                x[r] -= f * x[c]
    for c in range(n - 1, -1, -1):
        x[c] = (x[c] - sum(M[c][k] * x[k] for k in range(c + 1, n))) / M[c][c]
    return x


MM_DECK = """[grid]
dimension = 2
extents = [1, 1]
[problem]
type = "matrix_market"
file = "{file}"
rhs = "ax"
seed = 3
[solver]
type = "cg"
[solver.preconditioner]
type = "{pc}"
[solver.stop]
max_iterations = 5000
rtol = 1e-12
[monitor]
every = 0
"""


def matrices():
    # (name, n, entries, dense check)
    out = [("laplace2d_12", *laplace((12, 12)), True),
           ("laplace3d_7", *laplace((7, 7, 7)), True),
           ("graph_laplacian_150", *graph_laplacian(150, 5), True),
           ("anisotropic2d_16", *laplace((16, 16), (0.01, 1.0, 1.0)), True),
           ("laplace3d_24", *laplace((24, 24, 24)), False)]
    return out


def check_matrix_market(np):
    with tempfile.TemporaryDirectory() as tmp:
        for name, n, ent, dense in matrices():
            path = os.path.join(tmp, name + ".mtx")
            write_mtx(path, n, ent, symmetric=(name != "graph_laplacian_150"))
            for pc in ("none", "jacobi"):
                dk = os.path.join(tmp, f"{name}_{pc}.toml")
                with open(dk, "w") as f:
                    f.write(MM_DECK.format(file=path, pc=pc))
                p = run([dk], np=np, expect=0)
                its, _ = iterations(p.stdout)
                tr = true_residual(p.stdout)
                err = max_error(p.stdout)
                line = f"CG[{pc}] {name} (n = {n}, {np or 1} ranks): {its} iterations, ||b-Ax||/||b|| = {tr:.2e}, max |x - x*| = {err:.2e}"
                if tr > 1e-10:
                    fail(line)
                if dense and pc == "none":
                    xs = [splitmix(3, i) - 0.5 for i in range(n)]
                    b = [0.0] * n
                    for r, c, v in ent:
                        b[r] += v * xs[c]
                    xd = dense_solve(n, ent, b)
                    dd = max(abs(a - c) for a, c in zip(xd, xs))
                    line += f"; dense LU |x_dense - x*| = {dd:.1e}, so |x_cg - x_dense| <= {err + dd:.1e}"
                    if err + dd > 1e-8:
                        fail(line)
                print(line)


MALFORMED = {
    "bad_header.mtx": ("%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n", r"bad_header\.mtx:1: error: bad header"),
    "no_banner.mtx": ("2 2 2\n1 1 1.0\n2 2 1.0\n", r"no_banner\.mtx:1: error: bad header"),
    "non_square.mtx": ("%%MatrixMarket matrix coordinate real general\n2 3 2\n1 1 1.0\n2 2 1.0\n", r"non_square\.mtx:2: error: matrix is not square"),
    "out_of_range.mtx": ("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n3 2 1.0\n", r"out_of_range\.mtx:4: error: index \(3, 2\) out of range"),
    "truncated.mtx": ("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 2 1.0\n", r"truncated\.mtx:4: error: truncated file: 3 entries declared, 2 found"),
    "not_symmetric.mtx": ("%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 2.0\n1 2 -1.0\n2 2 2.0\n", r"not_symmetric\.mtx:4: error: entry \(1, 2\) above the diagonal"),
    "bad_value.mtx": ("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 abc\n2 2 1.0\n", r"bad_value\.mtx:3: error: bad entry"),
}


def check_malformed_mtx():
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, pattern) in MALFORMED.items():
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            dk = os.path.join(tmp, name + ".toml")
            with open(dk, "w") as f:
                f.write(MM_DECK.format(file=path, pc="none"))
            p = run([dk], expect=1)
            if not re.search(pattern, p.stderr + p.stdout):
                fail(f"{name}: message does not match /{pattern}/:\n{p.stderr}")
            print(f"{name}: exit 1, {(p.stderr.strip().splitlines() or [''])[0]}")


# ---- MPI: 1 vs 4 ranks ---------------------------------------------------------------------------

def check_rank_counts():
    cases = [
        ("MG V(2,2) jacobi 31^3, 4x1x1 ranks (coarsest level agglomerated)",
         [deck("mg_poisson3d.toml"), "grid.extents=[31,31,31]", "decomposition.ranks=[4,1,1]", "monitor.every=0"], True),
        ("MG V(2,2) rbgs 31^3, automatic ranks",
         [deck("mg_poisson3d.toml"), "grid.extents=[31,31,31]", "solver.smoother.type=\"rbgs\"", "monitor.every=0"], False),
        ("MG W-cycle chebyshev cell-centred 32^3",
         [deck("mg_poisson3d.toml"), "grid.extents=[32,32,32]", "grid.centering=\"cell\"", "solver.cycle=\"W\"",
          "solver.smoother.type=\"chebyshev\"", "monitor.every=0"], False),
        ("FMG + V 2D 127^2", [deck("fmg_poisson2d.toml"), "grid.extents=[127,127]", "monitor.every=0"], False),
        ("PCG (MG) 31^3, 4x1x1 ranks (agglomerated)",
         [deck("pcg_mg_poisson3d.toml"), "grid.extents=[31,31,31]", "decomposition.ranks=[4,1,1]", "monitor.every=0"], True),
        ("PCG (MG, direct coarse solve) 31^3, 4x1x1 ranks (agglomerated)",
         [deck("pcg_mg_poisson3d.toml"), "grid.extents=[31,31,31]", "decomposition.ranks=[4,1,1]",
          'solver.preconditioner.coarse.type="direct"', "monitor.every=0"], True),
        ("PCG (MG, chebyshev) diffusion 32^3 cell-centred",
         [deck("pcg_mg_diffusion3d.toml"), "grid.extents=[32,32,32]", "monitor.every=0"], False),
        ("CG 31^3", [deck("cg_poisson3d.toml"), "grid.extents=[31,31,31]", "monitor.every=0"], False),
        ("CG matrix market", [deck("cg_matrix_market.toml"), "monitor.every=0"], False),
    ]
    for name, args, ranks_fixed in cases:
        one_args = [a for a in args if not a.startswith("decomposition.ranks")]
        p1 = run(one_args, expect=0)
        i1, r1 = iterations(p1.stdout)
        p4 = run(args, np=4, expect=0)
        i4, r4 = iterations(p4.stdout)
        rel = abs(r1 - r4) / initial_residual(p1.stdout)  # relative to ||r0||, as rtol is
        print(f"{name}: 1 rank {i1} iterations, final residual {r1:.10e}; 4 ranks {i4} iterations, {r4:.10e} (rel diff {rel:.1e})")
        if ranks_fixed and "agglomerated" not in p4.stdout:
            fail(f"{name}: expected an agglomerated coarse level:\n{p4.stdout}")
        if i1 != i4:
            fail(f"{name}: iteration counts differ")
        if rel > 1e-10:
            fail(f"{name}: final residuals differ by {rel}")


# ---- set-up errors, describe, breakdown -------------------------------------------------------------

def check_replay():
    """Recording and replaying the multigrid cycle (replay = "on" records on every backend; on the Kokkos
    backend the replay re-runs the recorded function) gives the same residual history as direct cycles."""
    cases = [
        ("pcg_mg_poisson3d.toml", "solver.preconditioner", ['solver.preconditioner.coarse.type="direct"']),
        ("pcg_mg_poisson3d.toml", "solver.preconditioner", ['solver.preconditioner.coarse.type="smoother"']),
        ("pcg_mg_poisson3d.toml", "solver.preconditioner", ['solver.preconditioner.coarse.type="direct"',
                                                            'solver.preconditioner.smoother.type="chebyshev"']),
        ("pcg_mg_poisson3d.toml", "solver.preconditioner", ['solver.preconditioner.coarse.type="direct"',
                                                            'solver.preconditioner.cycle="W"']),
        ("mg_direct.toml", "solver", []),
        ("mg_direct.toml", "solver", ['solver.cycle="F"']),
    ]
    tmp = tempfile.TemporaryDirectory()
    with open(deck("mg_poisson3d.toml")) as f:
        text = f.read().replace('type = "cg"\ntolerance = 1e-10', 'type = "direct"')
    if 'type = "direct"' not in text:
        fail("mg_poisson3d.toml: could not switch its coarse solve to direct")
    with open(os.path.join(tmp.name, "mg_direct.toml"), "w") as f:
        f.write(text)
    for name, table, extra in cases:
        path = os.path.join(tmp.name, name) if name == "mg_direct.toml" else deck(name)
        hist = {}
        for mode in ("off", "on"):
            p = run([path, "grid.extents=[31,31,31]", "monitor.every=1", f'{table}.replay="{mode}"'] + extra,
                    expect=0)
            hist[mode] = history(p.stdout)
        if len(hist["on"]) < 3 or hist["on"] != hist["off"]:
            fail(f"{name} {extra}: replayed history {hist['on']} differs from {hist['off']}")
        print(f"{name} {' '.join(extra)}: {len(hist['on']) - 1} iterations, identical residual history with replay on/off")


def check_setup():
    bad = [
        (["solver.preconditioner.post_smooth=1"], r"not a valid CG preconditioner: pre_smooth = 2 differs from post_smooth = 1"),
        (["solver.preconditioner.cycle=\"F\""], r"not a valid CG preconditioner: the F-cycle is not a symmetric operator"),
    ]
    for extra, pattern in bad:
        p = run([deck("pcg_mg_poisson3d.toml"), "grid.extents=[15,15,15]"] + extra, expect=1)
        if not re.search(pattern, p.stderr):
            fail(f"{extra}: no /{pattern}/ in:\n{p.stderr}")
        print(f"{extra}: exit 1, {p.stderr.strip().splitlines()[0]}")
    direct = ['solver.preconditioner.coarse.type="direct"']
    bad_direct = [
        (None, ["grid.extents=[31,31,31]", "solver.preconditioner.coarse.max_unknowns=100"],
         r"coarsest level has 343 unknowns, more than max_unknowns = 100"),
        (2, ["grid.extents=[31,31,31]", "decomposition.ranks=[2,1,1]", "solver.preconditioner.levels=2"],
         r"coarse type \"direct\" needs the coarsest level on one rank; it is distributed over 2 ranks"),
    ]
    for np, extra, pattern in bad_direct:
        p = run([deck("pcg_mg_poisson3d.toml")] + direct + extra, np=np, expect=1)
        if not re.search(pattern, p.stderr):
            fail(f"{extra}: no /{pattern}/ in:\n{p.stderr}")
        print(f"direct coarse solve, {extra} on {np or 1} ranks: exit 1, {p.stderr.strip().splitlines()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        dk = os.path.join(tmp, "rbgs.toml")
        with open(deck("pcg_mg_poisson3d.toml")) as f:
            text = f.read().replace('[solver.preconditioner.smoother]\ntype = "jacobi"',
                                    '[solver.preconditioner.smoother]\ntype = "rbgs"\nsymmetric = false')
        with open(dk, "w") as f:
            f.write(text)
        p = run([dk, "grid.extents=[15,15,15]"], expect=1)
        if not re.search(r"rbgs.toml:\d+:\d+: error: .*symmetric = false smooths red-then-black", p.stderr):
            fail(f"rbgs symmetric=false: unexpected message:\n{p.stderr}")
        print("rbgs symmetric = false as CG preconditioner: exit 1, " + p.stderr.strip().splitlines()[0])
    for table, needle in (("solver.preconditioner", "type = \"multigrid\""), ("solver.preconditioner.smoother", "chebyshev"),
                          ("solver.preconditioner.coarse", "max_unknowns"), ("solver.smoother", "rbgs"),
                          ("solver.coarse", "sweeps"), ("solver", "fmg")):
        p = run(["--describe", table], expect=0)
        if needle not in p.stdout:
            fail(f"--describe {table} lacks '{needle}':\n{p.stdout}")
    print("--describe prints solver, solver.preconditioner(.smoother/.coarse), solver.smoother, solver.coarse")
    # Persistent CG: "on" needs unpreconditioned CG (a deck error) and a backend that has it (the Kokkos
    # backend has none: an error naming the backend); "auto" falls back to the same loop as "off".
    p = run([deck("cg_matrix_market.toml"), 'solver.persistent="on"'], expect=1)
    if not re.search(r'solver\.persistent.*persistent = "on" runs unpreconditioned CG only', p.stderr):
        fail(f"persistent on + jacobi: unexpected message:\n{p.stderr}")
    print("persistent = on with a preconditioner: exit 1, " + p.stderr.strip().splitlines()[0])
    p = run([deck("cg_matrix_market.toml"), 'solver.persistent="on"', 'solver.preconditioner.type="none"'], expect=1)
    if "backend 'kokkos' has no persistent CG" not in p.stderr:
        fail(f"persistent on, kokkos backend: unexpected message:\n{p.stderr}")
    print("persistent = on on the kokkos backend: exit 1, " + p.stderr.strip().splitlines()[0])
    expect_auto_history_as_off("persistent", [deck("cg_matrix_market.toml"), 'solver.preconditioner.type="none"'])
    # The same for CG on a grid problem (the matrix-free persistent CG): "on" names the backend and the
    # operator; "auto" gives the history of "off".
    p = run([deck("cg_poisson3d.toml"), 'solver.persistent="on"', "grid.extents=[15,15,15]"], expect=1)
    if "backend 'kokkos' has no persistent CG for this operator (7-point stencil" not in p.stderr:
        fail(f"grid cg persistent on, kokkos backend: unexpected message:\n{p.stderr}")
    print("grid cg persistent = on on the kokkos backend: exit 1, " + p.stderr.strip().splitlines()[0])
    expect_auto_history_as_off("grid cg persistent", [deck("cg_poisson3d.toml"), "grid.extents=[15,15,15]"])
    # Persistent Jacobi and stencil iteration (PERKS sweeps): "on" needs a backend that has them (the Kokkos
    # backend has none: an error naming it) and, for stencil iteration, a halo that is only the boundary fill;
    # "auto" falls back to the same loop as "off"; the cache size is range-checked.
    top = os.path.join(A.source, "inputs")
    p = run([os.path.join(top, "poisson2d.toml"), 'solver.persistent="on"'], expect=1)
    if "backend 'kokkos' has no persistent Jacobi" not in p.stderr:
        fail(f"jacobi persistent on, kokkos backend: unexpected message:\n{p.stderr}")
    print("jacobi persistent = on on the kokkos backend: exit 1, " + p.stderr.strip().splitlines()[0])
    hist = {}
    for mode in ("auto", "off"):
        p = run([os.path.join(top, "poisson2d.toml"), f'solver.persistent="{mode}"', "grid.extents=[24,16]",
                 "monitor.every=1", "solver.stop.check_every=3"], expect=0)
        hist[mode] = history(p.stdout)
    if len(hist["auto"]) < 3 or hist["auto"] != hist["off"]:
        fail(f"jacobi persistent auto vs off on the kokkos backend: {hist['auto'][:5]} vs {hist['off'][:5]}")
    print(f"jacobi persistent = auto on the kokkos backend: {len(hist['auto'])} checks, the same history as off")
    p = run([os.path.join(top, "heat3d.toml"), 'solver.persistent="on"', "grid.extents=[12,12,12]"], expect=1)
    if "backend 'kokkos' has no persistent sweeps" not in p.stderr:
        fail(f"stencil_iteration persistent on, kokkos backend: unexpected message:\n{p.stderr}")
    print("stencil_iteration persistent = on on the kokkos backend: exit 1, " + p.stderr.strip().splitlines()[0])
    p = run([os.path.join(top, "stencil_benchmark.toml"), 'solver.persistent="on"', "grid.extents=[12,12,12]"], expect=1)
    if "periodic axis" not in p.stderr:
        fail(f"stencil_iteration persistent on, periodic: unexpected message:\n{p.stderr}")
    print("stencil_iteration persistent = on with periodic axes: exit 1, " + p.stderr.strip().splitlines()[0])
    p = run([os.path.join(top, "poisson2d.toml"), "solver.persistent_cache_kib=-2"], expect=1)
    if not re.search(r"persistent_cache_kib", p.stderr):
        fail(f"persistent_cache_kib = -2: unexpected message:\n{p.stderr}")
    print("persistent_cache_kib = -2: exit 1, " + p.stderr.strip().splitlines()[0])
    # CG on an indefinite matrix stops with a breakdown (exit 2).
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "indefinite.mtx")
        write_mtx(path, 3, [(0, 0, 1.0), (1, 1, -2.0), (2, 2, 1.0), (1, 0, 0.5), (0, 1, 0.5)])
        dk = os.path.join(tmp, "indef.toml")
        with open(dk, "w") as f:
            f.write(MM_DECK.format(file=path, pc="none"))
        p = run([dk], expect=2)
        if "DIVERGED_BREAKDOWN" not in p.stdout:
            fail("no breakdown reported:\n" + p.stdout)
        print("CG on an indefinite matrix: DIVERGED_BREAKDOWN, exit 2")


def final_and_true_residual(out):
    """The final line of a CG run without its time, and the line with the true relative residual of x."""
    m = re.search(r"^cg (.*); \S+ s$", out, re.M)
    t = re.search(r"^true relative residual .*$", out, re.M)
    if not (m and t):
        fail("no final line or true residual in:\n" + out[-3000:])
    return m.group(1), t.group(0)


def check_early_stop():
    """Preconditioned CG checks its residual before the cycle where the next check may stop the solve: the stop then
    skips the last cycle and direction update. The printed history, the final line (reason, iterations, residual),
    the true relative residual of x (7 digits) and the exit code equal those of PERKSOLVE_CG_EARLY_STOP=0, and the
    preconditioner runs once less; for the double and the float cycle, a stop by max_iterations, a check every 3
    iterations, and 2 ranks."""
    pc = "solver.preconditioner"
    small = ["grid.extents=[31,31,31]"]
    cases = [
        ([f'{pc}.coarse.type="direct"'], None, 0),
        ([f'{pc}.precision="float"', f'{pc}.smoother.type="chebyshev"'], None, 0),
        (["solver.stop.max_iterations=4"], None, 2),
        (["solver.stop.check_every=3"], None, 0),
        ([f'{pc}.precision="float"'], 2, 0),
    ]
    def final(out):
        calls = re.search(r"^\s+preconditioner\s+(\d+)\s", out, re.M)
        if not calls:
            fail("no preconditioner timer in:\n" + out[-3000:])
        return final_and_true_residual(out) + (int(calls.group(1)),)
    for extra, np, code in cases:
        args = [deck("pcg_mg_poisson3d.toml"), "monitor.every=1"] + small + extra
        out = {}
        for mode, env in (("early", {}), ("after", {"PERKSOLVE_CG_EARLY_STOP": "0"})):
            p = run(args, np=np, expect=code, env=env)
            out[mode] = (history(p.stdout),) + final(p.stdout)
        (h1, f1, t1, c1), (h0, f0, t0, c0) = out["early"], out["after"]
        if len(h1) < 3 or h1 != h0 or f1 != f0 or t1 != t0:
            fail(f"{extra} np={np}: early check {h1} / {f1} / {t1} differs from {h0} / {f0} / {t0}")
        if c1 != c0 - 1:
            fail(f"{extra} np={np}: the preconditioner ran {c1} times with the early check, {c0} without (expected one less)")
        print(f"{' '.join(extra)} np={np}: {f1}; identical, preconditioner {c1} instead of {c0} calls")


def check_zero_start():
    """With x0 = 0 and zero boundary values, preconditioned CG takes r = b in the pass that rounds it and sums r.r (no
    residual pass): the printed history, final line and true residual equal those of PERKSOLVE_CG_ZERO_START=0, for
    the double and the float cycle and on 2 ranks. (No deck has the other branch today: every grid problem that CG
    preconditions with multigrid has homogeneous Dirichlet faces and x0 = 0.)"""
    pc = "solver.preconditioner"
    line = "so r = b: no residual pass"
    small = ["grid.extents=[31,31,31]", "monitor.every=1"]
    for extra, np in (([f'{pc}.coarse.type="direct"'], None), ([f'{pc}.precision="float"'], None),
                      ([f'{pc}.precision="float"'], 2)):
        args = [deck("pcg_mg_poisson3d.toml")] + small + extra
        out = {}
        for mode, env in (("zero", {}), ("residual", {"PERKSOLVE_CG_ZERO_START": "0"})):
            p = run(args, np=np, expect=0, env=env)
            if (line in p.stdout) != (mode == "zero"):
                fail(f"{extra} np={np} ({mode}): '{line}' {'missing' if mode == 'zero' else 'unexpected'}:\n{p.stdout[:2000]}")
            out[mode] = (history(p.stdout),) + final_and_true_residual(p.stdout)
        if len(out["zero"][0]) < 3 or out["zero"] != out["residual"]:
            fail(f"{extra} np={np}: r = b start {out['zero']} differs from the residual pass {out['residual']}")
        print(f"{' '.join(extra)} np={np}: {out['zero'][1]}; identical to the residual pass")


def check_ghost_reuse():
    """Multigrid skips the ghost refreshes of its own work fields whose ghosts already hold zeros (vertex-centred
    Dirichlet, one rank): the residual history is identical, to the printed digits, to a run that refreshes every
    time (PERKSOLVE_MG_REFRESH_ALL_GHOSTS=1), for every smoother, coarse solve, cycle and FMG; CG skips the refresh of
    its search direction p after the first application the same way (PERKSOLVE_CG_REFRESH_P=1: every time), plain and
    preconditioned; and a cell-centred problem (mirrored ghosts) keeps refreshing."""
    pc = "solver.preconditioner"
    cases = [
        ("pcg_mg_poisson3d.toml", [f'{pc}.coarse.type="direct"']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.coarse.type="smoother"', f'{pc}.smoother.type="chebyshev"']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.smoother.type="rbgs"', f'{pc}.cycle="W"']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.smoother.type="chebyshev"', f'{pc}.pre_smooth=6', f'{pc}.post_smooth=6']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.precision="float"', f'{pc}.replay="off"']),
        ("mg_poisson3d.toml", ['solver.cycle="F"']),
        ("fmg_poisson2d.toml", ["grid.extents=[63,63]"]),
    ]
    for name, extra in cases:
        args = [deck(name), "monitor.every=1"] + (["grid.extents=[31,31,31]"] if "3d" in name else []) + extra
        hist = {}
        for mode, env in (("skip", {}), ("all", {"PERKSOLVE_MG_REFRESH_ALL_GHOSTS": "1"})):
            p = run(args, expect=0, env=env)
            kept = "zero ghosts kept" in p.stdout
            if kept != (mode == "skip"):
                fail(f"{name} {extra} ({mode}): 'zero ghosts kept' {'missing' if not kept else 'unexpected'}:\n{p.stdout[:2000]}")
            hist[mode] = history(p.stdout)
        if len(hist["skip"]) < 3 or hist["skip"] != hist["all"]:
            fail(f"{name} {extra}: history with skipped refreshes {hist['skip']} differs from {hist['all']}")
        print(f"{name} {' '.join(extra)}: {len(hist['skip']) - 1} iterations, identical residual history")
    # CG's search direction p: after its first application its ghosts stay +0 and later applications skip the
    # refresh (PERKSOLVE_CG_REFRESH_P=1 refreshes every time).
    p_line = "p's ghosts stay +0"
    for name, extra in (("cg_poisson3d.toml", []), ("pcg_mg_poisson3d.toml", [f'{pc}.precision="float"'])):
        args = [deck(name), "monitor.every=1", "grid.extents=[31,31,31]"] + extra
        hist = {}
        for mode, env in (("skip", {}), ("all", {"PERKSOLVE_CG_REFRESH_P": "1"})):
            p = run(args, expect=0, env=env)
            if (p_line in p.stdout) != (mode == "skip"):
                fail(f"{name} {extra} ({mode}): '{p_line}' {'missing' if mode == 'skip' else 'unexpected'}:\n"
                     f"{p.stdout[:2000]}")
            hist[mode] = history(p.stdout)
        if len(hist["skip"]) < 3 or hist["skip"] != hist["all"]:
            fail(f"{name} {extra}: CG history with p's refresh skipped {hist['skip']} differs from {hist['all']}")
        print(f"{name} {' '.join(extra)}: CG p refresh skipped, {len(hist['skip']) - 1} iterations, identical history")
    p = run([deck("pcg_mg_diffusion3d.toml"), "grid.extents=[16,16,16]", "solver.stop.max_iterations=2"])
    if "zero ghosts kept" in p.stdout:
        fail(f"cell-centred pcg_mg_diffusion3d.toml claims zero ghosts:\n{p.stdout[:2000]}")
    print("pcg_mg_diffusion3d.toml (cell-centred): every refresh kept")


def check_sweep_pairs():
    """Multigrid runs its constant-stencil Jacobi sweeps two per pass (Backend::jacobi_update_pair) where the ghosts of
    the intermediate iterate are +0, and keeps the iterate in w between the pre- and the post-smoothing when that
    saves a copy: the residual history is identical, to the printed digits, to a run with the sweeps one by one
    (PERKSOLVE_MG_SWEEP_PAIRS=0), for even and odd sweep counts, V/W/F cycles, FMG and a float cycle; the level lines
    say where pairs run."""
    pc = "solver.preconditioner"
    cases = [
        ("pcg_mg_poisson3d.toml", [f'{pc}.coarse.type="direct"']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.smoother.type="chebyshev"', f'{pc}.coarse.type="direct"']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.smoother.type="chebyshev"', f'{pc}.pre_smooth=3', f'{pc}.post_smooth=3',
                                   f'{pc}.coarse.type="smoother"']),
        ("mg_poisson3d.toml", ['solver.pre_smooth=2', 'solver.post_smooth=1', 'solver.cycle="W"']),
        ("mg_poisson3d.toml", ['solver.pre_smooth=1', 'solver.post_smooth=0']),
        ("mg_poisson3d.toml", ['solver.smoother.type="chebyshev"', 'solver.pre_smooth=2', 'solver.post_smooth=6']),
        ("pcg_mg_poisson3d.toml", [f'{pc}.precision="float"', f'{pc}.smoother.type="chebyshev"', f'{pc}.replay="off"']),
        ("mg_poisson3d.toml", ['solver.cycle="F"']),
        ("fmg_poisson2d.toml", ["grid.extents=[63,63]", 'solver.smoother.type="jacobi"']),
    ]
    for name, extra in cases:
        args = [deck(name), "monitor.every=1"] + (["grid.extents=[31,31,31]"] if "3d" in name else []) + extra
        hist = {}
        for mode, env in (("pairs", {}), ("single", {"PERKSOLVE_MG_SWEEP_PAIRS": "0"})):
            p = run(args, expect=0, env=env)
            said = "sweeps in pairs" in p.stdout
            expected = mode == "pairs" and "pre_smooth=1" not in " ".join(extra)
            if said != expected:
                fail(f"{name} {extra} ({mode}): 'sweeps in pairs' {'missing' if not said else 'unexpected'}:\n{p.stdout[:2000]}")
            hist[mode] = history(p.stdout)
        if len(hist["pairs"]) < 3 or hist["pairs"] != hist["single"]:
            fail(f"{name} {extra}: history with sweep pairs {hist['pairs']} differs from {hist['single']}")
        print(f"{name} {' '.join(extra)}: {len(hist['pairs']) - 1} iterations, identical residual history")


def check_float_handover():
    """With the multigrid cycle in float, CG hands r to the cycle rounded inside its r update and uses z in float
    (axpby_mixed, cg_advance_mixed). With its dot products from the r update and the cycle's last pass
    (PERKSOLVE_PCG_DOTS_IN_PASSES=0 turns that off: dot2_mixed) the residual history is identical, to the printed
    digits, to a run with the conversion passes (PERKSOLVE_PCG_CONVERT_PASSES=1), on one rank and on four. With them
    (the default) r.z is that of the rounded r: the same iteration count and every residual within 1e-5 relative (a few
    units of the printed seventh digit; a wrong or stale sum moves them by far more). A double cycle says nothing
    about the hand-over, and its dot products in passes are dot2's up to the order of the sums (within 1e-9)."""
    pc = "solver.preconditioner"
    cases = [
        ([f'{pc}.coarse.type="direct"'], None),
        ([f'{pc}.smoother.type="chebyshev"', f'{pc}.coarse.type="direct"'], None),
        ([f'{pc}.smoother.type="chebyshev"', f'{pc}.replay="off"'], 4),
    ]
    line = "inside CG's own passes"
    dots_line = "r.z from the cycle's last pass"
    modes = (("in-passes", {}), ("dot2", {"PERKSOLVE_PCG_DOTS_IN_PASSES": "0"}),
             ("passes", {"PERKSOLVE_PCG_CONVERT_PASSES": "1"}))
    for extra, ranks in cases:
        args = [deck("pcg_mg_poisson3d.toml"), "monitor.every=1", "grid.extents=[31,31,31]",
                f'{pc}.precision="float"'] + extra
        hist = {}
        for mode, env in modes:
            p = run(args, np=ranks, expect=0, env=env)
            if (line in p.stdout) != (mode != "passes"):
                fail(f"{extra} ({mode}): hand-over line {'missing' if mode != 'passes' else 'unexpected'}:\n{p.stdout[:2000]}")
            if (dots_line in p.stdout) != (mode == "in-passes"):
                fail(f"{extra} ({mode}): dot-products line {'missing' if mode == 'in-passes' else 'unexpected'}:\n"
                     f"{p.stdout[:2000]}")
            hist[mode] = history(p.stdout)
        if len(hist["dot2"]) < 3 or hist["dot2"] != hist["passes"]:
            fail(f"{extra}: history {hist['dot2']} differs from the conversion passes' {hist['passes']}")
        a, b = hist["in-passes"], hist["passes"]
        if len(a) != len(b) or any(abs(u - v) > 1e-5 * abs(v) for u, v in zip(a, b)):
            fail(f"{extra}: history with the dot products in passes {a} is not within 1e-5 of {b}")
        dev = max(abs(u - v) / abs(v) for u, v in zip(a, b))
        print(f"float cycle {' '.join(extra)} on {ranks or 1} rank(s): {len(b) - 1} iterations, identical history "
              f"(dot2); dot products in passes within {dev:.1e}")
    # A double cycle: no hand-over; its dot products in passes give the values of dot2 up to the order of the sums.
    args = [deck("pcg_mg_poisson3d.toml"), "monitor.every=1", "grid.extents=[31,31,31]"]
    hist = {}
    for mode, env in modes[:2]:
        p = run(args, expect=0, env=env)
        if line in p.stdout:
            fail("a double cycle claims the float hand-over:\n" + p.stdout[:2000])
        if (dots_line in p.stdout) != (mode == "in-passes"):
            fail(f"double cycle ({mode}): dot-products line {'missing' if mode == 'in-passes' else 'unexpected'}:\n"
                 f"{p.stdout[:2000]}")
        hist[mode] = history(p.stdout)
    a, b = hist["in-passes"], hist["dot2"]
    if len(b) < 3 or len(a) != len(b) or any(abs(u - v) > 1e-9 * abs(v) for u, v in zip(a, b)):
        fail(f"double cycle: history with the dot products in passes {a} is not within 1e-9 of dot2's {b}")
    print(f"double cycle: no hand-over; dot products in passes within "
          f"{max(abs(u - v) / abs(v) for u, v in zip(a, b)):.1e} of dot2's ({len(b) - 1} iterations)")


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--perksolve", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("check")
    A = ap.parse_args()
    checks = {
        "mg-factor": lambda: check_mg_factor([31, 63]),
        "mg-factor-large": lambda: check_mg_factor([127]),
        "fmg": check_fmg,
        "pcg": lambda: check_pcg([31, 63]),
        "pcg-large": lambda: check_pcg([127]),
        "matrix-market": lambda: check_matrix_market(None),
        "matrix-market-mpi": lambda: check_matrix_market(4),
        "malformed-mtx": check_malformed_mtx,
        "rank-counts": check_rank_counts,
        "setup": check_setup,
        "replay": check_replay,
        "ghost-reuse": check_ghost_reuse,
        "early-stop": check_early_stop,
        "zero-start": check_zero_start,
        "float-handover": check_float_handover,
        "sweep-pairs": check_sweep_pairs,
    }
    if A.check not in checks:
        fail(f"unknown check {A.check}; one of {sorted(checks)}")
    checks[A.check]()
    print("PASS")


if __name__ == "__main__":
    main()
