cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
t=$SECONDS; timeout 300 bin/stencil_sweep --reps 15 > $W/sweep_round6.log 2>&1; echo "sweep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round6.log | awk '{print $1,$2,$3,$4,$5,$6,$(NF-4),$(NF-3),$(NF-2),$(NF-1),$NF}' | sed 's/ratio //' 
NCU=/usr/local/cuda/bin/ncu
for p in f64 f32; do
  t=$SECONDS
  timeout 120 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats -o $W/ncu_3d7pt_$p -f bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_3d7pt_$p.run.log 2>&1
  echo "ncu $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU -i $W/ncu_3d7pt_$p.ncu-rep --page details > $W/ncu_3d7pt_$p.details.txt 2>&1
  rm -f $W/ncu_3d7pt_$p.ncu-rep
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
