# Run 2 (H200): grid rows by grid_row_align(padded row, narrowest element): one 32-byte sector (fp64 4 elements, fp32 8)
# unless whole 32-element lines cost at most 2 % of a row (long 2D rows); a double run with a float multigrid cycle pads
# for float. The GPU suite, automatic and with the large tier forced; stencil_bench twice; fp64 at the rule against
# --row-align 32 (session 47's fp64 rows), alternating, three runs each; stencil_sweep round 29 (the fp64 3d7pt tile on
# the new rows); perks_bench apply and jacobi twice each; solver_bench fp64 twice and fp32 once (wu, mg, pcg);
# compute-sanitizer memcheck on the stencil and Jacobi-pair tests.
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run2; rm -rf $W; mkdir -p $W
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
C=3d7pt,3d27pt,3d27pt_sym,poisson,3d17pt,3d13pt,2d5pt
for k in 1 2 3; do
  for a in 0 32; do
    t=$SECONDS; timeout 60 bin/stencil_bench --default-variant-only --precision f64 --cases $C --row-align $a \
      --git-revision "$R" --out $W/stencil_a${a}_$k.json > $W/stencil_a${a}_$k.log 2>&1
    echo "stencil_bench fp64 align $a run $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
t=$SECONDS; timeout 200 bin/stencil_sweep --only plane_tiles4 > $W/sweep.log 2>&1
echo "stencil_sweep plane_tiles4 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "3d7pt" $W/sweep.log | cut -c1-140 | tee -a $S
for k in 1 2; do
  for m in apply jacobi; do
    t=$SECONDS; timeout 60 bin/perks_bench --sweep $m --git-revision "$R" --out $W/perks_${m}_$k.json > $W/perks_${m}_$k.log 2>&1
    echo "perks_bench $m $k rc=$? $((SECONDS-t)) s: $(grep geometric $W/perks_${m}_$k.log)" | tee -a $S
  done
done
for pk in f64_1 f32_1 f64_2; do
  p=${pk%_*}
  t=$SECONDS; timeout 200 bin/solver_bench --precision $p --cases wu,mg,pcg --git-revision "$R" --out $W/solver_$pk.json \
    > $W/solver_$pk.log 2>&1
  echo "solver_bench $pk rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "^(wu_7pt|mg_vcycle|pcg_mg|cg_iter)" $W/solver_$pk.log | cut -c1-120 | tee -a $S
done
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend \
  > $W/tests_large.log 2>&1
echo "GPU suite, large tier forced rc=$? $((SECONDS-t)) s: $(grep -E '^\[  (PASSED|FAILED)' $W/tests_large.log | tr '\n' ' ')" | tee -a $S
grep -E '^\[  FAILED' $W/tests_large.log | head -20 | tee -a $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; timeout 100 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaJacobiPair.*' \
  > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck CudaBackendStencil.*:CudaJacobiPair.* rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck.log | head -4 | tee -a $S
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
print("== stencil_bench fp64 ratio (per call / in sequence): case | grid_row_align (1-3) | align 32 (1-3)")
tabs = {a: [{r["case"]: r for r in json.load(open(f"{w}/stencil_a{a}_{k}.json"))["records"]} for k in (1, 2, 3)]
        for a in (0, 32)}
for c in tabs[0][0]:
    print(c, "|", " | ".join(" ".join(f'{t[c]["ratio_to_copy_bound"]:.3f}/{t[c]["ratio_to_copy_bound_in_sequence"]:.3f}'
                                      for t in tabs[a] if c in t) for a in (0, 32)))
PY
