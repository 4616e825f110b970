# Run 2 (H200): V = the row-segment fills where run 1 left them worth trying: the pipelined kernel's fp32 per-item fill
# in 2D only (3D back to the cell-by-cell fill: 3d13pt fp32 Jacobi lost 0.85 -> 0.69 in run 1), the fp64 per-item fill
# (inline, 16-byte loads from the field), and the fp32 face phase (slabs 1 and 2 by row segments); the resident kernel
# back to the cell-by-cell fill (run 1: its 2D kernels lost 4-35 %). A = the library of f5058b1 (LA).
# cuobjdump -res-usage of both libraries (registers, stack and spill per kernel); perks_bench apply and jacobi, A and V
# alternating, twice each; CudaPerks.* with V.
# Usage: B=unpacked bundle (with V's library) LA=dir with A's libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJDUMP -res-usage $LA/libperksolve_cuda.so.0 > $W/res_A.txt 2>&1; echo "cuobjdump A rc=$?" | tee -a $S
$CUOBJDUMP -res-usage lib/libperksolve_cuda.so.0 > $W/res_V.txt 2>&1; echo "cuobjdump V rc=$?" | tee -a $S
python3 - $W/res_A.txt $W/res_V.txt >> $S <<'PY'
import re, sys
def load(f):
    d, name = {}, None
    for line in open(f):
        m = re.match(r"\s*Function (\S+):", line)
        if m: name = m.group(1); continue
        m = re.search(r"REG:(\d+) STACK:(\d+)", line)
        if m and name: d[name] = (int(m.group(1)), int(m.group(2))); name = None
    return d
a, v = load(sys.argv[1]), load(sys.argv[2])
print("== res-usage: PERKS kernels whose registers or stack differ (A -> V), of", len(a), "/", len(v), "functions")
for k in sorted(set(a) | set(v)):
    if "perks" in k and a.get(k) != v.get(k): print(k, a.get(k), "->", v.get(k))
PY
run_v() { case $1 in A) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; V) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
for k in 1 2; do
  for v in A V; do bench $v $k apply; done
  table apply $k A V
  for v in A V; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k A V
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks.log 2>&1
echo "test_gpu_backend CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks.log | head | tee -a $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
cp $W/pb_apply_V_1.json $W/pb_apply_V_1.log $W/pb_jacobi_V_1.json $W/pb_jacobi_V_1.log $W/res_A.txt $W/res_V.txt $OUT/
