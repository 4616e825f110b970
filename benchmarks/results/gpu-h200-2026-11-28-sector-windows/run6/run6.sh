# Run 6 (H200): the session's final tree. Runs 4-5's GPU test of the narrow row tile used 2600 columns, where the
# 2048-wide tile does not fit (tile_fits: padding above 25 %) and the automatic choice never reaches the narrow tile; the
# tests now use 5000 columns (6144 against 5120), in CudaBackendStencil.RowTileByWidth* and in the PERKS tests' wide 2D
# grid, and the float pipelined sanitizer case includes 2d13pt. The GPU suite (automatic and large tier forced);
# compute-sanitizer memcheck and racecheck on the row-tile test and the float pipelined sanitizer case.
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 120 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter='CudaBackendStencil.RowTileByWidthFloat:CudaPerks.PipelinedSanitizerCaseFloat' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -4 | tee -a $S
done
tar -C $W -cJf $OUT/run6_logs.tar.xz .
