# Run 3 (H200): the 2D resident tiles' columns per thread. X = this library (the bundle's): 2 columns per thread (a
# 1024-column tile) for fp64 of radius 1 (was 4: a 2048-column brick in shared memory, of which a 789-wide small domain
# fills 39 %) and for fp32 of radius 2-4 (was 4; their small domains are 1296-1560 wide); F = run 2's library (LA).
# The GPU suite with X; perks_bench jacobi and apply F / X alternating, twice each (per case: each case's kernel
# changes or not on its own); compute-sanitizer racecheck and synccheck on the resident sanitizer cases with X.
# Usage: B=unpacked bundle (X in lib/) LA=dir with F's libperksolve_cuda.so.0 OUT=dir bash run3.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
libpath() { if [ "$1" = F ]; then echo "$LA:$FB"; else echo "$FB"; fi; }
bench() {  # $1 library F|X, $2 tag, rest: perks_bench options
  local lib=$1 tag=$2; shift 2
  local t=$SECONDS
  LD_LIBRARY_PATH=$(libpath $lib) timeout 90 bin/perks_bench "$@" --git-revision "$R-$lib" \
    --out $W/pb_${tag}_$lib.json > $W/pb_${tag}_$lib.log 2>&1
  echo "perks_bench $tag lib=$lib rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$lib.log | sed "s/^/$tag $lib /" | tee -a $S
}
for k in 1 2; do
  for lib in F X; do bench $lib jacobi$k --sweep jacobi; bench $lib apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for mode in ("jacobi", "apply"):
    runs = {(lib, k): recs(f"{w}/pb_{mode}{k}_{lib}.json") for lib in "FX" for k in (1, 2)}
    print(f"== {mode}, small class: extents F / X, us per sweep persistent (per-step) F1 F2 | X1 X2, speed-up F1 F2 | X1 X2")
    for key in runs[("F", 1)]:
        if key[2] != "small": continue
        rs = [runs[(lib, k)].get(key) for lib in "FX" for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][:2], rs[2]["extents"][:2],
              " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 240 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run3_logs.tar.xz .
