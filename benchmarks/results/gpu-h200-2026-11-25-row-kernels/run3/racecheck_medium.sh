# Run 3b: racecheck with the medium tier forced (fast memory) on the stencil tests alone (run3's racecheck also ran a
# PCG-MG solve and hit its time limit after both stencil tests had passed). Usage: OUT=dir bash racecheck_medium.sh
cd "$(dirname "$0")"
W=$OUT/w; mkdir -p $W
t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=medium PERKSOLVE_CUDA_MEMORY=fast timeout 280 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.AllShapes*' > $W/sanitizer_medium_fast_racecheck_stencils.log 2>&1; echo "racecheck medium fast (CudaBackendStencil.AllShapes*) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -hE "SUMMARY" $W/sanitizer_*.log
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
