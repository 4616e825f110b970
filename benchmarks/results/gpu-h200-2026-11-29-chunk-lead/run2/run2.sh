# Run 2 (H200): the lead in 2D only (stream_sweep reads it for 2D item hooks; the 3D kernels compile the chunk
# arithmetic as before). 2 = this library (the bundle's), 1 = run 1's library (LA: the lead in 2D and 3D).
# cuobjdump -res-usage of both (pipelined kernels); perks_bench jacobi, 1 and 2 alternating, twice each, apply once
# each; CudaPerks.* with 2; PERKSOLVE_PERKS_TRACE (LT: a traced build of run 1's library) of the pipelined Jacobi
# kernels still below 0.98 in run 1.
# Usage: B=unpacked bundle LA=dir with run 1's libperksolve_cuda.so.0 LT=dir with the traced one OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in 1) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; 2) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
$CO -res-usage $LA/libperksolve_cuda.so.0 > $W/res_1.txt 2>&1
$CO -res-usage lib/libperksolve_cuda.so.0 > $W/res_2.txt 2>&1
echo "res-usage: $(grep -c REG $W/res_1.txt) / $(grep -c REG $W/res_2.txt) functions" | tee -a $S
for k in 1 2; do
  for v in 1 2; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k 1 2
done
for v in 1 2; do bench $v 1 apply; done
table apply 1 1 2
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks.log 2>&1
echo "CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks.log | head | tee -a $S
for cs in 2d17pt:f32:6144 2d13pt:f64:6144 2d21pt:f64:4988 2ds25pt:f64:4988 3d13pt:f32:384; do
  IFS=: read -r c p n <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p \
    --side $n --sweeps 20 --reps 1 --kernel pipelined --sweep jacobi > $W/trace_${c}_$p.log 2>&1
  echo "traced pipelined $c $p $n jacobi rc=$? $((SECONDS-t)) s" | tee -a $S
done
grep -E "^perks trace|mean of sweeps|blocks by mean" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
tar -C $W -cJf $OUT/run2_logs.tar.xz .
