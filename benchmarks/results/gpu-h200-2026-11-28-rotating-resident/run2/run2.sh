# Run 2 (H200): the kept rule. The 2D resident tiles of radius >= 3 rotate their partial sums (ResidentTuneSel's ROT:
# apply, and fp64 with b); the pipelined kernel is as in production (run 1's variant B not kept).
#  A = the production library (a4969f1's kernels), LA; D = this bundle's library.
# perks_bench (apply sweeps, and --sweep jacobi) A, D twice each, alternating; ncu (source counters, warp states,
# memory, launch) of the resident kernel on the small domains of 2d17pt fp32, 2d5pt fp32 and 2d13pt fp64, of the
# per-sweep kernel of 2d17pt fp32 (one launch, 4 sweeps), and of both kernels of Jacobi 2d5pt fp32 at 6144^2 (the
# pipelined kernel at 0.78 of the per-sweep one); the GPU suite with D; compute-sanitizer racecheck, synccheck
# and memcheck on the resident sanitizer cases with D.
# Usage: B=unpacked bundle LA=dir with A's libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in A) LD_LIBRARY_PATH=$LA:$FB "${@:2}" ;; D) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
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
  for v in A D; do bench $v $k apply; done
  table apply $k A D
done
for k in 1 2; do
  for v in A D; do bench $v $k jacobi --sweep jacobi; done
  table jacobi $k A D
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in resident:2d17pt:f32:2031:apply resident:2d5pt:f32:2031:apply resident:2d13pt:f64:1423:apply \
          stream:2d17pt:f32:2031:apply stream:2d5pt:f32:6144:jacobi pipelined:2d5pt:f32:6144:jacobi; do
  IFS=: read -r kk c p n sw <<< "$cs"
  case $kk in resident) k=perks_resident_kernel ;; pipelined) k=perks_pipelined_kernel ;; *) k=stream_stencil_kernel ;; esac
  kn=$([[ $sw == jacobi ]] && echo pipelined || echo resident)
  m=${kk}_${c}_${p}_$sw; t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 100 $NCU --clock-control none -k regex:$k -c 1 --section SourceCounters --section WarpStateStats \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section InstructionStats \
    -o $W/$m -f bin/perks_bench --cases $c --precision $p --side $n --sweeps 4 --reps 1 --kernel $kn --sweep $sw > $W/$m.ncu.log 2>&1
  echo "ncu $m rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/$m.ncu-rep --page source --csv --print-source sass > $W/$m.sass.csv 2>&1
  $NCU -i $W/$m.ncu-rep --page details --csv > $W/$m.details.csv 2>&1
  echo "$m: $(wc -l < $W/$m.sass.csv) sass lines" | tee -a $S
done
rm -f $W/*.ncu-rep
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
F='CudaPerks.ResidentSanitizerCase*'
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 $CS --tool $tool bin/test_gpu_backend --gtest_filter=$F > $W/sanitizer_${tool}.log 2>&1
  echo "compute-sanitizer $tool $F rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "SUMMARY|PASSED|FAILED" $W/sanitizer_${tool}.log | head -3 | tee -a $S
done
tar -C $W -cJf $OUT/run2_logs.tar.xz .
cp $W/pb_apply_D_1.json $W/pb_apply_D_1.log $OUT/
