# Run 7b: racecheck of the matrix-free persistent CG stop and breakdown tests (run 7's racecheck reached its time
# limit in MatchesOperationLoopFloat, after the CSR CG tests and the fp64 stencil CG test had passed without a hazard).
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
F='CudaPersistentStencilCg.StopsAtThreshold*:CudaPersistentStencilCg.Breakdown*'
t=$SECONDS; timeout 280 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_racecheck_stencil_cg_stops.log 2>&1; echo "racecheck ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -hE "SUMMARY|OK \]" $W/sanitizer_*.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
