# Run 4 (H200): the final library F (7cd4684 + the 2D Jacobi fill rule of pipelined_fill_batch + PERKSOLVE_PERKS_TRACE).
#  A = the production library of a4969f1, LA; F = this bundle's library.
# (a) PERKSOLVE_PERKS_TRACE on F: per-block sweep timing of the resident kernel (2d17pt fp32, 2d5pt fp32, 2d13pt fp64,
#     3d7pt fp64, small domains) and of the pipelined kernel (2d21pt fp64 apply at 8192^2; Jacobi 2d17pt fp32 at
#     6144^2 and 3d13pt fp32 at 384^3), 20 sweeps; (b) perks_bench apply and jacobi, A and F once each; (c) the GPU
#     suite with F; (d) compute-sanitizer memcheck with the trace on (resident and pipelined fp32 cases).
# Usage: B=unpacked bundle LA=dir with A's libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in A) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; F) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
for cs in resident:2d17pt:f32:2031:apply resident:2d5pt:f32:2031:apply resident:2d13pt:f64:1423:apply \
          resident:3d7pt:f64:126:apply pipelined:2d21pt:f64:8192:apply pipelined:2d17pt:f32:6144:jacobi \
          pipelined:3d13pt:f32:384:jacobi; do
  IFS=: read -r kn c p n sw <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p --side $n \
    --sweeps 20 --reps 1 --kernel $kn --sweep $sw > $W/trace_${c}_${p}_$sw.log 2>&1
  echo "traced $kn $c $p $n $sw rc=$? $((SECONDS-t)) s" | tee -a $S
done
grep -E "^perks trace|mean of sweeps" $W/trace.txt | tee -a $S
cp $W/trace.txt $OUT/
for v in A F; do bench $v 1 apply; done
table apply 1 A F
for v in A F; do bench $v 1 jacobi --sweep jacobi; done
table jacobi 1 A F
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f='CudaPerks.ResidentSanitizerCaseFloat:CudaPerks.PipelinedSanitizerCaseRowTileFloat'
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_PERKS_TRACE=$W/trace_tests.txt timeout 120 $CS --tool memcheck bin/test_gpu_backend --gtest_filter=$f > $W/sanitizer_memcheck_traced.log 2>&1
echo "compute-sanitizer memcheck (traced) $f rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck_traced.log | head -3 | tee -a $S
echo "trace_tests.txt: $(grep -c '^perks trace' $W/trace_tests.txt) launches traced" | tee -a $S
tar -C $W -cJf $OUT/run4_logs.tar.xz .
cp $W/pb_jacobi_F_1.json $W/pb_jacobi_F_1.log $W/pb_apply_F_1.json $W/pb_apply_F_1.log $OUT/
