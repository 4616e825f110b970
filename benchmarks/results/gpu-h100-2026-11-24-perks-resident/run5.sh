cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.log 2>&1
timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$?" >> $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED|SKIPPED \]" $OUT/test_gpu_backend.log | head -20
timeout 240 bin/perks_bench --reps 5 --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$?" >> $OUT/summary.txt
grep -E "small|geometric" $OUT/perks_bench.log
for mode in off on; do
  for g in "grid.extents=[256,256]" "grid.extents=[1024,1024]"; do
    timeout 60 bin/perksolve inputs/poisson2d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "$g" solver.stop.max_iterations=20000 solver.stop.rtol=1e-12 monitor.every=5000 >> $OUT/solver_modes.log 2>&1; echo "jacobi2d $g $mode rc=$?" >> $OUT/summary.txt
  done
  timeout 60 bin/perksolve inputs/poisson3d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "grid.extents=[128,128,128]" solver.stop.max_iterations=5000 solver.stop.rtol=1e-12 monitor.every=1000 >> $OUT/solver_modes.log 2>&1; echo "jacobi3d $mode rc=$?" >> $OUT/summary.txt
done
grep -E "^grid|did not|converged" $OUT/solver_modes.log | head -30
for tool in racecheck synccheck memcheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.JacobiStopsInResident*' >> $OUT/sanitizer_resident.log 2>&1; echo "sanitizer $tool rc=$?" >> $OUT/summary.txt
done
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.EveryShapeBitIdenticalFloat' >> $OUT/sanitizer_resident.log 2>&1; echo "sanitizer racecheck all shapes f32 rc=$?" >> $OUT/summary.txt
grep -E "SUMMARY" $OUT/sanitizer_resident.log; cat $OUT/summary.txt
