# Run 1 (H200): 16-byte cp.async row windows aligned to a 32-byte sector (TileCfg::WA; A32) or to a 128-byte line
# (A128) against PROD (16 bytes, the library of a3c6a12). Only the non-bulk 16-byte tiles change: the 2D fast-memory
# rows (fp32 every radius, fp64 radius 5-6). stencil_bench on the 2D shapes with each library twice, alternating;
# perks_bench with PROD and A32; the GPU suite with A32 (automatic and large tier forced); ncu source counters of the
# 2d13pt fp32 and 2ds25pt fp64 per-sweep kernels with PROD and A32 (L2 sectors and shared wavefronts of the row loads).
# Usage: B=unpacked bundle LA32=dir LA128=dir LPROD=dir (each holding libperksolve_cuda.so.0) OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in a32) echo $LA32:$FB ;; a128) echo $LA128:$FB ;; *) echo $LPROD:$FB ;; esac; }
C2=2d5pt,2ds9pt,2d9pt,2d13pt,2d17pt,2d21pt,2ds25pt,2d25pt
for k in 1 2; do
  for v in prod a32 a128; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 90 bin/stencil_bench --cases $C2 --default-variant-only --git-revision "$R-$v" \
      --out $W/stencil_${v}_$k.json > $W/stencil_${v}_$k.log 2>&1
    echo "stencil_bench 2D $v $k rc=$? $((SECONDS-t)) s" | tee -a $S
  done
done
for v in prod a32 a128; do
  python3 - $W $v >> $S <<'PY'
import json, sys
w, v = sys.argv[1], sys.argv[2]
rows = {}
for k in (1, 2):
    for r in json.load(open(f"{w}/stencil_{v}_{k}.json"))["records"]:
        rows.setdefault((r["case"], r["precision"]), []).append(r["ratio_to_copy_bound"])
print(v, " ".join(f"{c}/{p}={min(x):.3f}-{max(x):.3f}" for (c, p), x in sorted(rows.items())))
PY
done
for v in prod a32; do
  t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1
  echo "perks_bench (all) $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_$v.log | sed "s/^/$v /" | tee -a $S
  awk -v v="$v" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_$v.log | tee -a $S
done
paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_prod.log) \
      <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a32.log) | sed "s/^/prod a32: /" >> $S
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$LA32:$FB timeout 100 bin/test_gpu_backend > $W/tests_a32_$mode.log 2>&1
  else LD_LIBRARY_PATH=$LA32:$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_a32_$mode.log 2>&1; fi
  echo "test_gpu_backend a32 $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_a32_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_a32_$mode.log | head -20 | tee -a $S
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in prod a32; do
  for c in "2d13pt f32" "2ds25pt f64"; do
    set -- $c
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 60 $NCU --clock-control none -k regex:stream_stencil_kernel -c 1 --section SourceCounters --section SpeedOfLight \
      -o $W/ncu_${1}_${2}_$v -f bin/stencil_bench --cases $1 --precision $2 --default-variant-only --reps 2 > $W/ncu_${1}_${2}_$v.log 2>&1
    echo "ncu $1 $2 $v rc=$? $((SECONDS-t)) s" | tee -a $S
    $NCU -i $W/ncu_${1}_${2}_$v.ncu-rep --page source --csv --print-source sass > $W/ncu_${1}_${2}_$v.sass.csv 2>&1
    $NCU -i $W/ncu_${1}_${2}_$v.ncu-rep --page details > $W/ncu_${1}_${2}_$v.details.txt 2>&1
    grep -E "Duration|DRAM Throughput|L2 Cache Throughput|excessive" $W/ncu_${1}_${2}_$v.details.txt | sed "s/^/$1 $2 $v /" | tee -a $S
    rm -f $W/ncu_${1}_${2}_$v.ncu-rep
  done
done
tar -C $W -cJf $OUT/run1_logs.tar.xz .
cp $W/stencil_a32_1.json $W/perks_bench_a32.json $OUT/
