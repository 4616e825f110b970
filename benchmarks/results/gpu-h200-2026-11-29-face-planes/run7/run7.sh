# Run 7 (H200): the review's test mend (all_shapes_test counts the face planes of the short and the long bricks with
# one helper, which now also checks that the radius-1 long bricks take none): CudaPerks.* with the bundle of that commit
# (its library's kernels are run 4's; only comments changed).
# Usage: B=unpacked bundle OUT=dir bash run7.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $OUT/tests_cudaperks.log 2>&1
echo "test_gpu_backend CudaPerks.* rc=$? $((SECONDS-t)) s" | tee $OUT/summary.txt
grep -E "face planes on chip|b on chip|^\[  (PASSED|FAILED)" $OUT/tests_cudaperks.log | tee -a $OUT/summary.txt
