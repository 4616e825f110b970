# Run 10 (H200): compute-sanitizer memcheck over the persistent tests that return a result and a Jacobi residual
# history (the result now written by the kernel into mapped pinned memory, the history copied behind it): CudaPerks's
# in-kernel stops and resident sanitizer cases, and the Jacobi solver tests with output intervals and history rows.
# Library H of run 9 (the bundle's).
# Usage: B=unpacked bundle OUT=dir bash run10.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
f='CudaPerks.JacobiStops*:CudaPerks.ResidentSanitizerCase*:CudaPerksSolvers.JacobiWithHistoryRows:CudaPerksSolvers.JacobiWithOutputEveryN'
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 400 $CS --tool memcheck bin/test_gpu_backend --gtest_filter="$f" > $OUT/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "ERROR SUMMARY|PASSED|FAILED|tests ran" $OUT/sanitizer_memcheck.log | head -6 | tee -a $S
