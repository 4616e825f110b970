cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
cat REVISION >> $OUT/env.log
t=$SECONDS; timeout 300 bin/cg_bench --reps 9 --stencil-sizes 32,64,128 --large-7 192 --large-27 96 --git-revision "$R" --out $OUT/cg_bench.json > $OUT/cg_bench.log 2>&1; echo "cg_bench rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
cat $OUT/cg_bench.log
t=$SECONDS; timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPersistentStencilCg.StopsAt*:CudaPersistentStencilCg.Breakdown*' > $OUT/sanitizer_memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
t=$SECONDS; timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPersistentStencilCg.StopsAt*:CudaPersistentStencilCg.Breakdown*' > $OUT/sanitizer_racecheck.log 2>&1; echo "racecheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
t=$SECONDS; timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool synccheck bin/test_gpu_backend --gtest_filter='CudaPersistentStencilCg.StopsAt*:CudaPersistentStencilCg.Breakdown*' > $OUT/sanitizer_synccheck.log 2>&1; echo "synccheck rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "SUMMARY" $OUT/sanitizer_*.log
t=$SECONDS; timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "all gpu tests rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
grep -E "\[e2e\] matrix-free" -A0 $OUT/test_gpu_backend.log | head
