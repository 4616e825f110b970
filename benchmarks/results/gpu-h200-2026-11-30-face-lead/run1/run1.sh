# Run 1 (H200): the resident kernel's face chunks shorter by their face work (plan_brick_face_lead). One bundle;
# O = PERKSOLVE_PERKS_CHUNK_LEAD=0 (equal chunks, the previous plan), L = the default. The GPU suite with L, CudaPerks.*
# with O; perks_bench jacobi and apply O / L alternating, twice each; racecheck on the resident sanitizer cases,
# synccheck and memcheck on those and ResidentShortChunksDouble, with L.
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
echo "test_gpu_backend (L) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S
grep -E "^\[  FAILED|shorter face chunks" $W/tests_default.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_CHUNK_LEAD=0 LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks_O.log 2>&1
echo "test_gpu_backend CudaPerks.* (O) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_O.log | tee -a $S
grep -E "^\[  FAILED|shorter face chunks" $W/tests_perks_O.log | head | tee -a $S
bench() {  # $1 O|L, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS lead=1
  [ "$v" = O ] && lead=0
  PERKSOLVE_PERKS_CHUNK_LEAD=$lead LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in O L; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "OL" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    for cls in ("small",):
        print(f"== {mode}, {cls}: extents, blocks O/L, lead L, us per sweep persistent O1 O2 L1 L2, speed-up O1 O2 L1 L2")
        for key in runs[("L", 1)]:
            if key[2] != cls: continue
            rs = [runs[a].get(key) for a in arms]
            if any(r is None for r in rs): continue
            print(" ".join(key[:2]), rs[0]["extents"][0], "%d/%d" % (rs[0]["blocks"], rs[2]["blocks"]),
                  rs[2].get("chunk_lead", -1),
                  " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
                  " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; [ $tool = racecheck ] || f="$f:CudaPerks.ResidentShortChunksDouble"
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run1_logs.tar.xz .
