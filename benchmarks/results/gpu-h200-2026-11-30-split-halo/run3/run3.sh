# Run 3 (H200): the production rule for two blocks of 256 threads per SM in the resident kernel
# (resident_two_blocks_per_sm: the 2D apply sweeps and the 2D fp32 Jacobi sweeps other than radius 5, where they fit;
# the default of this bundle) against one block of 512 everywhere (PERKSOLVE_PERKS_TWO_BLOCKS=0). One library.
# The GPU suite with the default; CudaPerks.* with 0; perks_bench jacobi and apply, 0 / default alternating, twice each;
# compute-sanitizer racecheck on the resident sanitizer cases, synccheck and memcheck on those and
# ResidentShortChunksDouble, with the default.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (default: the rule) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_TWO_BLOCKS=0 LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend \
  --gtest_filter='CudaPerks.*' > $W/tests_perks_one_block.log 2>&1
echo "test_gpu_backend CudaPerks.* one block per SM rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_one_block.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_perks_one_block.log | head | tee -a $S
bench() {  # $1 PERKSOLVE_PERKS_TWO_BLOCKS (0: one block per SM; 1: the rule), $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  PERKSOLVE_PERKS_TWO_BLOCKS=$v LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-t$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag two-blocks $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag t$v /" | tee -a $S
}
for k in 1 2; do
  for v in 0 1; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "01" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    print(f"== {mode}, small: extents one rule, threads, us per sweep persistent one one rule rule, speed-up one one rule rule")
    for key in runs[("0", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[2]["extents"][0], rs[0]["threads"], rs[2]["threads"],
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; [ $tool = racecheck ] || f="$f:CudaPerks.ResidentShortChunksDouble"
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool (the rule) rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run3_logs.tar.xz .
