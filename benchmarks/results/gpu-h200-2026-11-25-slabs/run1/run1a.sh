# Run 1a (H200): interleaved slabs of the dynamic stencil schedule (stream_schedule.hpp, plan_stream_slabs).
# Sweep round 18 at 512^3 and 255^3, ncu DRAM counters of the production 3d7pt kernels with automatic slabs and with
# chunks in plain order (PERKSOLVE_CUDA_STREAM_SLABS=1), stencil_bench both ways (every shape), solver_bench both ways,
# perks_bench. Usage: OUT=dir bash run1a.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
for n in 512 255; do
  t=$SECONDS; timeout 150 bin/stencil_sweep --reps 15 --n3d $n --only 3d7pt_slabs > $W/sweep_round18_$n.log 2>&1; echo "sweep $n rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "ratio" $W/sweep_round18_$n.log | sed -E 's/ regs=.*GC\/s//' | tee -a $W/summary.txt
done
for s in 0 1; do
  t=$SECONDS; PERKSOLVE_CUDA_STREAM_SLABS=$s timeout 120 bin/stencil_bench --default-variant-only --reps 20 --git-revision "$R" --out $W/stencil_bench_slabs$s.json > $W/stencil_bench_slabs$s.log 2>&1; echo "stencil_bench slabs=$s rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(3d|2d5pt |copy)" $W/stencil_bench_slabs$s.log | tee -a $W/summary.txt
done
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,sm__cycles_elapsed.max,lts__t_sector_hit_rate.pct
for s in 0 1; do for p in f32 f64; do
  t=$SECONDS; PERKSOLVE_CUDA_STREAM_SLABS=$s timeout 90 $NCU --clock-control none -k regex:stream_stencil -s 3 -c 1 --metrics $M bin/stencil_bench --cases 3d7pt --precision $p --default-variant-only --reps 3 > $W/ncu_3d7pt_${p}_slabs$s.log 2>&1; echo "ncu $p slabs=$s rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -hE "gpu__time|dram__bytes|dram__throughput|lts__" $W/ncu_3d7pt_${p}_slabs$s.log | tee -a $W/summary.txt
done; done
for s in 0 1; do
  t=$SECONDS; PERKSOLVE_CUDA_STREAM_SLABS=$s timeout 100 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench_slabs$s.json > $W/solver_bench_slabs$s.log 2>&1; echo "solver_bench slabs=$s rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|wu_7pt)" $W/solver_bench_slabs$s.log | awk '{print $1,$2,$3,$4,$5}' | tee -a $W/summary.txt
done
t=$SECONDS; timeout 100 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geometric" $W/perks_bench.log | tee -a $W/summary.txt
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
