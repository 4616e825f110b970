# Status run (H200): the whole bundle of this session's final code (scripts/make-gpu-bundle.sh -j 2), every benchmark
# once with its defaults, for the README's table of where issues 5 and 6 stand: the GPU suite; stencil_bench (ratios
# to the copy bound, issue 5); solver_bench (work units, PCG-MG at 255^3); perks_bench apply and jacobi sweeps
# (persistent over per-sweep, small / saturating / large, issue 6); cg_bench (persistent CG against the vendor CG);
# spmv_bench (native CSR against cuSPARSE). The logs and JSON in run1_logs.tar.xz (the device returns at most 8 files).
# Usage: B=unpacked bundle OUT=dir bash run1.sh
set -u
cd "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export LD_LIBRARY_PATH=$PWD/lib/fallback:/usr/local/cuda/lib64
R=$(sed -n 's/^git_revision=//p' MANIFEST | cut -c1-12)
W=/tmp/status; rm -rf $W; mkdir -p $W
{ cat MANIFEST; nvidia-smi; } > $OUT/env.log 2>&1
S=$OUT/summary.txt; : > $S
step() {  # step NAME TIMEOUT CMD...: the command's output in $W/NAME.log
  local name=$1 limit=$2; shift 2
  local t=$SECONDS
  timeout $limit "$@" > $W/$name.log 2>&1
  echo "$name rc=$? $((SECONDS-t)) s" | tee -a $S
}
step test_gpu_backend 200 bin/test_gpu_backend
tail -1 $W/test_gpu_backend.log | tee -a $S; grep -E "^\[  FAILED" $W/test_gpu_backend.log | head | tee -a $S
step stencil_bench 120 bin/stencil_bench --out $W/stencil_bench.json --git-revision "$R"
step perks_bench_apply 60 bin/perks_bench --sweep apply --out $W/perks_bench_apply.json --git-revision "$R"
grep -E "geometric" $W/perks_bench_apply.log | sed 's/^/apply /' | tee -a $S
step perks_bench_jacobi 60 bin/perks_bench --sweep jacobi --out $W/perks_bench_jacobi.json --git-revision "$R"
grep -E "geometric" $W/perks_bench_jacobi.log | sed 's/^/jacobi /' | tee -a $S
step solver_bench 200 bin/solver_bench --out $W/solver_bench.json --git-revision "$R"
step cg_bench 90 bin/cg_bench --out $W/cg_bench.json --git-revision "$R"
step spmv_bench 90 bin/spmv_bench --out $W/spmv_bench.json --git-revision "$R"
for f in stencil_bench solver_bench cg_bench spmv_bench; do echo "== $f (tail)"; tail -n 30 $W/$f.log; done >> $S
tar -C $W -cJf $OUT/run1_logs.tar.xz .
