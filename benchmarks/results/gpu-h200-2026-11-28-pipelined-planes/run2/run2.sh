# Run 2 (H200): the face fills of the streaming PERKS kernels batched (U = 8 cells per thread and step, sources read
# before any store; per item in the pipelined 2D tiles of radius <= 4 and 3D tiles of radius >= 2, the face phase of
# 3D radius 1, bulk tiles and 2D radius >= 5): registers and spills of the pipelined kernels, the GPU suite (automatic
# and with the large tier forced), the whole perks_bench with this library and with run 1's (OLD).
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 OUT=dir bash run2.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run2; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in new old; do
  L=lib/libperksolve_cuda.so.0; [[ $v == old ]] && L=$OLD/libperksolve_cuda.so.0
  $OBJ -res-usage $L 2>&1 | grep -A1 "perks_pipelined_kernel" | grep -E "REG|STACK" > $W/res_usage_$v.txt
  echo "pipelined kernels ($v): $(wc -l < $W/res_usage_$v.txt), with spills: $(grep -vc 'SPILL_STORES:0 ' $W/res_usage_$v.txt), max stack: $(grep -o 'STACK:[0-9]*' $W/res_usage_$v.txt | sort -t: -k2 -n | tail -1)" | tee -a $S
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 110 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $S
done
for v in new old; do
  L=$FB; [[ $v == old ]] && L=$OLD:$FB
  t=$SECONDS; LD_LIBRARY_PATH=$L timeout 150 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_$v.json > $W/perks_bench_$v.log 2>&1
  echo "perks_bench (all) $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_$v.log | sed "s/^/$v /" | tee -a $S
  awk -v v=$v '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_$v.log | tee -a $S
done
paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_old.log) \
      <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_new.log) | sed 's/^/old -> new: /' >> $S
tar -C $W -cJf $OUT/run2_logs.tar.xz .
