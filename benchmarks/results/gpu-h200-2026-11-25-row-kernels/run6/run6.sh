# Run 6 (2026-11-25, H200): the shared loop stop test of the persistent kernels. GPU tests (default; medium and
# large tiers forced, fast memory), sanitizers on the persistent CG / PERKS stop tests, stencil_sweep round 12
# (2d5pt fp64), stencil_bench, solver_bench (WU, PCG-MG). Usage: OUT=dir bash run6.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for tier in medium large; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=fast timeout 200 bin/test_gpu_backend > $W/test_gpu_backend_${tier}_fast.log 2>&1; echo "test_gpu_backend $tier fast rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*.log | head -30
F='CudaPersistentCg.*:CudaPersistentStencilCg.*:CudaPerks.JacobiStops*'
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_$tool.log 2>&1; echo "$tool ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY" $W/sanitizer_*.log
timeout 120 bin/stencil_sweep --reps 15 --only 2d5pt_f64 > $W/sweep_round12_2d5pt_f64.log 2>&1; echo "sweep 2d5pt_f64 rc=$?" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round12_2d5pt_f64.log | awk '{print $1,$2,$3,$4,$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //'
t=$SECONDS; timeout 100 bin/stencil_bench --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt |^2d5pt |^3d27pt_sym " $W/stencil_bench.log
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
