# Run 1 (H200): A/B of the streaming kernels' output addressing (no 64-bit multiply and no branch per output; the
# 16-byte window's shift applied once per plane). "new" = this bundle's lib, "old" = lib_old/ (the previous revision's
# libperksolve_cuda, loaded first through LD_LIBRARY_PATH; the binaries are the same). Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R (old lib: $(cat lib_old/REVISION))" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
OLD=$PWD/lib_old
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in 1 2; do
  for v in new old; do
    L=; [[ $v == old ]] && L=$OLD
    t=$SECONDS; LD_LIBRARY_PATH=$L timeout 120 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R-$v" --out $W/stencil_bench_${v}_$k.json > $W/stencil_bench_${v}_$k.log 2>&1; echo "stencil_bench $v $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
for v in new old; do
  echo "== stencil_bench $v (run 1 | run 2)" >> $W/summary.txt
  paste -d'|' <(grep -E "^(2d|3d)" $W/stencil_bench_${v}_1.log | cut -c1-100) <(grep -E "^(2d|3d)" $W/stencil_bench_${v}_2.log | awk '{print $8}') >> $W/summary.txt
done
k=0
for v in new old new old; do
  L=; [[ $v == old ]] && L=$OLD
  k=$((k+1))
  t=$SECONDS; LD_LIBRARY_PATH=$L timeout 90 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R-$v" --out $W/solver_bench_${v}_$k.json > $W/solver_bench_${v}_$k.log 2>&1; echo "solver_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench_${v}_$k.log | cut -c1-120 | tee -a $W/summary.txt
done
for tier in large medium; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=fast timeout 200 bin/test_gpu_backend > $W/tests_${tier}_fast.log 2>&1; echo "test_gpu_backend $tier fast rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  tail -1 $W/tests_${tier}_fast.log | tee -a $W/summary.txt; grep -E "^\[  FAILED" $W/tests_${tier}_fast.log | head -20 | tee -a $W/summary.txt
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in f32 f64; do
  t=$SECONDS; timeout 150 $NCU --clock-control none --section SourceCounters --section WarpStateStats --section InstructionStats --section LaunchStats --section SpeedOfLight --import-source no -k regex:stream_stencil -s 3 -c 1 -o $W/src_$p bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_src_$p.log 2>&1; echo "ncu $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/src_$p.ncu-rep --page source --csv --print-source sass > $W/src_${p}_sass.csv 2> $W/src_${p}_sass.err
  $NCU --import $W/src_$p.ncu-rep --page details > $W/src_${p}_details.txt 2>&1
  grep -E "Duration|Executed Instructions  |Issue Slots Busy|DRAM Throughput|Warp Cycles Per Issued" $W/src_${p}_details.txt | tee -a $W/summary.txt
  rm -f $W/src_$p.ncu-rep
done
cd $OUT && gzip -f w/tests_*.log w/*.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
