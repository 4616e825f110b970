# Run 4 (H200): A4 (this bundle's revision: the fp32 face phase walked slab by slab as A3 of run 3, fp64 and the
# kernels without a face phase byte-identical to PROD's) against PROD (96cc224 = ae874fb's kernels) and A5 (A4 with 8
# ghost cells per thread and step in the fp32 face phase instead of 4; local edit). The GPU suite with A4 (automatic
# and large tier forced) and A5 (automatic); compute-sanitizer memcheck and synccheck with A4 on the pipelined
# sanitizer cases (large tier forced); perks_bench twice with each library, alternating.
# Usage: B=unpacked bundle PROD=, LIBA5= folders with those libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in prod) echo $PROD:$FB ;; a5) echo $LIBA5:$FB ;; *) echo $FB ;; esac; }
for vm in a4:default a4:large_fast a5:default; do
  v=${vm%%:*}; mode=${vm##*:}; t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$(libpath $v) timeout 110 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1
  else LD_LIBRARY_PATH=$(libpath $v) PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1; fi
  echo "test_gpu_backend $v $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_${v}_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_${v}_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck synccheck; do
  t=$SECONDS
  LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 80 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_${tool}_a4.log 2>&1
  echo "compute-sanitizer $tool a4 rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_${tool}_a4.log | head -3 | tee -a $S
done
for k in 1 2; do
  for v in prod a4 a5; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 100 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  # per case: the speed-ups of prod, a4 and a5
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a4_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a5_$k.log) \
        | sed "s/^/prod a4 a5, $k: /" >> $S
done
tar -C $W -cJf $OUT/run4_logs.tar.xz .
cp $W/perks_bench_a4_1.json $W/perks_bench_a4_1.log $OUT/
