# Run 5 (H200): the boundary-faces kernel lets the next kernel start its blocks only as its own exit
# (PERKSOLVE_CUDA_PDL_FACES=exit, the change) or as soon as its own have started (=start, the behaviour before).
# GPU suite (exit); perks_bench --side 8192 / 16384 for 2d5pt, 2d9pt, 2d13pt fp64 apply, exit / start alternating,
# twice; perks_bench apply and jacobi (all cases) exit / start; solver_bench fp64 (wu, mg, pcg) exit / start.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
FB=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_exit.log 2>&1
echo "test_gpu_backend (exit) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_exit.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_exit.log | head | tee -a $S
for k in 1 2; do
  for n in 8192 16384; do
    for m in exit start; do
      PERKSOLVE_CUDA_PDL_FACES=$m LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep apply \
        --cases 2d5pt,2d9pt,2d13pt --precision f64 --side $n --out $W/side_${n}_${m}_$k.json > $W/side_${n}_${m}_$k.log 2>&1
      echo "perks_bench side $n $m run $k rc=$?" >> $S
    done
  done
done
for m in exit start; do
  for sw in apply jacobi; do
    t=$SECONDS
    PERKSOLVE_CUDA_PDL_FACES=$m LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep $sw --git-revision "$R-$m" \
      --out $W/pb_${sw}_$m.json > $W/pb_${sw}_$m.log 2>&1
    echo "perks_bench $sw $m rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "geometric" $W/pb_${sw}_$m.log | sed "s/^/$sw $m /" | tee -a $S
  done
done
for m in exit start; do
  t=$SECONDS
  PERKSOLVE_CUDA_PDL_FACES=$m LD_LIBRARY_PATH=$FB timeout 150 bin/solver_bench --precision f64 --cases wu,mg,pcg \
    --git-revision "$R-$m" --out $W/solver_$m.json > $W/solver_$m.log 2>&1
  echo "solver_bench $m rc=$? $((SECONDS-t)) s" | tee -a $S
done
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("== side runs: file case per-sweep-path-us persistent-us speed-up")
for f in sorted(glob.glob(f"{w}/side_*.json")):
    for r in json.load(open(f))["records"]:
        print(os.path.basename(f)[5:-5], r["case"], "%.1f %.1f %.3f" % (1e6 * r["per_step_s_per_sweep"],
              1e6 * r["persistent_s_per_sweep"], r["speedup"]))
print("== solver_bench: case, exit / start: time_s, work_units")
runs = {}
for m in ("exit", "start"):
    try: runs[m] = {r["case"]: r for r in json.load(open(f"{w}/solver_{m}.json"))["records"]}
    except Exception as e: print(m, "missing", e)
if len(runs) == 2:
    for c, r in runs["exit"].items():
        o = runs["start"].get(c, {})
        print(c, r.get("precision"), "%s %s | %s %s" % (r.get("time_s"), r.get("work_units"), o.get("time_s"), o.get("work_units")))
PY
tar -C $W -cJf $OUT/run5_logs.tar.xz .
