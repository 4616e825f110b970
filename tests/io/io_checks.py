#!/usr/bin/env python3
"""End-to-end checks of the output layer with the perksolve executable: HDF5 + XDMF files, ParaView,
plots, checkpoint/restart (bit for bit after SIGKILL and SIGTERM, other rank counts, corrupted files,
refused deck changes, wall-time limit, external signals).

Usage: io_checks.py --perksolve EXE --mpiexec MPIEXEC --source SRC [--pvbatch P] CHECK [--solver NAME]
Exit code 77 = skipped (ctest SKIP_RETURN_CODE).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import h5py
import numpy as np

ARGS = None
WORK = None
SKIP = 77

# Recipes of the restart tests: deck + overrides. A solver not listed here gets a generic 3D
# diffusion deck with `[solver] type = NAME` (GENERIC_DECK), so adding a solver to the restart tests is one
# word in tests/io/CMakeLists.txt (PERKSOLVE_RESTART_SOLVERS).
RECIPES = {
    "jacobi": ["poisson3d.toml", "grid.extents=[16,14,12]"],
    "stencil_iteration": ["heat3d.toml", "grid.extents=[20,18,16]", "solver.steps=240"],
    "multigrid": ["generic", "grid.extents=[31,31,31]"],  # enough levels for several V-cycles
}


GENERIC_DECK = """# written by io_checks.py: variable-coefficient diffusion (no eigenvector right-hand side, so
# Krylov and multigrid solvers take several iterations) for a solver given by name
[grid]
dimension = 3
extents = [16, 14, 12]
[problem]
type = "diffusion"
[solver]
type = "{solver}"
[solver.stop]
max_iterations = 20000
rtol = 1e-10
"""


def default_recipe(solver):
    path = os.path.join(WORK, f"generic_{solver}.toml")
    with open(path, "w") as f:
        f.write(GENERIC_DECK.format(solver=solver))
    return [path]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def deck(name):
    return os.path.join(ARGS.source, "inputs", name)


def cmd_for(args, np_):
    cmd = [ARGS.perksolve] + args
    if np_ is not None:
        cmd = [ARGS.mpiexec, "-n", str(np_), "--oversubscribe"] + cmd
    return cmd


def run(args, np_=2, expect=None, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    cmd = cmd_for(args, np_)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=e, cwd=cwd or WORK)
    if expect is not None and p.returncode not in (expect if isinstance(expect, tuple) else (expect,)):
        fail(f"{' '.join(cmd)}\nexit code {p.returncode}, expected {expect}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def quiet():
    return ["monitor.every=0", "monitor.progress_s=0"]


def out_args(d, history=True):
    return ["output.at_end=true", f'output.directory="{d}"', f"output.history={'true' if history else 'false'}"]


def summary(d):
    with open(os.path.join(WORK, d, "perksolve_summary.json")) as f:
        return json.load(f)


def final_solution(d, iterations):
    with h5py.File(os.path.join(WORK, d, f"perksolve_{iterations:06d}.h5"), "r") as f:
        return f["fields/solution"][...]


def same_bits(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def checkpoints(d):
    path = os.path.join(WORK, d)
    if not os.path.isdir(path):
        return []
    out = []
    for n in os.listdir(path):
        m = re.match(r"^checkpoint_(\d+)\.h5$", n)
        if m:
            out.append((int(m.group(1)), os.path.join(path, n)))
    return sorted(out)


def expect_same(ref_dir, new_dir, what):
    a, b = summary(ref_dir), summary(new_dir)
    if a["iterations"] != b["iterations"] or a["reason"] != b["reason"]:
        fail(f"{what}: iterations/reason {b['iterations']} {b['reason']} differ from the uninterrupted run's "
             f"{a['iterations']} {a['reason']}")
    x, y = final_solution(ref_dir, a["iterations"]), final_solution(new_dir, b["iterations"])
    if not same_bits(x, y):
        fail(f"{what}: final solution differs from the uninterrupted run (max |diff| {np.abs(x - y).max():.3e})")
    print(f"ok {what}: {b['iterations']} iterations ({b['reason']}), solution identical bit for bit")


# ---- field output ---------------------------------------------------------------------------------

def check_global_array():
    """4 ranks, 3D: h5dump and h5py read one global array; XDMF, attributes, timer table."""
    d = "g"
    p = run([deck("poisson3d.toml"), "grid.extents=[20,17,13]", "grid.box_lo=[0.0,-1.0,0.5]",
             "grid.box_hi=[2.0,1.0,1.5]", 'output.fields=["solution","rhs","residual","error"]',
             "output.every=400", "checkpoint.every=500"] + out_args(d) + quiet(), np_=4, expect=0)
    s = summary(d)
    n = s["iterations"]
    h5 = os.path.join(WORK, d, f"perksolve_{n:06d}.h5")
    hd = subprocess.run(["h5dump", "-H", "-d", "/fields/solution", h5], capture_output=True, text=True)
    if hd.returncode != 0 or "( 13, 17, 20 )" not in hd.stdout:
        fail(f"h5dump does not show the global 13 x 17 x 20 dataset:\n{hd.stdout}{hd.stderr}")
    print("ok h5dump: /fields/solution is DATASPACE SIMPLE { ( 13, 17, 20 ) }")
    with h5py.File(h5, "r") as f:
        u = f["fields/solution"][...]
        err = f["fields/error"][...]
        x, y, z = f["grid/x"][...], f["grid/y"][...], f["grid/z"][...]
        attrs = {k: f.attrs[k] for k in f.attrs}
    for k in ("deck", "git_revision", "build", "iteration"):
        if k not in attrs:
            fail(f"attribute {k} missing: {list(attrs)}")
    if int(attrs["iteration"]) != n or "[grid]" not in attrs["deck"].decode():
        fail("iteration / deck attributes wrong")
    if u.shape != (13, 17, 20):
        fail(f"h5py shape {u.shape}")
    with h5py.File(h5, "r") as f:
        chunks = f["fields/solution"].chunks
    if chunks != (13, 9, 10):  # 2 x 2 x 1 ranks: one chunk per rank block, one contiguous extent each
        fail(f"expected one chunk per rank block (13, 9, 10), got {chunks}")
    if not (abs(x[0] - 2.0 / 21) < 1e-15 and abs(y[0] - (-1.0 + 2.0 / 18)) < 1e-15 and abs(z[-1] - (1.5 - 1.0 / 14)) < 1e-15):
        fail(f"coordinates wrong: x0 {x[0]} y0 {y[0]} z-1 {z[-1]}")
    # The physical solution sin(pi x')... peaks in the middle: the global array is assembled correctly
    # when the error field is small everywhere (a misplaced block would show O(1) errors).
    reported = float(re.search(r"error vs exact solution: max (\S+)", p.stdout).group(1))
    if abs(np.abs(err).max() - reported) > 1e-6 * reported:
        fail(f"max |error| in the file {np.abs(err).max()} != reported {reported}")
    print(f"ok h5py: global (13, 17, 20) array, max |error field| = reported {reported:.6e}")
    for line in ("output", "checkpoint"):
        if not re.search(rf"^\s+{line}\s+\d+\s+\S+\s+\S+\s+-\s+-\s+[0-9.]+$", p.stdout, re.M):
            fail(f"no '{line}' row with GB/s in the timer table:\n{p.stdout}")
    print("ok timer table has output and checkpoint rows with GB/s")
    for xmf in (f"perksolve_{n:06d}.xmf", "perksolve.xmf"):
        root = ET.parse(os.path.join(WORK, d, xmf)).getroot()
        items = [e.text for e in root.iter("DataItem")]
        if not any(t.endswith(":/fields/solution") for t in items):
            fail(f"{xmf} does not reference /fields/solution")
    series = ET.parse(os.path.join(WORK, d, "perksolve.xmf")).getroot()
    steps = [g for g in series.iter("Grid") if g.get("GridType") == "Uniform"]
    if len(steps) != n // 400 + 2:
        fail(f"time series has {len(steps)} steps, expected {n // 400 + 2}")
    print(f"ok XDMF sidecars; time series of {len(steps)} steps")


def check_pvbatch():
    pv = ARGS.pvbatch or shutil.which("pvbatch")
    if not pv:
        print("SKIPPED: pvbatch not found (install the Debian packages paraview python3-paraview xvfb)")
        sys.exit(SKIP)
    d = "pv"
    run([deck("heat3d.toml"), "grid.extents=[24,20,16]", "solver.steps=60", "output.every=20"] + out_args(d, False)
        + quiet(), np_=4, expect=0)
    png = os.path.join(WORK, "slice_pv.png")
    cmd = [pv, os.path.join(ARGS.source, "tests", "io", "render_slice.py"), os.path.join(WORK, d, "perksolve.xmf"), png]
    xvfb = shutil.which("xvfb-run")
    if xvfb and not os.environ.get("DISPLAY"):
        cmd = [xvfb, "-a"] + cmd
    # xvfb-run's server can fail to come up on a loaded machine ("bad X server connection", once in ~60 CI runs): that
    # run is repeated once; every other failure counts.
    for attempt in range(2):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode == 0 or "bad X server connection" not in p.stderr or attempt == 1:
            break
        print("pvbatch: the X server of xvfb-run was not usable; running it once more")
    print(p.stdout)
    if p.returncode != 0 or not os.path.exists(png):
        fail(f"pvbatch failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    with h5py.File(os.path.join(WORK, d, "perksolve_000060.h5"), "r") as f:
        u = f["fields/solution"][...]
        x, y, z = f["grid/x"][...], f["grid/y"][...], f["grid/z"][...]
    m = re.search(r"range solution (\S+) (\S+)", p.stdout)
    b = [float(v) for v in re.search(r"bounds (.*)", p.stdout).group(1).split()]
    if not m or abs(float(m.group(2)) - u.max()) > 1e-9 * abs(u.max()) or abs(float(m.group(1)) - u.min()) > 1e-9:
        fail(f"ParaView's range of the last step differs from the file's [{u.min()}, {u.max()}]")
    want = [x[0], x[-1], y[0], y[-1], z[0], z[-1]]
    if max(abs(p_ - q) for p_, q in zip(b, want)) > 1e-9:
        fail(f"ParaView bounds {b} differ from the grid coordinates {want}")
    if re.search(r"timesteps (\d+)", p.stdout).group(1) != "4":
        fail("ParaView did not see 4 time steps")
    check_png(png)
    print("ok pvbatch opened the XDMF time series (4 steps, physical bounds, data range) and rendered a slice")


def check_png(path):
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail(f"{path} is not a PNG")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg

    img = mpimg.imread(path)
    if img.shape[0] < 100 or img.shape[1] < 100 or float(np.std(img[..., :3])) < 0.01:
        fail(f"{path}: image {img.shape} looks empty")
    print(f"ok {os.path.basename(path)}: {img.shape[1]} x {img.shape[0]} PNG with content")


def check_plots():
    d = "pl"
    run([deck("poisson3d.toml"), "grid.extents=[24,24,24]"] + out_args(d) + quiet(), np_=2, expect=0)
    s = summary(d)
    script = os.path.join(ARGS.source, "scripts", "plot_output.py")
    hist, sl = os.path.join(WORK, "history.png"), os.path.join(WORK, "slice.png")
    for args in (["history", os.path.join(WORK, d, "perksolve_history.csv"), "-o", hist],
                 ["slice", os.path.join(WORK, d, f"perksolve_{s['iterations']:06d}.h5"), "-o", sl, "--axis", "y"]):
        p = subprocess.run([sys.executable, script] + args, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            fail(f"plot_output.py {' '.join(args)}:\n{p.stdout}\n{p.stderr}")
    check_png(hist)
    check_png(sl)
    rows = open(os.path.join(WORK, d, "perksolve_history.csv")).read().splitlines()
    if len(rows) != s["iterations"] + 1:
        fail(f"history has {len(rows) - 1} rows for {s['iterations']} iterations")
    names = [t["name"] for t in s["timers"]]
    for t in ("jacobi_sweep", "output"):
        if t not in names:
            fail(f"summary lacks timer {t}")
    if not s["converged"] or s["reason"] != "CONVERGED_RTOL" or "[grid]" not in s["deck"]:
        fail(f"summary content: {s}")
    print(f"ok history CSV ({len(rows) - 1} rows) and JSON summary (reason, timers with GB/s, deck)")


# ---- restart --------------------------------------------------------------------------------------

def recipe(solver):
    if solver in RECIPES:
        r = RECIPES[solver]
        return (default_recipe(solver) if r[0] == "generic" else [deck(r[0])]) + r[1:] + quiet()
    return default_recipe(solver) + quiet()


def check_restart():
    """SIGKILL between checkpoints and SIGTERM: restart gives the uninterrupted result bit for bit."""
    solver = ARGS.solver
    base = recipe(solver) + ([f'backend.precision="{ARGS.precision}"', "solver.stop.rtol=1e-5"] if ARGS.precision else [])
    ref = run(base + out_args("ref"), expect=(0, 2))
    n = summary("ref")["iterations"]
    if n < 4:
        fail(f"{solver}: the recipe needs at least 4 iterations, got {n}")
    every = max(1, n // 5)
    kill_at = 2 * every + max(1, every // 2)
    signal_at = 3 * every + max(1, every // 3)
    if every == 1 or signal_at >= n:
        kill_at, signal_at = min(n - 1, 2), min(n - 1, 3)
    print(f"{solver}: uninterrupted {n} iterations (exit {ref.returncode}); checkpoint every {every}, "
          f"SIGKILL after {kill_at}, SIGTERM after {signal_at}")
    ck = [f"checkpoint.every={every}", 'checkpoint.directory="ck_kill"', "checkpoint.keep=2"]

    p = run(base + ck + out_args("killed"), env={"PERKSOLVE_TEST_KILL_AT": str(kill_at)})
    if p.returncode in (0, 1, 2) or os.path.exists(os.path.join(WORK, "killed", "perksolve_summary.json")):
        fail(f"the run was not killed (exit {p.returncode})")
    cks = checkpoints("ck_kill")
    want_last = kill_at // every * every
    if not cks or cks[-1][0] != want_last or len(cks) > 2:
        fail(f"after SIGKILL at {kill_at}: checkpoints {cks}, expected the newest at {want_last}, at most 2 kept")
    print(f"ok killed by SIGKILL after iteration {kill_at} (exit {p.returncode}); checkpoints {[c[0] for c in cks]}")
    p = run(base + out_args("after_kill") + ["--restart", os.path.join(WORK, "ck_kill")], expect=ref.returncode)
    if f"restarted from checkpoint {cks[-1][1]} at iteration {want_last}" not in p.stdout:
        fail(f"no restart line:\n{p.stdout}")
    expect_same("ref", "after_kill", f"{solver} restart after SIGKILL")

    ck = [f"checkpoint.every={every}", 'checkpoint.directory="ck_term"']
    p = run(base + ck + out_args("termed"), env={"PERKSOLVE_TEST_SIGNAL_AT": str(signal_at)}, expect=2)
    if f"SIGTERM received: checkpoint" not in p.stdout or "INTERRUPTED" not in p.stdout:
        fail(f"SIGTERM not reported:\n{p.stdout}")
    cks = checkpoints("ck_term")
    if not cks or cks[-1][0] != signal_at:
        fail(f"SIGTERM after {signal_at}: checkpoints {cks}")
    s = summary("termed")
    if not s["interrupted"] or s["iterations"] != signal_at:
        fail(f"summary after SIGTERM: {s['interrupted']} {s['iterations']}")
    print(f"ok SIGTERM (one rank) after iteration {signal_at}: all ranks checkpointed at {signal_at}, exit 2")
    run(base + out_args("after_term") + ["--restart", cks[-1][1]], expect=ref.returncode)
    expect_same("ref", "after_term", f"{solver} restart after SIGTERM")


def jacobi_long(extra):
    return [deck("poisson3d.toml"), "grid.extents=[20,18,16]"] + quiet() + extra


def check_restart_ranks():
    """A checkpoint from 4 ranks restarts on 2 and on 3 ranks (global layout)."""
    base = jacobi_long([])
    run(base + out_args("r4"), np_=4, expect=0)
    n = summary("r4")["iterations"]
    run(base + ["checkpoint.every=200", 'checkpoint.directory="ck4"', "checkpoint.keep=100",
                "solver.stop.max_iterations=450"], np_=4, expect=2)
    cks = checkpoints("ck4")
    if [c[0] for c in cks] != [200, 400]:
        fail(f"checkpoints {cks}")
    for np_, c in ((2, cks[1]), (3, cks[0]), (1, cks[1])):
        d = f"r4to{np_}"
        p = run(base + out_args(d) + ["--restart", c[1]], np_=np_, expect=0)
        if f"ranks: {np_} as" not in p.stdout:
            fail(p.stdout)
        expect_same("r4", d, f"checkpoint of 4 ranks at {c[0]} restarted on {np_} rank(s)")
    print(f"ok ({n} iterations)")


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_corrupt():
    """Truncated / corrupted newest checkpoint: exit 1 with a message, nothing else touched."""
    base = jacobi_long(["checkpoint.every=100", 'checkpoint.directory="ckc"', "checkpoint.keep=3"])
    run(base + ["solver.stop.max_iterations=350"], expect=2)
    cks = checkpoints("ckc")
    if [c[0] for c in cks] != [100, 200, 300]:
        fail(f"checkpoints {cks}")
    newest, previous = cks[-1][1], cks[-2][1]
    good = open(newest, "rb").read()
    before = {c[1]: sha(c[1]) for c in cks[:-1]}
    listing = sorted(os.listdir(os.path.join(WORK, "ckc")))
    cases = [("truncated", good[: len(good) // 2], r"truncated or corrupted"),
             ("truncated to the data", good[: len(good) - 1000], r"truncated or corrupted|corrupted data|checksum"),
             ("bit flip in the data", None, r"corrupted data: the checksum of field 'x' does not match"),
             ("garbage", b"\0" * 4096, r"truncated or corrupted")]
    for what, content, pattern in cases:
        if content is None:
            buf = bytearray(good)
            buf[len(buf) - 4000] ^= 0x10  # inside the field data (the file ends with it)
            content = bytes(buf)
        with open(newest, "wb") as f:
            f.write(content)
        for np_ in ((None, 3) if what == "truncated" else (None,)):
            p = run(base + ["--restart", os.path.join(WORK, "ckc")], np_=np_, expect=1)
            if not re.search(pattern, p.stderr) or "cannot restart from checkpoint" not in p.stderr:
                fail(f"{what}: message /{pattern}/ not in:\n{p.stderr}")
            if previous not in p.stderr:
                fail(f"{what}: the message does not point to the previous checkpoint:\n{p.stderr}")
            if "Traceback" in p.stderr or "terminate called" in p.stderr or "MPI_ABORT" in p.stderr:
                fail(f"{what}: not a clean exit:\n{p.stderr}")
        after = {c[1]: sha(c[1]) for c in checkpoints("ckc")[:-1]}
        if after != before or sorted(os.listdir(os.path.join(WORK, "ckc"))) != listing:
            fail(f"{what}: the other checkpoints changed")
        print(f"ok {what}: exit 1, {p.stderr.strip().splitlines()[0][:160]}...")
    # The previous checkpoint is intact and restarts to the uninterrupted result.
    run(jacobi_long(out_args("ref_c")), expect=0)
    run(jacobi_long(out_args("from_prev")) + ["--restart", previous], expect=0)
    expect_same("ref_c", "from_prev", "restart from the previous checkpoint")


def check_restart_deck():
    base = jacobi_long(["checkpoint.every=100", 'checkpoint.directory="ckd"', "solver.stop.max_iterations=150"])
    run(base, expect=2)
    ck = checkpoints("ckd")[-1][1]
    for o in ("grid.extents=[20,18,17]", "solver.omega=0.7", 'backend.precision="float"', "boundary.value=1.0",
              "problem.wavenumber=2"):
        p = run(base + [o, "--restart", ck], np_=None, expect=1)
        key = o.split("=")[0]
        if f"'{key}'" not in p.stderr or "cannot be changed on restart" not in p.stderr:
            fail(f"{o}: not refused at the key:\n{p.stderr}")
        print(f"ok refused {o}: {p.stderr.strip().splitlines()[-1][:150]}...")
    p = run(base + ["solver.stop.max_iterations=300", "solver.stop.rtol=1e-3", "monitor.every=50",
                    "output.every=100", 'output.directory="od"', "checkpoint.every=0", "decomposition.ranks=[1,1,2]",
                    "--restart", ck], expect=(0, 2))
    if "restarted from checkpoint" not in p.stdout:
        fail(p.stdout)
    print("ok output/stopping/monitor/checkpoint/decomposition keys may change on restart")


def check_walltime():
    base = jacobi_long(["solver.stop.rtol=0", "solver.stop.max_iterations=100000000", "checkpoint.walltime_s=0.5",
                        'checkpoint.directory="ckw"'])
    p = run(base, expect=2)
    if "wall-time limit checkpoint.walltime_s = 0.5 s reached: checkpoint" not in p.stdout:
        fail(p.stdout)
    cks = checkpoints("ckw")
    if len(cks) != 1:
        fail(f"{cks}")
    k = cks[0][0]
    run(base + ["checkpoint.walltime_s=0", f"solver.stop.max_iterations={k + 100}", "--restart", cks[0][1]]
        + out_args("w_after"), expect=2)
    run(jacobi_long(["solver.stop.rtol=0", f"solver.stop.max_iterations={k + 100}"]) + out_args("w_ref"), expect=2)
    expect_same("w_ref", "w_after", f"wall-time checkpoint at {k}, restarted")


def children(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(int(d))
            except OSError:
                pass
    return sorted(out)


def check_external_signals():
    """SIGTERM sent from outside to one rank, SIGUSR1 to mpirun: checkpoint, exit 2, exact restart."""
    for sig, target in ((signal.SIGTERM, "one rank"), (signal.SIGUSR1, "mpirun")):
        name = signal.Signals(sig).name
        d = f"ck_{name}"
        args = jacobi_long(["solver.stop.rtol=0", "solver.stop.max_iterations=100000000", "checkpoint.enabled=true",
                            f'checkpoint.directory="{d}"'])
        proc = subprocess.Popen(cmd_for(args, 2), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=WORK)
        time.sleep(1.2)
        ranks = children(proc.pid)
        if proc.poll() is not None or not ranks:
            fail(f"run ended early: {proc.communicate()}")
        os.kill(ranks[-1] if target == "one rank" else proc.pid, sig)
        out, err = proc.communicate(timeout=120)
        if proc.returncode != 2 or f"{name} received: checkpoint" not in out:
            fail(f"{name} to {target}: exit {proc.returncode}\n{out}\n{err}")
        cks = checkpoints(d)
        k = cks[-1][0]
        print(f"ok {name} sent to {target}: checkpoint at iteration {k}, exit 2")
        run(args + [f"solver.stop.max_iterations={k + 50}", "--restart", cks[-1][1]] + out_args(f"{name}_after"),
            expect=2)
        run(jacobi_long(["solver.stop.rtol=0", f"solver.stop.max_iterations={k + 50}"]) + out_args(f"{name}_ref"),
            expect=2)
        expect_same(f"{name}_ref", f"{name}_after", f"restart after external {name}")


def main():
    global ARGS, WORK
    ap = argparse.ArgumentParser()
    ap.add_argument("--perksolve", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--pvbatch", default=None)
    ap.add_argument("--solver", default="jacobi")
    ap.add_argument("--precision", default=None)
    ap.add_argument("check")
    ARGS = ap.parse_args()
    ARGS.perksolve = os.path.abspath(ARGS.perksolve)
    ARGS.source = os.path.abspath(ARGS.source)
    checks = {
        "global-array": check_global_array,
        "pvbatch": check_pvbatch,
        "plots": check_plots,
        "restart": check_restart,
        "restart-ranks": check_restart_ranks,
        "corrupt": check_corrupt,
        "restart-deck": check_restart_deck,
        "walltime": check_walltime,
        "external-signals": check_external_signals,
    }
    WORK = tempfile.mkdtemp(prefix=f"perksolve_io_{ARGS.check}_")
    try:
        checks[ARGS.check]()
    finally:
        if os.environ.get("PERKSOLVE_KEEP_TEST_OUTPUT"):
            print(f"output kept in {WORK}")
        else:
            shutil.rmtree(WORK, ignore_errors=True)
    print("PASS")


if __name__ == "__main__":
    main()
