# Run 11 (H200): the review's mend of the streamed axis (streamed_axis(dim) in stream_schedule.hpp instead of five
# spellings of "z in 3D, y in 2D"; compile-time only). M = this library (the bundle's), H = run 9's (LA).
# cuobjdump -res-usage of both, compared by demangled name; CudaPerks.* with M.
# Usage: B=unpacked bundle LA=dir with H's libperksolve_cuda.so.0 OUT=dir bash run11.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run11; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CO -res-usage $LA/libperksolve_cuda.so.0 > $W/res_H.txt 2>&1
$CO -res-usage lib/libperksolve_cuda.so.0 > $W/res_M.txt 2>&1
python3 $HERE/../run1/res_usage_by_name.py $W/res_H.txt $W/res_M.txt 2>&1 | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks.log 2>&1
echo "CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks.log | head | tee -a $S
tar -C $W -cJf $OUT/run11_logs.tar.xz .
