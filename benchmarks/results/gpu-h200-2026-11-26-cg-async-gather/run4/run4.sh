# Run 4 (H200): round 19's tiles for the 3D radius-2 star as the fast-memory large tier (fp32: 256 x 6 bulk rows, two
# blocks per SM; fp64: the small tile with dynamic items). GPU suite in the automatic mode and with the large tier
# forced (fast memory); stencil_bench and perks_bench on 3d13pt against the previous tile, which the medium tier still
# is (PERKSOLVE_CUDA_WIDE_TILE=medium: same binaries and library), twice each, alternating; the whole perks_bench once;
# compute-sanitizer memcheck and racecheck on the pipelined sanitizer cases (3d13pt added) with the large tier
# forced. Usage: OUT=dir bash run4.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then timeout 150 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -1 $W/tests_$mode.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $W/summary.txt
done
for k in 1 2; do
  for v in new old; do
    T=; [[ $v == old ]] && T=medium
    PERKSOLVE_CUDA_WIDE_TILE=$T timeout 60 bin/stencil_bench --default-variant-only --reps 20 --cases 3d13pt --git-revision "$R-$v" --out $W/sb_3d13pt_${v}_$k.json > $W/sb_3d13pt_${v}_$k.log 2>&1
    echo "stencil_bench 3d13pt $v $k rc=$?" | tee -a $W/summary.txt; grep -E "^3d13pt" $W/sb_3d13pt_${v}_$k.log | cut -c1-110 | sed "s/^/$v /" | tee -a $W/summary.txt
    PERKSOLVE_CUDA_WIDE_TILE=$T timeout 60 bin/perks_bench --cases 3d13pt --git-revision "$R-$v" --out $W/perks_3d13pt_${v}_$k.json > $W/perks_3d13pt_${v}_$k.log 2>&1
    echo "perks_bench 3d13pt $v $k rc=$?" | tee -a $W/summary.txt; grep -E "^3d13pt|geometric" $W/perks_3d13pt_${v}_$k.log | cut -c1-150 | sed "s/^/$v /" | tee -a $W/summary.txt
  done
done
t=$SECONDS; timeout 110 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "geometric|below" $W/perks_bench.log | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -5 | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/tests_*.log w/sanitizer_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
