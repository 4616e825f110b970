# Run 1b (H200): the GPU tests with interleaved slabs (default and with each tier and memory class forced), a bad
# PERKSOLVE_CUDA_STREAM_SLABS, and compute-sanitizer (memcheck, racecheck, synccheck) on the schedule tests
# (ScheduleTailFloat: six slabs by default, three forced). Usage: OUT=dir bash run1b.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "PASSED|FAILED|Failure|Expected|Which is|actual" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 100 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaSolverOps.*:CudaPerks*:CudaPersistentStencilCg.*' > $W/tests_${tier}_$mem.log 2>&1; echo "tests $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "PASSED|FAILED" $W/tests_${tier}_$mem.log | head -5 | tee -a $W/summary.txt
done; done
for v in abc 65 -1; do
  PERKSOLVE_CUDA_STREAM_SLABS=$v bin/stencil_bench --cases 3d7pt --precision f64 --default-variant-only --reps 1 > $W/bad_slabs.log 2>&1; echo "PERKSOLVE_CUDA_STREAM_SLABS=$v rc=$?: $(grep -i error $W/bad_slabs.log | head -1)" | tee -a $W/summary.txt
done
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.ScheduleTailFloat' > $W/sanitizer_$tool.log 2>&1; echo "$tool ScheduleTailFloat rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
