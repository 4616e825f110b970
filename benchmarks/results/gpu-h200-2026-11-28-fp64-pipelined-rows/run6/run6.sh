# Run 6 (H200): the fp32 pipelined PERKS kernel rotates its partial sums at radius >= 5 too (pipelined_tune: 2d21pt
# fits in 128 registers with ROT, 2ds25pt spills 24 bytes). NEW = this bundle's library, PROD = run 4's library.
# perks_bench twice each way, alternating; the PERKS GPU tests (automatic; the pipelined ones with the large tier
# forced on fast memory); compute-sanitizer racecheck, synccheck and memcheck on the fp32 row-tile pipelined case
# (now with 2d21pt), memcheck on the fp32 pipelined sanitizer case (2ds25pt).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for k in 1 2; do
  for v in prod new; do
    t=$SECONDS; run_v $v timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $8, $11, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $4, $8, $11, $(i+1)}' $W/perks_bench_new_$k.log) \
        | sed "s/^/prod new, $k (extents, per-sweep s, persistent s, speed-up): /" >> $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks_default.log 2>&1
echo "test_gpu_backend CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks_default.log | head | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*' > $W/tests_pipelined_large_fast.log 2>&1
echo "test_gpu_backend CudaPerks.Pipelined* large_fast rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_pipelined_large_fast.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_pipelined_large_fast.log | head | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
F='CudaPerks.PipelinedSanitizerCaseRowTileFloat'
for tool in racecheck synccheck memcheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 150 $CS --tool $tool bin/test_gpu_backend --gtest_filter=$F > $W/sanitizer_${tool}.log 2>&1
  echo "compute-sanitizer $tool $F rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "SUMMARY|PASSED|FAILED" $W/sanitizer_${tool}.log | head -3 | tee -a $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' > $W/sanitizer_memcheck_float.log 2>&1
echo "compute-sanitizer memcheck CudaPerks.PipelinedSanitizerCaseFloat rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "SUMMARY|PASSED|FAILED" $W/sanitizer_memcheck_float.log | head -3 | tee -a $S
tar -C $W -cJf $OUT/run6_logs.tar.xz .
cp $W/perks_bench_new_1.json $W/perks_bench_new_1.log $OUT/
