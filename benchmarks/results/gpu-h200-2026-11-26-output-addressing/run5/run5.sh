# Run 5 (H200): completes run 4, which hit the 600 s limit (racecheck takes ~100 s per test) and lost its test logs:
# CudaBackendStencil.* (LargeGrid now at x = 600) in the automatic mode and with the bulk tiers forced, then the Float
# halves of the racecheck runs. Logs go straight to $OUT (all.log, summary.txt). Usage: OUT=dir bash run5.sh
cd "$(dirname "$0")"
R=$(cat REVISION)
S=$OUT/summary.txt; A=$OUT/all.log
echo "revision $R" > $S; nvidia-smi --query-gpu=name,driver_version --format=csv >> $S 2>&1
for mode in default large_fast medium_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then timeout 60 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $OUT/t.log 2>&1
  else PERKSOLVE_CUDA_WIDE_TILE=${mode%_*} PERKSOLVE_CUDA_MEMORY=${mode#*_} timeout 60 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $OUT/t.log 2>&1; fi
  echo "CudaBackendStencil.* $mode rc=$? $((SECONDS-t)) s: $(tail -1 $OUT/t.log)" >> $S
  grep -E "^\[  FAILED" $OUT/t.log | head >> $S; echo "### tests $mode" >> $A; cat $OUT/t.log >> $A
done
rm -f $OUT/t.log
san() {  # label env tool filter
  local label=$1 envs=$2 tool=$3 filter=$4 extra=
  [[ $tool == racecheck ]] && extra="--racecheck-report all"
  t=$SECONDS; env $envs timeout 130 compute-sanitizer --tool $tool $extra --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$filter" > $OUT/s.log 2>&1
  echo "compute-sanitizer $tool $label ($envs, $filter) rc=$? $((SECONDS-t)) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/s.log | tail -1)" >> $S
  echo "### sanitizer $tool $label $filter" >> $A; cat $OUT/s.log >> $A; rm -f $OUT/s.log
}
san large_fast "PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast" racecheck 'CudaBackendStencil.AllShapesFloat'
san pipelined_large "PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast" racecheck 'CudaPerks.PipelinedSanitizerCaseFloat'
san pipelined_large "PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast" synccheck 'CudaPerks.PipelinedSanitizerCase*'
san medium_fast "PERKSOLVE_CUDA_WIDE_TILE=medium PERKSOLVE_CUDA_MEMORY=fast" racecheck 'CudaBackendStencil.AllShapesFloat'
