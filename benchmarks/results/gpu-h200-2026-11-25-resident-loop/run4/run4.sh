# Run 4 (H200): resident kernel with predicated global stores (new, REVISION) against the plane-loop commit
# e15abee (mid): the whole GPU test suite of the new build; every small-class case with mid and new, interleaved,
# twice; perks_bench of the new build (all classes).
# Layout: /tmp/b/new/bundle and /tmp/b/mid/bundle. Usage: OUT=dir bash run4.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle; M=/tmp/b/mid/bundle
R=$(cat $N/REVISION)
echo "new $R mid $(cat $M/REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 $N/bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]|SKIPPED \]" $W/tests_all.log | tee -a $W/summary.txt
CASES="2d5pt f64 1577;2d5pt f32 2031;2ds9pt f64 1577;2ds9pt f32 2031;2d13pt f64 1423;2d13pt f32 2031;2d17pt f64 1311;2d17pt f32 2031;2d21pt f64 1528;2d21pt f32 2035;2ds25pt f64 1528;2ds25pt f32 2035;2d9pt f64 1577;2d9pt f32 2031;2d25pt f64 1577;2d25pt f32 2031;3d7pt f64 126;3d7pt f32 159;3d13pt f64 111;3d13pt f32 151;3d17pt f64 126;3d17pt f32 159;3d27pt f64 126;3d27pt f32 159;poisson f64 126;poisson f32 159"
t=$SECONDS
for rep in 1 2; do
  IFS=';'; for c in $CASES; do IFS=' '; set -- $c
    for v in mid new; do
      D=$N; [ $v = mid ] && D=$M
      timeout 30 $D/bin/perks_bench --cases $1 --precision $2 --side $3 --reps 5 2>&1 | grep -E "^$1 " | sed "s/^/$v $rep /" >> $W/small.log
    done
  done; IFS=' '
done
echo "small cases $((SECONDS-t)) s" | tee -a $W/summary.txt
t=$SECONDS; timeout 150 $N/bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geometric" $W/perks_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
