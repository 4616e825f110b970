# Run 2 (H200): why run 1's A was slower even where it stores no image (3d7pt fp32: Dirichlet vertex faces of radius 1,
# every ghost constant). SASS of A's and PROD's pipelined 3d7pt fp32 kernel (cuobjdump), and ncu (duration,
# instructions, warp states, source counters) of both on perks_bench 3d7pt fp32 448^3, 4 sweeps.
# Usage: B=unpacked bundle (A) PROD= folder with PROD's libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run2; rm -rf $W; mkdir -p $W
S=$OUT/summary.txt; : > $S
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
K='_ZN9perksolve11cuda_detail22perks_pipelined_kernelIfLi3ELi0ELi1ELi0ELb0ENS0_4TuneILi64ELi4ELi4ELi3ELi4ELi2ELi3ELb0ELi8ELb1ELi0ELb1EEEEEvNS0_9PerksArgsIT_EE'
for v in a prod; do
  lib=lib/libperksolve_cuda.so.0; [[ $v == prod ]] && lib=$PROD/libperksolve_cuda.so.0
  $CUOBJ -sass -fun "$K" $lib > $W/sass_3d7pt_f32_$v.txt 2>&1
  echo "cuobjdump $v rc=$? lines $(wc -l < $W/sass_3d7pt_f32_$v.txt)" | tee -a $S
  $CUOBJ -res-usage $lib 2>/dev/null | grep -A1 "$K" | tail -1 | tee -a $S
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in a prod; do
  lp=$FB; [[ $v == prod ]] && lp=$PROD:$FB
  t=$SECONDS; LD_LIBRARY_PATH=$lp timeout 100 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy --section SpeedOfLight \
    -o $W/pp_3d7pt_$v -f bin/perks_bench --cases 3d7pt --precision f32 --side 448 --sweeps 4 --reps 1 --kernel pipelined > $W/pp_3d7pt_$v.ncu.log 2>&1
  echo "ncu $v rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/pp_3d7pt_$v.ncu-rep --page source --csv --print-source sass > $W/pp_3d7pt_$v.sass.csv 2>&1
  $NCU -i $W/pp_3d7pt_$v.ncu-rep --page details > $W/pp_3d7pt_$v.details.txt 2>&1
  grep -E "Duration|Registers Per|Warp Cycles Per Issued|Executed Instructions |Achieved Occupancy|Block Limit" $W/pp_3d7pt_$v.details.txt | sed "s/^/$v /" | tee -a $S
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run2_logs.tar.xz .
