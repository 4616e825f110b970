# Run 5 (H200): the kept revision (new, REVISION): the whole GPU test suite; compute-sanitizer memcheck, racecheck
# and synccheck on the resident kernel (perks_bench, apply sweeps, sides with partial tiles, and the resident
# Jacobi stop tests); every small-class case with mid (e15abee) and new, interleaved, twice; perks_bench (all
# classes). Layout: /tmp/b/new/bundle and /tmp/b/mid/bundle. Usage: OUT=dir bash run5.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle; M=/tmp/b/mid/bundle
R=$(cat $N/REVISION)
echo "new $R mid $(cat $M/REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 $N/bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]|SKIPPED \]" $W/tests_all.log | tee -a $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  for c in "3d7pt,3d13pt,2d5pt,2ds25pt 70" "3d27pt 45"; do set -- $c
    t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 1 $N/bin/perks_bench --cases $1 --side $2 --kernel resident --sweeps 5 --reps 1 >> $W/sanitizer_$tool.log 2>&1; echo "$tool perks_bench resident $1 side $2 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
  t=$SECONDS; timeout 100 $CS --tool $tool --error-exitcode 1 $N/bin/test_gpu_backend --gtest_filter='CudaPerks.JacobiStopsInResidentKernel*' >> $W/sanitizer_$tool.log 2>&1; echo "$tool JacobiStopsInResidentKernel* rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" $W/sanitizer_$tool.log | sort | uniq -c | tee -a $W/summary.txt
done
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
for v in new mid; do D=$N; [ $v = mid ] && D=$M
  t=$SECONDS; timeout 150 $D/bin/perks_bench --git-revision "$(cat $D/REVISION)" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1; echo "perks_bench $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -iE "geometric" $W/perks_bench_$v.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
