# Run 5 (H200): run 4's comparison again, P with its own perks_bench (run 4 ran P's library under V's perks_bench,
# whose CudaBackend layout differs: it crashed). The resident kernel's halo planes by 16-byte copies (kVecHalo). V = this
# bundle; P = the previous library (runs 1-3: revision c8a0c1d's kernels; the build of run 2) in $LA/libP.
# perks_bench jacobi and apply P / V alternating, twice each (the suite and the sanitizers: run 4).
# Usage: B=unpacked bundle LA=dir with libP/ (perks_bench, libperksolve.so.0, libperksolve_cuda.so.0) OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
bench() {  # $1 P|V, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = V ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in P V; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "PV" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    print(f"== {mode}, small: extents, us per sweep persistent P1 P2 V1 V2, speed-up P1 P2 V1 V2")
    for key in runs[("V", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0],
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
tar -C $W -cJf $OUT/run5_logs.tar.xz .
