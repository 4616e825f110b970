# Run 4 (H200): compute-sanitizer racecheck on the kernels that run 3 put behind PDL (BLAS: the r update, dot, finish;
# the streaming stencil's shapes in fp32), whose racecheck timed out in run 3 with the solve tests included.
# Usage: OUT=dir bash run4.sh (in the bundle)
cd "$(dirname "$0")"
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
t=$SECONDS; timeout 240 $CS --tool racecheck --error-exitcode 9 bin/test_gpu_backend --gtest_filter='CudaSolverOps.Blas*:CudaBackendBlas.*:CudaBackendStencil.AllShapesFloat' > $W/sanitizer_racecheck.log 2>&1; echo "compute-sanitizer racecheck rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_racecheck.log | tail -3 | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
