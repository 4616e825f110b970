# Run 2 (H200): where a float-cycle PCG-MG iteration goes now (revision with CG's dot products in passes): ncu of every
# kernel (time and DRAM bytes) over the solve stopped after 3 and after 6 iterations (kernel_table.py takes the
# difference); and solver_bench's persistent case (levels of at most P cells in the persistent program, P = 0, 4096,
# 32768 (the default), 262144; V(2,2) Jacobi, direct coarse, double). Usage: OUT=dir bash run2.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
t=$SECONDS; timeout 90 bin/solver_bench --precision f64 --cases wu,persistent --persistent-cells 0,4096,32768,262144 --git-revision "$R" --out $W/solver_bench_persistent.json > $W/solver_bench_persistent.log 2>&1; echo "solver_bench persistent rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg_mg_solve_|mg_vcycle|wu_7pt)" $W/solver_bench_persistent.log | tee -a $W/summary.txt
D=inputs/solvers/pcg_mg_poisson3d.toml
B='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
F='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2 solver.preconditioner.precision="float"'
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for it in 3 6; do
  t=$SECONDS; timeout 280 $NCU --metrics $M --csv --log-file $W/ncu_float_$it.csv bin/perksolve $D $B $F solver.stop.max_iterations=$it > $W/ncu_float_$it.log 2>&1; echo "ncu float $it iterations rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && gzip -f w/*.csv; tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
