# Run 4 (H200): partial sums finished by the producing kernel's last block (apply_dot's p.q, the r update's r.r, the
# pair kernel's r.z) instead of a finishing kernel. The whole GPU suite with it, and the sum tests without it
# (PERKSOLVE_CUDA_SUMS_IN_KERNEL=0); memcheck and racecheck on the sum tests; solver_bench wu,pcg alternating with
# the switch off, twice each; ncu at real clocks of every kernel of the float-cycle solve (3 and 6 iterations).
# Usage: OUT=dir bash run4.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
SUMS='CudaSolverOps.Blas*:CudaJacobiPair.Dot*:CudaBackendStencil.AllShapes*:CudaBackendBlas.*:CudaSolves.PcgMultigridFloatCycle:CudaSolves.PcgMultigridDirectCoarse:CudaSolves.CG'
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
t=$SECONDS; PERKSOLVE_CUDA_SUMS_IN_KERNEL=0 timeout 100 bin/test_gpu_backend --gtest_filter="$SUMS" > $W/tests_sums_off.log 2>&1; echo "test_gpu_backend sums in kernel off rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -1 $W/tests_sums_off.log | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
SAN='CudaSolverOps.Blas*:CudaJacobiPair.Dot*:CudaBackendBlas.*'
for tool in memcheck racecheck; do
  t=$SECONDS; timeout 120 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$SAN" > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
bench() {  # label, env assignments...
  local label=$1; shift
  t=$SECONDS; env "$@" timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$label.json > $W/solver_bench_$label.log 2>&1; echo "solver_bench $label rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_$label.log | awk -v l=$label '{print l,$1,$5,$6,$9,$10}' | tee -a $W/summary.txt
}
bench new1
bench finish_kernel1 PERKSOLVE_CUDA_SUMS_IN_KERNEL=0
bench new2
bench finish_kernel2 PERKSOLVE_CUDA_SUMS_IN_KERNEL=0
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for it in 3 6; do
  t=$SECONDS; timeout 200 $NCU --clock-control none --metrics $M --csv --log-file $W/ncu_float_$it.csv bin/perksolve $D $B $F solver.stop.max_iterations=$it > $W/ncu_float_$it.log 2>&1; echo "ncu float $it iterations rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/*.csv w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
