# Run 5 (H200): solver_bench case persistent at 511^3 (levels <= 31^3 and <= 63^3 in the program, against none),
# the same build as run 4; compute-sanitizer racecheck on the float program tests (grid, then cluster; the four tests
# together did not finish within 100 s in run 4). Usage: OUT=dir bash run5.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 560 bin/solver_bench --n 511 --precision f64 --cases persistent --persistent-cells 0,32768,262144 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_persistent_511.json > $W/solver_bench_persistent_511.log 2>&1; echo "solver_bench persistent 511 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(mg_|pcg)" $W/solver_bench_persistent_511.log | awk '{print $1,$3,$4,$5,$6,$9}' | tee -a $W/summary.txt
for F in CudaPersistent.ProgramMatchesOperationsFloat CudaPersistent.ClusterProgramMatchesOperationsFloat; do
  t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_racecheck_$F.log 2>&1; echo "racecheck $F rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY|PASSED|FAILED" $W/sanitizer_*.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
