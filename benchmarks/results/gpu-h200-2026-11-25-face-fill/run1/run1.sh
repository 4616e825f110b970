cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
cat REVISION >> $OUT/env.log
t=$SECONDS; timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "all gpu tests rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head -20
t=$SECONDS; timeout 200 bin/perks_bench --reps 5 --git-revision "$R" --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "geometric|below" $OUT/perks_bench.log
F='CudaPerks.JacobiStops*:CudaPerks.PipelinedSanitizerCase*:CudaPersistentStencilCg.StopsAt*:CudaPersistentStencilCg.Breakdown*:CudaPersistentCg.StopsAt*:CudaPersistentCg.Breakdown*'
for tool in memcheck synccheck racecheck; do
  t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter="$F" > $OUT/sanitizer_$tool.log 2>&1; echo "$tool rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
done
grep -E "SUMMARY|PASSED|FAILED" $OUT/sanitizer_*.log
for mode in off on; do
  timeout 60 bin/perksolve inputs/poisson3d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "grid.extents=[120,120,120]" solver.stop.max_iterations=5000 solver.stop.rtol=1e-12 monitor.every=1000 >> $OUT/solver_modes.log 2>&1; echo "jacobi3d 120 $mode rc=$?" >> $OUT/summary.txt
  for g in "grid.extents=[256,256]" "grid.extents=[1024,1024]"; do
    timeout 60 bin/perksolve inputs/poisson2d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "$g" solver.stop.max_iterations=20000 solver.stop.rtol=1e-12 monitor.every=5000 >> $OUT/solver_modes.log 2>&1; echo "jacobi2d $g $mode rc=$?" >> $OUT/summary.txt
  done
done
grep -E "^grid|did not|converged" $OUT/solver_modes.log | head -30
