# Run 4 (H200): the pipelined kernel's fills out of line, with the layout and face set in shared memory and 4 ghost
# cells per thread and step (1 in 1024-thread tiles): resources of the pipelined kernels, the GPU suite (automatic and
# large tier forced), the whole perks_bench twice with this library and with run 1's (OLD), compute-sanitizer
# (memcheck, synccheck, racecheck) on the pipelined sanitizer cases, large tier forced.
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 OUT=dir bash run4.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/run4; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in new old; do
  L=lib/libperksolve_cuda.so.0; [[ $v == old ]] && L=$OLD/libperksolve_cuda.so.0
  $OBJ -res-usage $L 2>&1 | grep -A1 "perks_pipelined_kernel\|perks_fill_.*_call" > $W/res_usage_$v.txt
  echo "pipelined kernels ($v): $(grep -c 'Function.*perks_pipelined_kernel' $W/res_usage_$v.txt); kernels and fill calls with STACK > 0: $(grep -c 'STACK:[1-9]' $W/res_usage_$v.txt)" | tee -a $S
done
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 110 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 110 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED" $W/tests_$mode.log | head -20 | tee -a $S
done
for k in 1 2; do
  for v in old new; do
    L=$FB; [[ $v == old ]] && L=$OLD:$FB
    t=$SECONDS; LD_LIBRARY_PATH=$L timeout 100 bin/perks_bench --git-revision "$R-$v" --out $W/perks_bench_${v}_$k.json > $W/perks_bench_${v}_$k.log 2>&1
    echo "perks_bench (all) $v $k rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "geometric" $W/perks_bench_${v}_$k.log | sed "s/^/$v $k /" | tee -a $S
    awk -v v="$v $k" '$3=="large" {for (i = 1; i < NF; ++i) if ($i == "speed-up" && $(i+1) + 0 < 0.98) print v, "large below 0.98:", $1, $2, $(i+1)}' $W/perks_bench_${v}_$k.log | tee -a $S
  done
  paste <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $1, $2, $3, $4, $(i+1)}' $W/perks_bench_old_$k.log) \
        <(awk '/speed-up/ {for (i = 1; i < NF; ++i) if ($i == "speed-up") print $(i+1)}' $W/perks_bench_new_$k.log) | sed "s/^/old new $k: /" >> $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
san() {  # tool, gtest filter, limit (s), log name
  local t=$SECONDS
  LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout $3 $CS --tool $1 bin/test_gpu_backend --gtest_filter="$2" > $W/$4.log 2>&1
  echo "compute-sanitizer $1 $2 rc=$? $((SECONDS-t)) s (limit $3 s)" | tee -a $S; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $W/$4.log | head -5 | tee -a $S
}
san memcheck 'CudaPerks.PipelinedSanitizerCase*' 80 sanitizer_memcheck_pipelined
san synccheck 'CudaPerks.PipelinedSanitizerCase*' 60 sanitizer_synccheck
left=$((570 - SECONDS)); [[ $left -gt 220 ]] && left=220
[[ $left -gt 60 ]] && san racecheck CudaPerks.PipelinedSanitizerCaseFloat $left sanitizer_racecheck
tar -C $W -cJf $OUT/run4_logs.tar.xz .
