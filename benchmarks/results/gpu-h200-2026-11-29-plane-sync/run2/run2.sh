# Run 2 (H200): the resident plane loop with a block barrier every R_s steps, the outputs written back in place at once
# (no held registers; the radius-1 shapes keep a barrier per step). One library: N = PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=1
# (the default), E = 0 (a barrier every step: run 1's O for every shape). The resident kernels' registers and stack by
# name (cuobjdump); the GPU suite with N; perks_bench jacobi and apply E / N alternating, twice each; racecheck on the
# resident sanitizer cases with N.
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$OBJ --dump-resource-usage lib/libperksolve_cuda.so.0 2>&1 | grep -A1 "perks_resident_kernel" | grep -v "^--" \
  | paste - - | sed -E 's/.*Function ([^:]*):.*(REG:[0-9]+) (STACK:[0-9]+).*/\2 \3 \1/' > $OUT/resident_kernels_regs.txt
echo "resident kernels (count REG STACK):" $(awk '{print $1, $2}' $OUT/resident_kernels_regs.txt | sort | uniq -c | tr '\n' ';') | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (N) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
bench() {  # $1 E|N, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS sv=1; [ "$v" = E ] && sv=0
  PERKSOLVE_PERKS_SPARSE_PLANE_SYNC=$sv LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in E N; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
V = "EN"
for mode in ("jacobi", "apply"):
    runs = {(v, k): recs(f"{w}/pb_{mode}{k}_{v}.json") for v in V for k in (1, 2)}
    print(f"== {mode}, small class: extents, N's barrier steps, us per sweep persistent E1 E2 | N1 N2, speed-up E1 E2 | N1 N2")
    for key in runs[("N", 1)]:
        if key[2] != "small": continue
        rs = [runs[(v, k)].get(key) for v in V for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], rs[2].get("plane_sync_steps"),
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_racecheck.log 2>&1
echo "compute-sanitizer racecheck rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_racecheck.log | head -4 | tee -a $S
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run2_logs.tar.xz .
