cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 120 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "gpu tests default rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=$mem timeout 120 bin/test_gpu_backend > $W/test_gpu_backend_large_$mem.log 2>&1; echo "gpu tests large $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_gpu_backend*.log | head -20
for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_MEMORY=$mem timeout 100 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil_bench_$mem.json > $W/stencil_bench_$mem.log 2>&1; echo "stencil_bench $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
paste <(grep -E "^(3d|poisson)" $W/stencil_bench_normal.log | awk '{print $1,$2,$7}') <(grep -E "^(3d|poisson)" $W/stencil_bench_fast.log | awk '{print $7}') | grep -v generic
grep -E "^2d5pt " $W/stencil_bench_*.log
n=0
for F in 'CudaBackendStencil.AllShapesFloat' 'CudaPerks.PipelinedSanitizerCaseFloat'; do
  n=$((n+1))
  for tool in racecheck synccheck memcheck; do
    t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_large_fast_${tool}_$n.log 2>&1; echo "$tool $n ($F, large fast) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
grep -hE "SUMMARY" $W/sanitizer_*.log
t=$SECONDS; timeout 100 bin/perks_bench --reps 5 --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep geometric $W/perks_bench.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
