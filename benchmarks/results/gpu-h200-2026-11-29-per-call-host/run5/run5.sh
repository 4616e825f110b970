# Run 5 (H200): Z = the kept rule (this library, the bundle's): run 3's tiles (X) with 1 column per thread for fp32
# 2d21pt Jacobi only (Y's kernel for that case, run 4). The GPU suite; perks_bench jacobi twice and apply once (no A/B:
# every kernel of Z was measured in runs 3-4); compute-sanitizer memcheck, racecheck and synccheck on the resident
# sanitizer cases (2d21pt fp32 among them).
# Usage: B=unpacked bundle (Z in lib/) OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
for tag in jacobi1 apply1 jacobi2; do
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 90 bin/perks_bench --sweep ${tag%[12]} --git-revision "$R" --out $W/pb_$tag.json > $W/pb_$tag.log 2>&1
  echo "perks_bench $tag rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "geometric" $W/pb_$tag.log | sed "s/^/$tag /" | tee -a $S
  awk -v v="$tag" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/pb_$tag.log | tee -a $S
  grep -E "^(2d21pt|2ds25pt) +fp32 +small" $W/pb_$tag.log | sed "s/^/$tag /" | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 240 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $S
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -4 | tee -a $S
done
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run5_logs.tar.xz .
