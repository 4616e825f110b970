# Run 1 (H200): why the pipelined PERKS kernel is 2-6 % slower than the per-sweep graph on the large fp64 cases
# 2d21pt, 2ds25pt, 3d27pt, poisson. perks_bench on each large side, then ncu on one pipelined launch and on the
# per-sweep stencil and face kernels of the same domain. Usage: OUT=dir bash run1.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION 2>/dev/null || grep -m1 -i revision MANIFEST)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
NCU=/usr/local/cuda/bin/ncu
for c in "2d21pt 6144" "2ds25pt 5095" "3d27pt 512" "poisson 512"; do
  set -- $c
  t=$SECONDS; timeout 90 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 5 > $W/perks_$1.log 2>&1; echo "perks_bench $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^$1 " $W/perks_$1.log | tee -a $W/summary.txt
done
SEC="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis"
for c in "2d21pt 6144" "3d27pt 512"; do
  set -- $c
  t=$SECONDS; timeout 150 $NCU --clock-control none -k regex:perks_pipelined -c 1 $SEC --section SourceCounters -o $W/pip_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --sweeps 10 --kernel pipelined > $W/ncu_pip_$1.out 2>&1; echo "ncu pip $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/pip_$1.ncu-rep --page details > $W/details_pip_$1.txt 2>&1
  $NCU --import $W/pip_$1.ncu-rep --page source --csv --print-source sass > $W/sass_pip_$1.csv 2>&1; gzip $W/sass_pip_$1.csv
  t=$SECONDS; timeout 150 $NCU --clock-control none -k regex:'stream_stencil_kernel|boundary|face' -s 4 -c 4 $SEC -o $W/sw_$1 bin/perks_bench --cases $1 --precision f64 --side $2 --reps 1 --sweeps 10 --kernel pipelined > $W/ncu_sw_$1.out 2>&1; echo "ncu sweep $1 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  $NCU --import $W/sw_$1.ncu-rep --page details > $W/details_sw_$1.txt 2>&1
  for f in pip sw; do echo "== $f $1" >> $W/summary.txt; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|Executed Ipc A|Issue Slots Busy|No Eligible|Active Warps Per|Registers Per|Achieved Occupancy|Block Limit Registers|Waves Per SM|Grid Size|Block Size" $W/details_${f}_$1.txt >> $W/summary.txt; done
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
