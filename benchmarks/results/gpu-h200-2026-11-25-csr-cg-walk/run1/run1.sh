# Run 1 (H200): the staged SpMV walk of the persistent CSR CG (new) against the per-thread walk of the same build
# (PERKSOLVE_CUDA_CG_WALK=per_thread); the whole GPU suite; compute-sanitizer on the staged-walk tests.
# Layout: /tmp/b/new/bundle. Usage: OUT=dir bash run1.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle
R=$(cat $N/REVISION)
echo "new $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for rep in 1 2; do
  for walk in staged per_thread; do
    t=$SECONDS; PERKSOLVE_CUDA_CG_WALK=$walk timeout 120 $N/bin/cg_bench --reps 9 --stencil-sizes 32 --large-7 192 --large-27 96 --git-revision "$R" --out $W/cg_bench_${walk}_$rep.json > $W/cg_bench_${walk}_$rep.log 2>&1
    echo "cg_bench $walk rep $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(laplace7_192|laplace27_96) " $W/cg_bench_${walk}_$rep.log | head -4 | tee -a $W/summary.txt
  done
done
for walk in staged per_thread; do
  t=$SECONDS; PERKSOLVE_CUDA_CG_WALK=$walk timeout 120 $N/bin/cg_bench --reps 9 --stencil-sizes 32 --large-7 128 --large-27 0 --git-revision "$R" --out $W/cg_bench_128_${walk}.json > $W/cg_bench_128_${walk}.log 2>&1
  echo "cg_bench 128 $walk rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^laplace7_128 " $W/cg_bench_128_${walk}.log | head -2 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 200 $N/bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]|SKIPPED \]" $W/tests_all.log | tee -a $W/summary.txt
grep -E "staged walk" $W/tests_all.log | tee -a $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 150 $CS --tool $tool --error-exitcode 1 $N/bin/test_gpu_backend --gtest_filter='CudaPersistentCg.StagedWalk*' > $W/sanitizer_$tool.log 2>&1; echo "$tool StagedWalk* rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
