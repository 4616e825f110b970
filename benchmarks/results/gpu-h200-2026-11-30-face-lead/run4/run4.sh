# Run 4 (H200): the resident kernel's halo planes by 16-byte copies (kVecHalo: fp64 2D radius 2-4 and 6, fp32 2D
# radius 3-4 Jacobi/apply where the brick's x halo is a multiple of 16 bytes, 3D fp64 radius 2). V = this bundle,
# P = the previous libperksolve_cuda (runs 1-3: revision c8a0c1d's kernels) in $LA/libP, loaded first by the same
# perks_bench. The GPU suite with V;
# perks_bench jacobi and apply P / V alternating, twice each; compute-sanitizer racecheck on the resident sanitizer
# cases, synccheck and memcheck on those and ResidentShortChunksDouble, with V.
# Usage: B=unpacked bundle LA=dir with libP/ OUT=dir bash run4.sh (the bundle and libP carried in two calls)
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (V) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S
grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
bench() {  # $1 P|V, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = V ]; then
    LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 60 bin/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do
  for v in P V; do bench $v jacobi$k --sweep jacobi; bench $v apply$k --sweep apply; done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [(v, k) for v in "PV" for k in (1, 2)]
for mode in ("jacobi", "apply"):
    runs = {a: recs(f"{w}/pb_{mode}{a[1]}_{a[0]}.json") for a in arms}
    print(f"== {mode}, small: extents, us per sweep persistent P1 P2 V1 V2, speed-up P1 P2 V1 V2")
    for key in runs[("V", 1)]:
        if key[2] != "small": continue
        rs = [runs[a].get(key) for a in arms]
        if any(r is None for r in rs): continue
        print(" ".join(key[:2]), rs[0]["extents"][0],
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs),
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  f='CudaPerks.ResidentSanitizerCase*'; [ $tool = racecheck ] || f="$f:CudaPerks.ResidentShortChunksDouble"
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run4_logs.tar.xz .
