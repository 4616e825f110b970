# Run 5 (H200): the row-block walk's two grid sums per iteration read the block partials with every thread of the
# block (grid_partials_total_wide: one L2 round trip per 256 partials) against warp 0 alone (grid_partials_total:
# one per 32, the 792-1056 blocks of the row walk take 25-33 dependent steps); a measurement switch of this build,
# PERKSOLVE_CUDA_CG_ROWS_SUMS = warp (default) | block. CudaPersistentCg.* with each; cg_bench defaults and the larger
# pair (laplace7_192, laplace27_128), alternating, twice.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
for m in warp block; do
  t=$SECONDS; PERKSOLVE_CUDA_CG_ROWS_SUMS=$m timeout 120 bin/test_gpu_backend --gtest_filter='CudaPersistentCg.*' \
    > $W/tests_$m.log 2>&1
  echo "CudaPersistentCg.* sums $m rc=$? $((SECONDS-t)) s: $(tail -1 $W/tests_$m.log)" | tee -a $S
done
for k in 1 2; do
  for m in warp block; do
    PERKSOLVE_CUDA_CG_ROWS_SUMS=$m timeout 150 bin/cg_bench --git-revision "$R-$m" --out $W/cg_${m}_$k.json \
      > $W/cg_${m}_$k.log 2>&1; echo "cg_bench $m $k rc=$?" | tee -a $S
    PERKSOLVE_CUDA_CG_ROWS_SUMS=$m timeout 150 bin/cg_bench --git-revision "$R-$m" --out $W/cg_${m}_big_$k.json \
      --large-7 192 --large-27 128 --only laplace7_192,laplace27_128 > $W/cg_${m}_big_$k.log 2>&1
    echo "cg_bench $m big $k rc=$?" | tee -a $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys, glob, os
w = sys.argv[1]
print("== cg_bench above the L2 (persistent us per iteration, x vendor): run | case precision ...")
for f in sorted(glob.glob(f"{w}/cg_*.json")):
    rs = [r for r in json.load(open(f)).get("records", []) if r["class"] != "fits_l2"]
    print(os.path.basename(f)[3:-5], " ".join("%s:%s %.1f %.2f" % (r["case"], r["precision"],
          1e6 * r["persistent_s_per_iteration"], r["persistent_over_vendor"]) for r in rs))
PY
tar -C $W -cJf $OUT/run5_logs.tar.xz .
