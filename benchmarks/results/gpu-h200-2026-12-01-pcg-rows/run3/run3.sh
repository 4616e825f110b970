# Run 3 (H200): run 2's bundle. fp64 PCG-MG with the direct coarse solve became 22 % slower on rows of 4 doubles than on
# rows of 32 (11.94 against 9.77 ms; session 48: 10.21-10.44 against 9.75-9.90) while its V-cycle alone and plain CG
# did not: ncu kernel durations and DRAM bytes per kernel name and grid of solver_bench fp64 `--cases persistent
# --persistent-cells 0 --mg-cycles 1` with the rows by the rule (4) and forced to 32.
# Usage: B=unpacked bundle OUT=dir bash run3.sh
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=/tmp/run3; rm -rf $W; mkdir -p $W
{ cat $B/MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
cd $B
export LD_LIBRARY_PATH=$B/lib/fallback
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for a in auto 32; do
  t=$SECONDS; PERKSOLVE_GRID_ROW_ALIGN=$a timeout 200 $NCU --clock-control none \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    --print-summary per-kernel bin/solver_bench --precision f64 --cases persistent --persistent-cells 0 \
    --solve-reps 1 --mg-cycles 1 --reps 5 --warmup-s 0 > $W/ncu_f64_a$a.log 2>&1
  echo "ncu solver_bench fp64 persistent-cells 0, rows $a: rc=$? $((SECONDS-t)) s" | tee -a $S
done
tar -C $W -cJf $OUT/run3_logs.tar.xz .
