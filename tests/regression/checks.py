#!/usr/bin/env python3
"""Regression checks that run the perksolve executable and inspect its output and exit code.

Usage: checks.py --perksolve EXE --mpiexec MPIEXEC --source SRC CHECK
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

ARGS = None


def run(extra, np=None, expect=None, env=None):
    cmd = [ARGS.perksolve] + extra
    if np is not None:
        cmd = [ARGS.mpiexec, "-n", str(np), "--oversubscribe"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                       env=None if env is None else {**os.environ, **env})
    if expect is not None and p.returncode != expect:
        fail(f"{' '.join(cmd)}\nexit code {p.returncode}, expected {expect}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def deck(name):
    return os.path.join(ARGS.source, "inputs", name)


def grab(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        fail(f"no {what} in output:\n{text}")
    return m


def check_default_deck():
    p = run([deck("poisson3d.toml")], expect=0)
    grab(r"converged due to CONVERGED_RTOL iterations (\d+)", p.stdout, "converged line")
    err = float(grab(r"error vs exact solution: max (\S+)", p.stdout, "error line").group(1))
    if not err < 2e-3:
        fail(f"max error {err} too large")
    grab(r"jacobi_sweep\s+\d+", p.stdout, "timer table")
    print(p.stdout)


def check_order():
    errors, hs = [], []
    for n in (8, 16, 32):
        p = run([deck("poisson3d.toml"), f"grid.extents=[{n},{n},{n}]", "solver.stop.rtol=1e-11",
                 "solver.stop.max_iterations=100000", "monitor.every=0"], expect=0)
        errors.append(float(grab(r"error vs exact solution: max (\S+)", p.stdout, "error").group(1)))
        hs.append(1.0 / (n + 1))
    orders = [math.log(errors[i] / errors[i + 1]) / math.log(hs[i] / hs[i + 1]) for i in range(2)]
    ratios = [errors[i] / errors[i + 1] for i in range(2)]
    print(f"errors {errors}\nerror ratios {ratios}\nobserved orders {orders}")
    for o in orders:
        if not 1.9 <= o <= 2.1:
            fail(f"observed order {o} is not second order")


def check_malformed_decks():
    bad = os.path.join(ARGS.source, "tests", "decks", "bad")
    expected = {}
    with open(os.path.join(bad, "EXPECTED.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, regex = line.split("\t", 1)
            expected[name] = regex
    decks = sorted(x for x in os.listdir(bad) if x.endswith(".toml"))
    missing = [d for d in decks if d not in expected]
    if missing:
        fail(f"decks without an expectation: {missing}")
    if len(decks) < 20:
        fail(f"only {len(decks)} malformed decks")
    for name in decks:
        p = run([os.path.join(bad, name)], expect=1)
        if not re.search(expected[name], p.stderr):
            fail(f"{name}: stderr does not match /{expected[name]}/:\n{p.stderr}")
        if "Traceback" in p.stderr or "terminate called" in p.stderr or "Segmentation" in p.stderr:
            fail(f"{name}: crashed:\n{p.stderr}")
        print(f"ok {name}: {p.stderr.strip().splitlines()[0]}")
    # A missing deck file.
    p = run([os.path.join(bad, "no_such_deck.toml")], expect=1)
    if not re.search(r"cannot open deck file .*no_such_deck\.toml", p.stderr):
        fail(f"missing deck: {p.stderr}")
    print(f"ok missing file: {p.stderr.strip()}")
    print(f"{len(decks) + 1} malformed inputs rejected with exit code 1")


def check_command_line():
    p = run([deck("poisson3d.toml"), "--dry-run", "grid.extents=[8,8,8]"], expect=0)
    for needle in ("[grid]", "extents = [8, 8, 8]", "[solver.stop]", "max_iterations", "[monitor]", "omega"):
        if needle not in p.stdout:
            fail(f"--dry-run output lacks {needle!r}:\n{p.stdout}")
    p = run(["--describe", "solver"], expect=0)
    for needle in ("jacobi", "omega", "stencil_iteration"):
        if needle not in p.stdout:
            fail(f"--describe solver lacks {needle!r}:\n{p.stdout}")
    p = run(["--list", "problems"], expect=0)
    for needle in ("poisson_sine", "heat_gaussian", "stencil_benchmark"):
        if needle not in p.stdout:
            fail(f"--list problems lacks {needle}")
    p = run(["--list", "solvers"], expect=0)
    if "jacobi" not in p.stdout:
        fail("--list solvers lacks jacobi")
    # Overrides are typed through the schema.
    p = run([deck("poisson3d.toml"), "grid.extents=[8,8,x]"], expect=1)
    p = run([deck("poisson3d.toml"), "solver.omga=0.5"], expect=1)
    if "did you mean 'solver.omega'" not in p.stderr:
        fail(f"override typo not diagnosed:\n{p.stderr}")
    p = run([deck("poisson3d.toml"), "solver.stop.max_iterations=1.5"], expect=1)
    p = run([deck("poisson3d.toml"), "--no-such-option"], expect=1)
    p = run([deck("poisson3d.toml"), "backend.type=\"cuda\"", "grid.extents=[8,8,8]"])
    if p.returncode not in (0, 1):
        fail(f"cuda backend selection: exit {p.returncode}")
    if p.returncode == 1 and "cuda" not in p.stderr:
        fail(f"cuda backend unavailability not explained:\n{p.stderr}")
    print("command line ok")


def check_env_switches():
    # A runtime switch with a value it does not accept is an error naming the variable, the value and what was
    # expected (exit 1), never a silent default; the accepted values run.
    small = ["grid.extents=[15,15,15]"]
    for name, value, solver_deck in (("PERKSOLVE_CG_EARLY_STOP", "off", "pcg_mg_poisson3d.toml"),
                                     ("PERKSOLVE_MG_SWEEP_PAIRS", "2", "mg_poisson3d.toml")):
        p = run([deck(os.path.join("solvers", solver_deck))] + small, expect=1, env={name: value})
        if f"{name}='{value}': expected '0' or '1'" not in p.stderr:
            fail(f"{name}={value} not diagnosed:\n{p.stderr}")
        run([deck(os.path.join("solvers", solver_deck))] + small, expect=0, env={name: "0"})
    # The restart tests' fault-injection hooks (framework/io/run_output.cpp) take an iteration number, nothing else.
    for name, value in (("PERKSOLVE_TEST_KILL_AT", "ten"), ("PERKSOLVE_TEST_SIGNAL_AT", "3:HUP")):
        p = run([deck("poisson3d.toml")] + small, expect=1, env={name: value})
        if f"{name}='{value}': expected" not in p.stderr:
            fail(f"{name}={value} not diagnosed:\n{p.stderr}")
    print("environment switches ok")


def check_not_converged():
    p = run([deck("poisson3d.toml"), "solver.stop.max_iterations=10"], expect=2)
    grab(r"did not converge due to DIVERGED_ITS", p.stdout, "not-converged reason")
    p = run([deck("poisson3d.toml"), "solver.stop.walltime_s=1e-9"], expect=2)
    grab(r"DIVERGED_WALLTIME", p.stdout, "wall-time reason")
    print("exit code 2 on non-convergence ok")


def check_heat():
    p = run([deck("heat3d.toml")], expect=0)
    grab(r"COMPLETED_STEPS", p.stdout, "completion")
    rel = float(grab(r"relative max (\S+)\)", p.stdout, "error").group(1))
    print(p.stdout)
    if not rel < 2e-2:
        fail(f"heat equation relative error {rel} too large")


def check_stencil_shapes():
    for shape in ("2d5pt", "2ds9pt", "2d13pt", "2d17pt", "2d21pt", "2ds25pt", "2d9pt", "2d25pt"):
        run([deck("stencil_benchmark.toml"), f'problem.shape="{shape}"', "grid.dimension=2",
             "grid.extents=[64,64]", "solver.steps=5"], expect=0)
    for shape in ("3d7pt", "3d13pt", "3d17pt", "3d27pt", "poisson"):
        run([deck("stencil_benchmark.toml"), f'problem.shape="{shape}"', "grid.extents=[24,24,24]",
             "solver.steps=5"], expect=0)
    p = run([deck("stencil_benchmark.toml"), 'problem.shape="2d5pt"'], expect=1)
    if "problem.shape" not in p.stderr:
        fail(f"dimension mismatch not reported at problem.shape:\n{p.stderr}")
    print("all 13 shapes run")


def check_rank_counts():
    counts = {}
    for np in (1, 2, 3, 4):
        p = run([deck("poisson3d.toml"), "grid.extents=[20,17,13]", "monitor.every=0"], np=np, expect=0)
        counts[np] = int(grab(r"CONVERGED_RTOL iterations (\d+)", p.stdout, "iterations").group(1))
        err = grab(r"error vs exact solution: max (\S+)", p.stdout, "error").group(1)
        print(f"np {np}: {counts[np]} iterations, max error {err}")
    if len(set(counts.values())) != 1:
        fail(f"iteration counts differ between rank counts: {counts}")
    p = run([deck("poisson3d.toml"), "decomposition.ranks=[3,1,1]"], np=2, expect=1)
    if "decomposition.ranks" not in p.stderr:
        fail(f"rank grid mismatch not reported:\n{p.stderr}")


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--perksolve", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("check")
    ARGS = ap.parse_args()
    checks = {
        "default-deck": check_default_deck,
        "order": check_order,
        "malformed-decks": check_malformed_decks,
        "command-line": check_command_line,
        "not-converged": check_not_converged,
        "env-switches": check_env_switches,
        "heat": check_heat,
        "stencil-shapes": check_stencil_shapes,
        "rank-counts": check_rank_counts,
    }
    checks[ARGS.check]()
    print("PASS")


if __name__ == "__main__":
    main()
