# Run 3 (H200): the pair kernel's narrow tile (two blocks per SM) against the wide one (one block of 512 threads per
# SM) and the sweeps one by one. Pair tests with each tile, racecheck/synccheck with the narrow one, the whole GPU suite
# (default tile: narrow); solver_bench wu,pcg twice per variant, interleaved; ncu of three double and three float-cycle
# PCG-MG iterations with each tile (pair and stencil kernels only). Usage: OUT=dir bash run3.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for tile in narrow wide; do
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_TILE=$tile timeout 60 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/tests_pair_$tile.log 2>&1; echo "pair tests $tile rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "FAILED|Failure|PASSED|differ|written" $W/tests_pair_$tile.log | head -10 | tee -a $W/summary.txt
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for tool in racecheck synccheck; do
  t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaJacobiPair.*' > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool (narrow) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for rep in 1 2; do
  for k in narrow wide single; do
    E=1; [ $k = single ] && E=0
    TL=$k; [ $k = single ] && TL=narrow
    t=$SECONDS; PERKSOLVE_CUDA_PAIR_TILE=$TL PERKSOLVE_MG_SWEEP_PAIRS=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${k}_$rep.json > $W/solver_bench_${k}_$rep.log 2>&1; echo "solver_bench $k $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${k}_$rep.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
  done
done
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30 solver.stop.max_iterations=3'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
for tile in narrow wide; do
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_TILE=$tile timeout 150 /usr/local/cuda/bin/ncu -k regex:"jacobi_pair|stream_stencil|scale_kernel|prolongate|restrict" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_float_$tile.csv bin/perksolve $D $B $F > $W/ncu_float_$tile.log 2>&1; echo "ncu float $tile rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  t=$SECONDS; PERKSOLVE_CUDA_PAIR_TILE=$tile timeout 100 /usr/local/cuda/bin/ncu -k regex:"jacobi_pair|stream_stencil|scale_kernel|prolongate|restrict" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_double_$tile.csv bin/perksolve $D $B > $W/ncu_double_$tile.log 2>&1; echo "ncu double $tile rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
