# Run 2 (H200): the short schedule tail as the default (kStreamTailDiv = 4). All GPU tests (default, and the
# stencil tests with each tier and memory class forced), stencil_bench over every shape with the production kernels,
# the tail switched off (PERKSOLVE_CUDA_STREAM_TAIL=0) for 3d7pt / 3d27pt_sym / 2d5pt in the same run, sweep round 16
# again, and a bad PERKSOLVE_CUDA_STREAM_TAIL value. Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "tests ran|PASSED|FAILED|Failure|Expected|Which is|actual" $W/tests_all.log | head -20 | tee -a $W/summary.txt
grep -E "ScheduleTail" $W/tests_all.log | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 120 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $W/tests_${tier}_$mem.log 2>&1; echo "tests stencil $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "PASSED|FAILED" $W/tests_${tier}_$mem.log | head -5 | tee -a $W/summary.txt
done; done
t=$SECONDS; timeout 150 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(3d7pt |3d27pt_sym|2d5pt |copy)" $W/stencil_bench.log | tee -a $W/summary.txt
t=$SECONDS; PERKSOLVE_CUDA_STREAM_TAIL=0 timeout 100 bin/stencil_bench --cases 3d7pt,3d27pt_sym,2d5pt --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench_notail.json > $W/stencil_bench_notail.log 2>&1; echo "stencil_bench tail off rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(3d7pt |3d27pt_sym|2d5pt |copy)" $W/stencil_bench_notail.log | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/stencil_sweep --reps 15 --only 3d7pt_tail > $W/sweep_round16.log 2>&1; echo "sweep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round16.log | awk '{print $1,$2,$3,$4,$(NF-4),$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $W/summary.txt
PERKSOLVE_CUDA_STREAM_TAIL=abc timeout 30 bin/stencil_bench --cases 3d7pt --default-variant-only --reps 2 > $W/bad_env.log 2>&1; echo "bad PERKSOLVE_CUDA_STREAM_TAIL rc=$?" | tee -a $W/summary.txt
tail -2 $W/bad_env.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
