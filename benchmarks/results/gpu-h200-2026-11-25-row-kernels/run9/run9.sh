# Run 9 (2026-11-25, H200): the planner's chunk rule for clamped items-per-block targets. GPU tests (default; medium
# and large tiers forced in each memory class), sanitizers (fp32 stencil tests with the large tier forced: its fp32
# tile is the one the rule changes at 255^3), stencil_bench, perks_bench, solver_bench (WU, PCG-MG).
# Usage: OUT=dir bash run9.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 200 bin/test_gpu_backend --gtest_filter='CudaBackend*:CudaPerks*:CudaSolves*:CudaPersistentStencilCg*' > $W/test_gpu_backend_${tier}_$mem.log 2>&1; echo "test_gpu_backend $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done; done
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*.log | head -30
F='CudaBackendStencil.AllShapesFloat:CudaPerks.PipelinedSanitizerCaseFloat'
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_large_fast_$tool.log 2>&1; echo "$tool large fast ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY" $W/sanitizer_*.log
t=$SECONDS; timeout 100 bin/stencil_bench --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt |^2d5pt |^3d27pt_sym " $W/stencil_bench.log
t=$SECONDS; timeout 100 bin/perks_bench --reps 5 --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep geometric $W/perks_bench.log
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
