cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
S=$OUT/summary.txt; R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$? $((SECONDS-t)) s" >> $S
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 120 $SAN --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaPersistent.ProgramMatches*:CudaPersistent.Batched*' >> $OUT/sanitizer.log 2>&1; echo "sanitizer $tool rc=$? $((SECONDS-t)) s" >> $S
done
for w in 4096 0 1024 16384; do
t=$SECONDS; timeout 60 bin/program_bench --breakdown --small-work $w --git-revision $R --out $OUT/program_bench_small$w.json > $OUT/program_bench_small$w.log 2>&1; echo "program_bench $w rc=$? $((SECONDS-t)) s" >> $S
done
t=$SECONDS; timeout 150 bin/solver_bench --precision f64 --cases wu,persistent --n 255 --git-revision $R --out $OUT/solver_bench_255.json > $OUT/solver_bench_255.log 2>&1; echo "solver_bench 255 rc=$? $((SECONDS-t)) s" >> $S
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,persistent --n 511 --solve-reps 1 --mg-cycles 5 --git-revision $R --out $OUT/solver_bench_511.json > $OUT/solver_bench_511.log 2>&1; echo "solver_bench 511 rc=$? $((SECONDS-t)) s" >> $S
cat $S; grep -E "^\[  (PASSED|FAILED)|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/test_gpu_backend.log $OUT/sanitizer.log | head -20
paste <(cut -c1-60 $OUT/program_bench_small4096.log) <(cut -c44-60 $OUT/program_bench_small0.log) <(cut -c44-60 $OUT/program_bench_small1024.log) <(cut -c44-60 $OUT/program_bench_small16384.log)
grep -A12 "^case" $OUT/solver_bench_255.log | cut -c1-120; grep -A12 "^case" $OUT/solver_bench_511.log | cut -c1-120
