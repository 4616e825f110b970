cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.log 2>&1
# 1. the GPU test suite
timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$?" >> $OUT/summary.txt
# 2. Jacobi / stencil iteration solves, persistent on vs off (the app, timings of the whole solve)
for mode in off on; do
  for g in "grid.extents=[256,256]" "grid.extents=[1024,1024]"; do
    timeout 60 bin/perksolve inputs/poisson2d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "$g" solver.stop.max_iterations=20000 solver.stop.rtol=1e-12 monitor.every=5000 >> $OUT/solver_modes.log 2>&1; echo "jacobi2d $g $mode rc=$?" >> $OUT/summary.txt
  done
  timeout 60 bin/perksolve inputs/poisson3d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "grid.extents=[128,128,128]" solver.stop.max_iterations=5000 solver.stop.rtol=1e-12 monitor.every=1000 >> $OUT/solver_modes.log 2>&1; echo "jacobi3d $mode rc=$?" >> $OUT/summary.txt
  timeout 60 bin/perksolve inputs/heat3d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "grid.extents=[256,256,256]" solver.steps=2000 monitor.every=500 >> $OUT/solver_modes.log 2>&1; echo "heat3d $mode rc=$?" >> $OUT/summary.txt
done
# 3. perks_bench
timeout 280 bin/perks_bench --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$?" >> $OUT/summary.txt
cat $OUT/summary.txt; grep -E "^\[  (PASSED|FAILED)|FAILED|e2e\] (jacobi|stencil)" $OUT/test_gpu_backend.log | head -30; grep -E "persistent kernel|converged|did not|stencil_iteration (completed|stopped)|jacobi_sweep|persistent_jacobi|persistent_sweeps|apply_stencil" $OUT/solver_modes.log | head -60; tail -3 $OUT/perks_bench.log
# 4. compute-sanitizer on the PERKS Jacobi kernel (its history write is new)
for tool in racecheck synccheck memcheck; do
  timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.JacobiStops*' >> $OUT/sanitizer_perks.log 2>&1; echo "sanitizer $tool rc=$?" >> $OUT/summary.txt
done
grep -E "SUMMARY" $OUT/sanitizer_perks.log; cat $OUT/summary.txt | tail -3
