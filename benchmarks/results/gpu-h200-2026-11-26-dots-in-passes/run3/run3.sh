# Run 3 (H200): which levels should run as the persistent program now that the cycle's other levels run pair kernels
# (with the residual and dot variants), which the program does not have: solver_bench's persistent case (V(2,2) Jacobi
# cycle, PCG-MG with it, and the float-cycle Chebyshev PCG-MG, each with persistent_cells = 0, 4096 and 32768, the
# current default) at 255^3 twice, 127^3, 63^3 and 511^3. Usage: OUT=dir bash run3.sh (in the bundle)
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
echo "revision $R" > $W/env.log; nvidia-smi >> $W/env.log 2>&1
for k in 255_1 127_1 63_1 511_1 255_2; do
  n=${k%_*}
  t=$SECONDS; timeout 150 bin/solver_bench --n $n --precision f64 --cases wu,persistent --persistent-cells 0,4096,32768 --git-revision "$R" --out $W/solver_bench_$k.json > $W/solver_bench_$k.log 2>&1; echo "solver_bench n=$n ($k) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^(pcg_mg_solve_|mg_vcycle|wu_7pt)" $W/solver_bench_$k.log | awk '{print $1,$4,$5,$6,$9}' | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
