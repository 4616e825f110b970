# Run 3 (H200): CG from x0 = 0 takes r = b in the pass that rounds it and sums r.r (no residual pass). The whole GPU
# suite; memcheck on the PCG-MG solves; solver_bench wu,pcg alternating with PERKSOLVE_CG_ZERO_START=0, twice each.
# Usage: OUT=dir bash run3.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
t=$SECONDS; timeout 120 $CS --tool memcheck --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaSolves.PcgMultigridDirectCoarse:CudaSolves.PcgMultigridFloatCycle:CudaSolves.PcgMultigrid:CudaSolverOps.SpmvCells*' > $W/sanitizer_memcheck.log 2>&1; echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck.log | tail -3 | tee -a $W/summary.txt
bench() {  # label, env assignments...
  local label=$1; shift
  t=$SECONDS; env "$@" timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$label.json > $W/solver_bench_$label.log 2>&1; echo "solver_bench $label rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_$label.log | awk -v l=$label '{print l,$1,$5,$6,$9,$10}' | tee -a $W/summary.txt
}
bench new1
bench residual1 PERKSOLVE_CG_ZERO_START=0
bench new2
bench residual2 PERKSOLVE_CG_ZERO_START=0
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=1 solver.preconditioner.coarse.type="direct"'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
bin/perksolve $D $B $F > $W/float_cycle_255.log 2>&1; echo "perksolve float cycle 255^3 rc=$?" | tee -a $W/summary.txt
grep -E "converged|true relative|r = b" $W/float_cycle_255.log | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
