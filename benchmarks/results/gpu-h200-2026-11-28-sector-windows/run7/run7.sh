# Run 7 (H200): compute-sanitizer racecheck, synccheck and memcheck on the pipelined PERKS kernel with the narrow 2D row
# tile (CudaPerks.PipelinedSanitizerCaseRowTileFloat: 2d13pt fp32 on the 5000-column grid, apply and Jacobi), which run
# 6's larger float case could not finish under racecheck within 150 s.
# Usage: B=unpacked bundle OUT=dir bash run7.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
W=/tmp/run7; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 70 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter='CudaPerks.PipelinedSanitizerCaseRowTileFloat' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -4 | tee -a $S
done
tar -C $W -cJf $OUT/run7_logs.tar.xz .
