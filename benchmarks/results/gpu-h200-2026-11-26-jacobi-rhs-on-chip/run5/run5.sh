# Run 5 (H200): the resident kernel computes the Jacobi residual only at check sweeps and the last sweep
# (instead of every sweep, with the totals deferred). Full GPU suite; perks_bench in both sweep kinds; apply vs
# Jacobi on the same domains; racecheck / synccheck on the resident cases and the resident Jacobi stop tests.
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
echo "rev $(cat REVISION)" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -3 $W/tests_all.log | tee -a $W/summary.txt
grep -E "FAILED|Failure|b on chip:" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for k in jacobi apply; do
  t=$SECONDS; timeout 120 bin/perks_bench --git-revision "$(cat REVISION)" --sweep $k --out $W/perks_bench_$k.json > $W/perks_bench_$k.log 2>&1; echo "perks_bench $k rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep geometric $W/perks_bench_$k.log | tee -a $W/summary.txt
done
for c in "2d5pt 789" "3d7pt 95" "2d17pt 1013"; do set -- $c
  for k in apply jacobi; do
    timeout 60 bin/perks_bench --cases $1 --precision f64 --side $2 --kernel resident --sweep $k --out $W/side_$1_$k.json > $W/side_$1_$k.log 2>&1
    echo "$1 $2 $k rc=$? $(grep -o 'persistent [0-9.e-]* s' $W/side_$1_$k.log)" | tee -a $W/summary.txt
  done
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for tool in synccheck racecheck; do
  t=$SECONDS; timeout 170 $CS --tool $tool --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaPerks.ResidentSanitizerCase*:CudaPerks.JacobiStopsInResidentKernel*' > $W/sanitizer_$tool.log 2>&1; echo "compute-sanitizer $tool rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tail -3 | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
