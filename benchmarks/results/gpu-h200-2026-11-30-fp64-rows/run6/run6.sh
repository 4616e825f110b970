# Run 6 (H200): production after this session: grid rows of one 32-byte sector unless whole 32-element lines cost at
# most 2 % of a row, whole lines for PCG-MG (Solver::grid_rows_on_lines); the fp64 3d7pt large tile with ~24 items per
# block. The GPU suite, automatic and with the large tier forced; stencil_bench twice; solver_bench fp64, fp32, fp64
# (wu, mg, pcg); perks_bench apply and jacobi once; compute-sanitizer memcheck on the stencil and Jacobi-pair tests.
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests.log 2>&1
echo "GPU suite rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests.log | head -20 | tee -a $S
for k in 1 2; do
  t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil_$k.json \
    > $W/stencil_$k.log 2>&1
  echo "stencil_bench $k rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^copy|^in seq|^3d7pt |^3d27pt|^2d5pt " $W/stencil_$k.log | cut -c1-110 | tee -a $S
done
for pk in f64_1 f32_1 f64_2; do
  p=${pk%_*}
  t=$SECONDS; timeout 200 bin/solver_bench --precision $p --cases wu,mg,pcg --git-revision "$R" --out $W/solver_$pk.json \
    > $W/solver_$pk.log 2>&1
  echo "solver_bench $pk rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^(wu_7pt|mg_vcycle|pcg_mg)" $W/solver_$pk.log | cut -c1-120 | tee -a $S
done
for m in apply jacobi; do
  t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_$m.json > $W/perks_$m.log 2>&1
  echo "perks_bench $m rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_$m.log)" | tee -a $S
done
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend \
  > $W/tests_large.log 2>&1
echo "GPU suite, large tier forced rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_large.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_large.log | head -20 | tee -a $S
tar -C $W -cJf $OUT/run6_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; timeout 100 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaJacobiPair.*' \
  > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck CudaBackendStencil.*:CudaJacobiPair.* rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck.log | head -4 | tee -a $S
