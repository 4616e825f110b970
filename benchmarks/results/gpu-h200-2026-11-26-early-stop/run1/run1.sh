# Run 1 (H200): where a float-cycle PCG-MG iteration goes at real clocks (graph path, persistent_cells 0): ncu
# --clock-control none of every kernel over the solve stopped after 3 and 6 iterations; solver_bench wu,pcg; and the
# persistent case with persistent_cells 0 and 4096. Usage: OUT=dir bash run1.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 60 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve|wu_7pt)" $W/solver_bench.log | awk '{print $1,$5,$6,$9,$10}' | tee -a $W/summary.txt
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for it in 3 6; do
  t=$SECONDS; timeout 240 $NCU --clock-control none --metrics $M --csv --log-file $W/ncu_float_$it.csv bin/perksolve $D $B $F solver.stop.max_iterations=$it > $W/ncu_float_$it.log 2>&1; echo "ncu float $it iterations rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
t=$SECONDS; timeout 90 bin/solver_bench --precision f64 --cases wu,persistent --persistent-cells 0,4096 --git-revision "$R" --out $W/solver_bench_persistent.json > $W/solver_bench_persistent.log 2>&1; echo "solver_bench persistent rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|mg_vcycle|wu_7pt)" $W/solver_bench_persistent.log | awk '{print $1,$4,$5,$6,$9,$10}' | tee -a $W/summary.txt
cd $OUT && gzip -f w/*.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
