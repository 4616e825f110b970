#!/usr/bin/env bash
# Build the CUDA backend, its GPU tests and the GPU stencil benchmark for sm_90 on a machine WITHOUT a
# GPU (nvcc present), and produce a self-contained, relocatable folder:
#
#   BUNDLE/bin/     the perksolve app, test_gpu_backend, stencil_bench, solver_bench, spmv_bench, perks_bench,
#                   cg_bench, program_bench, l2_partition_probe (--with-sweep: stencil_sweep; --with-cpu-tests: the
#                   CPU test executables, test_unit, test_config, ...)
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
#   scripts/make-gpu-bundle.sh [--out DIR] [--with-sweep] [--with-cpu-tests] [-j N]
#
# It builds the `cuda` CMake preset (whole project: app, libraries, every test, the GPU benchmarks) and
# bundles from build/cuda; --with-sweep also builds the kernel tuning sweep (benchmarks/gpu/stencil_sweep.cu).
# (The bundle must stay below 60 MB; with the developer's extras, the sweep or the CPU tests, which CI runs on the
# build machine anyway, it may exceed that, with a warning. .ci/run checks the plain bundle's size.)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/.gpubuild/bundle"
JOBS=2
WITH_SWEEP=0
WITH_CPU_TESTS=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT=$(realpath -m "$2"); shift 2 ;;
    --with-sweep) WITH_SWEEP=1; shift ;;
    --with-cpu-tests) WITH_CPU_TESTS=1; shift ;;
    -j) JOBS="$2"; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC="$CUDA_HOME/bin/nvcc"
[[ -x "$NVCC" ]] || { echo "nvcc not found at $NVCC (set CUDA_HOME)" >&2; exit 1; }
command -v patchelf >/dev/null || { echo "patchelf missing: apt-get install -y patchelf" >&2; exit 1; }

ARCH_FLAGS="-gencode=arch=compute_90,code=sm_90"

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
  # --with-cpu-tests: every other test executable too (the CPU suite on the GPU machine; 4-5 MB).
  if [[ $WITH_CPU_TESTS == 1 ]]; then
    while IFS= read -r f; do BINS+=("$f"); done < <(find "$B/tests" -type f -name 'test_*' -perm -u+x 2>/dev/null | grep -v test_gpu_backend || true)
  fi
}

echo "== building for sm_90"
BINS=()
build_cmake

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
# Libraries built by the project itself: libperksolve*.so
find "$ROOT/build/cuda" -name 'libperksolve*.so*' -exec cp -P {} "$OUT/lib/" \;

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
# The bundle users copy must stay below 60 MB (issue 5); the sweep and the CPU tests are a developer's extras on top.
if (( SIZE >= 60 )); then
  if [[ $WITH_SWEEP == 1 || $WITH_CPU_TESTS == 1 ]]; then
    echo "warning: bundle is ${SIZE} MB with the developer's extras (limit 60 MB without them)" >&2
  else echo "ERROR: bundle is ${SIZE} MB (limit 60 MB)" >&2; exit 1; fi
fi
