# Run 2 (H200): which L2 unit is busy. Run 1 put lts__throughput at 89 % (fp32) / 93 % (fp64) of peak for the production
# 3d7pt kernels at 512^3, with DRAM at 78-80 %. Here the breakdown of lts__throughput and of the memory throughput for
# both kernels and for the flat copy kernel of stencil_bench. Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for p in f32 f64; do
  t=$SECONDS; timeout 90 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 1 --metrics $M bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_l2_3d7pt_$p.log 2>&1; echo "ncu $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
t=$SECONDS; timeout 90 $NCU --clock-control none -k regex:copy_kernel -s 1 -c 2 --metrics $M bin/stencil_bench --cases 3d7pt --precision f64 --default-variant-only --reps 3 > $W/ncu_l2_copy.log 2>&1; echo "ncu copy rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for f in $W/ncu_l2_*.log; do echo "== $f"; grep -E "copy_kernel|stream_stencil|lts__|dram__|gpu__" $f | awk '{ if ($NF+0 > 30 || $0 ~ /kernel|bytes|duration/) print }' | cut -c1-140; done | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
