# Run 4 (H200): the final library (commit 6cbe8ea: the neighbour sync and the 3D tile by width), every shape. A/B by
# PERKSOLVE_PERKS_NEIGHBOUR_SYNC once more (G = 0: the device-wide barrier, N = 1: the neighbours, the default):
# perks_bench jacobi and apply G / N alternating, twice each. No tests (run 3 ran the suite on this library).
# Usage: B=unpacked bundle OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
bench() {  # $1 G|N, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  local nv=1; [ "$v" = G ] && nv=0
  PERKSOLVE_PERKS_NEIGHBOUR_SYNC=$nv LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in G N; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v in "GN" for k in (1, 2)}
    print(f"== {mode}, small class: extents, us per sweep persistent (per-step) G1 G2 | N1 N2, speed-up G1 G2 | N1 N2")
    for key in runs[("G", 1)]:
        if key[2] != "small": continue
        rs = [runs[(v, k)].get(key) for v in "GN" for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"], rs[0]["blocks"],
              " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
tar -C $W -cJf $OUT/run4_logs.tar.xz .
