# Run 2 (H200, after run 1: 16-byte row copies, one barrier per plane): multigrid's Jacobi sweeps two per pass (Backend::jacobi_update_pair, the pair kernel of
# framework/backends/cuda/jacobi_pair.cuh) against the sweeps one by one (PERKSOLVE_MG_SWEEP_PAIRS=0). The pair tests,
# then the whole GPU suite; sanitizers on the pair tests; solver_bench wu,pcg twice each way, interleaved; ncu kernel
# tables of three float-cycle Chebyshev PCG-MG iterations and three double V(2,2) Jacobi ones, each way.
# Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 60 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/tests_pair.log 2>&1; echo "pair tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|Failure|PASSED|differ|written" $W/tests_pair.log | head -20 | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -3 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
for rep in 1 2; do
  for k in pairs single; do
    E=1; [ $k = single ] && E=0
    t=$SECONDS; PERKSOLVE_MG_SWEEP_PAIRS=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${k}_$rep.json > $W/solver_bench_${k}_$rep.log 2>&1; echo "solver_bench $k $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${k}_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
  done
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30 solver.stop.max_iterations=3'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
for k in pairs single; do
  E=1; [ $k = single ] && E=0
  t=$SECONDS; PERKSOLVE_MG_SWEEP_PAIRS=$E timeout 150 /usr/local/cuda/bin/ncu -k regex:"jacobi_pair|stream_stencil|scale_kernel|prolongate|restrict" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_float_$k.csv bin/perksolve $D $B $F > $W/ncu_float_$k.log 2>&1; echo "ncu float $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  t=$SECONDS; PERKSOLVE_MG_SWEEP_PAIRS=$E timeout 150 /usr/local/cuda/bin/ncu -k regex:"jacobi_pair|stream_stencil|scale_kernel|prolongate|restrict" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_double_$k.csv bin/perksolve $D $B > $W/ncu_double_$k.log 2>&1; echo "ncu double $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
