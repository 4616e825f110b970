# Run 1 (H200): the pair kernel with z columns in registers (PERKSOLVE_CUDA_PAIR_KERNEL=columns, the default) against
# the kernel that reads every offset from shared memory (planes). Pair tests with each kernel; compute-sanitizer
# racecheck, synccheck and memcheck on the pair tests (columns); the whole GPU suite; solver_bench wu,pcg twice per
# kernel, interleaved (plus the sweeps one by one once); ncu of three float-cycle and three double PCG-MG iterations
# with each kernel (pair kernels only); SASS instruction counts of the pair kernels.
# Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for k in columns planes; do
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_KERNEL=$k timeout 60 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/tests_pair_$k.log 2>&1; echo "pair tests $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "FAILED|Failure|PASSED|differ|written" $W/tests_pair_$k.log | head -10 | tee -a $W/summary.txt
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool (columns) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for rep in 1 2; do
  for k in columns planes single; do
    [ $k = single ] && [ $rep = 2 ] && continue
    E=1; [ $k = single ] && E=0
    KK=$k; [ $k = single ] && KK=columns
    t=$SECONDS; PERKSOLVE_CUDA_PAIR_KERNEL=$KK PERKSOLVE_MG_SWEEP_PAIRS=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${k}_$rep.json > $W/solver_bench_${k}_$rep.log 2>&1; echo "solver_bench $k $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${k}_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
  done
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30 solver.stop.max_iterations=3'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in columns planes; do
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_KERNEL=$k timeout 120 $NCU -k regex:"jacobi_pair" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum --csv --log-file $W/ncu_float_$k.csv bin/perksolve $D $B $F > $W/ncu_float_$k.log 2>&1; echo "ncu float $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_KERNEL=$k timeout 100 $NCU -k regex:"jacobi_pair" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum --csv --log-file $W/ncu_double_$k.csv bin/perksolve $D $B > $W/ncu_double_$k.log 2>&1; echo "ncu double $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ -sass -fun jacobi_pair lib/libperksolve_cuda.so.0.1.0 > $W/pair_kernels.sass 2>&1 || $CUOBJ -sass lib/libperksolve_cuda.so.0.1.0 2>/dev/null | awk '/Function : .*jacobi_pair/{p=1} /Function : /&&!/jacobi_pair/{p=0} p' > $W/pair_kernels.sass
echo "sass lines $(wc -l < $W/pair_kernels.sass)" | tee -a $W/summary.txt
cd $OUT && gzip -f w/*.csv w/*.sass; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
