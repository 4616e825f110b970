# Run 5 (H200): compute-sanitizer racecheck and synccheck on the 512 x 4 tiles (run 4's library), large tier forced:
# CudaPerks.PipelinedSanitizerCasePlaneTiles{Float,Double} (pipelined fp32 3d7pt / fp64 3d27pt against the per-sweep
# kernels on the same tiles; run 4's racecheck of the five-shape fp32 case ran out of its minute).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for p in Float Double; do
  for tool in racecheck synccheck; do
    t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 230 $CS --tool $tool \
      bin/test_gpu_backend --gtest_filter="CudaPerks.PipelinedSanitizerCasePlaneTiles$p" > $OUT/sanitizer_${tool}_$p.log 2>&1
    echo "compute-sanitizer $tool PipelinedSanitizerCasePlaneTiles$p rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_${tool}_$p.log | head -4 | tee -a $S
  done
done
