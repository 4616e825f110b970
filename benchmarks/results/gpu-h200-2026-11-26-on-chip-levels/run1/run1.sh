# Run 1 (H200): on-chip fields of the persistent programs (levels <= 4096 cells in block 0's shared memory).
# The program tests; a per-operation trace of the 255^3 V-cycle's program (levels <= 15^3) with and without on-chip
# fields; solver_bench persistent at 255^3 with persistent_cells 0, 4096, 32768 (on-chip default) and 4096 with
# PERKSOLVE_PROGRAM_ON_CHIP_CELLS=0 (the program before). Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 120 bin/test_gpu_backend --gtest_filter='CudaPersistent.*:CudaSolves.Persistent*' > $W/tests_programs.log 2>&1; echo "tests programs rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|on-chip program" $W/tests_programs.log | head -20 | tee -a $W/summary.txt
for m in onchip memory; do
  [ $m = memory ] && export PERKSOLVE_PROGRAM_ON_CHIP_CELLS=0
  t=$SECONDS; PERKSOLVE_PROGRAM_TRACE=$W/trace_$m.txt timeout 60 bin/solver_bench --precision f64 --cases persistent --persistent-cells 4096 --solve-reps 1 --out $W/sb_trace_$m.json > $W/sb_trace_$m.log 2>&1; echo "trace $m rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^ *sum" $W/trace_$m.txt | tee -a $W/summary.txt
  unset PERKSOLVE_PROGRAM_ON_CHIP_CELLS
done
t=$SECONDS; timeout 120 bin/solver_bench --precision f64 --cases wu,persistent --persistent-cells 0,4096,32768 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_onchip.json > $W/solver_bench_onchip.log 2>&1; echo "solver_bench on-chip rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|mg_vcycle|wu_7pt)" $W/solver_bench_onchip.log | cut -c1-120 | tee -a $W/summary.txt
grep -E "persistent program:" $W/solver_bench_onchip.log | sort | uniq -c | head -5 | tee -a $W/summary.txt
t=$SECONDS; PERKSOLVE_PROGRAM_ON_CHIP_CELLS=0 timeout 90 bin/solver_bench --precision f64 --cases wu,persistent --persistent-cells 0,4096 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_memory.json > $W/solver_bench_memory.log 2>&1; echo "solver_bench memory rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|mg_vcycle|wu_7pt)" $W/solver_bench_memory.log | cut -c1-120 | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
