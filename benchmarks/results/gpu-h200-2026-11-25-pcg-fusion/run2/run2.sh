# Run 2 (2026-11-25, H200): run 1's changes + the multigrid cycle in float for the double CG
# ([solver.preconditioner] precision = "float"), the apply_dot test's float tolerance fixed.
# GPU tests (default, and the stencil/BLAS tests with the large tier forced in each memory class), sanitizers,
# solver_bench at 255^3 (fp64: WU, PCG-MG variants), and one phase-timed PCG-MG solve per variant.
# Usage (bundle copied to the GPU machine): OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=$mem timeout 120 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaBackendBlas.*' > $W/test_gpu_backend_large_$mem.log 2>&1; echo "test_gpu_backend large $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*.log | head -30
grep -h "\[e2e\]" $W/test_gpu_backend.log
n=0
for F in 'CudaBackendStencil.AllShapesFloat:CudaBackendBlas.*' 'CudaSolves.PcgMultigridFloatCycle'; do
  n=$((n+1))
  for tool in memcheck racecheck; do
    t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_${tool}_$n.log 2>&1; echo "$tool $n ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
grep -hE "SUMMARY" $W/sanitizer_*.log
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.phase_timers="on" solver.preconditioner.coarse.type="direct"'
CHEB='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2'
for V in jacobi_run chebyshev_run chebyshev_float; do
  P=${V#*_}; X=""; [ "${V%_*}" = chebyshev ] && X=$CHEB
  t=$SECONDS; timeout 60 bin/perksolve $D $C $X solver.preconditioner.precision=\"$P\" > $W/phases_$V.log 2>&1 ; echo "phases $V rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
