# Run 1 (H200): CG's dot products ride on neighbouring passes (r.r on the r update, r.z on the cycle's last pass,
# Backend sum slots) against the dot2 pass (PERKSOLVE_PCG_DOTS_IN_PASSES=0), the same binary. Pair tests (with
# CudaJacobiPair.Dot*) and the BLAS tests (the norm slots), compute-sanitizer racecheck / synccheck / memcheck on them,
# the whole GPU suite; solver_bench wu,pcg: in passes, dot2, in passes, dot2; ncu of the pair kernels and CG's
# point-wise kernels over three float-cycle PCG-MG iterations, both ways. Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
FILTER='CudaJacobiPair.*:CudaSolverOps.Blas*'
t=$SECONDS; timeout 60 bin/test_gpu_backend --gtest_filter="$FILTER" > $W/tests_pair.log 2>&1; echo "pair + blas tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|Failure|PASSED|differ|written" $W/tests_pair.log | head -10 | tee -a $W/summary.txt
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; timeout 120 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$FILTER" > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in passes_1 dot2_1 passes_2 dot2_2; do
  E=1; [ ${k%_*} = dot2 ] && E=0
  t=$SECONDS; PERKSOLVE_PCG_DOTS_IN_PASSES=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30 solver.stop.max_iterations=3'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for k in passes dot2; do
  E=1; [ $k = dot2 ] && E=0
  t=$SECONDS; PERKSOLVE_PCG_DOTS_IN_PASSES=$E timeout 60 $NCU -k regex:"jacobi_pair|axpby|dot|finish|cg_advance" --metrics $M --csv --log-file $W/ncu_float_$k.csv bin/perksolve $D $B $F > $W/ncu_float_$k.log 2>&1; echo "ncu float $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/*.csv w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
