# Run 7 (H200): A (LIB: this session's production change, pipelined_items_per_block: the pipelined kernel plans 16
# items per block on the fp32 3d7pt large fast-memory tile, 8 on the fp64 one, apply sweeps; the tile's own elsewhere)
# against PROD (the library of run 5's bundle: a7ae48b's kernels and plans). The GPU suite with A (automatic and large
# tier forced); perks_bench twice with each library, alternating.
# Usage: B=unpacked bundle (run 5's) LIB= folder with A's libperksolve_cuda.so.0 OUT=dir bash run7.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run7; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in a) echo $LIB:$FB ;; *) echo $FB ;; esac; }
for k in 1 2; do
  for v in prod a; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 60 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_prod_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a_$k.log) \
        | sed "s/^/prod a, $k: /" >> $S
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$LIB:$FB timeout 100 bin/test_gpu_backend > $W/tests_a_$mode.log 2>&1
  else LD_LIBRARY_PATH=$LIB:$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_a_$mode.log 2>&1; fi
  echo "test_gpu_backend a $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_a_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_a_$mode.log | head -20 | tee -a $S
done
tar -C $W -cJf $OUT/run7_logs.tar.xz .
cp $W/perks_bench_a_1.json $W/perks_bench_a_1.log $OUT/
