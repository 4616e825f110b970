# Run 2 (H200): CG's early check, the dense coarse solve in one kernel (spmv_cells), sums straight to pinned memory.
# The whole GPU suite; memcheck on the new paths; solver_bench wu,pcg with everything on (twice), each change off
# alone, and all three off (PERKSOLVE_CG_EARLY_STOP=0, PERKSOLVE_CUDA_SPMV_CELLS=0, PERKSOLVE_CUDA_SUMS_TO_HOST=0).
# Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
t=$SECONDS; timeout 120 $CS --tool memcheck --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaSolverOps.SpmvCells*:CudaSolverOps.Csr*:CudaSolves.PcgMultigridDirectCoarse:CudaSolves.PcgMultigridFloatCycle:CudaSolverOps.Blas*' > $W/sanitizer_memcheck.log 2>&1; echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | tail -3 | tee -a $W/summary.txt
bench() {  # label, env assignments...
  local label=$1; shift
  t=$SECONDS; env "$@" timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$label.json > $W/solver_bench_$label.log 2>&1; echo "solver_bench $label rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_$label.log | awk -v l=$label '{print l,$1,$5,$6,$9,$10}' | tee -a $W/summary.txt
}
bench new1
bench old1 PERKSOLVE_CG_EARLY_STOP=0 PERKSOLVE_CUDA_SPMV_CELLS=0 PERKSOLVE_CUDA_SUMS_TO_HOST=0
bench no_early PERKSOLVE_CG_EARLY_STOP=0
bench no_cells PERKSOLVE_CUDA_SPMV_CELLS=0
bench no_sums PERKSOLVE_CUDA_SUMS_TO_HOST=0
bench new2
bench old2 PERKSOLVE_CG_EARLY_STOP=0 PERKSOLVE_CUDA_SPMV_CELLS=0 PERKSOLVE_CUDA_SUMS_TO_HOST=0
cd $OUT && gzip -f w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
