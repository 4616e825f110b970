# Run 6 (H200): review mend c180b88 (perks_private_planes shared by perks_read_plane and the resident kernel;
# same rule). The whole GPU test suite, and perks_bench (all classes) against the kept revision 43ee738 (mid).
# Layout: /tmp/b/new/bundle and /tmp/b/mid/bundle. Usage: OUT=dir bash run6.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle; M=/tmp/b/mid/bundle
echo "new $(cat $N/REVISION) mid $(cat $M/REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 $N/bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $W/tests_all.log | tee -a $W/summary.txt
for v in new mid new mid; do D=$N; [ $v = mid ] && D=$M
  t=$SECONDS; timeout 100 $D/bin/perks_bench --git-revision "$(cat $D/REVISION)" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1; echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -iE "geometric" $W/perks_bench_$v.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
