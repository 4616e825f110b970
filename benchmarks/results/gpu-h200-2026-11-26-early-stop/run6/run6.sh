# Run 6 (H200): after the review mend (spmv_cells in place through the flat path; the switch read in the constructor).
# The whole GPU suite; memcheck on SpmvCells and the PCG-MG solves; solver_bench wu,pcg once.
# Usage: OUT=dir bash run6.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
t=$SECONDS; timeout 120 $CS --tool memcheck --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaSolverOps.SpmvCells*:CudaSolves.PcgMultigridDirectCoarse:CudaSolves.PcgMultigridFloatCycle' > $W/sanitizer_memcheck.log 2>&1; echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | tail -3 | tee -a $W/summary.txt
t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
