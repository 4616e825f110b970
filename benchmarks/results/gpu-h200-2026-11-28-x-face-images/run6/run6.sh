# Run 6 (H200): the items of the pipelined kernel's sweep. Run 5's ncu put ~9.5 % of the fp64 2ds25pt kernel's warp
# samples at the device barrier after the sweep's items: the 2D plans give every block one item per sweep (one round),
# so nothing balances the blocks' ends, which the per-sweep path hides by overlapping launches. LIB is the production
# kernels with a host-side knob (local edit): PERKSOLVE_CUDA_PIPELINED_ITEMS=k plans the pipelined kernel's items as
# the 3D short items do (about k per block, in 2D too; the schedule tail where there are >= 4 rounds); unset = production.
# perks_bench with k unset, 4, 8 and 16, twice, alternating; the pipelined GPU tests with k = 4 and 16.
# Usage: B=unpacked bundle (run 5's) LIB= folder with the knob's libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for k in 1 2; do
  for v in 0 4 8 16; do
    t=$SECONDS
    if [[ $v == 0 ]]; then LD_LIBRARY_PATH=$LIB:$FB timeout 60 bin/perks_bench --git-revision "$R-items$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    else PERKSOLVE_CUDA_PIPELINED_ITEMS=$v LD_LIBRARY_PATH=$LIB:$FB timeout 60 bin/perks_bench --git-revision "$R-items$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1; fi
    echo "perks_bench items $v run $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/items $v $k /" | tee -a $S
    awk -v v="items $v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_0_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_4_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_8_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_16_$k.log) \
        | sed "s/^/items 0 4 8 16, $k: /" >> $S
done
for v in 4 16; do
  t=$SECONDS; PERKSOLVE_CUDA_PIPELINED_ITEMS=$v LD_LIBRARY_PATH=$LIB:$FB timeout 60 bin/test_gpu_backend --gtest_filter='CudaPerks.Pipelined*:CudaPerks.JacobiStopsInPipelined*' > $W/tests_items$v.log 2>&1
  echo "pipelined tests items $v rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_items$v.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_items$v.log | head | tee -a $S
done
tar -C $W -cJf $OUT/run6_logs.tar.xz .
