cd "$(dirname "$0")"
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
cat REVISION >> $OUT/env.log
t=$SECONDS; timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "all gpu tests rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
t=$SECONDS; timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.JacobiStops*' > $OUT/sanitizer_memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep SUMMARY $OUT/sanitizer_memcheck.log
t=$SECONDS; timeout 200 bin/perks_bench --reps 5 --git-revision "$R" --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "geometric" $OUT/perks_bench.log
