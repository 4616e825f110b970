cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
B=$(cat base/REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "new $R base $B" >> $W/env.log
t=$SECONDS; timeout 240 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "all gpu tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $W/test_gpu_backend.log | head -20
for rep in 1 2; do
  t=$SECONDS; LD_LIBRARY_PATH=$PWD/base/lib:$PWD/lib timeout 100 base/bin/perks_bench --reps 5 --git-revision "$B" --out $W/perks_bench_base_$rep.json > $W/perks_bench_base_$rep.log 2>&1; echo "perks_bench base rep $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  t=$SECONDS; timeout 100 bin/perks_bench --reps 5 --git-revision "$R" --out $W/perks_bench_new_$rep.json > $W/perks_bench_new_$rep.log 2>&1; echo "perks_bench new rep $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -E "geometric" $W/perks_bench_*.log
n=0
for F in 'CudaPerks.JacobiStops*' 'CudaPerks.PipelinedSanitizerCaseFloat' 'CudaPersistentStencilCg.StopsAt*:CudaPersistentStencilCg.Breakdown*:CudaPersistentCg.StopsAt*:CudaPersistentCg.Breakdown*'; do
  n=$((n+1))
  for tool in racecheck memcheck synccheck; do
    t=$SECONDS; timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_${tool}_$n.log 2>&1; echo "$tool $n ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
grep -E "SUMMARY" $W/sanitizer_*.log
for mode in off on; do
  timeout 60 bin/perksolve inputs/poisson3d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "grid.extents=[120,120,120]" solver.stop.max_iterations=5000 solver.stop.rtol=1e-12 monitor.every=1000 >> $W/solver_modes.log 2>&1; echo "jacobi3d 120 $mode rc=$?" >> $W/summary.txt
  for g in "grid.extents=[256,256]" "grid.extents=[1024,1024]"; do
    timeout 60 bin/perksolve inputs/poisson2d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "$g" solver.stop.max_iterations=20000 solver.stop.rtol=1e-12 monitor.every=5000 >> $W/solver_modes.log 2>&1; echo "jacobi2d $g $mode rc=$?" >> $W/summary.txt
  done
done
for g in "grid.extents=[120,120,120]"; do
  LD_LIBRARY_PATH=$PWD/base/lib:$PWD/lib timeout 60 base/bin/perksolve inputs/poisson3d.toml backend.type=\"cuda\" solver.persistent=\"on\" "$g" solver.stop.max_iterations=5000 solver.stop.rtol=1e-12 monitor.every=1000 >> $W/solver_modes_base.log 2>&1; echo "base jacobi3d 120 on rc=$?" >> $W/summary.txt
done
for g in "grid.extents=[256,256]" "grid.extents=[1024,1024]"; do
  LD_LIBRARY_PATH=$PWD/base/lib:$PWD/lib timeout 60 base/bin/perksolve inputs/poisson2d.toml backend.type=\"cuda\" solver.persistent=\"on\" "$g" solver.stop.max_iterations=20000 solver.stop.rtol=1e-12 monitor.every=5000 >> $W/solver_modes_base.log 2>&1; echo "base jacobi2d $g on rc=$?" >> $W/summary.txt
done
grep -E "^grid|did not|converged" $W/solver_modes.log $W/solver_modes_base.log | head -30
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
