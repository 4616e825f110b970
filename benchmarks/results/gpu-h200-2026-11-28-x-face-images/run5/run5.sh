# Run 5 (H200): the session's final tree (this bundle: production kernels as a7ae48b; the GPU suite's pipelined test
# now also runs cell-centred x faces). The GPU suite, automatic and large tier forced; compute-sanitizer memcheck on the
# pipelined sanitizer cases; and, for the next session, ncu of the pipelined kernel on 2ds25pt fp64 at 6144^2 (4
# sweeps), whose fills cost ~29 us per sweep (perks_bench: 224.9 us against 195.8 us per sweep for the per-sweep path).
# Usage: B=unpacked bundle OUT=dir bash run5.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
W=/tmp/run5; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
for mode in default large_fast; do
  t=$SECONDS
  if [[ $mode == default ]]; then LD_LIBRARY_PATH=$FB timeout 100 bin/test_gpu_backend > $W/tests_$mode.log 2>&1
  else LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 bin/test_gpu_backend > $W/tests_$mode.log 2>&1; fi
  echo "test_gpu_backend $mode rc=$? $((SECONDS-t)) s" | tee -a $S
  tail -1 $W/tests_$mode.log | tee -a $S; grep -E "^\[  FAILED|SKIPPED" $W/tests_$mode.log | head -20 | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS
LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 100 $CS --tool memcheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCase*' > $W/sanitizer_memcheck.log 2>&1
echo "compute-sanitizer memcheck rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "ERROR SUMMARY|PASSED|FAILED|SKIPPED" $W/sanitizer_memcheck.log | head -3 | tee -a $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 100 $NCU --clock-control none -k regex:perks_pipelined_kernel -c 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis \
  -o $W/pp_2ds25pt_f64 -f bin/perks_bench --cases 2ds25pt --precision f64 --side 6144 --sweeps 4 --reps 1 --kernel pipelined > $W/pp_2ds25pt_f64.ncu.log 2>&1
echo "ncu pp_2ds25pt_f64 rc=$? $((SECONDS-t)) s" | tee -a $S
$NCU -i $W/pp_2ds25pt_f64.ncu-rep --page source --csv --print-source sass > $W/pp_2ds25pt_f64.sass.csv 2>&1
$NCU -i $W/pp_2ds25pt_f64.ncu-rep --page details > $W/pp_2ds25pt_f64.details.txt 2>&1
grep -E "Duration|Registers Per|Warp Cycles Per Issued" $W/pp_2ds25pt_f64.details.txt | tee -a $S
rm -f $W/*.ncu-rep
tar -C $W -cJf $OUT/run5_logs.tar.xz .
