# Run 6 (H200): run 5's 511^3 comparison with more samples (30 V-cycles per solve, 9 timed solves; run 5's 10 cycles x
# 5 solves spread +-1 %, more than the expected gain of the coarse-level program), levels <= 31^3 in the program
# against none. The same build as runs 4 and 5. Usage: OUT=dir bash run6.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 500 bin/solver_bench --n 511 --precision f64 --cases persistent --persistent-cells 0,32768 --mg-cycles 30 --solve-reps 9 --git-revision "$R" --out $W/solver_bench_persistent_511.json > $W/solver_bench_persistent_511.log 2>&1; echo "solver_bench persistent 511 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(mg_|pcg)" $W/solver_bench_persistent_511.log | awk '{print $1,$3,$4,$5,$6,$9}' | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
