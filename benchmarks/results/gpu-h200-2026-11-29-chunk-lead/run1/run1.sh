# Run 1 (H200): the chunk lead of the pipelined PERKS kernel (plan_stream_lead: with the per-item ghost fill, half the
# slack of the streamed axis's chunks moves to the first chunk). One bundle; O = PERKSOLVE_PERKS_CHUNK_LEAD=0 (the
# chunks as before), L = the default (lead on).
# perks_bench apply and jacobi, O and L alternating, twice each; the GPU suite with L; compute-sanitizer synccheck and
# memcheck on the pipelined sanitizer cases, racecheck on the fp64 row-tile case (per-item fill on 40 rows, with a lead);
# then, if LT (a traced build of the same library) is given, PERKSOLVE_PERKS_TRACE of the pipelined Jacobi kernels
# below 0.98 in session 34.
# Usage: B=unpacked bundle LT=dir with the traced libperksolve_cuda.so.0 (optional) OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in O) PERKSOLVE_PERKS_CHUNK_LEAD=0 LD_LIBRARY_PATH=$FB "${@:2}" ;; L) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
  for v in O L; do bench $v $k apply; done
  table apply $k O L
  for v in O L; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k O L
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f='CudaPerks.PipelinedSanitizerCase*'
for tool in synccheck memcheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$f" > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool $f rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -4 | tee -a $S
done
f=CudaPerks.PipelinedSanitizerCaseRowTileDouble
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool racecheck bin/test_gpu_backend --gtest_filter="$f" > $W/racecheck.log 2>&1
echo "compute-sanitizer racecheck $f rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $W/racecheck.log | head -4 | tee -a $S
if [ -n "${LT:-}" ]; then
  for cs in 2d17pt:f32:6144 2d17pt:f64:4096 2d21pt:f64:4988 2ds25pt:f64:4988 2d25pt:f64:4096 3d13pt:f64:384; do
    IFS=: read -r c p n <<< "$cs"
    t=$SECONDS
    LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p \
      --side $n --sweeps 20 --reps 1 --kernel pipelined --sweep jacobi > $W/trace_${c}_$p.log 2>&1
    echo "traced pipelined $c $p $n jacobi rc=$? $((SECONDS-t)) s" | tee -a $S
  done
  grep -E "^perks trace|mean of sweeps|blocks by mean" $W/trace.txt | tee -a $S
  cp $W/trace.txt $OUT/
fi
tar -C $W -cJf $OUT/run1_logs.tar.xz .
cp $W/pb_apply_L_1.log $W/pb_jacobi_L_1.log $W/pb_jacobi_L_1.json $OUT/
