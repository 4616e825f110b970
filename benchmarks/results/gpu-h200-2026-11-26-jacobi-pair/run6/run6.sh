# Run 6 (H200): after the review mends (shared canonical sum, layout check and chunk-count search): the pair tests, racecheck on
# them, the whole GPU suite, solver_bench wu,pcg once with pairs and once one by one. Usage: OUT=dir bash run6.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
t=$SECONDS; timeout 100 $CS --tool racecheck --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/sanitizer_racecheck.log 2>&1; echo "compute-sanitizer racecheck rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_racecheck.log | tail -3 | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in pairs single; do
  E=1; [ $k = single ] && E=0
  t=$SECONDS; PERKSOLVE_MG_SWEEP_PAIRS=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
