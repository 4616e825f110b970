# Run 4 (H200): the consecutive-column tiles of round 21 in production (fast-memory tiers, apply mode): 2D fp32 rows of
# radius <= 4 (512 threads x 4 columns, 16-byte rows, dynamic items) and the 3D fp32 radius-1 shapes other than the star
# (64 x 4 threads x (4 x 2), bulk rows). GPU suite in the automatic mode and with the large tier forced; stencil_bench
# (every shape) and perks_bench (the fp32 shapes whose tile changed) against run 3's library (lib_old/, same binaries),
# alternating; compute-sanitizer on the float pipelined sanitizer case (now with 3d27pt and 2d9pt) and memcheck on the
# float stencil tests, large tier forced; sweep round 22 (fp32 3d7pt Jacobi) at 255^3 and 512^3.
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
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
    LD_LIBRARY_PATH=$L timeout 60 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$v" --out $OUT/sb_${v}_$k.json > $OUT/sb_${v}_$k.log 2>&1
    echo "stencil_bench $v $k rc=$?" | tee -a $S; grep -E "^[23]d|^poisson" $OUT/sb_${v}_$k.log | cut -c1-100 | sed "s/^/$v /" | tee -a $S
  done
done
C=2d5pt,2ds9pt,2d13pt,2d17pt,2d9pt,2d25pt,3d27pt,3d17pt,poisson
for v in new old; do
  L=$FB; [[ $v == old ]] && L=$OLD:$FB
  t=$SECONDS; LD_LIBRARY_PATH=$L timeout 80 bin/perks_bench --cases $C --precision f32 --git-revision "$R-$v" --out $OUT/perks_f32_$v.json > $OUT/perks_f32_$v.log 2>&1
  echo "perks_bench f32 changed shapes $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "^[23]d|^poisson|geometric" $OUT/perks_f32_$v.log | cut -c1-150 | sed "s/^/$v /" | tee -a $S
done
for n in 255 512; do
  LD_LIBRARY_PATH=$FB timeout 60 bin/stencil_sweep --reps 15 --n3d $n --only 3d7pt_f32_jacobi_consec > $OUT/sweep_round22_$n.log 2>&1
  echo "stencil_sweep round 22 at $n^3 rc=$?" | tee -a $S
  grep -E "ratio" $OUT/sweep_round22_$n.log | awk '{print $1,$2,$3,$4,$5,$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
san() {  # tool, gtest filter, limit (s), log name
  local t=$SECONDS
  LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout $3 $CS --tool $1 bin/test_gpu_backend --gtest_filter="$2" > $OUT/$4.log 2>&1
  echo "compute-sanitizer $1 $2 rc=$? $((SECONDS-t)) s (limit $3 s)" | tee -a $S; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/$4.log | head -5 | tee -a $S
}
san memcheck CudaPerks.PipelinedSanitizerCaseFloat 40 sanitizer_memcheck
san synccheck CudaPerks.PipelinedSanitizerCaseFloat 40 sanitizer_synccheck
san memcheck 'CudaBackendStencil.*Float' 45 sanitizer_memcheck_stencil
# racecheck last, with what is left of a 580 s budget (the device call's limit is 600 s)
left=$((580 - SECONDS)); [[ $left -gt 200 ]] && left=200
san racecheck CudaPerks.PipelinedSanitizerCaseFloat $left sanitizer_racecheck
tar czf /tmp/run4_logs.tar.gz -C $OUT . && find $OUT -maxdepth 1 -type f ! -name summary.txt ! -name env.log -delete && mv /tmp/run4_logs.tar.gz $OUT/logs.tar.gz && ls $OUT
