# Run 2 (H200): how evenly the SMs finish a 2D per-sweep launch (one item per block). ncu's per-SM active cycles of the
# per-sweep stencil kernel (3 launches each) on the 2D cases where the pipelined PERKS kernel is below 0.98 of it, and
# the L2 partition each SM sits beside (l2_partition_probe), to see whether the slow SMs are the same from launch to
# launch and lie beside one partition. Production library (a3c6a12).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$LPROD:$PWD/lib/fallback
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 60 bin/l2_partition_probe --out $W/probe.json > $W/probe.log 2>&1
echo "l2_partition_probe rc=$? $((SECONDS-t)) s" | tee -a $S; tail -4 $W/probe.log | tee -a $S
for c in "2d13pt f32 6898" "2ds25pt f64 6144" "2d21pt f64 8192" "2d25pt f32 6898" "2d5pt f32 6898" "2d5pt f64 4651"; do
  set -- $c
  t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 90 $NCU --clock-control none -k regex:stream_stencil_kernel -c 3 \
    --metrics sm__cycles_active.sum,sm__cycles_elapsed.max,gpu__time_duration.sum --print-metric-instances values --csv \
    bin/perks_bench --cases $1 --precision $2 --side $3 --sweeps 4 --reps 1 --kernel pipelined > $W/sm_${1}_${2}_$3.csv 2> $W/sm_${1}_${2}_$3.err
  echo "ncu per-SM $1 $2 $3 rc=$? $((SECONDS-t)) s" | tee -a $S
done
tar -C $W -cJf $OUT/run2_logs.tar.xz .
