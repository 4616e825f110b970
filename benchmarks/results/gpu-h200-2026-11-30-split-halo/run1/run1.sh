# Run 1 (H200): the resident kernel's upper halo planes waited for at the plane step that first reads them
# (PERKSOLVE_PERKS_SPLIT_HALO=1), and the bricks above waited for after the other loads are issued (=2, the default of
# this bundle), against every load and wait before the plane loop (=0). One library, the switch per process.
# The GPU suite with the default; CudaPerks.* with 0 and with 1; perks_bench jacobi and apply, 0 / 1 / 2 alternating,
# twice each.
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (default, 2) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
for m in 0 1; do
  t=$SECONDS; PERKSOLVE_PERKS_SPLIT_HALO=$m LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*' \
    > $W/tests_perks_split$m.log 2>&1
  echo "test_gpu_backend CudaPerks.* split $m rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_split$m.log | tee -a $S
  grep -E "^\[  FAILED" $W/tests_perks_split$m.log | head | tee -a $S
done
bench() {  # $1 split mode, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  PERKSOLVE_PERKS_SPLIT_HALO=$v LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-s$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag split $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag s$v /" | tee -a $S
}
for k in 1 2; do
  for v in 0 1 2; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "012" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    print(f"== {mode}, small: extents, us per sweep persistent s0 s0 s1 s1 s2 s2, speed-up s0 s0 s1 s1 s2 s2")
    for key in runs[("2", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0],
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run1_logs.tar.xz .
