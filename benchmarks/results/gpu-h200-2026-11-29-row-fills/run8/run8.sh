# Run 8 (H200): R = F with one helper for the 16-byte segment loads of the two row walks (load_segment_at; the review's
# mend, meant to leave the kernels as they were). Baseline F (LA, run 3's library).
# perks_bench apply and jacobi, F and R alternating, once each; CudaPerks.* with R.
# Usage: B=unpacked bundle (R) LA=dir with F's libperksolve_cuda.so.0 OUT=dir bash run8.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run8; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in F) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; R) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
for k in 1; do
  for v in F R; do bench $v $k apply; done
  table apply $k F R
  for v in F R; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k F R
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_default.log 2>&1
echo "test_gpu_backend CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
tar -C $W -cJf $OUT/run8_logs.tar.xz .
cp $W/pb_apply_R_1.log $W/pb_jacobi_R_1.log $OUT/
