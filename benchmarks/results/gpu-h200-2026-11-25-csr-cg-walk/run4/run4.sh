# Run 4 (H200): the review mends (CgCase, OwnedRows, cg_bench's walk report, the staged-walk fit guard). The whole
# GPU suite and cg_bench with the default walk. Layout: /tmp/b/new/bundle. Usage: OUT=dir bash run4.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
N=/tmp/b/new/bundle
R=$(cat $N/REVISION)
echo "new $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 240 $N/bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED)|FAILED  \]|SKIPPED \]" $W/tests_all.log | tee -a $W/summary.txt
t=$SECONDS; timeout 100 $N/bin/cg_bench --reps 9 --stencil-sizes 32 --large-7 192 --large-27 96 --git-revision "$R" --out $W/cg_bench.json > $W/cg_bench.log 2>&1
echo "cg_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "walk|^(laplace7_192|laplace27_96) |larger_than_l2  *f|fits_l2  *f" $W/cg_bench.log | head -12 | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
