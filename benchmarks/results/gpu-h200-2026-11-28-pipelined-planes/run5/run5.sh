# Run 5 (H200): this revision (A: fp32 fills out of line with the face geometry in shared memory, fp64 inline as
# before) against B (the same, plus a face phase instead of the per-item fill for the 2D fp32 tiles of radius <= 4;
# built from a local edit of pipelined_face_phase: `radius >= 5 || out_of_line`) and run 1's library (OLD): the GPU
# suite with A and B (automatic and large tier forced), perks_bench twice with each, compute-sanitizer memcheck and
# synccheck on the pipelined sanitizer cases with A and B (large tier forced).
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 LIBB=folder with B's OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in old) echo $OLD:$FB ;; b) echo $LIBB:$FB ;; *) echo $FB ;; esac; }
for v in a b; do
  for mode in default large_fast; do
    t=$SECONDS
    if [[ $mode == default ]]; then LD_LIBRARY_PATH=$(libpath $v) timeout 110 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1
    else LD_LIBRARY_PATH=$(libpath $v) PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $W/tests_${v}_$mode.log 2>&1; fi
    echo "test_gpu_backend $v $mode rc=$? $((SECONDS-t)) s" | tee -a $S
    tail -1 $W/tests_${v}_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_${v}_$mode.log | head -20 | tee -a $S
  done
done
for k in 1 2; do
  for v in old a b; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 100 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_old_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_b_$k.log) | sed "s/^/old a b $k: /" >> $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for v in a b; do
  for tool in memcheck synccheck; do
    t=$SECONDS
    LD_LIBRARY_PATH=$(libpath $v) PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 60 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_${tool}_$v.log 2>&1
    echo "compute-sanitizer $tool $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_${tool}_$v.log | head -3 | tee -a $S
  done
done
tar -C $W -cJf $OUT/run5_logs.tar.xz .
