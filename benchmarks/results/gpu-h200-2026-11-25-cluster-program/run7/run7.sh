# Run 7 (H200): after the plan_stream_grid cost-function refactor (same plans by construction): all GPU tests and
# stencil_bench. Usage: OUT=dir bash run7.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 150 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "tests all rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "FAILED|PASSED" $W/tests_all.log | tail -5 | tee -a $W/summary.txt
t=$SECONDS; timeout 100 bin/stencil_bench --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^3d7pt |^2d5pt |^3d27pt_sym " $W/stencil_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
