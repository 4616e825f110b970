# Run 3 (H200): the staged walk with the next tile prefetched by cp.async into a shared stage. The whole GPU suite; cg_bench with
# the staged walk (new default) and the per-thread walk (PERKSOLVE_CUDA_CG_WALK=per_thread), alternated twice;
# ncu of the persistent CSR CG kernel on laplace7_128 fp64 with the staged walk; compute-sanitizer on the walk tests.
# Layout: /tmp/b/new/bundle. Usage: OUT=dir bash run3.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle
R=$(cat $N/REVISION)
echo "new $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 240 $N/bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]|SKIPPED \]" $W/tests_all.log | tee -a $W/summary.txt
grep -E "staged walk" $W/tests_all.log | tee -a $W/summary.txt
for rep in 1 2; do
  for walk in staged per_thread; do
    t=$SECONDS; PERKSOLVE_CUDA_CG_WALK=$walk timeout 100 $N/bin/cg_bench --reps 9 --stencil-sizes 32 --large-7 192 --large-27 96 --git-revision "$R" --out $W/cg_bench_${walk}_$rep.json > $W/cg_bench_${walk}_$rep.log 2>&1
    echo "cg_bench $walk rep $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
    grep -E "^(laplace7_192|laplace27_96|laplace3d_24) " $W/cg_bench_${walk}_$rep.log | head -6 | tee -a $W/summary.txt
  done
done
for walk in staged per_thread; do
  t=$SECONDS; PERKSOLVE_CUDA_CG_WALK=$walk timeout 60 $N/bin/cg_bench --reps 9 --only laplace7_128 --large-7 128 --git-revision "$R" --out $W/cg_bench_128_${walk}.json > $W/cg_bench_128_${walk}.log 2>&1
  echo "cg_bench 128 $walk rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^laplace7_128 " $W/cg_bench_128_${walk}.log | head -4 | tee -a $W/summary.txt
done
NCU=/usr/local/cuda/bin/ncu
for walk in staged; do
  t=$SECONDS; PERKSOLVE_CUDA_CG_WALK=$walk timeout 120 $NCU --clock-control none -k regex:persistent_cg_kernel -s 1 -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section SourceCounters -o $W/ncu_$walk $N/bin/cg_bench --reps 1 --iterations 20 --only laplace7_128 --large-7 128 --precision f64 > $W/ncu_$walk.log 2>&1
  echo "ncu $walk rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU -i $W/ncu_$walk.ncu-rep --page details > $W/details_$walk.txt 2>&1
  $NCU -i $W/ncu_$walk.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $W/sass_$walk.csv.gz
  grep -E "Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|Memory Throughput|Registers|Achieved Occupancy" $W/details_$walk.txt | head -12 | tee -a $W/summary.txt
  rm -f $W/ncu_$walk.ncu-rep
done
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 1 $N/bin/test_gpu_backend --gtest_filter='CudaPersistentCg.StagedWalk*Double' > $W/sanitizer_$tool.log 2>&1; echo "$tool StagedWalk*Double rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
