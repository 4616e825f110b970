# Run 2 (H200): the resident kernel's plane loop without a branch per output (commit e15abee) against the base
# (98c3bce). PERKS GPU tests of the new build; every small-class case (the sides of the class search) with both
# builds, interleaved, twice; ncu instruction counts of the new build for 2d5pt and 3d7pt fp64.
# Layout: /tmp/b/new/bundle and /tmp/b/base/bundle. Usage: OUT=dir bash run2.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle; B=/tmp/b/base/bundle
echo "new $(cat $N/REVISION) base $(cat $B/REVISION)" > $W/env.log
t=$SECONDS; timeout 240 $N/bin/test_gpu_backend --gtest_filter='CudaPerks*' > $W/tests_perks.log 2>&1; echo "tests CudaPerks* rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]|tests ran" $W/tests_perks.log | tee -a $W/summary.txt
CASES="2d5pt f64 1577;2d5pt f32 2031;2ds9pt f64 1577;2ds9pt f32 2031;2d13pt f64 1423;2d13pt f32 2031;2d17pt f64 1311;2d17pt f32 2031;2d21pt f64 1528;2d21pt f32 2035;2ds25pt f64 1528;2ds25pt f32 2035;2d9pt f64 1577;2d9pt f32 2031;2d25pt f64 1577;2d25pt f32 2031;3d7pt f64 126;3d7pt f32 159;3d13pt f64 111;3d13pt f32 151;3d17pt f64 126;3d17pt f32 159;3d27pt f64 126;3d27pt f32 159;poisson f64 126;poisson f32 159"
t=$SECONDS
for rep in 1 2; do
  IFS=';'; for c in $CASES; do IFS=' '; set -- $c
    for v in base new; do
      D=$B; [ $v = new ] && D=$N
      timeout 30 $D/bin/perks_bench --cases $1 --precision $2 --side $3 --reps 5 2>&1 | grep -E "^$1 " | sed "s/^/$v $rep /" >> $W/small.log
    done
  done; IFS=' '
done
echo "small cases $((SECONDS-t)) s" | tee -a $W/summary.txt
NCU=/usr/local/cuda/bin/ncu
for c in "2d5pt 1577 f64" "3d7pt 126 f64"; do set -- $c
  t=$SECONDS; timeout 100 $NCU --clock-control none -k regex:perks_resident -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters -o $W/rep_$1_$3 $N/bin/perks_bench --cases $1 --precision $3 --side $2 --reps 1 --kernel resident > $W/ncu_$1_$3.out 2>&1; echo "ncu $1 $3 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/rep_$1_$3.ncu-rep --page details > $W/details_$1_$3.txt 2>&1
  $NCU --import $W/rep_$1_$3.ncu-rep --page source --csv --print-source sass > $W/sass_$1_$3.csv 2>&1
  grep -E "Duration|Executed Ipc A|Issue Slots Busy|Registers Per" $W/details_$1_$3.txt | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
