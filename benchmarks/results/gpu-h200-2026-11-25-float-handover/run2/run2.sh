# Run 2 (H200): after the test fix (y_other at Real's tolerance): all GPU tests, memcheck / racecheck / synccheck on
# CudaSolverOps.Blas*, and solver_bench wu,pcg once more each way. Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED|Failure|Expected|Which is|actual" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter='CudaSolverOps.Blas*' > $W/sanitizer_$tool.log 2>&1; echo "$tool CudaSolverOps.Blas* rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tee -a $W/summary.txt
done
for k in fused passes; do
  E=0; [ $k = passes ] && E=1
  t=$SECONDS; PERKSOLVE_PCG_CONVERT_PASSES=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${k}.json > $W/solver_bench_${k}.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${k}.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
