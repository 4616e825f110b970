cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$? $((SECONDS-t)) s" >> $S
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 120 $SAN --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaPersistent.ProgramMatches*:CudaPersistent.Batched*' >> $OUT/sanitizer.log 2>&1; echo "sanitizer $tool rc=$? $((SECONDS-t)) s" >> $S
done
t=$SECONDS; timeout 60 bin/program_bench --git-revision $(cat REVISION) --out $OUT/program_bench.json > $OUT/program_bench.log 2>&1; echo "program_bench rc=$? $((SECONDS-t)) s" >> $S
t=$SECONDS; timeout 150 bin/solver_bench --precision f64 --cases wu,persistent --n 255 --git-revision $(cat REVISION) --out $OUT/solver_bench_255.json > $OUT/solver_bench_255.log 2>&1; echo "solver_bench 255 rc=$? $((SECONDS-t)) s" >> $S
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,persistent --n 511 --solve-reps 1 --mg-cycles 5 --git-revision $(cat REVISION) --out $OUT/solver_bench_511.json > $OUT/solver_bench_511.log 2>&1; echo "solver_bench 511 rc=$? $((SECONDS-t)) s" >> $S
cat $S
