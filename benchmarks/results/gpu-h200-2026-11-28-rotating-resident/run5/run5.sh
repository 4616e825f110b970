# Run 5 (H200): the final library G: the resident rotating tiles (radius >= 3), the 2D Jacobi fill rule of
# pipelined_fill_batch, and the sweep stamps compiled only with -DPERKSOLVE_PERKS_TRACE=ON (this default build has
# none). A = the production library of a4969f1, LA; G = this bundle's library.
# perks_bench apply A, G twice (alternating) and jacobi A, G once; the GPU suite with G (automatic; CudaPerks.Pipelined*
# with the large tier forced on fast memory); PERKSOLVE_PERKS_TRACE with G must fail with a message that names the
# build option.
# Usage: B=unpacked bundle LA=dir with A's libperksolve_cuda.so.0 OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in A) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; G) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
  for v in A G; do bench $v $k apply; done
  table apply $k A G
done
for v in A G; do bench $v 1 jacobi --sweep jacobi; done
table jacobi 1 A G
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*' > $W/tests_pipelined_large_fast.log 2>&1
echo "test_gpu_backend CudaPerks.Pipelined* large_fast rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_pipelined_large_fast.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_pipelined_large_fast.log | head | tee -a $S
LD_LIBRARY_PATH=$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases 2d5pt --precision f64 --side 500 --sweeps 4 --reps 1 > $W/trace_refused.log 2>&1
echo "PERKSOLVE_PERKS_TRACE without the stamps: rc=$? (expected non-zero); $(grep -o 'PERKSOLVE_PERKS_TRACE is set.*' $W/trace_refused.log | head -1)" | tee -a $S
tar -C $W -cJf $OUT/run5_logs.tar.xz .
cp $W/pb_apply_G_1.json $W/pb_apply_G_1.log $W/pb_jacobi_G_1.json $W/pb_jacobi_G_1.log $OUT/
