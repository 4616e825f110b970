# Run 4 (H200): the 3D Jacobi sweeps of radius 2 in the face phase in fp64 as well (3d13pt fp64). 4 = this library
# (the bundle's), 3 = run 3's library (d6ab523, LA). cuobjdump -res-usage of both; perks_bench jacobi, 3 and 4
# alternating, twice each, apply once each; CudaPerks.* with 4; compute-sanitizer synccheck, memcheck and racecheck on
# CudaPerks.PipelinedSanitizerCaseDouble (3d13pt fp64 Jacobi among its cases).
# Usage: B=unpacked bundle LA=dir with run 3's libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in 3) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; 4) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
bench() {  # $1 variant, $2 k, $3 tag, rest: perks_bench options
  local v=$1 k=$2 tag=$3; shift 3
  local t=$SECONDS
  run_v $v timeout 90 bin/perks_bench "$@" --git-revision "$R-$v" --out $W/pb_${tag}_${v}_$k.json > $W/pb_${tag}_${v}_$k.log 2>&1
  echo "perks_bench $tag $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/pb_${tag}_${v}_$k.log | sed "s/^/$tag $v $k /" | tee -a $S
  awk -v v="$tag $v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/pb_${tag}_${v}_$k.log | tee -a $S
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
$CO -res-usage $LA/libperksolve_cuda.so.0 > $W/res_3.txt 2>&1
$CO -res-usage lib/libperksolve_cuda.so.0 > $W/res_4.txt 2>&1
echo "res-usage: $(grep -c REG $W/res_3.txt) / $(grep -c REG $W/res_4.txt) functions" | tee -a $S
for k in 1 2; do
  for v in 3 4; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k 3 4
done
for v in 3 4; do bench $v 1 apply; done
table apply 1 3 4
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks.log 2>&1
echo "CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks.log | head | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f=CudaPerks.PipelinedSanitizerCaseDouble
for tool in synccheck memcheck racecheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool $f rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -4 | tee -a $S
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
