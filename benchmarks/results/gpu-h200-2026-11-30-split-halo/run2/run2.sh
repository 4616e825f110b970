# Run 2 (H200): the resident kernel with two blocks of 256 threads per SM (PERKSOLVE_PERKS_RESIDENT_BLOCKS=2: tiles half
# as large, 3D 32 x 16, 2D rows half as wide, half the shared memory each) against one block of 512 (=1, the default of
# this bundle, the kernels of revision 376dca0). One library, the switch per process.
# The GPU suite with the default; CudaPerks.* with 2; perks_bench jacobi and apply, 1 / 2 alternating, twice each;
# compute-sanitizer racecheck on the resident sanitizer cases, synccheck and memcheck on those and
# ResidentShortChunksDouble, with 2.
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (default, 1 block per SM) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_RESIDENT_BLOCKS=2 LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend \
  --gtest_filter='CudaPerks.*' > $W/tests_perks_blocks2.log 2>&1
echo "test_gpu_backend CudaPerks.* 2 blocks per SM rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_blocks2.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_perks_blocks2.log | head | tee -a $S
bench() {  # $1 blocks per SM, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  PERKSOLVE_PERKS_RESIDENT_BLOCKS=$v LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-b$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag blocks $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag b$v /" | tee -a $S
}
for k in 1 2; do
  for v in 1 2; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "12" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    print(f"== {mode}, small: extents b1 b2, us per sweep persistent b1 b1 b2 b2, speed-up b1 b1 b2 b2")
    for key in runs[("1", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[2]["extents"][0],
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; [ $tool = racecheck ] || f="$f:CudaPerks.ResidentShortChunksDouble"
  t=$SECONDS; PERKSOLVE_PERKS_RESIDENT_BLOCKS=2 LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool (2 blocks per SM) rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run2_logs.tar.xz .
