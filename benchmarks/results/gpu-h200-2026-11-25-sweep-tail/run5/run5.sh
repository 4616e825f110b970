# Run 5 (H200): the final revision of the session (schedule tail on, rows aligned to 32, AllShapes GPU tests at align
# 1, 8 and 32). All GPU tests, the stencil / solver-op / PERKS tests with each tier and memory class forced,
# stencil_bench over every shape, solver_bench wu,pcg, perks_bench, and compute-sanitizer (memcheck, racecheck,
# synccheck) on the schedule-tail test. Usage: OUT=dir bash run5.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "PASSED|FAILED|Failure|Expected|Which is|actual" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 150 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaSolverOps.*:CudaPerks.*' > $W/tests_${tier}_$mem.log 2>&1; echo "tests $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "PASSED|FAILED" $W/tests_${tier}_$mem.log | head -5 | tee -a $W/summary.txt
done; done
t=$SECONDS; timeout 150 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(3d7pt |3d27pt_sym|2d5pt |copy)" $W/stencil_bench.log | tee -a $W/summary.txt
t=$SECONDS; timeout 100 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
t=$SECONDS; timeout 100 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geometric" $W/perks_bench.log | tee -a $W/summary.txt
# The schedule tail exists only on large grids: the sanitizers on ScheduleTailDouble (512 x 256 x 530, both schedules).
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.ScheduleTailDouble' > $W/sanitizer_$tool.log 2>&1; echo "$tool ScheduleTailDouble rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
