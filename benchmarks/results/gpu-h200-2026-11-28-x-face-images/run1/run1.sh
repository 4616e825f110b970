# Run 1 (H200): A (this bundle's revision: the pipelined kernel writes the x-face ghosts from its plane loop,
# PerksXFaceImages, and its face phase walks the other slabs only) against PROD (a7ae48b's kernels, the face phase
# with every slab) and B (A with the face phase, instead of the per-item fill, also for the 2D fp32 stars and boxes of
# radius <= 4; local edit of pipelined_face_phase). The GPU suite with A (automatic and large tier forced) and B
# (automatic); compute-sanitizer memcheck with A on the pipelined sanitizer cases (large tier forced); perks_bench
# twice with each library, alternating.
# Usage: B=unpacked bundle PROD=, LIBB= folders with those libperksolve_cuda.so.0 OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in prod) echo $PROD:$FB ;; b) echo $LIBB:$FB ;; *) echo $FB ;; esac; }
for vm in a:default a:large_fast b:default; do
  v=${vm%%:*}; mode=${vm##*:}; t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$(libpath $v) timeout 100 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1
  else LD_LIBRARY_PATH=$(libpath $v) PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1; fi
  echo "test_gpu_backend $v $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_${v}_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_${v}_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS
LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_memcheck_a.log 2>&1
echo "compute-sanitizer memcheck a rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck_a.log | head -3 | tee -a $S
for k in 1 2; do
  for v in prod a b; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  # per case: the speed-ups of prod, a and b
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_b_$k.log) \
        | sed "s/^/prod a b, $k: /" >> $S
done
tar -C $W -cJf $OUT/run1_logs.tar.xz .
cp $W/perks_bench_a_1.json $W/perks_bench_a_1.log $OUT/
