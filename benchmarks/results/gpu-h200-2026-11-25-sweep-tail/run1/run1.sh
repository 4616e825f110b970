# Run 1 (H200): where the last 10 % of 3d7pt's copy bound go. Copy rate by access width per thread, stencil_sweep
# round 16 (short last round of the dynamic schedule), the production kernels at 512^3 and 1024^3 (fixed costs per
# sweep), and ncu counters (SM active cycles min / avg / max, DRAM bytes and throughput) of the production 3d7pt
# kernels next to the flat copy kernel. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 60 bin/stencil_sweep --only copy_widths > $W/copy_widths.log 2>&1; echo "copy_widths rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep "^copy" $W/copy_widths.log | tee -a $W/summary.txt
t=$SECONDS; timeout 240 bin/stencil_sweep --reps 15 --only 3d7pt_tail > $W/sweep_round16.log 2>&1; echo "sweep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "ratio" $W/sweep_round16.log | awk '{print $1,$2,$3,$4,$(NF-4),$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $W/summary.txt
for n in 512 1024; do
  t=$SECONDS; timeout 120 bin/stencil_bench --cases 3d7pt,3d27pt_sym --default-variant-only --n3d $n --reps 10 --git-revision "$R" --out $W/stencil_bench_$n.json > $W/stencil_bench_$n.log 2>&1; echo "stencil_bench $n rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ratio|copy" $W/stencil_bench_$n.log | head -12 | tee -a $W/summary.txt
done
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
for p in f64 f32; do
  t=$SECONDS; timeout 90 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 2 --metrics $M bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_3d7pt_$p.log 2>&1; echo "ncu $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
t=$SECONDS; timeout 90 $NCU --clock-control none -k regex:copy_kernel_flat -s 2 -c 1 --metrics $M bin/stencil_bench --cases 3d7pt --precision f64 --default-variant-only --reps 3 > $W/ncu_copy_flat.log 2>&1; echo "ncu copy rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -hE "stream_stencil|copy_kernel|gpu__time|dram__|sm__cycles|lts__|warps_active" $W/ncu_*.log | sed 's/(StencilMode[^)]*)//' | cut -c1-150 | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
