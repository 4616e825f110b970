# Run 3 (H200): A3 (the face phase walked slab by slab: fill_face_slabs_in_grid, the slab known at compile time; the
# pipelined kernels without a face phase byte-identical to PROD's; local tree at that state, committed after this
# run) against PROD (96cc224 = ae874fb's kernels). The GPU suite with A3 (automatic and large tier forced);
# perks_bench three times with each, alternating; ncu on A3's pipelined kernel (3d13pt fp32, 448^3).
# Usage: B=unpacked run-1 bundle PROD=, LIBA3= folders with those libperksolve_cuda.so.0 OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in prod) echo $PROD:$FB ;; a3) echo $LIBA3:$FB ;; *) echo $FB ;; esac; }
for vm in a3:default a3:large_fast; do
  v=${vm%%:*}; mode=${vm##*:}; t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$(libpath $v) timeout 110 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1
  else LD_LIBRARY_PATH=$(libpath $v) PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1; fi
  echo "test_gpu_backend $v $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_${v}_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_${v}_$mode.log | head -20 | tee -a $S
done
for k in 1 2 3; do
  for v in prod a3; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 100 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  # per case: the speed-ups of prod and a3, then their persistent times (s)
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a3_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "persistent") print $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "persistent") print $(i+1)}' $W/perks_bench_a3_$k.log) \
        | sed "s/^/prod a3 | persistent prod a3, $k: /" >> $S
done
# ncu source-level counters of A3's pipelined kernel on 3d13pt fp32 at 448^3 (as run 6 of pipelined-planes did for PROD)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
t=$SECONDS; LD_LIBRARY_PATH=$(libpath a3) timeout 90 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 --section SourceCounters --section WarpStateStats \
  -o $W/pp_3d13pt_a3 -f bin/perks_bench --cases 3d13pt --precision f32 --side 448 --sweeps 4 --reps 1 --kernel pipelined > $W/pp_3d13pt_a3.ncu.log 2>&1
echo "ncu pp_3d13pt_a3 rc=$? $((SECONDS-t)) s" | tee -a $S
$NCU -i $W/pp_3d13pt_a3.ncu-rep --page source --csv --print-source sass > $W/pp_3d13pt_a3.sass.csv 2>&1
$NCU -i $W/pp_3d13pt_a3.ncu-rep --page details > $W/pp_3d13pt_a3.details.txt 2>&1
grep -E "Duration|Registers Per|Warp Cycles Per Issued" $W/pp_3d13pt_a3.details.txt | tee -a $S
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run3_logs.tar.xz .
cp $W/perks_bench_a3_1.json $W/perks_bench_a3_1.log $OUT/
