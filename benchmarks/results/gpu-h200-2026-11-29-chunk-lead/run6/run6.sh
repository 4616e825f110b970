# Run 6 (H200): the review's mend (1612bbd: the face-phase rule as one template, compile-time only), built by CI's
# cuda preset on a fresh clone (R), against the kept library of runs 3 and 5 (LA, d6ab523): cuobjdump -res-usage of
# both (every kernel), CudaPerks.* with R, perks_bench jacobi once with each.
# Usage: B=unpacked bundle with R in lib/ LA=dir with d6ab523's libperksolve_cuda.so.0 OUT=dir bash run6.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run6; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CO -res-usage $LA/libperksolve_cuda.so.0 > $W/res_K.txt 2>&1
$CO -res-usage lib/libperksolve_cuda.so.0 > $W/res_R.txt 2>&1
n=$(grep -c REG $W/res_K.txt); d=$(diff <(grep -E "Function|REG" $W/res_K.txt) <(grep -E "Function|REG" $W/res_R.txt) | grep -c '^[<>]')
echo "res-usage: $n functions; differing lines: $d" | tee -a $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 120 bin/test_gpu_backend --gtest_filter='CudaPerks.*' > $W/tests_perks.log 2>&1
echo "CudaPerks.* rc=$? $((SECONDS-t)) s" | tee -a $S; tail -1 $W/tests_perks.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_perks.log | head | tee -a $S
for v in K R; do
  case $v in K) L=$LA:$FB ;; R) L=$FB ;; esac
  t=$SECONDS; LD_LIBRARY_PATH=$L timeout 90 bin/perks_bench --sweep jacobi --out $W/pb_jacobi_$v.json > $W/pb_jacobi_$v.log 2>&1
  echo "perks_bench jacobi $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/pb_jacobi_$v.log | sed "s/^/jacobi $v /" | tee -a $S
done
tar -C $W -cJf $OUT/run6_logs.tar.xz .
