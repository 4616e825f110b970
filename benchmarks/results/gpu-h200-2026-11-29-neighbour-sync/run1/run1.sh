# Run 1 (H200): the resident kernel's sync with the neighbouring bricks instead of a device-wide barrier after every
# sweep (perks_sweep_common.cuh, perks_wait_neighbours). One library; A/B by PERKSOLVE_PERKS_NEIGHBOUR_SYNC (G = 0: the
# device-wide barrier, N = 1: the neighbours, the default). The GPU suite with N; the resident tests with G; the short-
# chunk tests repeated (races would show as bit differences); perks_bench jacobi and apply G / N alternating, twice
# each; memcheck, racecheck and synccheck on the resident sanitizer cases and the short-chunk tests.
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
echo "test_gpu_backend (N) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_NEIGHBOUR_SYNC=0 LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*Resident*' > $W/tests_grid.log 2>&1
echo "test_gpu_backend CudaPerks.*Resident* (G) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_grid.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_grid.log | head | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentShortChunks*:CudaPerks.JacobiStopsInResident*' --gtest_repeat=5 > $W/tests_repeat.log 2>&1
echo "test_gpu_backend short chunks + resident stops x5 (N) rc=$? $((SECONDS-t)) s" | tee -a $S; grep -cE "^\[  PASSED" $W/tests_repeat.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_repeat.log | head | tee -a $S
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
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  f='CudaPerks.ResidentSanitizerCase*:CudaPerks.ResidentShortChunksDouble'
  [ $tool = racecheck ] && f='CudaPerks.ResidentSanitizerCase*'  # (shared memory only; the short chunks take long)
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 170 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run1_logs.tar.xz .
