# Run 5 (H200): the 2D fp64 resident Jacobi sweeps of radius 2-4 on a 512-column brick, one column per thread (M = this
# bundle), instead of 1024 columns, two per thread (O = session 38's final library in $LA/libO; run 4's Q has the same
# kernels for these cases but for the plane barriers). The GPU suite with M; perks_bench jacobi O / M alternating, twice
# each; synccheck and memcheck on the resident sanitizer cases with M (racecheck left out: the device time left).
# Usage: B=unpacked bundle LA=dir with libO/ OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend (M) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
bench() {  # $1 O|M, $2 tag, rest: perks_bench options
  local v=$1 tag=$2; shift 2
  local t=$SECONDS
  if [ "$v" = M ]; then
    LD_LIBRARY_PATH=$FB timeout 40 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  else
    LD_LIBRARY_PATH=$LA/lib$v:$PWD/lib:$FB timeout 40 $LA/lib$v/perks_bench "$@" --git-revision "$R-$v" \
      --out $W/pb_${tag}_$v.json > $W/pb_${tag}_$v.log 2>&1
  fi
  echo "perks_bench $tag $v rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_$v.log | sed "s/^/$tag $v /" | tee -a $S
}
for k in 1 2; do for v in O M; do bench $v jacobi$k --sweep jacobi; done; done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
def recs(f):
    return {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
arms = [("O", 1), ("O", 2), ("M", 1), ("M", 2)]
runs = {(v, k): recs(f"{w}/pb_jacobi{k}_{v}.json") for v, k in arms}
print("== jacobi, small class: extents O / M, us per sweep persistent O1 O2 M1 M2 (per-step M1), speed-up O1 O2 M1 M2")
for key in runs[("M", 1)]:
    if key[2] != "small": continue
    rs = [runs[a].get(key) for a in arms]
    if any(r is None for r in rs): continue
    print(" ".join(key[:2]), rs[0]["extents"][0], rs[2]["extents"][0],
          " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs), "(%.2f)" % (1e6 * rs[2]["per_step_s_per_sweep"]),
          " ".join("%.3f" % r["speedup"] for r in rs))
PY
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in synccheck memcheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 60 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run5_logs.tar.xz .
