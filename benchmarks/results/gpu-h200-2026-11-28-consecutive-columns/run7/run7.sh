# Run 7 (H200): ncu's warp-state statistics (where the warps wait) of the per-sweep kernel and the pipelined PERKS kernel
# on 2d13pt fp32 at 6898^2, the case of run 6 (same instructions and bytes, issue slots 64.7 vs 54.7 % busy).
# Usage: B=unpacked bundle OUT=dir bash run7.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
for r in barrier long_scoreboard short_scoreboard wait mio_throttle lg_throttle math_pipe_throttle not_selected selected dispatch_stall drain membar sleeping branch_resolving no_instruction; do
  M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
for k in stream_stencil perks_pipelined; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 80 $NCU --clock-control none -k regex:$k -c 1 --metrics $M bin/perks_bench --cases 2d13pt --precision f32 --side 6898 --sweeps 4 --reps 1 --kernel pipelined > $OUT/ncu_stalls_2d13pt_f32_$k.log 2>&1
  echo "ncu $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "^  *(smsp__|gpu__)" $OUT/ncu_stalls_2d13pt_f32_$k.log | awk '$NF+0 >= 0.05 || $1 ~ /gpu__|issue_active/' | sed "s/^/$k /" | tee -a $S
done
