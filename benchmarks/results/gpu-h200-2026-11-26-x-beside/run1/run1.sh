# Run 1 (H200): CG's x += alpha p beside the multigrid cycle (Backend::axpby_beside on a low-priority side stream; the
# iteration end then updates p alone) against cg_advance's one pass (PERKSOLVE_PCG_X_BESIDE=0), the same binary.
# BLAS and pair tests, compute-sanitizer memcheck / racecheck / synccheck on them, the whole GPU suite; solver_bench
# wu,pcg: beside, fused, beside, fused; solver_bench explore (Chebyshev degree 1-4, lower 0.1-0.3, double or float
# cycle) with x beside. Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
FILTER='CudaSolverOps.Blas*:CudaJacobiPair.Dot*'
t=$SECONDS; timeout 60 bin/test_gpu_backend --gtest_filter="$FILTER" > $W/tests_blas.log 2>&1; echo "blas + pair dot tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|Failure|PASSED" $W/tests_blas.log | head -10 | tee -a $W/summary.txt
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 120 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$FILTER" > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in beside_1 fused_1 beside_2 fused_2; do
  E=1; [ ${k%_*} = fused ] && E=0
  t=$SECONDS; PERKSOLVE_PCG_X_BESIDE=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
t=$SECONDS; timeout 150 bin/solver_bench --precision f64 --cases wu,explore --git-revision "$R" --out $W/solver_bench_explore.json > $W/solver_bench_explore.log 2>&1; echo "solver_bench explore rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_explore.log | awk '{print $1,$5,$6,$9}' | sort -k4 -g | head -8 | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
