# Run 5 (H200): a diagnostic for the next session, the kept library (run 4's N). ncu (source counters, warp states,
# occupancy, memory) of the resident kernel on the small domains where it gains least: 2d17pt fp32 apply at 2031^2
# (17 us per sweep, 13.5 predicted), 3d13pt fp64 apply at 111^3 (1.11x) and Jacobi at 87^3 (0.96x), 2d13pt fp32 apply
# at 2031^2, and the per-sweep kernel of 3d13pt fp64 apply for comparison (4 sweeps; the first launch of each).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cs in resident:2d17pt:f32:2031:apply resident:2d13pt:f32:2031:apply resident:3d13pt:f64:111:apply \
          stream:3d13pt:f64:111:apply resident:3d13pt:f64:87:jacobi; do
  IFS=: read -r kk c p n sw <<< "$cs"
  case $kk in resident) k=perks_resident_kernel ;; *) k=stream_stencil_kernel ;; esac
  m=${kk}_${c}_${p}_${n}_$sw; t=$SECONDS
  LD_LIBRARY_PATH=$FB timeout 120 $NCU --clock-control none -k regex:$k -c 1 --section SourceCounters --section WarpStateStats \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section InstructionStats \
    -o $W/$m -f bin/perks_bench --cases $c --precision $p --side $n --sweeps 4 --reps 1 --kernel resident --sweep $sw > $W/$m.ncu.log 2>&1
  echo "ncu $m rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/$m.ncu-rep --page source --csv --print-source sass > $W/$m.sass.csv 2>&1
  $NCU -i $W/$m.ncu-rep --page details --csv > $W/$m.details.csv 2>&1
  echo "$m: $(wc -l < $W/$m.sass.csv) sass lines" | tee -a $S
  grep -E '"(Duration|Registers Per Thread|Achieved Occupancy|DRAM Throughput|Executed Instructions|Block Limit Registers|Theoretical Occupancy|Grid Size|Block Size)"' $W/$m.details.csv | awk -F'","' -v m=$m '{print m, $(NF-2), $(NF-1), $NF}' | tee -a $S
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run5_logs.tar.xz .
