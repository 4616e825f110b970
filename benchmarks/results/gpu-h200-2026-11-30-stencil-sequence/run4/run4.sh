# Run 4 (H200): the 512 x 4 tiles adopted (fp32 3d7pt apply: 128 x 2 threads x (4 x 2), 10 stages, ~32 items per block,
# one block per SM; fp64 radius-1 non-stars apply: 256 x 2 threads x (2 x 2), ~16 items, one block per SM; every
# launcher of a tile keeps its MAXB). The GPU suite, automatic and with the large tier forced; stencil_bench twice;
# perks_bench apply and jacobi twice each; ncu (DRAM bytes and time) of the fp32 3d7pt and fp64 3d27pt kernels;
# compute-sanitizer memcheck / racecheck / synccheck on the pipelined fp32 sanitizer case and memcheck on the stencil
# tests, large tier forced.
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run4; rm -rf $W; mkdir -p $W
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
  grep -E "^3d7pt |^3d27pt|^poisson|^3d17pt|^2d5pt " $W/stencil_$k.log | cut -c1-100 | tee -a $S
done
for k in 1 2; do
  for m in apply jacobi; do
    t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_${m}_$k.json > $W/perks_${m}_$k.log 2>&1
    echo "perks_bench $m $k rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_${m}_$k.log)" | tee -a $S
  done
done
grep -hE "^(3d7pt|3d27pt|poisson|3d17pt) " $W/perks_apply_1.log | grep -E "saturating|large" | cut -c1-150 | tee -a $S
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend \
  > $W/tests_large.log 2>&1
echo "GPU suite, large tier forced rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_large.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_large.log | head -20 | tee -a $S
tar -C $W -cJf $OUT/run4_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 60 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool PipelinedSanitizerCaseFloat rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 80 $CS --tool memcheck bin/test_gpu_backend \
  --gtest_filter='CudaBackendStencil.*' > $OUT/sanitizer_memcheck_stencil.log 2>&1
echo "compute-sanitizer memcheck CudaBackendStencil.* rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck_stencil.log | head -4 | tee -a $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size
for c in "3d7pt f32" "3d27pt f64"; do
  set -- $c
  t=$SECONDS; timeout 60 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 1 --metrics $M bin/stencil_bench \
    --cases $1 --precision $2 --default-variant-only --reps 3 > $OUT/ncu_$1_$2.log 2>&1
  echo "ncu $1 $2 rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "gpu__time|dram__|launch__" $OUT/ncu_$1_$2.log | sed -E 's/ +/ /g' | tee -a $S
done
