# Run 5 (H200): which instructions the pipelined kernel executes beyond the per-sweep kernel's (run 2: +3 % on 2d13pt,
# +10 % on 2d25pt fp32 at 6898^2). ncu source counters (instructions executed and warp samples per SASS instruction)
# of the per-sweep kernel (one launch) and the pipelined kernel (4 sweeps), this bundle's library (run 4's).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for c in 2d25pt 2d13pt; do
  for k in stream_stencil_kernel perks_pipelined_kernel; do
    n=${k%%_*}_$c; t=$SECONDS
    LD_LIBRARY_PATH=$FB timeout 100 $NCU --clock-control none -k regex:$k -c 1 --section SourceCounters --section WarpStateStats \
      -o $W/$n -f bin/perks_bench --cases $c --precision f32 --side 6898 --sweeps 4 --reps 1 --kernel pipelined > $W/$n.ncu.log 2>&1
    echo "ncu $n rc=$? $((SECONDS-t)) s" | tee -a $S
    $NCU -i $W/$n.ncu-rep --page source --csv --print-source sass > $W/$n.sass.csv 2>&1
    echo "$n: $(wc -l < $W/$n.sass.csv) lines" | tee -a $S
  done
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run5_logs.tar.xz .
