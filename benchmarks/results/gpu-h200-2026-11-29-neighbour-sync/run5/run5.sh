# Run 5 (H200): where the final resident kernel's steady sweep spends its time now (commit 6cbe8ea's library: the
# neighbour sync), on the two cases of session 37's profile at their present small sides: 2d5pt fp64 Jacobi at 1013^2
# and 3d13pt fp64 Jacobi at 95^3 (the weakest small case). ncu's warp-state, scheduler, occupancy and memory sections
# of one launch of 20 sweeps, and the per-instruction stall samples (source page, SASS), summarised here by
# ../../gpu-h200-2026-11-29-per-call-host/run2/sass_regions.py.
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in 2d5pt:f64:1013 3d13pt:f64:95; do
  IFS=: read -r c p n <<< "$cs"
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 150 $NCU --clock-control none --kernel-name regex:perks_resident_kernel --launch-skip 3 \
    --launch-count 1 --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section SpeedOfLight --section SourceCounters --section InstructionStats \
    --export $W/ncu_$c bin/perks_bench --cases $c --precision $p --side $n --sweeps 20 --reps 3 --kernel resident \
    --sweep jacobi > $W/ncu_$c.log 2>&1
  echo "ncu $c rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU --import $W/ncu_$c.ncu-rep --print-details all > $W/ncu_${c}_details.txt 2>&1
  grep -E "Duration|Warp Cycles Per Issued|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps|Achieved Occupancy|Stall|Registers Per|Block Size|Dynamic Shared|Executed Ipc|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit" \
    $W/ncu_${c}_details.txt | sed "s/^/$c /" | tee -a $S
  $NCU --import $W/ncu_$c.ncu-rep --page source --csv --print-source sass > $W/ncu_${c}_sass.csv 2>&1
  echo "$c sass rows: $(wc -l < $W/ncu_${c}_sass.csv)" | tee -a $S
done
tar -C $W -cJf $OUT/run5_logs.tar.xz .
