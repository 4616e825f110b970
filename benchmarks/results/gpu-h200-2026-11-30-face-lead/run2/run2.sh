# Run 2 (H200): how much face work the resident plan should count. PERKSOLVE_PERKS_CHUNK_LEAD=k counts the face
# bricks' extra work as k x R_s planes (0: equal chunks). perks_bench jacobi and apply with k = 0, 1, 2, 3
# alternating, twice each; CudaPerks.* with k = 2 and 3; compute-sanitizer racecheck on the resident sanitizer cases
# with k = 3 (the longest leads).
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for k in 2 3; do
  t=$SECONDS; PERKSOLVE_PERKS_CHUNK_LEAD=$k LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks_$k.log 2>&1
  echo "test_gpu_backend CudaPerks.* (k=$k) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_$k.log | tee -a $S
  grep -E "^\[  FAILED|shorter face chunks" $W/tests_perks_$k.log | head | tee -a $S
done
bench() {  # $1 k, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  PERKSOLVE_PERKS_CHUNK_LEAD=$v LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-k$v" \
    --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  echo "perks_bench $tag k=$v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag k=$v /" | tee -a $S
}
for r in 1 2; do
  for v in 0 1 2 3; do bench $v jacobi$r --sweep jacobi; bench $v apply$r --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, r) for v in "0123" for r in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    print(f"== {mode}, small: extents, blocks k=0..3, lead k=1..3, us per sweep k=0 (2 runs) k=1 k=2 k=3")
    for key in runs[("1", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0], "/".join(str(rs[i]["blocks"]) for i in (0, 2, 4, 6)),
              "/".join(str(rs[i].get("chunk_lead", -1)) for i in (2, 4, 6)),
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; PERKSOLVE_PERKS_CHUNK_LEAD=3 LD_LIBRARY_PATH=$FB timeout 150 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_racecheck_k3.log 2>&1
echo "compute-sanitizer racecheck (k=3) rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_racecheck_k3.log | head -4 | tee -a $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
