cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "tests rc=$? $((SECONDS-t)) s"
grep -E "^\[  (PASSED|FAILED)|FAILED|\[persistent\]" $OUT/test_gpu_backend.log | head
timeout 200 bin/solver_bench --precision f64 --cases wu,mg,pcg --n 255 --git-revision $R --out $OUT/solver_bench_255_default.json > $OUT/solver_bench_255_default.log 2>&1; echo "solver_bench rc=$?"
grep -A8 "^case" $OUT/solver_bench_255_default.log | cut -c1-118
timeout 200 bin/solver_bench --precision f64 --cases wu,persistent --n 511 --solve-reps 2 --mg-cycles 10 --persistent-cells 0,32768,262144 --git-revision $R --out $OUT/solver_bench_511.json > $OUT/solver_bench_511.log 2>&1; echo "solver_bench 511 rc=$?"
grep -A8 "^case" $OUT/solver_bench_511.log | cut -c1-118
