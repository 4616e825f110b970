# Run 2 (H200): C = run 1's B plus two resident blocks per SM for the 2D fp64 Jacobi sweeps of 2d13pt and 2d17pt;
# C0 = C with PERKSOLVE_PERKS_TWO_BLOCKS=0. GPU suite (C), CudaPerks.* (C0); perks_bench jacobi C / C0 alternating,
# twice each, and 2d13pt / 2d17pt fp64 Jacobi alone three times each; compute-sanitizer on the resident sanitizer
# cases (C; the fp64 case runs 2d13pt Jacobi on two blocks now).
# Usage: B=unpacked bundle OUT=dir bash run2.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
FB=$B/lib/fallback
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_C.log 2>&1
echo "test_gpu_backend (C) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_C.log | tee -a $S
grep -E "^\[  FAILED|two blocks per SM" $W/tests_C.log | head | tee -a $S
t=$SECONDS; PERKSOLVE_PERKS_TWO_BLOCKS=0 LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend \
  --gtest_filter='CudaPerks.*' > $W/tests_C0_perks.log 2>&1
echo "CudaPerks.* (C0) rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_C0_perks.log | tee -a $S
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
bench() {  # arm tag extra-args...
  local arm=$1 tag=$2; shift 2; local env=""
  [ $arm = C0 ] && env="PERKSOLVE_PERKS_TWO_BLOCKS=0"
  t=$SECONDS
  env $env LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --sweep jacobi --git-revision "$R-$arm" \
    --out $W/pb_${tag}_${arm}.json "$@" > $W/pb_${tag}_${arm}.log 2>&1
  echo "perks_bench $tag $arm rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_${tag}_${arm}.log | sed "s/^/$tag $arm /" | tee -a $S
}
for k in 1 2; do for arm in C C0; do bench $arm jacobi_$k; done; done
for k in 1 2 3; do for arm in C C0; do bench $arm stars_$k --cases 2d13pt,2d17pt --precision f64; done; done
python3 - $W >> $S <<'PY'
import json, sys, os, glob
w = sys.argv[1]
print("== case precision class: extents threads us-per-sweep speed-up, per file")
for f in sorted(glob.glob(f"{w}/pb_*.json")):
    tag = os.path.basename(f)[3:-5]
    for r in json.load(open(f))["records"]:
        if r["class"] != "small": continue
        if r["case"] not in ("2d13pt", "2d17pt") or r["precision"] != "fp64": continue
        print(tag, r["case"], r["precision"], r["class"], r["extents"][0], r["threads"],
              "%.2f" % (1e6 * r["persistent_s_per_sweep"]), "%.3f" % r["speedup"])
PY
tar -C $W -cJf $OUT/run2_logs.tar.xz .
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck memcheck; do
  f='CudaPerks.ResidentSanitizerCase*'; lim=130
  [ $tool = racecheck ] || { f="$f:CudaPerks.ResidentShortChunksDouble"; lim=90; }
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout $lim $CS --tool $tool bin/test_gpu_backend \
    --gtest_filter="$f" > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool (C) rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
