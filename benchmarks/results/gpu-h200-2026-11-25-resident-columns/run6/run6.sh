# Run 6 (H200): the final revision (face-set predicates folded, host side). Full GPU suite; perks_bench once.
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -3 $W/tests_all.log | tee -a $W/summary.txt
grep -E "FAILED|Failure" $W/tests_all.log | head -20 | tee -a $W/summary.txt
t=$SECONDS; timeout 100 bin/perks_bench --git-revision "$(cat REVISION)" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep geometric $W/perks_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
