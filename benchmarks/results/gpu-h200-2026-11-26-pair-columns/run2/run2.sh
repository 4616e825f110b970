# Run 2 (H200): the column pair kernel with one step per block barrier (default) against two
# (PERKSOLVE_CUDA_PAIR_STEPS=2). Pair tests with each; compute-sanitizer racecheck and synccheck on the pair tests with
# each; the whole GPU suite; solver_bench wu,pcg twice per variant, interleaved; ncu (time, DRAM bytes, instructions,
# warp stall reasons) of three float-cycle and three double PCG-MG iterations with each (pair kernels only).
# Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for st in 1 2; do
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_STEPS=$st timeout 60 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/tests_pair_steps$st.log 2>&1; echo "pair tests steps $st rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "FAILED|Failure|PASSED|differ|written" $W/tests_pair_steps$st.log | head -10 | tee -a $W/summary.txt
  for tool in racecheck synccheck; do
    t=$SECONDS; PERKSOLVE_CUDA_PAIR_STEPS=$st timeout 100 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/sanitizer_${tool}_steps$st.log 2>&1; echo "compute-sanitizer $tool steps $st rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_${tool}_steps$st.log | tail -3 | tee -a $W/summary.txt
  done
done
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for rep in 1 2; do
  for st in 1 2; do
    t=$SECONDS; PERKSOLVE_CUDA_PAIR_STEPS=$st timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_steps${st}_$rep.json > $W/solver_bench_steps${st}_$rep.log 2>&1; echo "solver_bench steps $st $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_steps${st}_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
  done
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30 solver.stop.max_iterations=3'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
for st in 1 2; do
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_STEPS=$st timeout 120 $NCU -k regex:"jacobi_pair" --section WarpStateStats --metrics $M --csv --log-file $W/ncu_float_steps$st.csv bin/perksolve $D $B $F > $W/ncu_float_steps$st.log 2>&1; echo "ncu float steps $st rc=$? (2: stopped after 3 iterations on purpose) $((SECONDS-t)) s" | tee -a $W/summary.txt
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_STEPS=$st timeout 100 $NCU -k regex:"jacobi_pair" --section WarpStateStats --metrics $M --csv --log-file $W/ncu_double_steps$st.csv bin/perksolve $D $B > $W/ncu_double_steps$st.log 2>&1; echo "ncu double steps $st rc=$? (2: stopped after 3 iterations on purpose) $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/*.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
