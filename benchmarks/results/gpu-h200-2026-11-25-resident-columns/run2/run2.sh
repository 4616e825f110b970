# Run 2 (H200): resident kernel with a block barrier every RS-th plane step (was every step); the kept revision of
# this session otherwise (run 1's experiments reverted). Full GPU suite; sanitizers on the resident and pipelined
# cases; perks_bench (all shapes and classes) twice, base 93b476a once in between (LD_LIBRARY_PATH=base).
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
for tool in memcheck synccheck racecheck; do for t in ResidentSanitizerCaseDouble PipelinedSanitizerCaseDouble; do
  t0=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool bin/test_gpu_backend --gtest_filter="CudaPerks.$t" > $W/sanitizer_${tool}_$t.log 2>&1; echo "sanitizer $tool $t rc=$? $((SECONDS-t0)) s $(tail -1 $W/sanitizer_${tool}_$t.log)" | tee -a $W/summary.txt
done; done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
