# Run 3 (H200): stencil_sweep round 21 (consecutive columns on the 2D fp32 / fp64 rows and the 3D fp32 boxes, each
# variant twice, bit for bit against the production tile); compute-sanitizer racecheck on the fp32 pipelined sanitizer
# case with the large tier forced (the consecutive-column tile of 3d7pt; run 2's 60 s limit cut it); ncu counters of
# the fp32 3d7pt per-sweep kernel at 512^3, this revision's library against the previous one's (lib_old/).
# Usage: B=unpacked bundle OLD=folder with the old libperksolve_cuda.so.0 OUT=dir bash run3.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
FB=$PWD/lib/fallback
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
t=$SECONDS; LD_LIBRARY_PATH=$FB timeout 200 bin/stencil_sweep --reps 15 --only consec_shapes > $OUT/sweep_round21.log 2>&1
echo "stencil_sweep round 21 rc=$? $((SECONDS-t)) s" | tee -a $S
grep -E "^copy reference" $OUT/sweep_round21.log | tee -a $S
grep -E "ratio" $OUT/sweep_round21.log | awk '{print $1,$2,$3,$4,$5,$6,$9,$(NF-3),$(NF-2),$(NF-1),$NF}' | tee -a $S
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_st.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for v in new old; do
  L=$FB; [[ $v == old ]] && L=$OLD:$FB
  t=$SECONDS; LD_LIBRARY_PATH=$L timeout 90 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 1 --metrics $M bin/stencil_bench --cases 3d7pt --precision f32 --default-variant-only --reps 3 > $OUT/ncu_3d7pt_f32_$v.log 2>&1
  echo "ncu 3d7pt f32 $v rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "^  *(gpu__|launch__|smsp__|dram__|sm__)" $OUT/ncu_3d7pt_f32_$v.log | sed "s/^/$v /" | tee -a $S
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t=$SECONDS; LD_LIBRARY_PATH=$FB PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast timeout 240 $CS --tool racecheck bin/test_gpu_backend --gtest_filter='CudaPerks.PipelinedSanitizerCaseFloat' > $OUT/sanitizer_racecheck.log 2>&1
echo "compute-sanitizer racecheck PipelinedSanitizerCaseFloat rc=$? $((SECONDS-t)) s" | tee -a $S; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizer_racecheck.log | head -5 | tee -a $S
tar czf /tmp/run3_logs.tar.gz -C $OUT . && find $OUT -maxdepth 1 -type f ! -name summary.txt ! -name env.log -delete && mv /tmp/run3_logs.tar.gz $OUT/logs.tar.gz && ls $OUT
