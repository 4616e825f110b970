# Run 7 (H200): the fp64 2D row tile of radius 2-4 rotates its partial sums in the modes with b too (residual, Jacobi;
# kRot2d; ptxas -v: 93-120 registers per-sweep, 116-128 pipelined, no spill). NEW = this bundle's library, PROD = run
# 6's. perks_bench --sweep jacobi on the fp64 2D shapes of radius 2-4 (per-sweep Jacobi sweeps and the pipelined
# kernel), three times each way, alternating; the stencil and PERKS GPU tests (automatic, and the large tier forced on
# fast memory).
# Usage: B=unpacked bundle LPROD=dir holding the production libperksolve_cuda.so.0 OUT=dir bash run7.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run7; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
run_v() { case $1 in prod) LD_LIBRARY_PATH=$LPROD:$FB "${@:2}" ;; new) LD_LIBRARY_PATH=$FB "${@:2}" ;; esac; }
for k in 1 2 3; do
  for v in prod new; do
    t=$SECONDS; run_v $v timeout 60 bin/perks_bench --sweep jacobi --precision f64 --cases 2ds9pt,2d13pt,2d17pt,2d25pt --out $W/pj_${v}_$k.json > $W/pj_${v}_$k.log 2>&1
    echo "perks_bench jacobi $v $k rc=$? $((SECONDS-t)) s" | tee -a $S
    awk -v v="$v $k" '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print v, $1, $2, $3, $4, "per-sweep", $8, "persistent", $11, "speed-up", $(i+1)}' $W/pj_${v}_$k.log | tee -a $S
  done
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 150 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaPerks.*' > $W/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 150 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*:CudaPerks.*' > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend stencil+perks $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_$mode.log | head | tee -a $S
done
tar -C $W -cJf $OUT/run7_logs.tar.xz .
