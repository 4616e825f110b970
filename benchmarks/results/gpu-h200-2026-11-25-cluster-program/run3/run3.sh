# Run 3 (H200): run 2 again after two fixes of the folded face fills (exact only with physical faces on both sides of every axis with ghosts; constant ghosts need no second pass over the cells)
# All GPU tests; program_bench --breakdown; the traced coarse-level program and
# solver_bench case persistent at 255^3 (grid and one cluster of 16 blocks).
# Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$?" | tee -a $W/summary.txt
grep -E "FAILED|PASSED|SKIPPED \]" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
for c in 0 16 8; do
  timeout 60 bin/program_bench --breakdown --cluster $c --git-revision "$R" --out $W/program_bench_cluster$c.json > $W/program_bench_cluster$c.log 2>&1; echo "program_bench cluster $c rc=$?" | tee -a $W/summary.txt
  PERKSOLVE_PROGRAM_CLUSTER=$c PERKSOLVE_PROGRAM_TRACE=$W/trace_cluster$c.txt timeout 100 bin/solver_bench --n 255 --precision f64 --cases persistent --persistent-cells 32768 --solve-reps 1 > $W/solver_bench_trace_cluster$c.log 2>&1; echo "trace cluster $c rc=$?" | tee -a $W/summary.txt
  grep "^ sum" $W/trace_cluster$c.txt | tee -a $W/summary.txt
  t=$SECONDS; PERKSOLVE_PROGRAM_CLUSTER=$c timeout 120 bin/solver_bench --n 255 --precision f64 --cases persistent --persistent-cells 0,32768 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_persistent_255_cluster$c.json > $W/solver_bench_persistent_255_cluster$c.log 2>&1; echo "solver_bench persistent 255 cluster $c rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(mg_|pcg)" $W/solver_bench_persistent_255_cluster$c.log | awk '{print $1,$3,$4,$5,$6,$9}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
