# Run 1 (H200): multigrid ghost-refresh skipping and the fine-pair prolongation kernel. All GPU tests (default, and
# with the cell prolongation kernel), memcheck / synccheck / racecheck on the transfer tests, solver_bench wu,pcg
# three times with each prolongation kernel, ncu kernel tables of three / six Jacobi PCG-MG iterations with each
# kernel. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
t=$SECONDS; PERKSOLVE_CUDA_PROLONGATION=cells timeout 150 bin/test_gpu_backend > $W/tests_cells.log 2>&1; echo "tests cells rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_cells.log | tail -5 | tee -a $W/summary.txt
F='CudaSolverOps.Transfers*:CudaSolverOps.Prolongation*:CudaPersistent.ProgramMatches*'
for tool in memcheck synccheck racecheck; do
  t=$SECONDS; timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_$tool.log 2>&1; echo "$tool ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY|PASSED|FAILED" $W/sanitizer_*.log | tee -a $W/summary.txt
for rep in 1 2 3; do
  for k in pairs cells; do
    t=$SECONDS; PERKSOLVE_CUDA_PROLONGATION=$k timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${k}_$rep.json > $W/solver_bench_${k}_$rep.log 2>&1; echo "solver_bench $k $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${k}_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
  done
done
t=$SECONDS; PERKSOLVE_MG_REFRESH_ALL_GHOSTS=1 timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_allghosts.json > $W/solver_bench_allghosts.log 2>&1; echo "solver_bench all-ghosts rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_allghosts.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
for k in pairs cells; do
  for it in 3 6; do
    t=$SECONDS; PERKSOLVE_CUDA_PROLONGATION=$k timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_jacobi_${k}_$it.csv bin/perksolve $D $C solver.stop.max_iterations=$it > $W/ncu_jacobi_${k}_$it.log 2>&1; echo "ncu jacobi $k $it rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
