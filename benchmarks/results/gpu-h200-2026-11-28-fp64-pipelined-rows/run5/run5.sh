# Run 5 (H200): compute-sanitizer on the kernels that rotate their partial sums (run 4's library, plus the test
# CudaPerks.PipelinedSanitizerCaseRowTileDouble: the fp64 pipelined kernel on the rotating row tiles, 5000 x 40 rows):
# the new test plainly, then racecheck, synccheck and memcheck on it; racecheck on the per-sweep row-tile tests
# (CudaBackendStencil.RowTileByWidth*, 5000 x 400: the rotating tiles of 2d13pt, 2d25pt and 2ds25pt in both precisions).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
F='CudaPerks.PipelinedSanitizerCaseRowTileDouble'
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 60 bin/test_gpu_backend --gtest_filter=$F > $W/plain.log 2>&1
echo "plain $F rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/plain.log | tee -a $S
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter=$F > $W/sanitizer_${tool}_pipelined.log 2>&1
  echo "compute-sanitizer $tool $F rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "SUMMARY|PASSED|FAILED" $W/sanitizer_${tool}_pipelined.log | head -3 | tee -a $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.RowTileByWidth*' > $W/sanitizer_racecheck_rowtile.log 2>&1
echo "compute-sanitizer racecheck RowTileByWidth* rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "SUMMARY|PASSED|FAILED" $W/sanitizer_racecheck_rowtile.log | head -3 | tee -a $S
tar -C $W -cJf $OUT/run5_logs.tar.xz .
