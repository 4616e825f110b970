cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
cat REVISION >> $OUT/env.log
t=$SECONDS; timeout 240 bin/test_gpu_backend --gtest_filter='CudaPerks.*:CudaPerksModel*' > $OUT/test_perks.log 2>&1; echo "perks tests rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED|Failure|differ" $OUT/test_perks.log | head -20
t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*Case*:CudaPerks.JacobiStops*' > $OUT/sanitizer_memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck.log | head
t=$SECONDS; timeout 200 bin/perks_bench --reps 5 --git-revision "$R" --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "geometric" $OUT/perks_bench.log
t=$SECONDS; timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.JacobiStops*:CudaPerks.PipelinedSanitizerCaseFloat' > $OUT/sanitizer_racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
t=$SECONDS; timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool synccheck bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*Case*:CudaPerks.JacobiStops*' > $OUT/sanitizer_synccheck.log 2>&1; echo "synccheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "SUMMARY" $OUT/sanitizer_racecheck.log $OUT/sanitizer_synccheck.log
t=$SECONDS; timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "all gpu tests rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
