# Run 5, second call (H200, the same bundle): compute-sanitizer racecheck and synccheck on the row-walk tests with the
# block-wide grid sums (PERKSOLVE_CUDA_CG_ROWS_SUMS=block), memcheck on every persistent CG test with them.
# Usage: B=unpacked bundle OUT=dir bash run5_sanitizers.sh
set -u
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback PERKSOLVE_CUDA_CG_ROWS_SUMS=block
S=$OUT/summary_sanitizers.txt; : > $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPersistentCg.RowsWalkSpmv*:CudaPersistentCg.RowsWalkMatchesOperationLoopFloat'; lim=150
  [ $tool = memcheck ] && { f='CudaPersistentCg.*'; lim=100; }
  t=$SECONDS; timeout $lim $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
