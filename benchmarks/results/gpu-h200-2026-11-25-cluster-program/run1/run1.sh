# Run 1 (H200): where a persistent program's time goes (PERKSOLVE_PROGRAM_TRACE) and the program on one
# thread-block cluster instead of the cooperative grid (PERKSOLVE_PROGRAM_CLUSTER): GPU tests of the programs,
# program_bench --breakdown per shape, solver_bench case persistent at 255^3 per shape (issue 6 item 4).
# Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
timeout 120 bin/test_gpu_backend --gtest_filter='CudaPersistent.*' > $W/tests_persistent.log 2>&1; echo "tests persistent rc=$?" | tee -a $W/summary.txt
tail -3 $W/tests_persistent.log
for c in 0 16 8 1; do
  timeout 60 bin/program_bench --breakdown --cluster $c --git-revision "$R" --out $W/program_bench_cluster$c.json > $W/program_bench_cluster$c.log 2>&1; echo "program_bench cluster $c rc=$?" | tee -a $W/summary.txt
done
for c in 0 16; do
  PERKSOLVE_PROGRAM_TRACE=$W/trace_cluster$c.txt timeout 100 bin/solver_bench --n 255 --precision f64 --cases persistent --persistent-cells 32768 --solve-reps 1 > $W/solver_bench_trace_cluster$c.log 2>&1; echo "trace cluster $c rc=$?" | tee -a $W/summary.txt
done
for c in 0 16 8; do
  t=$SECONDS; PERKSOLVE_PROGRAM_CLUSTER=$c timeout 120 bin/solver_bench --n 255 --precision f64 --cases persistent --persistent-cells 0,32768 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_persistent_255_cluster$c.json > $W/solver_bench_persistent_255_cluster$c.log 2>&1; echo "solver_bench persistent 255 cluster $c rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(mg_|pcg)" $W/solver_bench_persistent_255_cluster$c.log | awk '{print $1,$3,$4,$5,$6,$9}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
