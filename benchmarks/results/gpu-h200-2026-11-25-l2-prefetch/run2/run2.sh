# Run 2 (H200): after the prolongation fix (no stack frame) and the row-kernel helpers (same PTX): all GPU tests,
# memcheck / synccheck on the transfer and program tests, solver_bench wu,pcg three times, ncu kernel table of three
# Jacobi PCG-MG iterations (the prolongation kernel's time), perks_bench. Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
F='CudaSolverOps.Transfers*:CudaPersistent.ProgramMatches*:CudaBackend*Blas*:CudaSolverOps.*'
for tool in memcheck synccheck; do
  t=$SECONDS; timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_$tool.log 2>&1; echo "$tool ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY|PASSED|FAILED" $W/sanitizer_*.log | tee -a $W/summary.txt
for rep in 1 2 3; do
  t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$rep.json > $W/solver_bench_$rep.log 2>&1; echo "solver_bench $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
for it in 3 6; do
  t=$SECONDS; timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_jacobi_run_$it.csv bin/perksolve $D $C solver.stop.max_iterations=$it > $W/ncu_jacobi_run_$it.log 2>&1; echo "ncu jacobi $it rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
t=$SECONDS; timeout 60 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geomean|geometric" $W/perks_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
