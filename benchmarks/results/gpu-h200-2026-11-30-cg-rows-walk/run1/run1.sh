# Run 1 (H200): the persistent CSR CG's row-block walk (PERKSOLVE_CUDA_CG_WALK=rows: the operation loop's stream
# SpMV body and grid-strided vector phases in one cooperative kernel, nothing cached) against the staged merge walk
# (the default). GPU suite; cg_bench (defaults: 5 test matrices in L2, laplace7_128, laplace27_96) with staged /
# rows (8 blocks of 256 per SM, 32 registers) / rows6 (PERKSOLVE_CUDA_CG_ROWS_BLOCKS=6: 6 blocks, 40 registers),
# alternating, twice; laplace7_192 staged / rows once; then the PDL question for the operation loops:
# cg_bench and solver_bench fp64 (wu, mg, pcg) with PERKSOLVE_CUDA_PDL=0 against the default;
# compute-sanitizer racecheck / synccheck / memcheck on the row-walk tests.
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests.log | tee -a $S
grep -E "^\[  FAILED" $W/tests.log | head | tee -a $S
grep -E "rows walk\]" $W/tests.log | head -8 >> $S
cgb() {  # cgb NAME ENV... -- ARGS...: cg_bench with the environment given, output in $W/cg_NAME.{log,json}
  local name=$1; shift; local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t=$SECONDS
  env "${envs[@]}" timeout 120 bin/cg_bench --git-revision "$R-$name" --out $W/cg_$name.json "$@" > $W/cg_$name.log 2>&1
  echo "cg_bench $name rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -A6 "speed-up of the persistent CG per iteration" $W/cg_$name.log | sed "s/^/$name /" | tee -a $S
}
for k in 1 2; do
  cgb staged_$k PERKSOLVE_CUDA_CG_WALK=staged --
  cgb rows_$k PERKSOLVE_CUDA_CG_WALK=rows --
  cgb rows6_$k PERKSOLVE_CUDA_CG_WALK=rows PERKSOLVE_CUDA_CG_ROWS_BLOCKS=6 --
done
cgb staged_192 PERKSOLVE_CUDA_CG_WALK=staged -- --precision f64 --large-7 192 --large-27 0 --only laplace7_192
cgb rows_192 PERKSOLVE_CUDA_CG_WALK=rows -- --precision f64 --large-7 192 --large-27 0 --only laplace7_192
cgb rows_nopdl PERKSOLVE_CUDA_CG_WALK=rows PERKSOLVE_CUDA_PDL=0 --
for m in 1 0; do
  t=$SECONDS
  PERKSOLVE_CUDA_PDL=$m timeout 150 bin/solver_bench --precision f64 --cases wu,mg,pcg \
    --git-revision "$R-pdl$m" --out $W/solver_pdl$m.json > $W/solver_pdl$m.log 2>&1
  echo "solver_bench PDL=$m rc=$? $((SECONDS-t)) s" | tee -a $S
done
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("== cg_bench: run matrix precision class | vendor ops persistent us | x vendor x ops | blocks")
for f in sorted(glob.glob(f"{w}/cg_*.json")):
    d = json.load(open(f))
    for r in d.get("records", []):
        print(os.path.basename(f)[3:-5], r.get("case"), r.get("precision"), r.get("class"), "| %.1f %.1f %.1f | %.2f %.2f |" % (
            1e6 * r["vendor_s_per_iteration"], 1e6 * r["operations_s_per_iteration"], 1e6 * r["persistent_s_per_iteration"],
            r["persistent_over_vendor"], r["persistent_over_operations"]), r.get("blocks"))
print("== solver_bench: case precision | PDL=1 time_s work_units | PDL=0 time_s work_units")
runs = {}
for m in ("1", "0"):
    try: runs[m] = {r["case"]: r for r in json.load(open(f"{w}/solver_pdl{m}.json"))["records"]}
    except Exception as e: print(m, "missing", e)
if len(runs) == 2:
    for c, r in runs["1"].items():
        o = runs["0"].get(c, {})
        print(c, r.get("precision"), "| %s %s | %s %s" % (r.get("time_s"), r.get("work_units"), o.get("time_s"), o.get("work_units")))
PY
tar -C $W -cJf $OUT/run1_logs.tar.xz .  # (before the sanitizers, whose logs go to $OUT)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; PERKSOLVE_CUDA_CG_WALK=rows timeout 120 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter='CudaPersistentCg.RowsWalk*:CudaPersistentCg.StopsAtThresholdInChunks' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
