# Run 2 (H200): the final revision (run kernel, switch removed). Transfer tests and memcheck on them; the whole GPU suite;
# solver_bench wu,pcg twice; ncu kernel tables of three and six float-cycle PCG-MG iterations (every kernel), for
# kernel_table.py (per iteration = (6 - 3) / 3). Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
FLT='CudaSolverOps.Transfers*:CudaSolverOps.ProlongationRuns*'
t=$SECONDS; timeout 60 bin/test_gpu_backend --gtest_filter="$FLT" > $W/tests_transfer.log 2>&1; echo "transfer tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|Failure|PASSED|differ|written|added" $W/tests_transfer.log | head -10 | tee -a $W/summary.txt
t=$SECONDS; timeout 100 $CS --tool memcheck --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$FLT" > $W/sanitizer_memcheck.log 2>&1; echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | tail -3 | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in 1 2; do
  t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for it in 3 6; do
  t=$SECONDS; timeout 200 $NCU --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_float_$it.csv bin/perksolve $D $B $F solver.stop.max_iterations=$it > $W/ncu_float_$it.log 2>&1; echo "ncu float $it rc=$? (2: stopped on purpose) $((SECONDS-t)) s" | tee -a $W/summary.txt
done
python3 kernel_table.py $W/ncu_float_3.csv $W/ncu_float_6.csv > $W/kernel_table_float.txt 2>&1; cat $W/kernel_table_float.txt | tee -a $W/summary.txt
cd $OUT && gzip -f w/*.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
