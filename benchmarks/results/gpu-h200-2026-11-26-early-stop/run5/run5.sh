# Run 5 (H200): the session's final revision. The whole GPU suite; racecheck and synccheck on the new spmv_cells
# kernel and the PCG-MG solves; solver_bench wu,pcg twice. Usage: OUT=dir bash run5.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
SAN='CudaSolverOps.SpmvCells*:CudaSolves.PcgMultigridDirectCoarse:CudaSolves.PcgMultigridFloatCycle'
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; timeout 120 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$SAN" > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
for i in 1 2; do
  t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$i.json > $W/solver_bench_$i.log 2>&1; echo "solver_bench $i rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_$i.log | awk -v l=$i '{print l,$1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
