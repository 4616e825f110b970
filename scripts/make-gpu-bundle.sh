#!/usr/bin/env bash
# Build the CUDA backend, its GPU tests and the GPU stencil benchmark for sm_90 on a machine WITHOUT a
# GPU (nvcc present), and produce a self-contained, relocatable folder:
#
#   BUNDLE/bin/     the perksolve app, test_gpu_backend (+ the other test executables), stencil_bench,
#                   stencil_sweep, solver_bench, spmv_bench (--standalone: test_gpu_backend, stencil_bench,
#                   stencil_sweep only)
#   BUNDLE/lib/     the non-system shared libraries they need (Debian's Kokkos/Trilinos, fmt, HDF5, ...)
#   BUNDLE/lib/fallback/  libraries the GPU machine normally has (libmpi_cxx); the runner adds them only
#                   when the system lacks them
#   BUNDLE/inputs/  input decks (if the repository has inputs/)
#   BUNDLE/run.sh   the runner (scripts/gpu-bundle-runner.sh): run.sh OUTDIR
#   BUNDLE/MANIFEST build facts (git revision, nvcc version, date, flags)
#
# All executables and bundled libraries get RPATH $ORIGIN/../lib (resp. $ORIGIN), so the folder can be
# copied anywhere. The target needs only: the NVIDIA driver (CUDA 13 capable), glibc >= 2.36, a
# libstdc++ at least as new as the build machine's, and OpenMPI 4.x (libmpi.so.40). cudart is linked
# statically. Usage:
#
#   scripts/make-gpu-bundle.sh [--out DIR] [--build-dir DIR] [--standalone] [--with-sweep] [-j N]
#
# Default build mode ("cmake"): build the `cuda` CMake preset (whole project: app, libraries, every
# test, the GPU benchmarks) and bundle from build/cuda. --standalone instead compiles with nvcc/g++
# exactly the sources of test_gpu_backend (stencil/backend/BLAS tests only), stencil_bench and
# stencil_sweep, independent of the rest of the tree (quick kernel experiments).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/.gpubuild/bundle"
BUILD="$ROOT/.gpubuild/standalone"
MODE=cmake
JOBS=2
WITH_SWEEP=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT=$(realpath -m "$2"); shift 2 ;;
    --build-dir) BUILD=$(realpath -m "$2"); shift 2 ;;
    --cmake) MODE=cmake; shift ;;
    --standalone) MODE=standalone; shift ;;
    --with-sweep) WITH_SWEEP=1; shift ;;
    -j) JOBS="$2"; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC="$CUDA_HOME/bin/nvcc"
[[ -x "$NVCC" ]] || { echo "nvcc not found at $NVCC (set CUDA_HOME)" >&2; exit 1; }
command -v patchelf >/dev/null || { echo "patchelf missing: apt-get install -y patchelf" >&2; exit 1; }

KOKKOS_INC=${KOKKOS_INC:-/usr/include/trilinos}
MPI_CFLAGS=$(mpicxx --showme:compile)
MPI_LIBS=$(mpicxx --showme:link)
ARCH_FLAGS="-gencode=arch=compute_90,code=sm_90"
NVCC_FLAGS="-std=c++20 -O3 $ARCH_FLAGS --expt-relaxed-constexpr --compress-mode=size -Xcompiler=-fPIC -I$ROOT $MPI_CFLAGS"
CXX_FLAGS="-std=c++20 -O2 -fPIC -I$ROOT -isystem $KOKKOS_INC $MPI_CFLAGS -Wno-deprecated"

build_standalone() {
  mkdir -p "$BUILD/obj" "$BUILD/bin"
  local objs_core=() objs_cuda=() pids=()
  # name:compiler:source
  local units=(
    "stencil:cxx:framework/stencil/stencil.cpp"
    "backend:cxx:framework/backend/backend.cpp"
    "grid:cxx:framework/grid/grid.cpp"
    "kokkos_backend:cxx:framework/backends/kokkos/kokkos_backend.cpp"
    "kokkos_sparse:cxx:framework/backends/kokkos/kokkos_sparse.cpp"
    "cuda_backend:cu:framework/backends/cuda/cuda_backend.cu"
    "cuda_solver_ops:cu:framework/backends/cuda/cuda_solver_ops.cu"
    "cuda_sparse:cu:framework/backends/cuda/cuda_sparse.cu"
    "stencil_generic:cu:framework/backends/cuda/stencil_generic.cu"
    "stencil_3d_f64:cu:framework/backends/cuda/stencil_3d_f64.cu"
    "stencil_3d_f32:cu:framework/backends/cuda/stencil_3d_f32.cu"
    "stencil_2d_f64:cu:framework/backends/cuda/stencil_2d_f64.cu"
    "stencil_2d_f32:cu:framework/backends/cuda/stencil_2d_f32.cu"
    "test_gpu_backend:cxx:tests/gpu/test_gpu_backend.cpp"
    "gpu_test_main:cxx:tests/gpu/gpu_test_main.cpp"
    "stencil_bench:cu:benchmarks/gpu/stencil_bench.cu"
    "stencil_sweep:cu:benchmarks/gpu/stencil_sweep.cu"
  )
  local running=0 fail=0
  for u in "${units[@]}"; do
    IFS=: read -r name kind src <<<"$u"
    [[ -f "$ROOT/$src" ]] || { rm -f "$BUILD/obj/$name.o"; continue; }  # optional sources (tree in flux)
    local obj="$BUILD/obj/$name.o"
    if [[ -f "$obj" && "$obj" -nt "$ROOT/$src" ]] && \
       ! find "$ROOT/framework" "$ROOT/tests/gpu" "$ROOT/benchmarks/gpu" -newer "$obj" \( -name '*.hpp' -o -name '*.cuh' -o -name '*.h' \) | grep -q .; then
      continue
    fi
    echo "  compiling $src"
    if [[ $kind == cu ]]; then
      "$NVCC" $NVCC_FLAGS -c "$ROOT/$src" -o "$obj" 2> "$BUILD/obj/$name.log" &
    else
      g++ $CXX_FLAGS -c "$ROOT/$src" -o "$obj" 2> "$BUILD/obj/$name.log" &
    fi
    pids+=("$!:$name")
    running=$((running + 1))
    if (( running >= JOBS )); then
      for p in "${pids[@]}"; do wait "${p%%:*}" || { echo "FAILED: ${p#*:} (see $BUILD/obj/${p#*:}.log)"; cat "$BUILD/obj/${p#*:}.log" | grep -E "error" | head -20; fail=1; }; done
      pids=(); running=0
    fi
  done
  for p in "${pids[@]}"; do wait "${p%%:*}" || { echo "FAILED: ${p#*:}"; grep -E "error" "$BUILD/obj/${p#*:}.log" | head -20; fail=1; }; done
  (( fail == 0 )) || exit 1
  local O="$BUILD/obj"
  local CORE="$O/stencil.o $O/backend.o $O/grid.o"
  local CUDA="$O/cuda_backend.o $O/stencil_generic.o $O/stencil_3d_f64.o $O/stencil_3d_f32.o $O/stencil_2d_f64.o $O/stencil_2d_f32.o"
  local CUDART="-L$CUDA_HOME/lib64 -lcudart_static -ldl -lrt -lpthread"
  # Optional backend units (present in newer trees): CG/multigrid kernels, CSR SpMV (+ cuSPARSE).
  [[ -f "$O/cuda_solver_ops.o" ]] && CUDA="$CUDA $O/cuda_solver_ops.o"
  if [[ -f "$O/cuda_sparse.o" ]]; then CUDA="$CUDA $O/cuda_sparse.o"; CUDART="-L$CUDA_HOME/lib64 -lcusparse $CUDART"; fi
  echo "  linking"
  local KOBJ="$O/kokkos_backend.o"
  [[ -f "$O/kokkos_sparse.o" ]] && KOBJ="$KOBJ $O/kokkos_sparse.o"
  g++ -o "$BUILD/bin/test_gpu_backend" "$O/test_gpu_backend.o" "$O/gpu_test_main.o" $CUDA $CORE $KOBJ \
      $CUDART -Wl,--as-needed -ltrilinos_kokkoskernels -ltrilinos_kokkoscontainers -ltrilinos_kokkoscore -lgtest $MPI_LIBS
  g++ -o "$BUILD/bin/stencil_bench" "$O/stencil_bench.o" $CUDA $CORE $CUDART -Wl,--as-needed $MPI_LIBS
  BINS=("$BUILD/bin/test_gpu_backend" "$BUILD/bin/stencil_bench")
  if [[ -f "$O/stencil_sweep.o" ]]; then  # kernel tuning sweep (benchmarks/gpu/stencil_sweep.cu)
    g++ -o "$BUILD/bin/stencil_sweep" "$O/stencil_sweep.o" "$O/stencil.o" $CUDART
    BINS+=("$BUILD/bin/stencil_sweep")
  fi
}

build_cmake() {
  (cd "$ROOT" && cmake --preset cuda >/dev/null && cmake --build --preset cuda -j "$JOBS")
  local B="$ROOT/build/cuda"
  BINS=()
  # The tuning sweep is not part of the default build (minutes of nvcc for many kernel variants).
  if [[ $WITH_SWEEP == 1 ]]; then (cd "$ROOT" && cmake --build --preset cuda -j "$JOBS" --target stencil_sweep); fi
  # (Only with --with-sweep: a stencil_sweep left in the build tree by an earlier build may not match this revision.)
  local exes=(test_gpu_backend stencil_bench solver_bench spmv_bench program_bench perks_bench cg_bench l2_partition_probe perksolve)
  [[ $WITH_SWEEP == 1 ]] && exes+=(stencil_sweep)
  for exe in "${exes[@]}"; do
    local f
    f=$(find "$B" -type f -name "$exe" -perm -u+x | head -1)
    [[ -n "$f" ]] && BINS+=("$f")
  done
  # Every other test executable too (the CPU suite runs on the GPU machine as well).
  while IFS= read -r f; do BINS+=("$f"); done < <(find "$B/tests" -type f -name 'test_*' -perm -u+x 2>/dev/null | grep -v test_gpu_backend || true)
}

echo "== building ($MODE) for sm_90"
BINS=()
if [[ $MODE == cmake ]]; then build_cmake; else build_standalone; fi

echo "== assembling $OUT"
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/lib/fallback" "$OUT/inputs"
for b in "${BINS[@]}"; do cp "$b" "$OUT/bin/"; done

# Libraries present on the GPU machine (Ubuntu 24.04 base + CUDA driver + OpenMPI 4.1.6): never bundle.
is_system_lib() {
  case "$1" in
    linux-vdso*|ld-linux*|libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libstdc++.so*|libgcc_s.so*|\
    libcuda.so*|libnvidia*|libz.so*|libudev.so*|libmpi.so*|libopen-pal.so*|libopen-rte.so*|libhwloc.so*|\
    libevent*|libutil.so*|libresolv.so*|libnl-*|libibverbs*|librdmacm*|libpsm*|libfabric*|libucp*|libucs*|libuct*|\
    libpmix*|libmunge*|libcap.so*|libsystemd*|liblzma*|libzstd*|libgcrypt*|libgpg-error*|liblz4*|libcrypto*|libssl*|\
    libxml2*|libicu*|libnuma*|libcusparse.so*|libnvJitLink.so*|libcublas*.so*) return 0 ;;
  esac
  return 1
}
# Present on Ubuntu 24.04's OpenMPI 4.1.6 as well, but bundled as a fallback in case it is missing.
is_fallback_lib() { case "$1" in libmpi_cxx.so*) return 0 ;; esac; return 1; }

declare -A SEEN=()
collect() {  # collect the non-system dependencies of one ELF file, recursively
  local f=$1 line name path
  while IFS= read -r line; do
    name=$(awk '{print $1}' <<<"$line")
    path=$(awk '$2=="=>"{print $3}' <<<"$line")
    [[ -z "$path" || "$path" == "not" || ! -f "$path" ]] && continue
    [[ -n "${SEEN[$name]:-}" ]] && continue
    SEEN[$name]=1
    if is_system_lib "$name"; then continue; fi
    if is_fallback_lib "$name"; then cp -L "$path" "$OUT/lib/fallback/$name"; continue; fi
    cp -L "$path" "$OUT/lib/$name"
    collect "$path"
  done < <(ldd "$f" 2>/dev/null)
}
for b in "$OUT"/bin/*; do collect "$b"; done
# Libraries built by the project itself (cmake mode): libperksolve*.so
if [[ $MODE == cmake ]]; then
  find "$ROOT/build/cuda" -name 'libperksolve*.so*' -exec cp -P {} "$OUT/lib/" \;
fi

for b in "$OUT"/bin/*; do patchelf --set-rpath '$ORIGIN/../lib' "$b"; strip --strip-unneeded "$b" 2>/dev/null || true; done
for l in "$OUT"/lib/*.so* "$OUT"/lib/fallback/*.so*; do
  [[ -f "$l" && ! -L "$l" ]] || continue
  patchelf --set-rpath '$ORIGIN' "$l"
  strip --strip-unneeded "$l" 2>/dev/null || true
done

[[ -d "$ROOT/inputs" ]] && cp -r "$ROOT/inputs/." "$OUT/inputs/" || true
cp "$ROOT/scripts/gpu-bundle-runner.sh" "$OUT/run.sh"
chmod +x "$OUT/run.sh"

REV=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo "uncommitted")
DIRTY=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
{
  if (( DIRTY > 0 )); then echo "git_revision=$REV (+$DIRTY uncommitted paths)"; else echo "git_revision=$REV"; fi
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "mode=$MODE"
  echo "nvcc=$("$NVCC" --version | tail -1)"
  echo "arch=$ARCH_FLAGS"
  echo "glibc_build=$(ldd --version | head -1)"
  echo "bins=$(cd "$OUT/bin" && echo *)"
  echo "libs=$(cd "$OUT/lib" && ls | tr '\n' ' ')"
} > "$OUT/MANIFEST"
if (( DIRTY > 0 )); then echo "$REV+dirty" > "$OUT/REVISION"; else echo "$REV" > "$OUT/REVISION"; fi

SIZE=$(du -sm "$OUT" | cut -f1)
echo "== bundle: $OUT (${SIZE} MB)"
cat "$OUT/MANIFEST"
if (( SIZE >= 60 )); then echo "ERROR: bundle is ${SIZE} MB (limit 60 MB)" >&2; exit 1; fi
