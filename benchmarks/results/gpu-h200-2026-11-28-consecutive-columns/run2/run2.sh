# Run 2 (H200): the consecutive-column tile as the fp32 3d7pt fast-memory large tier (64 x 4 threads x (4 x 3), float4
# shared loads and stores). GPU suite in the automatic mode and with the large tier forced (fast memory); stencil_bench
# and perks_bench on 3d7pt fp32 against the previous revision's library (lib_old/, same binaries, LD_LIBRARY_PATH),
# twice each, alternating; the whole stencil_bench once (JSON); compute-sanitizer memcheck, racecheck and synccheck on
# the pipelined sanitizer case (fp32: 3d7pt, 3d13pt) and memcheck on the float stencil tests, large tier forced; the
# round-20 sweep at 645^3 (the fp32 field as large as the fp64 one at 512^3) with round 1's stencil_sweep.
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend > $OUT/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 120 bin/test_gpu_backend > $OUT/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $OUT/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $OUT/tests_$mode.log | head -20 | tee -a $S
done
for k in 1 2; do
  for v in new old; do
    L=$FB; [[ $v == old ]] && L=$OLD:$FB
    LD_LIBRARY_PATH=$L timeout 60 bin/stencil_bench --default-variant-only --reps 20 --cases 3d7pt --git-revision "$R-$v" --out $OUT/sb_3d7pt_${v}_$k.json > $OUT/sb_3d7pt_${v}_$k.log 2>&1
    echo "stencil_bench 3d7pt $v $k rc=$?" | tee -a $S; grep -E "^3d7pt" $OUT/sb_3d7pt_${v}_$k.log | cut -c1-110 | sed "s/^/$v /" | tee -a $S
    LD_LIBRARY_PATH=$L timeout 60 bin/perks_bench --cases 3d7pt --precision f32 --git-revision "$R-$v" --out $OUT/perks_3d7pt_${v}_$k.json > $OUT/perks_3d7pt_${v}_$k.log 2>&1
    echo "perks_bench 3d7pt f32 $v $k rc=$?" | tee -a $S; grep -E "^3d7pt" $OUT/perks_3d7pt_${v}_$k.log | cut -c1-150 | sed "s/^/$v /" | tee -a $S
  done
done
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 90 bin/stencil_bench --reps 20 --git-revision "$R" --out $OUT/stencil_bench.json > $OUT/stencil_bench.log 2>&1
echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "^copy|^3d7pt|^3d27pt|^2d5pt " $OUT/stencil_bench.log | cut -c1-110 | tee -a $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 60 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' > $OUT/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool PipelinedSanitizerCaseFloat rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizer_$tool.log | head -5 | tee -a $S
done
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 90 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*Float' > $OUT/sanitizer_memcheck_stencil.log 2>&1
echo "compute-sanitizer memcheck CudaBackendStencil.*Float rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_memcheck_stencil.log | head -5 | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 60 bin/stencil_sweep --reps 15 --n3d 645 --only 3d7pt_consec > $OUT/sweep_round20_645.log 2>&1
echo "stencil_sweep round 20 at 645^3 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "^copy reference" $OUT/sweep_round20_645.log | tee -a $S
grep -E "ratio" $OUT/sweep_round20_645.log | awk '{print $1,$2,$3,$4,$5,$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $S
tar czf /tmp/run2_logs.tar.gz -C $OUT . && find $OUT -maxdepth 1 -type f ! -name summary.txt ! -name stencil_bench.json ! -name env.log -delete && mv /tmp/run2_logs.tar.gz $OUT/logs.tar.gz && ls $OUT
