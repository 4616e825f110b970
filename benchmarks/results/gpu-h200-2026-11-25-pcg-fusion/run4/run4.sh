# Run 4 (2026-11-25, H200): after the review mend (cg_step removed, one templated-launch helper, cg_advance
# without a runtime 'one'): the GPU tests by default and with the large tier forced in each memory class,
# and solver_bench's PCG cases. Usage: OUT=dir bash run4.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=$mem timeout 120 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaBackendBlas.*' > $W/test_gpu_backend_large_$mem.log 2>&1; echo "test_gpu_backend large $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*.log | head -30
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
