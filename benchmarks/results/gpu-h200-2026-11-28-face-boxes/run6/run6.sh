# Run 6 (H200): A6 (A4 with the fp64 face phase walked slab by slab too, its layout and face set in shared memory as
# in fp32; local edit of perks_pipelined_kernel) against A4 (this bundle's library, production). The GPU suite with
# A6 (automatic); perks_bench fp64 twice with each, alternating.
# Usage: B=unpacked run-4 bundle LIBA6= folder with A6's libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
libpath() { case $1 in a6) echo $LIBA6:$FB ;; *) echo $FB ;; esac; }
t=$SECONDS; LD_LIBRARY_PATH=$(libpath a6) timeout 100 bin/test_gpu_backend > $W/tests_a6_default.log 2>&1
echo "test_gpu_backend a6 default rc=$? $((SECONDS-t)) s" | tee -a $S
tail -1 $W/tests_a6_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_a6_default.log | head -20 | tee -a $S
for k in 1 2; do
  for v in a4 a6; do
    t=$SECONDS; LD_LIBRARY_PATH=$(libpath $v) timeout 60 bin/perks_bench --precision f64 --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench f64 $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_a4_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_a6_$k.log) \
        | sed "s/^/a4 a6, $k: /" | tee -a $S
done
tar -C $W -cJf $OUT/run6_logs.tar.xz .
