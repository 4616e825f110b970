# Run 4 (H200): the persistent programs as committed (face fills folded, prolongation not in block 0). All GPU tests;
# compute-sanitizer memcheck / racecheck / synccheck on the program tests (grid, cluster and one block); program_bench;
# the traced coarse-level program and solver_bench case persistent at 255^3 (levels <= 31^3 and <= 63^3 in the
# program); solver_bench WU and PCG-MG (production decks).
# Usage: OUT=dir bash run4.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
F='CudaPersistent.ProgramMatches*:CudaPersistent.ClusterProgram*'
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_program_$tool.log 2>&1; echo "$tool ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY|PASSED|FAILED" $W/sanitizer_*.log | tee -a $W/summary.txt
timeout 60 bin/program_bench --breakdown --git-revision "$R" --out $W/program_bench.json > $W/program_bench.log 2>&1; echo "program_bench rc=$?" | tee -a $W/summary.txt
PERKSOLVE_PROGRAM_TRACE=$W/trace_255.txt timeout 100 bin/solver_bench --n 255 --precision f64 --cases persistent --persistent-cells 32768,262144 --solve-reps 1 > $W/solver_bench_trace.log 2>&1; echo "trace rc=$?" | tee -a $W/summary.txt
grep "^ sum" $W/trace_255.txt | tee -a $W/summary.txt
t=$SECONDS; timeout 150 bin/solver_bench --n 255 --precision f64 --cases persistent --persistent-cells 0,32768,262144 --solve-reps 5 --git-revision "$R" --out $W/solver_bench_persistent_255.json > $W/solver_bench_persistent_255.log 2>&1; echo "solver_bench persistent 255 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(mg_|pcg)" $W/solver_bench_persistent_255.log | awk '{print $1,$3,$4,$5,$6,$9}' | tee -a $W/summary.txt
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
