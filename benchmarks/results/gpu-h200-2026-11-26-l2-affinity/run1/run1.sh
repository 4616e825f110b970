# Run 1 (H200): the partition-affine stencil schedule (PERKSOLVE_CUDA_L2_AFFINITY=1) against the plain one.
# The stencil tests (both schedules; the affinity variant bit for bit); the whole GPU suite with affinity on;
# stencil_bench 3d7pt, 3d27pt_sym, 2d5pt alternating off / on / off / on; ncu of the fabric for 3d7pt with affinity on.
# Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 100 bin/test_gpu_backend --gtest_filter='CudaBackendStencil.*' > $W/tests_stencil.log 2>&1; echo "tests stencil rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED)|ScheduleL2" $W/tests_stencil.log | head -12 | tee -a $W/summary.txt
for rep in 1 2; do for a in 0 1; do
  t=$SECONDS; PERKSOLVE_CUDA_L2_AFFINITY=$a timeout 90 bin/stencil_bench --cases 3d7pt,3d27pt_sym,2d5pt --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench_aff${a}_$rep.json > $W/stencil_bench_aff${a}_$rep.log 2>&1; echo "stencil_bench affinity=$a rep $rep rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(3d|2d)" $W/stencil_bench_aff${a}_$rep.log | cut -c1-100 | tee -a $W/summary.txt
done; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
for p in f64 f32; do
  t=$SECONDS; PERKSOLVE_CUDA_L2_AFFINITY=1 timeout 90 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 1 --metrics $M bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_aff_$p.log 2>&1; echo "ncu affinity $p rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "lts__|dram__|gpu__" $W/ncu_aff_$p.log | tee -a $W/summary.txt
done
t=$SECONDS; PERKSOLVE_CUDA_L2_AFFINITY=1 timeout 150 bin/test_gpu_backend > $W/tests_all_affinity.log 2>&1; echo "test_gpu_backend (affinity on) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
tail -2 $W/tests_all_affinity.log | tee -a $W/summary.txt
grep -E "^\[  FAILED" $W/tests_all_affinity.log | head -20 | tee -a $W/summary.txt
cd $OUT && gzip -f w/tests_*.log; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
