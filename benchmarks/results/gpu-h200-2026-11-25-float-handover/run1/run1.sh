# Run 1 (H200): PCG with the multigrid cycle in float, r and z handed over inside CG's own passes (axpby_mixed,
# dot2_mixed, cg_advance_mixed) against the conversion passes (PERKSOLVE_PCG_CONVERT_PASSES=1). All GPU tests;
# solver_bench wu,pcg three times fused and twice with the passes, interleaved; ncu kernel tables of three / six
# float-cycle Chebyshev PCG-MG iterations each way. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
t=$SECONDS; timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 1 bin/test_gpu_backend --gtest_filter='CudaSolverOps.Blas*' > $W/sanitizer_memcheck.log 2>&1; echo "memcheck CudaSolverOps.Blas* rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -hE "SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | tee -a $W/summary.txt
for rep in 1 2 3; do
  for k in fused passes; do
    [ $k = passes ] && [ $rep = 3 ] && continue
    E=0; [ $k = passes ] && E=1
    t=$SECONDS; PERKSOLVE_PCG_CONVERT_PASSES=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${k}_$rep.json > $W/solver_bench_${k}_$rep.log 2>&1; echo "solver_bench $k $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${k}_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
  done
done
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float" solver.stop.rtol=1e-30'
for k in fused passes; do
  E=0; [ $k = passes ] && E=1
  for it in 3 6; do
    t=$SECONDS; PERKSOLVE_PCG_CONVERT_PASSES=$E timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_float_${k}_$it.csv bin/perksolve $D $C solver.stop.max_iterations=$it > $W/ncu_float_${k}_$it.log 2>&1; echo "ncu float $k $it rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
