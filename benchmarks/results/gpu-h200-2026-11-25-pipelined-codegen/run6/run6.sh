# Run 6 (H200): the pipelined kernel with a face phase after each sweep (this revision) against base 60438e2, interleaved, twice; ncu; PERKS GPU tests; sanitizers.


cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log
NCU=/usr/local/cuda/bin/ncu
for rep in 1 2; do
for c in "2d21pt 6144" "2ds25pt 5095" "2d25pt 4651" "2d9pt 6144" "3d27pt 512" "poisson 512" "3d17pt 512" "3d7pt 448" "3d13pt 256" "2d13pt 4651" "2d17pt 4651"; do
  set -- $c
  for v in new base; do
    if [ $v = base ]; then LP=$PWD/base; else LP=; fi
    LD_LIBRARY_PATH=$LP timeout 90 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 5 > $W/perks_$1_$v.log 2>&1
    echo "$v $(grep -E "^$1 " $W/perks_$1_$v.log)" | tee -a $W/summary.txt
  done
done
done
for c in "2d21pt 6144" "3d27pt 512"; do
  set -- $c
  timeout 150 $NCU --clock-control none -k regex:perks_pipelined -c 1 --section SpeedOfLight --section SourceCounters -o $W/pip_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --sweeps 10 --kernel pipelined > $W/ncu_pip_$1.out 2>&1; echo "ncu pip $1 rc=$?" | tee -a $W/summary.txt
  $NCU --import $W/pip_$1.ncu-rep --page source --csv --print-source sass > $W/sass_pip_$1.csv 2>&1; gzip $W/sass_pip_$1.csv
done
timeout 250 bin/test_gpu_backend --gtest_filter='*Perks*' > $W/tests_perks.log 2>&1; echo "tests rc=$?" | tee -a $W/summary.txt
tail -3 $W/tests_perks.log | tee -a $W/summary.txt
for tool in memcheck synccheck racecheck; do
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_$tool.log 2>&1; echo "sanitizer $tool rc=$? $(tail -1 $W/sanitizer_$tool.log)" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
