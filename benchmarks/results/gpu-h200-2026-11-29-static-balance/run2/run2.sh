# Run 2 (H200): one library (K: the static balance with its switch, PERKSOLVE_PERKS_STATIC_BALANCE) A/B on the same
# kernels: perks_bench jacobi with the switch 0 / 1 alternating, twice each; CudaPerks.* with the default (1).
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
bench() {  # $1 switch value, $2 k, $3 tag, rest: perks_bench options
  local v=$1 k=$2 tag=$3; shift 3
  local t=$SECONDS
  PERKSOLVE_PERKS_STATIC_BALANCE=$v LD_LIBRARY_PATH=$FB timeout 90 bin/perks_bench "$@" --git-revision "$R-balance$v" \
    --out $W/pb_${tag}_${v}_$k.json > $W/pb_${tag}_${v}_$k.log 2>&1
  echo "perks_bench $tag balance=$v $k rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_${v}_$k.log | sed "s/^/$tag $v $k /" | tee -a $S
  awk -v v="$tag $v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/pb_${tag}_${v}_$k.log | tee -a $S
  python3 - $W/pb_${tag}_${v}_$k.json "$tag $v $k" >> $S <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    if r["case"] == "3d13pt":
        print(sys.argv[2], "3d13pt", r["precision"], r["class"], r["kernel"], "blocks", r["blocks"], "per-step %.1f us" %
              (1e6 * r["per_step_s_per_sweep"]), "persistent %.1f us" % (1e6 * r["persistent_s_per_sweep"]), "speed-up", r["speedup"])
PY
}
for k in 1 2; do
  for v in 0 1; do bench $v $k jacobi --sweep jacobi; done
done
python3 - $W >> $S <<'PY'
import json, sys, glob
w = sys.argv[1]
rows = {}
for f in sorted(glob.glob(w + "/pb_jacobi_*_*.json")):
    v, k = f[:-5].split("_")[-2:]
    for r in json.load(open(f))["records"]:
        rows.setdefault((r["case"], r["precision"], r["class"]), {})[f"{v}/{k}"] = (r["blocks"], r["speedup"])
print("== jacobi: case precision class | balance/run: blocks speed-up (every case whose blocks differ)")
for key, d in rows.items():
    if len({b for b, _ in d.values()}) > 1:
        print(" ".join(key), "|", "  ".join(f"{c}: {b} {s:.3f}" for c, (b, s) in sorted(d.items())))
PY
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks.log 2>&1
echo "CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks.log | head | tee -a $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
