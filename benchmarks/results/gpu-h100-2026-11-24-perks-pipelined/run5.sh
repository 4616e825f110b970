cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.log 2>&1
cat REVISION >> $OUT/env.log
timeout 200 bin/test_gpu_backend > $OUT/test_gpu_backend.log 2>&1; echo "gpu tests rc=$?" >> $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_gpu_backend.log | head
timeout 200 bin/perks_bench --reps 5 --git-revision "$(cat REVISION)" --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1; echo "perks_bench rc=$?" >> $OUT/summary.txt
grep -E "3d|geometric" $OUT/perks_bench.log | grep -v small | sed 's/in flight.*KB\/SM//' | cut -c1-175
timeout 100 bin/stencil_bench --default-variant-only --cases 3d7pt,3d27pt,2d5pt --git-revision "$(cat REVISION)" --out $OUT/stencil_bench.json > $OUT/stencil_bench.log 2>&1; echo "stencil_bench rc=$?" >> $OUT/summary.txt
grep -E "3d7pt|3d27pt|2d5pt" $OUT/stencil_bench.log | head -12
for mode in off on; do
  timeout 60 bin/perksolve inputs/poisson3d.toml backend.type=\"cuda\" solver.persistent=\"$mode\" "grid.extents=[384,384,384]" solver.stop.max_iterations=400 solver.stop.rtol=1e-14 monitor.every=100 >> $OUT/solver_modes.log 2>&1; echo "jacobi3d 384 $mode rc=$?" >> $OUT/summary.txt
done
grep -E "^grid|did not|converged|iterations|time" $OUT/solver_modes.log | head -20
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' >> $OUT/sanitizer_pipelined.log 2>&1; echo "racecheck f32 rc=$?" >> $OUT/summary.txt
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool synccheck bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*Case*:CudaPerks.JacobiStopsInPipelined*' >> $OUT/sanitizer_pipelined.log 2>&1; echo "synccheck rc=$?" >> $OUT/summary.txt
grep -E "SUMMARY" $OUT/sanitizer_pipelined.log
cat $OUT/summary.txt
