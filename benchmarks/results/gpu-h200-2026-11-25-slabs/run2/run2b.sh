# Run 2b (H200): the prolongation kernels (pipelined, the default, vs batch) in solver_bench and under ncu, stencil_bench
# and perks_bench after the slabs were reverted, and compute-sanitizer on the fp32 schedule-tail test and the transfer
# tests. Usage: OUT=dir bash run2b.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "rev $R" > $W/env.log
for rep in 1 2; do for v in pipelined batch; do
  t=$SECONDS; PERKSOLVE_CUDA_PROLONGATION=$v timeout 100 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_${v}_$rep.json > $W/solver_bench_${v}_$rep.log 2>&1; echo "solver_bench $v $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_${v}_$rep.log | awk '{print $1,$5,$6,$9}' | tee -a $W/summary.txt
done; done
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
for v in pipelined batch; do
  t=$SECONDS; PERKSOLVE_CUDA_PROLONGATION=$v timeout 120 $NCU --clock-control none -k regex:prolongate -s 20 -c 6 --metrics $M bin/solver_bench --precision f64 --cases pcg --reps 1 > $W/ncu_prolongate_$v.log 2>&1; echo "ncu prolongate $v rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "prolongate|gpu__time|dram__throughput|registers" $W/ncu_prolongate_$v.log | sed -E 's/\(perksolve::[^)]*\)//' | cut -c1-140 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 100 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench.json > $W/stencil_bench.log 2>&1; echo "stencil_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(3d7pt |3d27pt_sym|2d5pt |copy)" $W/stencil_bench.log | tee -a $W/summary.txt
t=$SECONDS; timeout 100 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geometric" $W/perks_bench.log | tee -a $W/summary.txt
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.ScheduleTailFloat:CudaSolverOps.Transfers*' > $W/sanitizer_$tool.log 2>&1; echo "$tool ScheduleTailFloat + Transfers rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $W/sanitizer_$tool.log | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
