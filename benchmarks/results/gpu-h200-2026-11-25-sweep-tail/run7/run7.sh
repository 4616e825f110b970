# Run 7 (H200): after the review tidy (schedule tail only through StencilRequest, env_int, shared cg_advance / dot2
# launchers). All GPU tests, the stencil / solver-op / PERKS tests with each tier and memory class forced, sweep round
# 16 (the tail now set through the request), stencil_bench for 3d7pt (JSON schedule_tail), bad environment values.
# Usage: OUT=dir bash run7.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "PASSED|FAILED|Failure|Expected|Which is|actual" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 150 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaSolverOps.*:CudaPerks*:CudaPersistent*' > $W/tests_${tier}_$mem.log 2>&1; echo "tests $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "PASSED|FAILED" $W/tests_${tier}_$mem.log | head -5 | tee -a $W/summary.txt
done; done
t=$SECONDS; timeout 150 bin/stencil_sweep --reps 15 --only 3d7pt_tail > $W/sweep_round16.log 2>&1; echo "sweep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round16.log | awk '{print $1,$2,$3,$4,$(NF-4),$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $W/summary.txt
t=$SECONDS; timeout 60 bin/stencil_bench --cases 3d7pt --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(3d7pt |copy)" $W/stencil_bench.log | tee -a $W/summary.txt; grep schedule_tail $W/stencil_bench.json | tee -a $W/summary.txt
for e in PERKSOLVE_CUDA_STREAM_TAIL=abc PERKSOLVE_CUDA_STREAM_TAIL=65 PERKSOLVE_PROGRAM_CLUSTER=17; do
  env $e timeout 30 bin/stencil_bench --cases 3d7pt --default-variant-only --reps 2 > $W/bad_env.log 2>&1; echo "$e rc=$?: $(tail -1 $W/bad_env.log)" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
