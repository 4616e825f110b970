# Run 1 (H200): why the pipelined PERKS kernel runs the large 2D fp64 stars 6-12 % slower than the per-sweep kernel
# (session 30, run 6: 2d21pt 0.88 at 8192^2, 2ds25pt 0.93 at 8192^2, 2d13pt 0.94 at 4651^2), at equal occupancy.
# (a) cuobjdump SASS of both kernels of the three shapes (functions.txt); (b) ncu of the per-sweep kernel (one launch)
# and the pipelined kernel (4 sweeps): source counters, warp states, speed of light, occupancy, launch; (c) perks_bench
# once (this session's baseline).
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
D=$(cd "$(dirname "$0")" && pwd)
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run1; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
i=0
while read -r f; do
  i=$((i+1)); $CO -sass -fun "$f" lib/libperksolve_cuda.so.0 > $W/sass_$i.txt 2>&1; echo "sass $i rc=$? $(wc -l < $W/sass_$i.txt) lines" | tee -a $S
done < $D/functions.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in 2d21pt:8192 2ds25pt:8192 2d13pt:4651; do
  c=${cs%%:*}; n=${cs##*:}
  for k in stream_stencil_kernel perks_pipelined_kernel; do
    m=${k%%_*}_$c; t=$SECONDS
    LD_LIBRARY_PATH=$FB timeout 100 $NCU --clock-control none -k regex:$k -c 1 --section SourceCounters --section WarpStateStats \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
      -o $W/$m -f bin/perks_bench --cases $c --precision f64 --side $n --sweeps 4 --reps 1 --kernel pipelined > $W/$m.ncu.log 2>&1
    echo "ncu $m rc=$? $((SECONDS-t)) s" | tee -a $S
    $NCU -i $W/$m.ncu-rep --page source --csv --print-source sass > $W/$m.sass.csv 2>&1
    $NCU -i $W/$m.ncu-rep --page details --csv > $W/$m.details.csv 2>&1
    echo "$m: $(wc -l < $W/$m.sass.csv) sass lines" | tee -a $S
  done
done
rm -f $W/*.ncu-rep
t=$SECONDS
LD_LIBRARY_PATH=$FB bin/perks_bench --out $OUT/perks_bench.json > $OUT/perks_bench.log 2>&1
echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "geometric|below" $OUT/perks_bench.log | tee -a $S
tar -C $W -cJf $OUT/run1_logs.tar.xz .
