# Run 7 (H200): run 6's library (the issue cursor with running offsets) in the solvers: solver_bench (work units, the
# PCG-MG solve of 3D Poisson 255^3 fp64) and cg_bench (matrix-free and CSR CG), PROD (78192f1) and NEW, twice each way.
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run7.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run7; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for k in 1 2; do
  for v in prod new; do
    t=$SECONDS; run_v $v timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R-$v" --out $W/solver_${v}_$k.json > $W/solver_${v}_$k.log 2>&1
    echo "solver_bench $v $k rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_${v}_$k.log | awk -v v="$v $k" '{print v, $1, $5, $6, $9, $10}' | tee -a $S
    t=$SECONDS; run_v $v timeout 100 bin/cg_bench --reps 9 --stencil-sizes 32 --large-7 192 --large-27 96 --git-revision "$R-$v" --out $W/cg_${v}_$k.json > $W/cg_${v}_$k.log 2>&1
    echo "cg_bench $v $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
rows = {}
for v in ("prod", "new"):
    for k in (1, 2):
        try:
            d = json.load(open(f"{w}/cg_{v}_{k}.json"))
        except Exception as e:
            print("cg_bench json", v, k, e); continue
        for kind in ("records", "matrix_free_records"):
            for r in d.get(kind, []):
                for t in ("operations", "persistent"):
                    key = (kind.replace("records", "").strip("_") or "csr", r["case"], r["precision"], t)
                    rows.setdefault(key, {}).setdefault(v, []).append(r[t + "_s_per_iteration"])
for key, d in sorted(rows.items()):
    f = lambda x: f"{min(x)*1e6:.2f}-{max(x)*1e6:.2f}" if x else "-"
    print("cg_bench", *key, "us/iteration prod", f(d.get("prod", [])), "new", f(d.get("new", [])))
PY
tar -C $W -cJf $OUT/run7_logs.tar.xz .
