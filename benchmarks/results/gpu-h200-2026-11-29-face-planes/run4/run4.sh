# Run 4 (H200): the final library N: run 2's face planes, and the pipelined kernel of the 3D fp32 radius-2 Jacobi
# tile (4 rows per thread) bound to two blocks per SM (pipelined_min_blocks; run 3's ncu: 182 registers, one block per
# SM, 0.76 of the per-sweep rate). A = the library of 88a663f (LA).
# perks_bench apply and jacobi, A and N alternating, twice each; ncu on the pipelined 3d13pt fp32 Jacobi kernel at
# 384^3 (registers, occupancy); the GPU suite with N, CudaPerks.Pipelined* with the large tier forced on fast memory;
# compute-sanitizer synccheck, memcheck and racecheck on the resident cases (as run 2) and on the fp32 pipelined
# sanitizer case (its 3d13pt runs Jacobi sweeps on the capped tile).
# Usage: B=unpacked bundle LA=dir with A's libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
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
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=pipelined_3d13pt_f32_jacobi; t=$SECONDS
LD_LIBRARY_PATH=$FB timeout 120 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 --section SpeedOfLight \
  --section Occupancy --section LaunchStats --section InstructionStats -o $W/$m -f bin/perks_bench --cases 3d13pt \
  --precision f32 --side 384 --sweeps 4 --reps 1 --kernel pipelined --sweep jacobi > $W/$m.ncu.log 2>&1
echo "ncu $m rc=$? $((SECONDS-t)) s" | tee -a $S
$NCU -i $W/$m.ncu-rep --page details --csv > $W/$m.details.csv 2>&1
grep -E '"(Duration|Registers Per Thread|Achieved Occupancy|DRAM Throughput|Executed Instructions|Block Limit Registers|Theoretical Occupancy|Local Memory Spilling Requests)"' $W/$m.details.csv | awk -F'","' -v m=$m '{print m, $(NF-2), $(NF-1), $NF}' | tee -a $S
rm -f $W/*.ncu-rep
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
grep -E "face planes on chip|b on chip" $W/tests_default.log | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*' > $W/tests_pipelined_large_fast.log 2>&1
echo "test_gpu_backend CudaPerks.Pipelined* large_fast rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_pipelined_large_fast.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_pipelined_large_fast.log | head | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f='CudaPerks.ResidentSanitizerCase*:CudaPerks.JacobiStopsInResidentKernel*:CudaPerks.PipelinedSanitizerCaseFloat'
for tool in synccheck memcheck racecheck; do
  ff=$f; [[ $tool == racecheck ]] && ff=${f%:CudaPerks.PipelinedSanitizerCaseFloat}  # (racecheck: the resident cases only)
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 $CS --tool $tool bin/test_gpu_backend --gtest_filter="$ff" > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool $ff rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -4 | tee -a $S
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
cp $W/pb_apply_N_1.json $W/pb_apply_N_1.log $W/pb_jacobi_N_1.json $W/pb_jacobi_N_1.log $OUT/
