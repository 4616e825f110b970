# Run 2a (H200): after the slabs were reverted, with the software-pipelined prolongation kernel as the default and the
# schedule-tail test in fp32 too. All GPU tests; the stencil / solver-op / PERKS / persistent-CG tests with each tier
# and memory class forced; the solver-op and solve tests with the batch prolongation (PERKSOLVE_CUDA_PROLONGATION=batch).
# Usage: OUT=dir bash run2a.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "PASSED|FAILED|Failure|Expected|Which is|actual|SKIPPED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
grep -E "OK \] CudaBackendStencil.ScheduleTail" $W/tests_all.log | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 100 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaSolverOps.*:CudaPerks*:CudaPersistentStencilCg.*' > $W/tests_${tier}_$mem.log 2>&1; echo "tests $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "PASSED|FAILED" $W/tests_${tier}_$mem.log | head -5 | tee -a $W/summary.txt
done; done
t=$SECONDS; PERKSOLVE_CUDA_PROLONGATION=batch timeout 100 bin/test_gpu_backend --gtest_filter='CudaSolverOps.*:CudaSolves.*' > $W/tests_batch_prolongation.log 2>&1; echo "tests batch prolongation rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "PASSED|FAILED" $W/tests_batch_prolongation.log | head -5 | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
