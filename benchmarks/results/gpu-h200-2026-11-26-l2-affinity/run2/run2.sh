# Run 2 (H200): the final revision of the session (the experiment reverted): the whole GPU suite, stencil_bench 3d7pt,
# solver_bench wu,pcg, and l2_partition_probe from the CMake build. Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all.log | head -20 | tee -a $W/summary.txt
t=$SECONDS; timeout 60 bin/stencil_bench --cases 3d7pt --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt" $W/stencil_bench.log | cut -c1-100 | tee -a $W/summary.txt
t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench.log | cut -c1-120 | tee -a $W/summary.txt
t=$SECONDS; timeout 60 bin/l2_partition_probe --out $W/probe.json > $W/probe.log 2>&1; echo "l2_partition_probe rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^device|^group" $W/probe.log | cut -c1-80 | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_all.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
