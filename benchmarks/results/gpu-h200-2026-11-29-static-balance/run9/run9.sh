# Run 9 (H200): the persistent kernels write their result into the mapped pinned buffer (no copy before the
# synchronisation) where the backend maps it (PERKSOLVE_CUDA_SUMS_TO_HOST=1, the default; 0 takes the copy, as G of run 8
# did). One library (H); perks_bench jacobi and apply with the switch 0 / 1 alternating, twice each for jacobi; the GPU
# suite with the default.
# Usage: B=unpacked bundle (H in lib/) OUT=dir bash run9.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run9; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
for run in jacobi:1 apply:1 jacobi:2; do
  IFS=: read -r mode k <<< "$run"
  for v in 0 1; do
    t=$SECONDS
    PERKSOLVE_CUDA_SUMS_TO_HOST=$v LD_LIBRARY_PATH=$FB timeout 90 bin/perks_bench --sweep $mode --git-revision "$R-mapped$v" \
      --out $W/pb_${mode}_${v}_$k.json > $W/pb_${mode}_${v}_$k.log 2>&1
    echo "perks_bench $mode mapped=$v ($k) rc=$? $((SECONDS-t)) s" | tee -a $S
    grep -E "geometric" $W/pb_${mode}_${v}_$k.log | sed "s/^/$mode $v $k /" | tee -a $S
  done
done
python3 - $W >> $S <<'PY'
import json, sys
w = sys.argv[1]
for mode, k in (("jacobi", 1), ("apply", 1), ("jacobi", 2)):
    a = {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f"{w}/pb_{mode}_0_{k}.json"))["records"]}
    b = {(r["case"], r["precision"], r["class"]): r for r in json.load(open(f"{w}/pb_{mode}_1_{k}.json"))["records"]}
    print(f"== {mode} ({k}), small class: persistent us per sweep, copy (0) -> mapped (1), speed-up")
    for key in a:
        if key[2] != "small": continue
        print(" ".join(key), "%.2f -> %.2f" % (1e6 * a[key]["persistent_s_per_sweep"], 1e6 * b[key]["persistent_s_per_sweep"]),
              "%.3f -> %.3f" % (a[key]["speedup"], b[key]["speedup"]))
PY
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run9_logs.tar.xz .
