# Run 4 (2026-11-25, H200): multigrid transfers walked by rows. GPU tests, sanitizers on the transfer and
# persistent-program tests, solver_bench (WU, PCG-MG, the Chebyshev exploration), ncu kernel table of three Jacobi
# PCG-MG iterations. Usage: OUT=dir bash run4.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*.log | head -30
F='CudaSolverOps.Transfers*:CudaPersistent.*Matches*'
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_$tool.log 2>&1; echo "$tool ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY" $W/sanitizer_*.log
t=$SECONDS; timeout 300 bin/solver_bench --precision f64 --cases wu,pcg,explore --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log | awk '{print $1,$4,$5,$6,$9,$11}'
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
for it in 3 6; do
  t=$SECONDS; timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_jacobi_run_$it.csv bin/perksolve $D $C solver.stop.max_iterations=$it > $W/ncu_jacobi_run_$it.log 2>&1; echo "ncu jacobi $it rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
