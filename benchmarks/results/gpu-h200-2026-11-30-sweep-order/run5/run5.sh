# Run 5 (H200): the fp32 3d7pt tile with 8 stages instead of 10 (run 4's sweep on the fp32 grid rows of 8 elements).
# The GPU suite, automatic and with the large tier forced; stencil_bench twice; perks_bench apply twice and jacobi once;
# compute-sanitizer racecheck and synccheck on the pipelined fp32 plane-tile case (large tier forced).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run5; rm -rf $W; mkdir -p $W
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
  grep -E "^copy|^in seq|^3d|^2d5pt " $W/stencil_$k.log | cut -c1-110 | tee -a $S
done
for m in apply jacobi apply; do
  t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_${m}_$SECONDS.json > $W/perks_${m}_$SECONDS.log 2>&1
  echo "perks_bench $m rc=$? $((SECONDS-t)) s" | tee -a $S
done
grep -h geometric $W/perks_*.log | tee -a $S
grep -hE "^3d7pt +f32" $W/perks_apply_*.log | cut -c1-160 | tee -a $S
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend \
  > $W/tests_large.log 2>&1
echo "GPU suite, large tier forced rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_large.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_large.log | head -20 | tee -a $S
tar -C $W -cJf $OUT/run5_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 90 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter='CudaPerks.PipelinedSanitizerCasePlaneTilesFloat' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool PipelinedSanitizerCasePlaneTilesFloat rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
