# Run 2 (H200): where the pipelined kernel loses against the per-sweep kernel on the fp32 256-thread row tile (2d25pt,
# 2d13pt at 6898^2, apply sweeps, constant Dirichlet ghosts, so no fills). ncu (details: launch, occupancy, warp
# states, instructions, memory) of the per-sweep kernel (one launch) and of the pipelined kernel over 4 sweeps, with
# the production library (PROD, two blocks per SM promised) and this bundle's (NEW, three; run 1).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SECS="--section LaunchStats --section Occupancy --section WarpStateStats --section InstructionStats --section SpeedOfLight --section MemoryWorkloadAnalysis"
prof() {  # name lib kernel-regex case
  local t=$SECONDS
  run_v $2 timeout 100 $NCU --clock-control none -k regex:$3 -c 1 $SECS -o $W/$1 -f bin/perks_bench --cases $4 --precision f32 \
    --side 6898 --sweeps 4 --reps 1 --kernel pipelined > $W/$1.ncu.log 2>&1
  echo "ncu $1 rc=$? $((SECONDS-t)) s" | tee -a $S
  $NCU -i $W/$1.ncu-rep --page details --print-details all > $W/$1.details.txt 2>&1
  grep -E "^  [a-z_]+<|Duration|Executed Instructions  |Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Block Limit Registers|Warp Cycles Per Issued|DRAM Throughput|Issue Slots Busy|Stall|Local" $W/$1.details.txt | sed "s/^/$1: /" | cut -c1-200 >> $S
}
for c in 2d25pt 2d13pt; do
  prof ps_${c} prod stream_stencil_kernel $c
  prof pp_${c}_prod prod perks_pipelined_kernel $c
  prof pp_${c}_new new perks_pipelined_kernel $c
done
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run2_logs.tar.xz .
