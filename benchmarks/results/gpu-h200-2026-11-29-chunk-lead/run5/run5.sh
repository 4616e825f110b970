# Run 5 (H200): the kept library (run 3's, d6ab523; the later commits change comments and documents only): the whole
# GPU suite, and perks_bench apply and jacobi once each.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
for tag in apply jacobi; do
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 90 bin/perks_bench --sweep $tag --out $W/pb_$tag.json > $W/pb_$tag.log 2>&1
  echo "perks_bench $tag rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/pb_$tag.log | sed "s/^/$tag /" | tee -a $S
  awk -v v="$tag" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/pb_$tag.log | tee -a $S
done
cp $W/pb_apply.log $W/pb_apply.json $W/pb_jacobi.log $W/pb_jacobi.json $W/tests_default.log $OUT/
