# Run 1 (H200): which kernel makes PCG-MG slower on grid rows of one 32-byte sector (session 48: fp32 PCG-MG direct
# 4.03-4.05 ms on rows of 8 floats against 3.82-3.85 on rows of 32; the V-cycle alone is not slower). ncu kernel
# durations per kernel name and grid of solver_bench fp32 `--cases persistent --persistent-cells 0` (V(2,2) cycle with
# the direct coarse solve, then PCG-MG with it) with the rows forced to 8 and to 32 floats, twice each, alternating;
# and the stencil tests of the GPU suite, which now also run every shape on rows of 4 elements.
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 200 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $W/tests_stencil.log 2>&1
echo "GPU stencil tests rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_stencil.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_stencil.log | head -20 | tee -a $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in 1 2; do
  for a in 8 32; do
    t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 150 $NCU --clock-control none --metrics gpu__time_duration.sum \
      --print-summary per-kernel bin/solver_bench --precision f32 --cases persistent --persistent-cells 0 \
      --solve-reps 1 --mg-cycles 3 --reps 5 --warmup-s 0 > $W/ncu_a${a}_$k.log 2>&1
    echo "ncu solver_bench fp32 persistent-cells 0, rows $a, run $k: rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
for a in 8 32; do
  t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 100 bin/solver_bench --precision f32 --cases persistent \
    --persistent-cells 0 --git-revision "$R" --out $W/solver_a$a.json > $W/solver_a$a.log 2>&1
  echo "solver_bench fp32 persistent-cells 0, rows $a: rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E '^(mg_|pcg_)' $W/solver_a$a.log | tee -a $S
done
tar -C $W -cJf $OUT/run1_logs.tar.xz .
