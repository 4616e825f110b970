# Run 5 (H200): compute-sanitizer racecheck with A4 (this bundle's revision) on the float pipelined sanitizer case,
# large tier forced (the fp32 face phase's slab walk runs there).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS
LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 400 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' > $W/sanitizer_racecheck_a4.log 2>&1
echo "compute-sanitizer racecheck a4 rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $W/sanitizer_racecheck_a4.log | head -3 | tee -a $S
tar -C $W -cJf $OUT/run5_logs.tar.xz .
