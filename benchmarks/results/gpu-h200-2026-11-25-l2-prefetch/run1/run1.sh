# Run 1 (H200): all GPU tests after the prolongation / face-fill refactors (same bits expected), memcheck and synccheck
# on the program tests; stencil_bench (production) and stencil_sweep round 14 (Tune::PF, L2 prefetch of the bulk rows
# PF planes ahead) at 512^3 and 255^3; solver_bench wu,pcg. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
F='CudaPersistent.ProgramMatches*'
for tool in memcheck synccheck; do
  t=$SECONDS; timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_program_$tool.log 2>&1; echo "$tool ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
t=$SECONDS; timeout 60 bin/stencil_bench --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt |^2d5pt |^3d27pt_sym " $W/stencil_bench.log | tee -a $W/summary.txt
for c in pf_f64 pf_f32 pf_sym27 pf_f64_b pf_f32_b; do
  t=$SECONDS; timeout 90 bin/stencil_sweep --reps 15 --n3d 512 --only $c > $W/sweep14_${c}_512.log 2>&1; echo "sweep $c 512 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
for c in pf_f64_b pf_f32_b; do
  t=$SECONDS; timeout 90 bin/stencil_sweep --reps 15 --n3d 255 --only $c > $W/sweep14_${c}_255.log 2>&1; echo "sweep $c 255 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
t=$SECONDS; timeout 100 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
