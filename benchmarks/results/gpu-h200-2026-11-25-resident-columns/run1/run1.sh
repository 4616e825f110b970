# Run 1 (H200): resident 2D kernel skips output columns dead in a whole warp; 2D R >= 5 tiles take dynamic items
# (per-sweep and pipelined). Full GPU suite; sanitizers on the resident 2D and pipelined cases; perks_bench (all
# shapes and classes) twice, base 93b476a once in between (LD_LIBRARY_PATH=base). Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -3 $W/tests_all.log | tee -a $W/summary.txt
grep -E "FAILED|Failure" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for v in new1 base new2; do
  if [ $v = base ]; then LP=$PWD/base; R=93b476a; else LP=; R=$(cat REVISION); fi
  t=$SECONDS; LD_LIBRARY_PATH=$LP timeout 100 bin/perks_bench --git-revision "$R" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1; echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep geometric $W/perks_bench_$v.log | sed "s/^/$v /" | tee -a $W/summary.txt
  grep ' large ' $W/perks_bench_$v.log | awk -v v=$v '{for(i=1;i<=NF;i++) if($i=="speed-up" && $(i+1)<0.98) print v, "below 0.98:", $1, $2, $(i+1)}' | tee -a $W/summary.txt
done
for tool in memcheck synccheck racecheck; do
  t=$SECONDS; timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase2DDouble:CudaPerks.PipelinedSanitizerCaseDouble' > $W/sanitizer_$tool.log 2>&1; echo "sanitizer $tool rc=$? $((SECONDS-t)) s $(tail -1 $W/sanitizer_$tool.log)" | tee -a $W/summary.txt
done
for c in "2d5pt 1577" "2d17pt 1311"; do set -- $c
  t=$SECONDS; timeout 120 /usr/local/cuda/bin/ncu --clock-control none -k regex:perks_resident -c 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters -o $W/ncu_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --kernel resident > $W/ncu_$1.log 2>&1
  /usr/local/cuda/bin/ncu -i $W/ncu_$1.ncu-rep --page source --csv --print-source sass > $W/ncu_$1_sass.csv 2>/dev/null
  /usr/local/cuda/bin/ncu -i $W/ncu_$1.ncu-rep --page details > $W/ncu_$1_details.txt 2>/dev/null
  rm -f $W/ncu_$1.ncu-rep; echo "ncu $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
