# Run 5 (H200): the 2D stars of radius 5 and 6 (2d21pt, 2ds25pt) on consecutive-column tiles (256 threads, 16-byte rows,
# dynamic items, two blocks per SM; fast-memory tier, apply mode): sweep round 23 against the small tile they had; GPU
# suite (automatic, large tier forced); stencil_bench and perks_bench on those shapes against run 4's library (lib_old/);
# the whole perks_bench (issue 6's classes after this session's tiles); compute-sanitizer memcheck on the stencil tests,
# synccheck and racecheck on the float pipelined case (now with 2ds25pt), large tier forced.
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
LD_LIBRARY_PATH=$FB timeout 60 bin/stencil_sweep --reps 15 --only 2d_r56_consec > $OUT/sweep_round23.log 2>&1
echo "stencil_sweep round 23 rc=$?" | tee -a $S; grep -E "^copy reference" $OUT/sweep_round23.log | tee -a $S
grep -E "ratio" $OUT/sweep_round23.log | awk '{print $1,$2,$3,$4,$5,$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $S
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 110 bin/test_gpu_backend > $OUT/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $OUT/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $OUT/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $OUT/tests_$mode.log | head -20 | tee -a $S
done
for k in 1 2; do
  for v in new old; do
    L=$FB; [[ $v == old ]] && L=$OLD:$FB
    LD_LIBRARY_PATH=$L timeout 60 bin/stencil_bench --default-variant-only --reps 20 --cases 2d21pt,2ds25pt --git-revision "$R-$v" --out $OUT/sb_${v}_$k.json > $OUT/sb_${v}_$k.log 2>&1
    echo "stencil_bench 2d21pt,2ds25pt $v $k rc=$?" | tee -a $S; grep -E "^2d" $OUT/sb_${v}_$k.log | cut -c1-100 | sed "s/^/$v /" | tee -a $S
  done
done
for v in new old; do
  L=$FB; [[ $v == old ]] && L=$OLD:$FB
  LD_LIBRARY_PATH=$L timeout 60 bin/perks_bench --cases 2d21pt,2ds25pt --git-revision "$R-$v" --out $OUT/perks_r56_$v.json > $OUT/perks_r56_$v.log 2>&1
  echo "perks_bench 2d21pt,2ds25pt $v rc=$?" | tee -a $S; grep -E "^2d|geometric" $OUT/perks_r56_$v.log | cut -c1-150 | sed "s/^/$v /" | tee -a $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 130 bin/perks_bench --git-revision "$R" --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1
echo "perks_bench (all) rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $OUT/perks_bench.log | tee -a $S
awk '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print "large below 0.98:", $1, $2, $(i+1)}' $OUT/perks_bench.log | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
san() {  # tool, gtest filter, limit (s), log name
  local t=$SECONDS
  LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout $3 $CS --tool $1 bin/test_gpu_backend --gtest_filter="$2" > $OUT/$4.log 2>&1
  echo "compute-sanitizer $1 $2 rc=$? $((SECONDS-t)) s (limit $3 s)" | tee -a $S; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/$4.log | head -5 | tee -a $S
}
san memcheck 'CudaBackendStencil.*' 60 sanitizer_memcheck_stencil
san synccheck CudaPerks.PipelinedSanitizerCaseFloat 40 sanitizer_synccheck
left=$((575 - SECONDS)); [[ $left -gt 220 ]] && left=220
san racecheck CudaPerks.PipelinedSanitizerCaseFloat $left sanitizer_racecheck
tar czf /tmp/run5_logs.tar.gz -C $OUT . && find $OUT -maxdepth 1 -type f ! -name summary.txt ! -name env.log -delete && mv /tmp/run5_logs.tar.gz $OUT/logs.tar.gz && ls $OUT
