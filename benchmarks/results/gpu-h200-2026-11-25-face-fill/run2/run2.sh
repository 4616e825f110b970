cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
B=$(cat base/REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
echo "new $R base $B" >> $OUT/env.log
for rep in 1 2; do
  t=$SECONDS; LD_LIBRARY_PATH=$PWD/base/lib:$PWD/lib timeout 100 base/bin/perks_bench --reps 5 --git-revision "$B" --out $OUT/perks_bench_base_$rep.json > $OUT/perks_bench_base_$rep.log 2>&1; echo "perks_bench base rep $rep rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
  t=$SECONDS; timeout 100 bin/perks_bench --reps 5 --git-revision "$R" --out $OUT/perks_bench_new_$rep.json > $OUT/perks_bench_new_$rep.log 2>&1; echo "perks_bench new rep $rep rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
done
grep -E "geometric" $OUT/perks_bench_*.log
n=0
for F in 'CudaPerks.JacobiStops*' 'CudaPerks.PipelinedSanitizerCaseFloat' 'CudaPersistentStencilCg.StopsAt*:CudaPersistentStencilCg.Breakdown*:CudaPersistentCg.StopsAt*:CudaPersistentCg.Breakdown*'; do
  n=$((n+1))
  t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck bin/test_gpu_backend --gtest_filter="$F" > $OUT/sanitizer_racecheck_$n.log 2>&1; echo "racecheck $n ($F) rc=$? $((SECONDS-t)) s" | tee -a $OUT/summary.txt
done
grep -E "SUMMARY|PASSED|FAILED" $OUT/sanitizer_*.log
