# Run 3 (2026-11-25, H200): kernel times of PCG-MG 255^3 iterations by ncu. For each variant the solve runs
# with max_iterations 3 and 6 under ncu (gpu__time_duration, DRAM bytes); the difference of the per-kernel sums
# is three iterations (set-up identical). Usage: OUT=dir bash run3.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$OUT/w; mkdir -p $W
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
CHEB='solver.preconditioner.smoother.type="chebyshev" solver.preconditioner.smoother.lower=0.2'
for V in jacobi_run chebyshev_run chebyshev_float; do
  P=${V#*_}; X=""; [ "${V%_*}" = chebyshev ] && X=$CHEB
  for it in 3 6; do
    t=$SECONDS; timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_${V}_$it.csv bin/perksolve $D $C $X solver.preconditioner.precision=\"$P\" solver.stop.max_iterations=$it > $W/ncu_${V}_$it.log 2>&1; echo "ncu $V $it rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  done
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
