# Run 1 (H200): the pipelined kernel's static items with the per-item fill get the block count that spreads their face
# items (balance_static_blocks; 3d13pt fp64 Jacobi), and the review's mend of stream_chunks (the lead in one struct;
# no kernel change expected). N = this library (the bundle's), P = the previous library (LA: build/cuda's library,
# which turned out to be run 4's fp64 face-phase experiment of the chunk-lead results, not the kept library: its
# 3d13pt fp64 Jacobi kernel differs, every other kernel is the kept one; see the README). As run, HERE was computed
# after the cd (kept as run), so the res-usage comparison failed on the device; it was run here on the two listings in
# the logs (res_usage.txt).
# cuobjdump -res-usage of both (by demangled name); perks_bench jacobi P / N alternating, twice each, apply once each;
# the GPU suite with N.
# Usage: B=unpacked bundle LA=dir with the previous libperksolve_cuda.so.0 OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
HERE=$(cd "$(dirname "$0")" && pwd)
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in P) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; N) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
bench() {  # $1 variant, $2 k, $3 tag, rest: perks_bench options
  local v=$1 k=$2 tag=$3; shift 3
  local t=$SECONDS
  run_v $v timeout 90 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_${v}_$k.json > $W/pb_${tag}_${v}_$k.log 2>&1
  echo "perks_bench $tag $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/pb_${tag}_${v}_$k.log | sed "s/^/$tag $v $k /" | tee -a $S
  awk -v v="$tag $v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/pb_${tag}_${v}_$k.log | tee -a $S
  python3 - $W/pb_${tag}_${v}_$k.json "$tag $v $k" >> $S <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    if r["case"] == "3d13pt":
        print(sys.argv[2], "3d13pt", r["precision"], r["class"], r["kernel"], "blocks", r["blocks"], "per-step %.1f us" %
              (1e6 * r["per_step_s_per_sweep"]), "persistent %.1f us" % (1e6 * r["persistent_s_per_sweep"]), "speed-up", r["speedup"])
PY
}
table() {  # $1 tag, $2 k, rest: variants
  local tag=$1 k=$2; shift 2
  local files=()
  for v in "$@"; do files+=("$W/pb_${tag}_${v}_$k.log"); done
  python3 - "$tag $k ($*)" "${files[@]}" >> $S <<'PY'
import sys
title, files = sys.argv[1], sys.argv[2:]
rows = {}
for n, f in enumerate(files):
    for line in open(f):
        t = line.split()
        if "speed-up" not in t or len(t) < 12: continue
        key = (t[0], t[1], t[2])
        i = t.index("speed-up")
        per = t[t.index("per-sweep") + 1]; pers = t[t.index("persistent") + 1]
        rows.setdefault(key, [None] * len(files))[n] = f"{t[3]} {t[4]} {float(per)*1e6:.2f}/{float(pers)*1e6:.2f}us {t[i+1]}"
print("==", title, "case: extents kernel per-sweep/persistent speed-up, per variant")
for k, v in rows.items():
    print(" ".join(k), " | ".join(x or "-" for x in v))
PY
}
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CO -res-usage $LA/libperksolve_cuda.so.0 > $W/res_P.txt 2>&1
$CO -res-usage lib/libperksolve_cuda.so.0 > $W/res_N.txt 2>&1
python3 $HERE/res_usage_by_name.py $W/res_P.txt $W/res_N.txt 2>&1 | tee -a $S
for k in 1 2; do
  for v in P N; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k P N
done
for v in P N; do bench $v 1 apply; done
table apply 1 P N
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
tar -C $W -cJf $OUT/run1_logs.tar.xz .
