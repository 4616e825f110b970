# Run 1 (H200): programmatic dependent launch (PDL) for the multigrid cycle's kernel chain against normal launches
# (PERKSOLVE_CUDA_PDL=0), the same binary. Pair, transfer, halo, boundary, CSR and solve tests with PDL, compute-sanitizer
# memcheck / racecheck / synccheck on the transfer, halo, replayed-cycle and one pair-dot test, the whole GPU suite with PDL and without;
# solver_bench wu,pcg: pdl, plain, pdl, plain; the persistent case with PDL. Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
FILTER='CudaSolverOps.Transfers*:CudaSolverOps.ProlongationRuns*:CudaSolverOps.Csr*:CudaSolves.PcgMultigrid*:CudaSolves.Replayed*:CudaBackendHalo.*:CudaBackendBoundary.AllFaces*:CudaJacobiPair.Dot*'
t=$SECONDS; timeout 120 bin/test_gpu_backend --gtest_filter="$FILTER" > $W/tests_chain.log 2>&1; echo "chain tests rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|Failure|PASSED" $W/tests_chain.log | head -10 | tee -a $W/summary.txt
SFILTER='CudaSolverOps.Transfers*:CudaBackendHalo.*:CudaSolves.ReplayedPreconditionerCycle:CudaJacobiPair.DotOddCubeFloat'
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 90 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$SFILTER" > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
for k in pdl plain; do
  E=1; [ $k = plain ] && E=0
  t=$SECONDS; PERKSOLVE_CUDA_PDL=$E timeout 150 bin/test_gpu_backend > $W/tests_all_$k.log 2>&1; echo "test_gpu_backend ($k) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -2 $W/tests_all_$k.log | tee -a $W/summary.txt
  grep -E "^\[  FAILED" $W/tests_all_$k.log | head -20 | tee -a $W/summary.txt
done
for k in pdl_1 plain_1 pdl_2 plain_2; do
  E=1; [ ${k%_*} = plain ] && E=0
  t=$SECONDS; PERKSOLVE_CUDA_PDL=$E timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
t=$SECONDS; timeout 90 bin/solver_bench --precision f64 --cases wu,persistent --persistent-cells 0,32768 --git-revision "$R" --out $W/solver_bench_persistent.json > $W/solver_bench_persistent.log 2>&1; echo "solver_bench persistent (pdl) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|mg_vcycle|wu_7pt)" $W/solver_bench_persistent.log | awk '{print $1,$4,$5,$6,$9}' | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_all_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
