# Run 4 (H200): the changed streaming kernels under compute-sanitizer (memcheck, racecheck, synccheck) with the bulk
# tiers forced, and LargeGrid (now x = 600: several tile columns) in every tier mode. Usage: OUT=dir bash run4.sh
cd "$(dirname "$0")"
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for mode in default large_fast medium_fast large_normal medium_normal; do
  t=$SECONDS
  if [[ $mode == default ]]; then timeout 100 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $W/tests_$mode.log 2>&1
  else PERKSOLVE_CUDA_WIDE_TILE=${mode%_*} PERKSOLVE_CUDA_MEMORY=${mode#*_} timeout 100 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $W/tests_$mode.log 2>&1; fi
  echo "CudaBackendStencil.* $mode rc=$? $((SECONDS-t)) s: $(tail -1 $W/tests_$mode.log)" | tee -a $W/summary.txt
  grep -E "^\[  FAILED" $W/tests_$mode.log | head | tee -a $W/summary.txt
done
san() {  # label env tool filter
  local label=$1 envs=$2 tool=$3 filter=$4 extra=
  [[ $tool == racecheck ]] && extra="--racecheck-report all"
  t=$SECONDS; env $envs timeout 150 compute-sanitizer --tool $tool $extra --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$filter" > $W/sanitizer_${label}_$tool.log 2>&1
  echo "compute-sanitizer $tool $label ($envs, $filter) rc=$? $((SECONDS-t)) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/sanitizer_${label}_$tool.log | tail -1)" | tee -a $W/summary.txt
}
for tool in memcheck racecheck synccheck; do
  san large_fast "PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast" $tool 'CudaBackendStencil.AllShapes*'
done
san medium_fast "PERKSOLVE_CUDA_WIDE_TILE=medium PERKSOLVE_CUDA_MEMORY=fast" racecheck 'CudaBackendStencil.AllShapes*'
san medium_fast "PERKSOLVE_CUDA_WIDE_TILE=medium PERKSOLVE_CUDA_MEMORY=fast" memcheck 'CudaBackendStencil.AllShapes*'
san default "PERKSOLVE_CUDA_WIDE_TILE=" memcheck 'CudaBackendStencil.AllShapes*:CudaBackendStencil.GenericKernel*:CudaBackendBlas.*:CudaBackendHalo.*:CudaBackendBoundary.*'
for tool in racecheck synccheck; do
  san pipelined_large "PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast" $tool 'CudaPerks.PipelinedSanitizerCase*'
done
cd $OUT && gzip -f w/*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
