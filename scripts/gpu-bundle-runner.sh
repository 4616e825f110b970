#!/usr/bin/env bash
# Runner of the relocatable GPU bundle (copied into the bundle as run.sh by scripts/make-gpu-bundle.sh).
#
#   run.sh OUTDIR            GPU tests, compute-sanitizer (memcheck, racecheck, synccheck) over the GPU
#                            tests, the stencil benchmark, and (when their binaries are in bin/) the solver
#                            and SpMV benchmarks; logs + JSON go to OUTDIR:
#     OUTDIR/env.log              device, driver, library resolution (ldd) of every executable
#     OUTDIR/test_gpu_backend.log GoogleTest output of the GPU test suite
#     OUTDIR/sanitizer.log        the three compute-sanitizer runs (each ends with its summary line)
#     OUTDIR/stencil_bench.log    benchmark table
#     OUTDIR/stencil_bench.json   benchmark records (device, date, git revision, command, one per case)
#     OUTDIR/solver_bench.log     (bin/solver_bench) table: 7-point sweep = work unit, CG iteration, MG V-cycle,
#                                 PCG-MG solve on 3D Poisson 255^3, fp64 + fp32, times and work units
#     OUTDIR/solver_bench.json    its records (device, date, git revision, command, decks, one per case)
#     OUTDIR/spmv_bench.log       (bin/spmv_bench) table: CSR SpMV, native kernel vs cuSPARSE, fp64 + fp32
#     OUTDIR/spmv_bench.json      its records (one per matrix, precision and path + a summary per matrix)
#     OUTDIR/program_bench.{log,json}  (bin/program_bench) cost per operation: launches vs CUDA graph vs
#                                 persistent program
#     OUTDIR/perks_bench.{log,json}    (bin/perks_bench; RUNNER_PERKS=0 skips it) PERKS stencil iteration vs the
#                                 per-sweep kernels, every shape, fp64/fp32, small/saturating/large domains
#     OUTDIR/cg_bench.{log,json}       (bin/cg_bench; RUNNER_CG=0 skips it) persistent CG vs the operation-by-
#                                 operation CG vs cuSPARSE/cuBLAS CG, per iteration, fp64/fp32
#     OUTDIR/summary.txt          one line per step with its exit status
#     OUTDIR/stencil_sweep.log    (RUNNER_SWEEP=1) kernel tuning sweep, see benchmarks/gpu/stencil_sweep.cu
#
# Environment: RUNNER_SANITIZE=0 skips compute-sanitizer; RUNNER_SWEEP=1 runs the tuning sweep first; RUNNER_BENCH_ARGS adds benchmark arguments
# (e.g. "--cases 3d7pt,2d5pt --reps 10"); RUNNER_SOLVER_BENCH_ARGS / RUNNER_SPMV_BENCH_ARGS / RUNNER_CG_BENCH_ARGS add arguments
# to the solver / SpMV / CG benchmarks (e.g. "--n 127", "--n27 0"); RUNNER_TEST_FILTER sets --gtest_filter for the test suite.
# A benchmark without a usable device prints "SKIPPED: no CUDA device" and exits 0.
# Exit status: non-zero when a test or a sanitizer run failed.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUTDIR=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
BIN="$HERE/bin"
REV=$(cat "$HERE/REVISION" 2>/dev/null || echo unknown)

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# libmpi_cxx ships with Debian/Ubuntu OpenMPI; use the bundled copy only if the system has none.
if ! ldconfig -p 2>/dev/null | grep -q 'libmpi_cxx.so.40'; then
  export LD_LIBRARY_PATH="$HERE/lib/fallback${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# cuSPARSE (CSR SpMV vendor path) is not bundled: the CUDA toolkit's copy on the GPU machine is used.
if [[ -d /usr/local/cuda/lib64 ]] && ! ldconfig -p 2>/dev/null | grep -q 'libcusparse.so'; then
  export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64"
fi

SUMMARY="$OUTDIR/summary.txt"
: > "$SUMMARY"
status=0
step() {  # step NAME LOGFILE TIMEOUT CMD...
  local name=$1 log=$2 limit=$3
  shift 3
  local t0=$SECONDS
  echo "### $name: $*" >> "$log"
  timeout "$limit" "$@" >> "$log" 2>&1
  local rc=$?
  echo "### $name: exit $rc after $((SECONDS - t0)) s" >> "$log"
  printf '%-28s rc=%-3d %4d s\n' "$name" "$rc" "$((SECONDS - t0))" | tee -a "$SUMMARY"
  return $rc
}

{
  echo "bundle: $HERE"
  echo "revision: $REV"
  cat "$HERE/MANIFEST" 2>/dev/null
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  echo "glibc: $(ldd --version 2>&1 | head -1)"
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "--- system libraries of interest (ldconfig -p)"
  ldconfig -p 2>/dev/null | grep -E 'libmpi|libfmt|libhdf5|libgfortran|libblas|liblapack|libopenblas|libgtest|libkokkos|libtrilinos' || true
  for b in "$BIN"/*; do echo "--- ldd $(basename "$b")"; ldd "$b"; done
} > "$OUTDIR/env.log" 2>&1
if grep -q "not found" "$OUTDIR/env.log"; then
  echo "missing libraries:"; grep "not found" "$OUTDIR/env.log"
  status=1
fi

FILTER=${RUNNER_TEST_FILTER:-*}
step test_gpu_backend "$OUTDIR/test_gpu_backend.log" 600 "$BIN/test_gpu_backend" --gtest_filter="$FILTER" || status=1
# The test grids are small, so the automatic wide-tile choice takes the small tile in 3D: run the suite
# once more with each wider tier forced (PERKSOLVE_CUDA_WIDE_TILE=large, =medium), same log. The large and
# medium tiers have a variant per memory class (PERKSOLVE_CUDA_MEMORY=fast|normal): each runs once with each.
for tier in medium large; do
  for mem in fast normal; do
    step "test_gpu_backend_${tier}_$mem" "$OUTDIR/test_gpu_backend.log" 600 env PERKSOLVE_CUDA_WIDE_TILE=$tier \
      PERKSOLVE_CUDA_MEMORY=$mem "$BIN/test_gpu_backend" --gtest_filter="$FILTER" || status=1
  done
done

if [[ "${RUNNER_SANITIZE:-1}" != 0 ]] && command -v compute-sanitizer >/dev/null; then
  # Short: the small-grid suites (every shape/op on ~16K cells); the large-grid cases are left out.
  SFILTER='CudaBackendStencil.AllShapes*:CudaBackendStencil.GenericKernel*:CudaBackendBlas.*:CudaBackendHalo.*:CudaBackendBoundary.*'
  for tool in memcheck racecheck synccheck; do
    extra=()
    [[ $tool == memcheck ]] && extra=(--leak-check full)
    [[ $tool == racecheck ]] && extra=(--racecheck-report all)
    step "sanitizer-$tool" "$OUTDIR/sanitizer.log" 300 \
      compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 1 "$BIN/test_gpu_backend" --gtest_filter="$SFILTER" \
      || status=1
  done
  step sanitizer-memcheck-large "$OUTDIR/sanitizer.log" 300 env PERKSOLVE_CUDA_WIDE_TILE=large \
    compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN/test_gpu_backend" --gtest_filter="$SFILTER" || status=1
  # The large tier has the bulk (TMA) copies on mbarriers and the dynamic work counter.
  step sanitizer-racecheck-large "$OUTDIR/sanitizer.log" 300 env PERKSOLVE_CUDA_WIDE_TILE=large \
    compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 "$BIN/test_gpu_backend" \
    --gtest_filter='CudaBackendStencil.AllShapes*' || status=1
  step sanitizer-synccheck-large "$OUTDIR/sanitizer.log" 300 env PERKSOLVE_CUDA_WIDE_TILE=large \
    compute-sanitizer --tool synccheck --error-exitcode 1 "$BIN/test_gpu_backend" \
    --gtest_filter='CudaBackendStencil.AllShapes*' || status=1
  # Persistent programs and the PERKS stencil kernel (cooperative kernels with device-wide barriers): all
  # three tools.
  # (CudaPersistent.UnsupportedOperation fails a stream capture on purpose, which memcheck reports as an
  # API error: it runs under racecheck and synccheck only.)
  for tool in memcheck racecheck synccheck; do
    pfilter='CudaPersistent.*:CudaPerks.JacobiStops*'
    [[ $tool == memcheck ]] && pfilter='CudaPersistent.*:CudaPerks.JacobiStops*:-CudaPersistent.UnsupportedOperation*'
    step "sanitizer-$tool-persistent" "$OUTDIR/sanitizer.log" 300 \
      compute-sanitizer --tool "$tool" --error-exitcode 1 "$BIN/test_gpu_backend" --gtest_filter="$pfilter" \
      || status=1
  done
fi

if [[ "${RUNNER_SWEEP:-0}" != 0 && -x "$BIN/stencil_sweep" ]]; then
  # Kernel tuning sweep (variants checked bit for bit against the reference tile); RUNNER_SWEEP_ARGS.
  # shellcheck disable=SC2086
  step stencil_sweep "$OUTDIR/stencil_sweep.log" 400 "$BIN/stencil_sweep" ${RUNNER_SWEEP_ARGS:-} || status=1
fi

if [[ -x "$BIN/stencil_bench" ]]; then
  # shellcheck disable=SC2086
  step stencil_bench "$OUTDIR/stencil_bench.log" 600 "$BIN/stencil_bench" --out "$OUTDIR/stencil_bench.json" \
    --git-revision "$REV" ${RUNNER_BENCH_ARGS:-} || status=1
  tail -n 40 "$OUTDIR/stencil_bench.log"
fi

# Solver and SpMV benchmarks: only when the bundle (or build) has them.
if [[ -x "$BIN/solver_bench" ]]; then
  # shellcheck disable=SC2086
  step solver_bench "$OUTDIR/solver_bench.log" 600 "$BIN/solver_bench" --out "$OUTDIR/solver_bench.json" \
    --git-revision "$REV" ${RUNNER_SOLVER_BENCH_ARGS:-} || status=1
  tail -n 15 "$OUTDIR/solver_bench.log"
fi
if [[ -x "$BIN/program_bench" ]]; then
  step program_bench "$OUTDIR/program_bench.log" 300 "$BIN/program_bench" --out "$OUTDIR/program_bench.json" \
    --git-revision "$REV" || status=1
  tail -n 10 "$OUTDIR/program_bench.log"
fi
if [[ -x "$BIN/perks_bench" && "${RUNNER_PERKS:-1}" != 0 ]]; then
  # shellcheck disable=SC2086
  step perks_bench "$OUTDIR/perks_bench.log" 600 "$BIN/perks_bench" --out "$OUTDIR/perks_bench.json" \
    --git-revision "$REV" ${RUNNER_PERKS_BENCH_ARGS:-} || status=1
  tail -n 6 "$OUTDIR/perks_bench.log"
fi
if [[ -x "$BIN/cg_bench" && "${RUNNER_CG:-1}" != 0 ]]; then
  # shellcheck disable=SC2086
  step cg_bench "$OUTDIR/cg_bench.log" 600 "$BIN/cg_bench" --out "$OUTDIR/cg_bench.json" \
    --git-revision "$REV" ${RUNNER_CG_BENCH_ARGS:-} || status=1
  tail -n 24 "$OUTDIR/cg_bench.log"
fi
if [[ -x "$BIN/spmv_bench" ]]; then
  # spmv_bench finds inputs/solvers/laplace2d_20.mtx itself (bundle: bin/../inputs; build tree: the sources).
  # shellcheck disable=SC2086
  step spmv_bench "$OUTDIR/spmv_bench.log" 600 "$BIN/spmv_bench" --out "$OUTDIR/spmv_bench.json" \
    --git-revision "$REV" ${RUNNER_SPMV_BENCH_ARGS:-} || status=1
  tail -n 40 "$OUTDIR/spmv_bench.log"
fi

echo "runner status: $status" | tee -a "$SUMMARY"
exit $status
