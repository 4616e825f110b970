# Run 6 (H200): the 3D resident tile. T = this library (the bundle's): 32 x 32 (32 x 16 threads, 2 rows each) instead
# of 64 x 32 (64 x 8 threads, 4 rows each), so that the small sides (87-159) fill their x tiles (87: 68 -> 91 %, 95: 74 ->
# 99 %); Z = run 5's library (LA). The GPU suite with T; perks_bench jacobi and apply Z / T alternating, twice each
# (3D cases; 2D unchanged); memcheck, racecheck and synccheck on the resident sanitizer cases (3d13pt fp64 among them).
# Usage: B=unpacked bundle (T in lib/) LA=dir with Z's libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
libpath() { if [ "$1" = Z ]; then echo "$LA:$FB"; else echo "$FB"; fi; }
bench() {  # $1 library Z|T, $2 tag, rest: perks_bench options
  local lib=$1 tag=$2; shift 2
  local t=$SECONDS
  LD_LIBRARY_PATH=$(libpath $lib) timeout 60 bin/perks_bench "$@" --git-revision "$R-$lib" \
    --out $W/pb_${tag}_$lib.json > $W/pb_${tag}_$lib.log 2>&1
  echo "perks_bench $tag lib=$lib rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$lib.log | sed "s/^/$tag $lib /" | tee -a $S
}
for k in 1 2; do
  for lib in Z T; do bench $lib jacobi$k --sweep jacobi; bench $lib apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
for mode in ("jacobi", "apply"):
    runs = {(lib, k): recs(f"{w}/pb_{mode}{k}_{lib}.json") for lib in "ZT" for k in (1, 2)}
    print(f"== {mode}, small class: extents Z / T, us per sweep persistent (per-step) Z1 Z2 | T1 T2, speed-up Z1 Z2 | T1 T2")
    for key in runs[("Z", 1)]:
        if key[2] != "small" or not key[0].startswith(("3d", "poisson")): continue
        rs = [runs[(lib, k)].get(key) for lib in "ZT" for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"], rs[2]["extents"],
              " ".join("%.2f(%.2f)" % (1e6 * r["persistent_s_per_sweep"], 1e6 * r["per_step_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run6_logs.tar.xz .
