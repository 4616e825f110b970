# Run 1 (H200): the prolongation by runs of contiguous fine cells per lane (prolongate_run_kernel) against the per-cell
# kernel (PERKSOLVE_CUDA_PROLONGATE_CELLS=1). Transfer tests (with the new CudaSolverOps.ProlongationRuns*); memcheck
# on them; the whole GPU suite; solver_bench wu,pcg each way, interleaved, twice; ncu of three PCG-MG iterations
# (float cycle and double cycle; prolongation kernels) each way.
# Usage: OUT=dir bash run1.sh (in the bundle)
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
for k in runs_1 cells_1 runs_2 cells_2; do
  E=0; [ ${k%_*} = cells ] && E=1
  t=$SECONDS; PERKSOLVE_CUDA_PROLONGATE_CELLS=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30 solver.stop.max_iterations=3'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum
for E in 0 1; do
  t=$SECONDS; PERKSOLVE_CUDA_PROLONGATE_CELLS=$E timeout 120 $NCU -k regex:"prolongate" --metrics $M --csv --log-file $W/ncu_float_cells$E.csv bin/perksolve $D $B $F > $W/ncu_float_cells$E.log 2>&1; echo "ncu float cells=$E rc=$? (2: stopped after 3 iterations on purpose) $((SECONDS-t)) s" | tee -a $W/summary.txt
  t=$SECONDS; PERKSOLVE_CUDA_PROLONGATE_CELLS=$E timeout 120 $NCU -k regex:"prolongate" --metrics $M --csv --log-file $W/ncu_double_cells$E.csv bin/perksolve $D $B > $W/ncu_double_cells$E.log 2>&1; echo "ncu double cells=$E rc=$? (2: stopped after 3 iterations on purpose) $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/*.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
