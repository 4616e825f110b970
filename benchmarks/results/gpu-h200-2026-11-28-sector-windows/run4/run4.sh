# Run 4 (H200): the 2D fp32 rows of radius <= 4 take a 1024-wide row tile (256 threads x 4, two blocks per SM) where it
# pads the x extent less than the 2048-wide one (NarrowRowFastMemTuneSel, narrow_rows_pay). NEW = this bundle's
# library, PROD = a3c6a12's. stencil_bench on the 2D shapes at 6898^2, 4651^2 (narrow tile) and 16384^2 (unchanged),
# twice each, alternating; perks_bench twice each; the GPU suite with NEW (automatic and large tier forced);
# compute-sanitizer memcheck and racecheck on the new GPU test (float).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
C2=2d5pt,2ds9pt,2d9pt,2d13pt,2d17pt,2d21pt,2ds25pt,2d25pt
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for n in 6898 4651 16384; do
  for k in 1 2; do
    for v in prod new; do
      t=$SECONDS; run_v $v timeout 90 bin/stencil_bench --cases $C2 --n2d $n --precision f32 --default-variant-only \
        --git-revision "$R-$v" --out $W/stencil_${n}_${v}_$k.json > $W/stencil_${n}_${v}_$k.log 2>&1
      echo "stencil_bench 2D f32 $n $v $k rc=$? $((SECONDS-t)) s" >> $S
    done
  done
  for v in prod new; do
    python3 - $W $n $v >> $S <<'PY'
import json, sys
w, n, v = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for k in (1, 2):
    for r in json.load(open(f"{w}/stencil_{n}_{v}_{k}.json"))["records"]:
        rows.setdefault((r["case"], r["precision"]), []).append(r["ratio_to_copy_bound"])
print(n, v, " ".join(f"{c}/{p}={min(x):.3f}-{max(x):.3f}" for (c, p), x in sorted(rows.items())))
PY
  done
done
for k in 1 2; do
  for v in prod new; do
    t=$SECONDS; run_v $v timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $8, $11, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $8, $11, $(i+1)}' $W/perks_bench_new_$k.log) \
        | sed "s/^/prod new, $k (per-sweep s, persistent s, speed-up): /" >> $S
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_new_$mode.log 2>&1; fi
  echo "test_gpu_backend new $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_new_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_new_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaBackendStencil.RowTileByWidthFloat' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -3 | tee -a $S
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
cp $W/stencil_6898_new_1.json $W/perks_bench_new_1.json $W/perks_bench_new_1.log $OUT/
