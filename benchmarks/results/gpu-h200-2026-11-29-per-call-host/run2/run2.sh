# Run 2 (H200): F = the kept library (run 1's N without the occupancy memo, which did not move any class). The GPU suite
# with F; then where the resident kernel's steady sweep spends its time on two small cases (2d5pt fp64 Jacobi at 789^2,
# 5.2 us of work per block and sweep in session 36's trace, and 3d13pt fp64 Jacobi at 87^3, slower than the per-sweep
# path): ncu's warp-state, scheduler, occupancy and memory sections of one launch of 20 sweeps, and the per-instruction
# stall samples (the source page, SASS) of the same report.
# Usage: B=unpacked bundle (F in lib/) OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $W/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_default.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_default.log | head | tee -a $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in 2d5pt:f64:789 3d13pt:f64:87; do
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
xz -9 < $W/tests_default.log > $OUT/tests_default.log.xz
tar -C $W -cJf $OUT/run2_logs.tar.xz .
