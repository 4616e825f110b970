# Run 3 (H200): a diagnostic for the next session, the library of run 2 (N). ncu (source counters, warp states,
# occupancy, memory) on the two Jacobi cases furthest below the per-sweep path on large domains: 3d13pt fp32 at 384^3
# (pipelined 0.76 of the per-sweep kernel) and 2d17pt fp32 at 6144^2 (0.88), each the per-sweep streaming kernel and the
# pipelined PERKS kernel (4 sweeps, the first launch of each).
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in stream:3d13pt:f32:384 pipelined:3d13pt:f32:384 stream:2d17pt:f32:6144 pipelined:2d17pt:f32:6144; do
  IFS=: read -r kk c p n <<< "$cs"
  case $kk in pipelined) k=perks_pipelined_kernel ;; *) k=stream_stencil_kernel ;; esac
  m=${kk}_${c}_${p}_jacobi; t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 120 $NCU --clock-control none -k regex:$k -c 1 --section SourceCounters --section WarpStateStats \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section InstructionStats \
    -o $W/$m -f bin/perks_bench --cases $c --precision $p --side $n --sweeps 4 --reps 1 --kernel pipelined --sweep jacobi > $W/$m.ncu.log 2>&1
  echo "ncu $m rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/$m.ncu-rep --page source --csv --print-source sass > $W/$m.sass.csv 2>&1
  $NCU -i $W/$m.ncu-rep --page details --csv > $W/$m.details.csv 2>&1
  echo "$m: $(wc -l < $W/$m.sass.csv) sass lines" | tee -a $S
  grep -E '"(Duration|Registers Per Thread|Achieved Occupancy|DRAM Throughput|Executed Instructions|Block Limit Registers|Theoretical Occupancy|Local Memory Spilling Requests)"' $W/$m.details.csv | awk -F'","' -v m=$m '{print m, $(NF-2), $(NF-1), $NF}' | tee -a $S
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run3_logs.tar.xz .
