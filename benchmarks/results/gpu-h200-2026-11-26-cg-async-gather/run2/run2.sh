# Run 2 (H200): solver.persistent = "auto" declines the persistent CSR CG above L2. The GPU suite (with the new
# CudaPersistentCg.AutoDeclinesWhereTheWorkingSetExceedsL2); cg_bench on 7-point Laplacians of 64^3, 80^3 and 96^3
# rows (working sets of about 0.5x, 1x and 1.7x the L2 in fp64) for the crossover of the persistent and the
# operation-by-operation CG; and the large-domain 3d13pt fp32 case of perks_bench (pipelined 0.864 of the per-sweep
# kernel in the last session) with ncu counters of both kernels. Usage: OUT=dir bash run2.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/tests_all.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -1 $W/tests_all.log | tee -a $W/summary.txt; grep -E "^\[  FAILED|^\[auto\]" $W/tests_all.log | head -20 | tee -a $W/summary.txt
for n in 64 80 96; do
  t=$SECONDS; timeout 100 bin/cg_bench --reps 9 --precision both --only laplace7_$n --large-7 $n --git-revision "$R" --out $W/cg_laplace7_$n.json > $W/cg_laplace7_$n.log 2>&1
  echo "cg_bench laplace7_$n rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^laplace" $W/cg_laplace7_$n.log | cut -c1-130 | tee -a $W/summary.txt
done
t=$SECONDS; timeout 120 bin/perks_bench --cases 3d13pt --precision f32 --side 512 --out $W/perks_3d13pt_f32_512.json > $W/perks_3d13pt_f32_512.log 2>&1
echo "perks_bench 3d13pt f32 512 rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt; grep -E "3d13pt" $W/perks_3d13pt_f32_512.log | tee -a $W/summary.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_sectors_srcunit_tex.sum
t=$SECONDS; timeout 150 $NCU --clock-control none -k regex:"stream_stencil|perks_pipelined" -c 4 --metrics $M bin/perks_bench --cases 3d13pt --precision f32 --side 512 --sweeps 2 --reps 1 > $W/ncu_3d13pt_f32.log 2>&1; echo "ncu rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "stream_stencil|perks_pipelined|gpu__time|registers_per|inst_executed.sum|dram__throughput|warps_active|issue_active" $W/ncu_3d13pt_f32.log | cut -c1-150 | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
