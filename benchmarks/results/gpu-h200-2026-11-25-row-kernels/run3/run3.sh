# Run 3 (2026-11-25, H200): the fast-memory medium tier (bulk 256-wide tiles for the 3D 7-point star: fp64 apply
# at 255^3, and the modes with b in both precisions). GPU tests (default, and the medium / large tiers forced in
# each memory class), sanitizers with the medium tier forced, stencil_bench in both memory classes, solver_bench
# (WU, PCG-MG at 255^3), perks_bench, ncu kernel table of three Jacobi PCG-MG iterations. Usage: OUT=dir bash run3.sh
cd "$(dirname "$0")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$(cat REVISION)
W=$OUT/w; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.log 2>&1
echo "rev $R" >> $W/env.log
t=$SECONDS; timeout 200 bin/test_gpu_backend > $W/test_gpu_backend.log 2>&1; echo "test_gpu_backend rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
for tier in medium large; do for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=$tier PERKSOLVE_CUDA_MEMORY=$mem timeout 200 bin/test_gpu_backend > $W/test_gpu_backend_${tier}_$mem.log 2>&1; echo "test_gpu_backend $tier $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done; done
grep -hE "^\[  (PASSED|FAILED)|FAILED  \]" $W/test_*.log | head -30
F='CudaBackendStencil.AllShapes*:CudaSolves.PcgMultigrid'
for tool in memcheck racecheck synccheck; do
  t=$SECONDS; PERKSOLVE_CUDA_WIDE_TILE=medium PERKSOLVE_CUDA_MEMORY=fast timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 1 bin/test_gpu_backend --gtest_filter="$F" > $W/sanitizer_medium_fast_$tool.log 2>&1; echo "$tool medium fast ($F) rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
grep -hE "SUMMARY" $W/sanitizer_*.log
for mem in fast normal; do
  t=$SECONDS; PERKSOLVE_CUDA_MEMORY=$mem timeout 100 bin/stencil_bench --git-revision "$R" --out $W/stencil_bench_$mem.json > $W/stencil_bench_$mem.log 2>&1; echo "stencil_bench $mem rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
  grep -E "^3d7pt |^2d5pt |^3d27pt_sym" $W/stencil_bench_$mem.log
done
t=$SECONDS; timeout 200 bin/solver_bench --precision f64 --cases wu,pcg --git-revision "$R" --out $W/solver_bench.json > $W/solver_bench.log 2>&1; echo "solver_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -E "^(pcg|wu_7pt)" $W/solver_bench.log
t=$SECONDS; timeout 150 bin/perks_bench --git-revision "$R" --out $W/perks_bench.json > $W/perks_bench.log 2>&1; echo "perks_bench rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
grep -iE "geomean|geometric" $W/perks_bench.log | head
D=inputs/solvers/pcg_mg_poisson3d.toml
C='grid.extents=[255,255,255] backend.type="cuda" monitor.every=0 solver.preconditioner.coarse.type="direct" solver.stop.rtol=1e-30'
for it in 3 6; do
  t=$SECONDS; timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --log-file $W/ncu_jacobi_run_$it.csv bin/perksolve $D $C solver.stop.max_iterations=$it > $W/ncu_jacobi_run_$it.log 2>&1; echo "ncu jacobi $it rc=$? $((SECONDS-t)) s" | tee -a $W/summary.txt
done
cd $OUT && tar czf results.tar.gz w && cp w/summary.txt . && rm -rf w
