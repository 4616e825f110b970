# Run 4 (H200): the 2D resident tiles' columns per thread, second step. Y = this library (the bundle's): 2 columns per
# thread also for fp32 of radius 1 (was 4: a 2048-column brick; small domains 1693-2031 wide) and 1 for fp32 of radius
# 5-6 (was 2: a 1024-column brick, so a 1496-wide domain takes a second tile 46 % full; 1 column gives up the
# consecutive-column vector loads); X = run 3's library (LA, commit ffbd50c).
# The GPU suite with Y; perks_bench jacobi and apply X / Y alternating, twice each (per case); compute-sanitizer
# memcheck, racecheck and synccheck on the resident sanitizer cases with Y (they cover X's changed tiles too: 2d5pt
# fp64 and 2d13pt fp32 are the same code in X and Y).
# Usage: B=unpacked bundle (Y in lib/) LA=dir with X's libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
libpath() { if [ "$1" = X ]; then echo "$LA:$FB"; else echo "$FB"; fi; }
bench() {  # $1 library X|Y, $2 tag, rest: perks_bench options
  local lib=$1 tag=$2; shift 2
  local t=$SECONDS
  LD_LIBRARY_PATH=$(libpath $lib) timeout 90 bin/perks_bench "$@" --git-revision "$R-$lib" \
    --out $W/pb_${tag}_$lib.json > $W/pb_${tag}_$lib.log 2>&1
  echo "perks_bench $tag lib=$lib rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$lib.log | sed "s/^/$tag $lib /" | tee -a $S
}
for k in 1 2; do
  for lib in X Y; do bench $lib jacobi$k --sweep jacobi; bench $lib apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for mode in ("jacobi", "apply"):
    runs = {(lib, k): recs(f"{w}/pb_{mode}{k}_{lib}.json") for lib in "XY" for k in (1, 2)}
    print(f"== {mode}, small class: extents X / Y, us per sweep persistent (per-step) X1 X2 | Y1 Y2, speed-up X1 X2 | Y1 Y2")
    for key in runs[("X", 1)]:
        if key[2] != "small": continue
        rs = [runs[(lib, k)].get(key) for lib in "XY" for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][:2], rs[2]["extents"][:2],
              " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 240 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run4_logs.tar.xz .
