# Run 3 (H200): resident kernel, halo loads per plane + neighbour sync (commit in REVISION of new) against the
# plane-loop commit e15abee (mid). PERKS GPU tests of the new build with the neighbour sync (default) and with
# PERKSOLVE_PERKS_SYNC=grid; every small-class case with mid, new with the grid barrier, and new, interleaved,
# twice; ncu of the new build for 2d5pt and 3d7pt fp64.
# Layout: /tmp/b/new/bundle and /tmp/b/mid/bundle. Usage: OUT=dir bash run3.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle; M=/tmp/b/mid/bundle
echo "new $(cat $N/REVISION) mid $(cat $M/REVISION)" > $W/env.log
for sync in neighbour grid; do
  t=$SECONDS; PERKSOLVE_PERKS_SYNC=$sync timeout 120 $N/bin/test_gpu_backend --gtest_filter='CudaPerks*' > $W/tests_perks_$sync.log 2>&1; echo "tests CudaPerks* sync=$sync rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $W/tests_perks_$sync.log | tee -a $W/summary.txt
done
CASES="2d5pt f64 1577;2d5pt f32 2031;2ds9pt f64 1577;2ds9pt f32 2031;2d13pt f64 1423;2d13pt f32 2031;2d17pt f64 1311;2d17pt f32 2031;2d21pt f64 1528;2d21pt f32 2035;2ds25pt f64 1528;2ds25pt f32 2035;2d9pt f64 1577;2d9pt f32 2031;2d25pt f64 1577;2d25pt f32 2031;3d7pt f64 126;3d7pt f32 159;3d13pt f64 111;3d13pt f32 151;3d17pt f64 126;3d17pt f32 159;3d27pt f64 126;3d27pt f32 159;poisson f64 126;poisson f32 159"
t=$SECONDS
for rep in 1 2; do
  IFS=';'; for c in $CASES; do IFS=' '; set -- $c
    for v in mid grid new; do
      D=$N; [ $v = mid ] && D=$M; S=neighbour; [ $v = grid ] && S=grid
      PERKSOLVE_PERKS_SYNC=$S timeout 30 $D/bin/perks_bench --cases $1 --precision $2 --side $3 --reps 5 2>&1 | grep -E "^$1 " | sed "s/^/$v $rep /" >> $W/small.log
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
