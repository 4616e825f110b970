# Run 5 (H200): the pipelined kernel writes the ghosts of bulk-row tiles in a face phase (3d13pt fp32 ran at 0.76 of
# the per-sweep kernel with the per-item fill in run 4). A/B against run 4's library (lib_old/, loaded first through
# LD_LIBRARY_PATH), perks_bench on 3d13pt fp32 twice each, alternating; the GPU suite (automatic, large tier forced);
# the whole perks_bench; compute-sanitizer racecheck and synccheck on the fp32 pipelined sanitizer case (3d7pt,
# 3d13pt) with the large tier forced. Usage: OUT=dir bash run5.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R (old lib: $(cat lib_old/REVISION))" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
OLD=$PWD/lib_old
for k in 1 2; do
  for v in new old; do
    L=; [[ $v == old ]] && L=$OLD
    LD_LIBRARY_PATH=$L timeout 60 bin/perks_bench --cases 3d13pt --precision f32 --git-revision "$R-$v" --out $W/perks_3d13pt_${v}_$k.json > $W/perks_3d13pt_${v}_$k.log 2>&1
    echo "perks_bench 3d13pt f32 $v $k rc=$?" | tee -a $W/summary.txt; grep -E "^3d13pt" $W/perks_3d13pt_${v}_$k.log | cut -c1-150 | sed "s/^/$v /" | tee -a $W/summary.txt
  done
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then timeout 150 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -1 $W/tests_$mode.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 110 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "geometric" $W/perks_bench.log | tee -a $W/summary.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in synccheck racecheck; do
  lim=100; [[ $tool == racecheck ]] && lim=200
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout $lim $CS --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' > $W/sanitizer_$tool.log 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | head -5 | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/tests_*.log w/sanitizer_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
