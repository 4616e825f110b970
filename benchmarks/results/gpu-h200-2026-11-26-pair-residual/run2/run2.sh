# Run 2 (H200): the fix after run 1 (the b window of the residual variant copies only the owned part of a 16-byte unit
# across the right end of the rows, zeros past it: x1's ghosts +0). Pair tests, compute-sanitizer racecheck / synccheck /
# memcheck on them, the whole GPU suite, solver_bench wu,pcg once. Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
t=$SECONDS; timeout 60 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/tests_pair.log 2>&1; echo "pair tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|Failure|PASSED|differ|written" $W/tests_pair.log | head -10 | tee -a $W/summary.txt
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
