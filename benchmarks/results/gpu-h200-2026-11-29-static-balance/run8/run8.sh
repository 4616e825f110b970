# Run 8 (H200): the kept library (G: the static balance, the review's mend, and one synchronisation per
# persistent_sweeps call, the Jacobi residual history copied into pinned memory behind the result). The GPU suite;
# perks_bench jacobi and apply (K = 20, the default), once each.
# Usage: B=unpacked bundle (G in lib/) OUT=dir bash run8.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run8; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
for mode in jacobi apply; do
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 90 bin/perks_bench --sweep $mode --git-revision "$R" --out $W/pb_$mode.json > $W/pb_$mode.log 2>&1
  echo "perks_bench $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_$mode.log | sed "s/^/$mode /" | tee -a $S
  awk -v v="$mode" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/pb_$mode.log | tee -a $S
done
cp $W/pb_jacobi.json $W/pb_apply.json $W/pb_jacobi.log $W/pb_apply.log $OUT/
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
