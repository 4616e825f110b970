# Run 1 (H200): the pipelined kernel at its per-sweep kernel's occupancy. The fp32 256-thread row tile (NarrowRowTile)
# for radius <= 3 (2d13pt, 2d25pt) promises ptxas three blocks per SM in the pipelined kernel (pipelined_min_blocks):
# 80 registers instead of 128, as its per-sweep kernel. NEW = this bundle's library, PROD = the library of the previous
# commit (4542fe5). perks_bench twice each way, alternating; the GPU suite with NEW (automatic tiers: the narrow tile
# is only chosen automatically); compute-sanitizer racecheck, synccheck and memcheck on the pipelined kernel with the
# narrow tile (CudaPerks.PipelinedSanitizerCaseRowTileFloat, now on 5000 x 40 rows).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
for v in ("prod", "new"):
    for r in json.load(open(f"{w}/perks_bench_{v}_1.json"))["records"]:
        if r["case"] in ("2d13pt", "2d25pt") and r["precision"] == "fp32":
            print(v, "blocks", r["case"], r["precision"], r["class"], r["kernel"], r["blocks"])
PY
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend > $W/tests_new_default.log 2>&1
echo "test_gpu_backend new default rc=$? $((SECONDS-t)) s" | tee -a $S
tail -1 $W/tests_new_default.log | tee -a $S; grep -E "^\[  FAILED|SKIPPED \]" $W/tests_new_default.log | head -20 | tee -a $S
grep -E "^\[       OK \] (CudaBackendStencil.RowTileByWidth|CudaPerks.Pipelined)" $W/tests_new_default.log | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tl in racecheck:200 synccheck:100 memcheck:70; do
  tool=${tl%%:*}; lim=${tl##*:}
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout $lim $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseRowTileFloat' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -3 | tee -a $S
done
tar -C $W -cJf $OUT/run1_logs.tar.xz .
cp $W/perks_bench_new_1.json $W/perks_bench_new_1.log $OUT/
