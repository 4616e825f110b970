# Run 6 (H200): after the PERKS kernels took their chunk planes from stream_chunk_planes (same arithmetic, no tail
# there) and the g++ 12 -Wrestrict tidy. All GPU tests, the PERKS / persistent CG tests with each tier and memory class
# forced, perks_bench. Usage: OUT=dir bash run6.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "PASSED|FAILED|Failure|Expected|Which is|actual" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks*:CudaPersistent*' > $W/tests_${tier}_$mem.log 2>&1; echo "tests $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "PASSED|FAILED" $W/tests_${tier}_$mem.log | head -5 | tee -a $W/summary.txt
done; done
t=$SECONDS; timeout 100 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geometric" $W/perks_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
