# Run 6 (H200): ncu counters of the per-sweep kernel and the pipelined PERKS kernel on 2d13pt fp32 at 6898^2 (a large
# domain where the pipelined kernel fell to 0.93 of the per-sweep kernel on the consecutive-column tile, run 4): the
# first measurement for the open question in docs/perf/perks.md. The pipelined count spans 4 sweeps.
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read.sum
for k in stream_stencil perks_pipelined; do
  t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 80 $NCU --clock-control none -k regex:$k -c 1 --metrics $M bin/perks_bench --cases 2d13pt --precision f32 --side 6898 --sweeps 4 --reps 1 --kernel pipelined > $OUT/ncu_2d13pt_f32_$k.log 2>&1
  echo "ncu $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "^  *(gpu__|launch__|smsp__|dram__|sm__|lts__)" $OUT/ncu_2d13pt_f32_$k.log | sed "s/^/$k /" | tee -a $S
done
