# Run 3 (H200): PDL extended to CG's own kernels (streaming stencil, r update, cg_advance, dot products and their
# finishing kernel) and CG's p refresh skipped after the first application (PERKSOLVE_CG_REFRESH_P=1 refreshes).
# Stencil, BLAS and solve tests under compute-sanitizer memcheck and racecheck; the whole GPU suite with PDL and
# without; solver_bench wu,pcg: new (PDL, skip), PDL off, p refresh on, new, PDL off, p refresh on.
# Usage: OUT=dir bash run3.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
SFILTER='CudaSolverOps.Blas*:CudaBackendBlas.*:CudaSolves.PcgMultigridFloatCycle:CudaSolves.CG:CudaBackendStencil.AllShapesFloat'
for tool in memcheck racecheck; do
  t=$SECONDS; timeout 120 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter="$SFILTER" > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
for k in pdl plain; do
  E=1; [ $k = plain ] && E=0
  t=$SECONDS; PERKSOLVE_CUDA_PDL=$E timeout 150 bin/test_gpu_backend > $W/tests_all_$k.log 2>&1; echo "test_gpu_backend ($k) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -2 $W/tests_all_$k.log | tee -a $W/summary.txt
  grep -E "^\[  FAILED" $W/tests_all_$k.log | head -20 | tee -a $W/summary.txt
done
for k in new_1 nopdl_1 refresh_1 new_2 nopdl_2 refresh_2; do
  P=1; F=0; [ ${k%_*} = nopdl ] && P=0; [ ${k%_*} = refresh ] && F=1
  t=$SECONDS; PERKSOLVE_CUDA_PDL=$P PERKSOLVE_CG_REFRESH_P=$F timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/tests_all_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
