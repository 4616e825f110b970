# Run 3 (H200): grid rows aligned per precision (grid_row_align: 8 fp32 elements = 32 bytes, 32 fp64 elements = 256
# bytes; run 1's sweep-order change removed). The GPU suite, automatic and with the large tier forced; stencil_bench
# twice (each precision on its grid alignment); ncu of fp32 3d7pt (DRAM bytes per sweep, caches kept); perks_bench apply
# and jacobi twice each; solver_bench fp64 and fp32 (wu, mg, pcg); compute-sanitizer memcheck on the stencil and
# Jacobi-pair tests.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
for k in 1 2; do
  t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil_$k.json \
    > $W/stencil_$k.log 2>&1
  echo "stencil_bench $k rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^copy|^in seq|^3d7pt |^3d27pt|^2d5pt " $W/stencil_$k.log | cut -c1-110 | tee -a $S
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
t=$SECONDS; timeout 60 $NCU --clock-control none --cache-control none -k regex:stream_stencil -s 5 -c 2 --metrics $M \
  bin/stencil_bench --cases 3d7pt --precision f32 --default-variant-only --reps 3 --sequence 2 > $W/ncu_3d7pt_f32.log 2>&1
echo "ncu 3d7pt f32 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "gpu__time|dram__" $W/ncu_3d7pt_f32.log | sed -E 's/ +/ /g' | tee -a $S
for k in 1 2; do
  for m in apply jacobi; do
    t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_${m}_$k.json > $W/perks_${m}_$k.log 2>&1
    echo "perks_bench $m $k rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_${m}_$k.log)" | tee -a $S
  done
done
t=$SECONDS; timeout 200 bin/solver_bench --precision both --cases wu,mg,pcg --git-revision "$R" --out $W/solver.json \
  > $W/solver.log 2>&1
echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "^(wu_7pt|mg_vcycle|pcg_mg|cg_iter)" $W/solver.log | cut -c1-120 | tee -a $S
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend \
  > $W/tests_large.log 2>&1
echo "GPU suite, large tier forced rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_large.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_large.log | head -20 | tee -a $S
tar -C $W -cJf $OUT/run3_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; timeout 100 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaJacobiPair.*' \
  > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck CudaBackendStencil.*:CudaJacobiPair.* rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck.log | head -4 | tee -a $S
