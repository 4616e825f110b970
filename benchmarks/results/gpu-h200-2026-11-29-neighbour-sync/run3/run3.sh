# Run 3 (H200): the 3D resident tile by the domain's width. W = this bundle: the shapes other than stars take the
# 64 x 32 tile where it fills its x tiles within 5 % as well as the 32 x 32 one (resident_3d_wide_tile); N = run 2's
# build (perks_bench and both libraries in $LA). The GPU suite with W; perks_bench jacobi and apply on the 3D shapes,
# N / W alternating, twice each; memcheck, racecheck and synccheck on the resident sanitizer cases with W.
# Usage: B=unpacked bundle (W) LA=dir with N's perks_bench, libperksolve.so.0 and libperksolve_cuda.so.0 OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (W) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
CASES=3d7pt,3d13pt,3d17pt,3d27pt,poisson
bench() {  # $1 N|W, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = N ]; then
    LD_LIBRARY_PATH=$LA:$PWD/lib:$FB timeout 60 $LA/perks_bench --cases $CASES "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --cases $CASES "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in N W; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v in "NW" for k in (1, 2)}
    print(f"== {mode}, small class: extents N / W, tile W, us per sweep persistent (per-step) N1 N2 | W1 W2, speed-up N1 N2 | W1 W2")
    for key in runs[("W", 1)]:
        if key[2] != "small": continue
        rs = [runs[(v, k)].get(key) for v in "NW" for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[2]["extents"][0], rs[2].get("tile_x"),
              " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 170 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run3_logs.tar.xz .
