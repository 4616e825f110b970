# Run 4 (H200): the committed form of the row-block walk (no measurement switches; six blocks per SM up to 6x the L2,
# eight above, rows_walk_blocks_per_sm) under the automatic walk. GPU suite; cg_bench with its defaults twice and on
# laplace7_192 / laplace27_128 once; compute-sanitizer racecheck on three row-walk tests, synccheck and memcheck on
# every persistent CG test.
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests.log | tee -a $S
grep -E "^\[  FAILED" $W/tests.log | head | tee -a $S
grep -E "rows walk\]|\[auto" $W/tests.log | head -8 >> $S
cgb() {  # cgb NAME ARGS...: cg_bench (automatic walk), output in $W/cg_NAME.{log,json}
  local name=$1; shift
  local t=$SECONDS
  timeout 150 bin/cg_bench --git-revision "$R" --out $W/cg_$name.json "$@" > $W/cg_$name.log 2>&1
  echo "cg_bench $name rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -A6 "speed-up of the persistent CG per iteration" $W/cg_$name.log | sed "s/^/$name /" | tee -a $S
}
cgb default_1
cgb big --large-7 192 --large-27 128 --only laplace7_192,laplace27_128
cgb default_2
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("== cg_bench: run matrix precision class | vendor ops persistent us | x vendor x ops | blocks")
for f in sorted(glob.glob(f"{w}/cg_*.json")):
    for r in json.load(open(f)).get("records", []):
        print(os.path.basename(f)[3:-5], r.get("case"), r.get("precision"), r.get("class"), "| %.1f %.1f %.1f | %.2f %.2f |" % (
            1e6 * r["vendor_s_per_iteration"], 1e6 * r["operations_s_per_iteration"], 1e6 * r["persistent_s_per_iteration"],
            r["persistent_over_vendor"], r["persistent_over_operations"]), r.get("blocks"))
PY
tar -C $W -cJf $OUT/run4_logs.tar.xz .  # (before the sanitizers, whose logs go to $OUT)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPersistentCg.*'; lim=100
  [ $tool = racecheck ] && { f='CudaPersistentCg.RowsWalkSpmv*:CudaPersistentCg.RowsWalkMatchesOperationLoopFloat'; lim=150; }
  t=$SECONDS; timeout $lim $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
