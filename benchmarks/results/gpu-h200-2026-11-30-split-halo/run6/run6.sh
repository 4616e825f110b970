# Run 6 (H200): the GPU suite after the refactor that gives the resident launcher and both persistent CGs one helper
# for a block's share of the SM's shared memory (smem_per_block_share; the same values).
# Usage: B=unpacked bundle OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/test_gpu_backend > $OUT/tests_default.log 2>&1
echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $OUT/tests_default.log | tee -a $S
grep -E "^\[  FAILED|two blocks per SM" $OUT/tests_default.log | head | tee -a $S
xz -9 $OUT/tests_default.log
