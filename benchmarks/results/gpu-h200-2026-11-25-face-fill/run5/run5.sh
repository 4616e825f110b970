cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
cat REVISION >> $OUT/env.log
t=$SECONDS; timeout 240 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "all gpu tests rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head -20
t=$SECONDS; timeout 200 bin/cg_bench --reps 9 --stencil-sizes 32,64,128 --large-7 192 --large-27 96 --git-revision "$R" --out $OUT/cg_bench.json > $OUT/cg_bench.log 2>&1; echo "cg_bench rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
tail -25 $OUT/cg_bench.log
