# Run 6 (H200): run 4's library with the pipelined PERKS kernel's fp32 3d7pt apply back on the 256 x 12 tile (two
# blocks per SM, 16 items: pipelined_tune), the per-sweep kernel on the 512 x 4 one. The GPU suite; perks_bench apply
# twice and jacobi once; stencil_bench once; compute-sanitizer racecheck and synccheck on
# CudaPerks.PipelinedSanitizerCasePlaneTilesFloat, large tier forced.
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
for m in apply jacobi apply; do
  k=$(ls $W | grep -c "perks_$m") 
  t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_${m}_$k.json > $W/perks_${m}_$k.log 2>&1
  echo "perks_bench $m $k rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_${m}_$k.log)" | tee -a $S
  grep -hE "^3d7pt " $W/perks_${m}_$k.log | grep -E "saturating|large" | cut -c1-130 | tee -a $S
done
t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil.json > $W/stencil.log 2>&1
echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "^3d7pt |^3d27pt|^poisson|^3d17pt|^2d5pt " $W/stencil.log | cut -c1-100 | tee -a $S
tar -C $W -cJf $OUT/run6_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter='CudaPerks.PipelinedSanitizerCasePlaneTilesFloat' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool PipelinedSanitizerCasePlaneTilesFloat rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
