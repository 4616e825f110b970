cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/stencil_bench --default-variant-only --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "3d7pt |3d27pt_sym|2d5pt |copy" $W/stencil_bench.log | head -20
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -15 $W/solver_bench.log
NCU=/usr/local/cuda/bin/ncu
for c in "2d5pt 1577" "3d7pt 126" "2d17pt 2031"; do
  set -- $c
  p=f64; [ $1 = 2d17pt ] && p=f32
  t=$SECONDS
  timeout 150 $NCU --clock-control none -k regex:perks_resident -s 1 -c 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section SourceCounters -o $W/ncu_$1_$p -f bin/perks_bench --cases $1 --precision $p --side $2 --kernel resident --reps 2 > $W/ncu_$1_$p.run.log 2>&1
  echo "ncu $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU -i $W/ncu_$1_$p.ncu-rep --page details > $W/ncu_$1_$p.details.txt 2>&1
  $NCU -i $W/ncu_$1_$p.ncu-rep --page source --print-source sass --csv > $W/ncu_$1_$p.sass.csv 2>&1
  rm -f $W/ncu_$1_$p.ncu-rep
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
