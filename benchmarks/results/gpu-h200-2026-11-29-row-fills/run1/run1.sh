# Run 1 (H200): the face ghosts outside along y and z filled by row segments (fill_box_face_ghosts_by_rows: one decode
# per 16 bytes of a row, 16-byte loads and stores) in the pipelined kernel's fp32 per-item fill and in every resident
# kernel. A = the library of f5058b1 (LA), N = the new one, the same binaries.
# perks_bench apply and jacobi, A and N alternating, twice each; the GPU suite with N (bit identity of every resident
# and pipelined shape against the per-sweep kernels); PERKSOLVE_PERKS_TRACE with the traced build of N (LT): per-block
# sweep times of the pipelined kernels that lose most on large domains, and of the resident 2d17pt fp32 kernel.
# Usage: B=unpacked bundle LA=dir with A's libperksolve_cuda.so.0 [LT=dir with N's traced one] OUT=dir bash run1.sh
# (Run on the H200 without LT: the carried files had to stay below 64 MiB; the traces are in run 2.)
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in A) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; N) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
  for v in A N; do bench $v $k apply; done
  table apply $k A N
  for v in A N; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k A N
done
[[ -n "${LT:-}" ]] && for cs in 2d17pt:f32:6144:jacobi:pipelined 2d13pt:f32:6144:jacobi:pipelined 2ds9pt:f32:6144:jacobi:pipelined \
          3d13pt:f32:384:jacobi:pipelined 2d17pt:f32:8192:apply:pipelined 2ds25pt:f32:12288:apply:pipelined \
          2d17pt:f32:2031:apply:resident 2d13pt:f64:1423:apply:resident; do
  IFS=: read -r c p n sw kn <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$LT:$PWD/lib:$FB PERKSOLVE_PERKS_TRACE=$W/trace.txt timeout 60 bin/perks_bench --cases $c --precision $p \
    --side $n --sweeps 20 --reps 1 --kernel $kn --sweep $sw > $W/trace_${c}_${p}_${sw}_$kn.log 2>&1
  echo "traced $kn $c $p $n $sw rc=$? $((SECONDS-t)) s" | tee -a $S
done
[[ -n "${LT:-}" ]] && { grep -E "^perks trace|mean of sweeps|blocks by mean" $W/trace.txt | tee -a $S; cp $W/trace.txt $OUT/; }
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
tar -C $W -cJf $OUT/run1_logs.tar.xz .
cp $W/pb_apply_N_1.json $W/pb_apply_N_1.log $W/pb_jacobi_N_1.json $W/pb_jacobi_N_1.log $OUT/
