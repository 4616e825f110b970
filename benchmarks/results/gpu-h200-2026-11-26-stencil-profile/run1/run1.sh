# Run 1 (H200): full ncu profiles (warp stalls, memory tables) of the production 3d7pt kernels at 512^3, fp32 and fp64,
# at real clocks, next to stencil_bench's ratios. Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
t=$SECONDS; timeout 60 bin/stencil_bench --cases 3d7pt --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt" $W/stencil_bench.log | tee -a $W/summary.txt
for p in f32 f64; do
  t=$SECONDS; timeout 150 $NCU --clock-control none --set full --import-source no -k regex:stream_stencil -s 3 -c 1 -o $W/ncu_3d7pt_$p bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_3d7pt_$p.log 2>&1; echo "ncu $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/ncu_3d7pt_$p.ncu-rep --page details > $W/ncu_3d7pt_${p}_details.txt 2>&1
  $NCU --import $W/ncu_3d7pt_$p.ncu-rep --page raw --csv > $W/ncu_3d7pt_${p}_raw.csv 2>&1
  grep -E "Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|Executed Ipc Active|Achieved Occupancy|Stall|One or More Eligible|No Eligible" $W/ncu_3d7pt_${p}_details.txt | head -20 | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/*_raw.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
