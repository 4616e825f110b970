# Run 1 (H200): where the resident PERKS kernel's sweep goes. perks_bench (resident, small sides) for three fp64
# shapes, and under ncu one resident launch each: speed of light, warp states, scheduler, per-SASS warp-stall
# samples and executed instructions. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
NCU=/usr/local/cuda/bin/ncu
for c in "2d5pt 1577 f64" "3d7pt 126 f64" "2d17pt 1311 f64" "3d7pt 159 f32"; do
  set -- $c
  t=$SECONDS; timeout 60 bin/perks_bench --cases $1 --precision $3 --side $2 --reps 5 > $W/perks_$1_$3.log 2>&1; echo "perks_bench $1 $3 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^$1 " $W/perks_$1_$3.log | tee -a $W/summary.txt
  t=$SECONDS; timeout 150 $NCU --clock-control none -k regex:perks_resident -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SourceCounters -o $W/rep_$1_$3 bin/perks_bench --cases $1 --precision $3 --side $2 --reps 1 --kernel resident > $W/ncu_$1_$3.out 2>&1; echo "ncu $1 $3 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/rep_$1_$3.ncu-rep --page details > $W/details_$1_$3.txt 2>&1
  $NCU --import $W/rep_$1_$3.ncu-rep --page source --csv --print-source sass > $W/sass_$1_$3.csv 2>&1
  grep -E "Duration|Executed Ipc A|Issue Slots Busy|No Eligible|Active Warps Per|Registers Per|Warp Cycles Per Issued" $W/details_$1_$3.txt | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
