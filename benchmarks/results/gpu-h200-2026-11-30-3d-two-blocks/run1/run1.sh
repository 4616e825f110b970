# Run 1 (H200): B = be22dca plus two resident blocks per SM for the fp64 3D apply sweeps of the stars (3d7pt, 3d13pt),
# the review's three helpers (halo planes, brick write-back, item face box) and perks_bench's saturating class above
# the small one. (The library of be22dca did not fit beside it in the 64 MB the device call carries; the helpers'
# device code was compared with it instead, see the README.) GPU suite (B), CudaPerks.* (B0 = B with
# PERKSOLVE_PERKS_TWO_BLOCKS=0); perks_bench apply and jacobi B / B0 alternating, twice each; compute-sanitizer
# racecheck / synccheck / memcheck on the resident sanitizer cases (B).
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
t=$SECONDS; LD_LIBRARY_PATH=$B/lib/fallback timeout 200 bin/test_gpu_backend > $W/tests_B.log 2>&1
echo "test_gpu_backend (B) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_B.log | tee -a $S
grep -E "^\[  FAILED|two blocks per SM" $W/tests_B.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_TWO_BLOCKS=0 LD_LIBRARY_PATH=$B/lib/fallback timeout 120 bin/test_gpu_backend \
  --gtest_filter='CudaPerks.*' > $W/tests_B0_perks.log 2>&1
echo "CudaPerks.* (B, TWO_BLOCKS=0) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_B0_perks.log | tee -a $S
bench() {  # arm mode k
  local arm=$1 m=$2 k=$3 dir env=""
  case $arm in B) dir=$B ;; B0) dir=$B; env="PERKSOLVE_PERKS_TWO_BLOCKS=0" ;; esac
  t=$SECONDS
  (cd $dir && env $env LD_LIBRARY_PATH=$dir/lib/fallback timeout 60 bin/perks_bench --sweep $m --git-revision "$(sed -n 's/^git_revision=//p' $dir/MANIFEST | cut -c1-12)-$arm" --out $W/pb_${m}_${arm}_$k.json \
     > $W/pb_${m}_${arm}_$k.log 2>&1)
  echo "perks_bench $m $arm run $k rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${m}_${arm}_$k.log | sed "s/^/$m $arm $k /" | tee -a $S
}
for k in 1 2; do
  for arm in B B0; do bench $arm apply $k; done
  for arm in B B0; do bench $arm jacobi $k; done
done
python3 - $W >> $S <<'PY'
import json, sys, os
w = sys.argv[1]
for m, arms in (("apply", ("B", "B0")), ("jacobi", ("B", "B0"))):
    runs = {}
    for a in arms:
        for k in (1, 2):
            f = f"{w}/pb_{m}_{a}_{k}.json"
            if os.path.exists(f):
                runs[(a, k)] = {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f))["records"]}
    if not runs: continue
    print(f"== {m}: case precision class extents[arms] threads[arms] | us per sweep persistent, arms x runs ({' '.join(arms)}) | speed-up")
    keys = next(iter(runs.values())).keys()
    for key in keys:
        rs = [runs.get((a, k), {}).get(key) for a in arms for k in (1, 2)]
        if any(r is None for r in rs): continue
        print(" ".join(key), "/".join(str(r["extents"][0]) for r in rs[::2]), "/".join(str(r["threads"]) for r in rs[::2]), "|",
              " ".join("%.2f" % (1e6 * r["persistent_s_per_sweep"]) for r in rs), "|",
              " ".join("%.3f" % r["speedup"] for r in rs))
PY
tar -C $W -cJf $OUT/run1_logs.tar.xz .  # (before the sanitizers, whose logs go to $OUT)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; lim=130
  [ $tool = racecheck ] || { f="$f:CudaPerks.ResidentShortChunksDouble"; lim=90; }
  t=$SECONDS; LD_LIBRARY_PATH=$B/lib/fallback timeout $lim $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool (B) rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
