# Run 2 (H200): the automatic walk (the new default: rows where the matrix and four vectors exceed the L2, staged
# elsewhere), the row-block walk at six blocks per SM (40 registers) and at four (PERKSOLVE_CUDA_CG_ROWS_BLOCKS=4:
# 64 registers, no spills; a measurement switch of this build only). GPU suite; cg_bench with its defaults: auto /
# rows at 4 blocks alternating, twice, then staged once; cg_bench on two larger matrices (laplace7_192,
# laplace27_128): auto, 4 blocks, staged; compute-sanitizer racecheck on three row-walk tests, synccheck and
# memcheck on every persistent CG test.
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests.log | tee -a $S
grep -E "^\[  FAILED" $W/tests.log | head | tee -a $S
grep -E "rows walk\]|\[auto" $W/tests.log | head -8 >> $S
cgb() {  # cgb NAME ENV... -- ARGS...: cg_bench with the environment given, output in $W/cg_NAME.{log,json}
  local name=$1; shift; local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t=$SECONDS
  env "${envs[@]}" timeout 150 bin/cg_bench --git-revision "$R-$name" --out $W/cg_$name.json "$@" > $W/cg_$name.log 2>&1
  echo "cg_bench $name rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -A6 "speed-up of the persistent CG per iteration" $W/cg_$name.log | sed "s/^/$name /" | tee -a $S
}
for k in 1 2; do
  cgb auto_$k PERKSOLVE_CUDA_CG_WALK=auto --
  cgb b4_$k PERKSOLVE_CUDA_CG_WALK=auto PERKSOLVE_CUDA_CG_ROWS_BLOCKS=4 --
done
cgb staged_1 PERKSOLVE_CUDA_CG_WALK=staged --
BIG="--large-7 192 --large-27 128 --only laplace7_192,laplace27_128"
cgb auto_big PERKSOLVE_CUDA_CG_WALK=auto -- $BIG
cgb b4_big PERKSOLVE_CUDA_CG_WALK=auto PERKSOLVE_CUDA_CG_ROWS_BLOCKS=4 -- $BIG
cgb staged_big PERKSOLVE_CUDA_CG_WALK=staged -- $BIG
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
PY
tar -C $W -cJf $OUT/run2_logs.tar.xz .  # (before the sanitizers, whose logs go to $OUT)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPersistentCg.*'; lim=150
  [ $tool = racecheck ] && { f='CudaPersistentCg.RowsWalkSpmv*:CudaPersistentCg.RowsWalkMatchesOperationLoopFloat'; lim=150; }
  t=$SECONDS; timeout $lim $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
