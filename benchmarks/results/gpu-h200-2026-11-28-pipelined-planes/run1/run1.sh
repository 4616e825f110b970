# Run 1 (H200): where the pipelined PERKS kernel loses time against the per-sweep kernel on the same tile.
# perks_bench on 2d13pt fp32 at four sides (is the loss per plane or per sweep?), then ncu with source-level warp
# sampling (SASS with stall reasons per instruction) of both kernels on 2d13pt fp32 at 6898^2 and 3d13pt fp32 at 448^3,
# and cuobjdump -sass of the four kernels.
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
cd "$B"
FB=$PWD/lib/fallback
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for side in 4096 6144 6898 8192; do
  LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --cases 2d13pt --precision f32 --side $side --kernel pipelined > $W/perks_2d13pt_f32_$side.log 2>&1
  echo "perks_bench 2d13pt f32 side $side rc=$?" | tee -a $S; grep -E "^2d" $W/perks_2d13pt_f32_$side.log | cut -c1-140 | tee -a $S
done
for side in 6898; do
  LD_LIBRARY_PATH=$FB timeout 60 bin/perks_bench --cases 2d5pt,2d9pt,2d17pt --precision f32 --side $side --kernel pipelined > $W/perks_2d_f32_$side.log 2>&1
  echo "perks_bench 2d5pt,2d9pt,2d17pt f32 side $side rc=$?" | tee -a $S; grep -E "^2d" $W/perks_2d_f32_$side.log | cut -c1-140 | tee -a $S
done
prof() {  # name, case, side, kernel regex
  local n=$1 c=$2 side=$3 k=$4 t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 150 $NCU --clock-control none --print-kernel-base mangled -k regex:$k -c 1 \
    --section SourceCounters --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
    -o $W/$n -f bin/perks_bench --cases $c --precision f32 --side $side --sweeps 4 --reps 1 --kernel pipelined > $W/$n.ncu.log 2>&1
  echo "ncu $n rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/$n.ncu-rep --page details > $W/$n.details.txt 2>&1
  grep -E "Duration|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Block Limit Reg|Achieved Occ" $W/$n.details.txt | sed "s/^/$n /" | tee -a $S
  $NCU -i $W/$n.ncu-rep --page source --csv --print-source sass > $W/$n.sass.csv 2> $W/$n.sass.err
  echo "source page $n rc=$? lines $(wc -l < $W/$n.sass.csv)" | tee -a $S
  local m; m=$($NCU -i $W/$n.ncu-rep --page raw --csv --print-kernel-base mangled --metrics launch__registers_per_thread 2>/dev/null | sed -n '3p' | awk -F'","' '{for (i = 1; i <= NF; ++i) if ($i ~ /^_Z/) print $i}' | head -1)
  echo "$n mangled: $m" | tee -a $S
  [[ -n $m ]] && timeout 60 $OBJ -sass -fun "$m" lib/libperksolve_cuda.so.0 > $W/$n.cuobjdump.sass 2>&1
  echo "cuobjdump $n rc=$? lines $(wc -l < $W/$n.cuobjdump.sass 2>/dev/null)" | tee -a $S
}
prof ps_2d13pt 2d13pt 6898 stream_stencil_kernel
prof pp_2d13pt 2d13pt 6898 perks_pipelined_kernel
prof ps_3d13pt 3d13pt 448 stream_stencil_kernel
prof pp_3d13pt 3d13pt 448 perks_pipelined_kernel
rm -f $W/*.ncu-rep.bak
tar -C $W -cJf $OUT/run1_logs.tar.xz .
ls -la $OUT | tee -a $S
