// Internal helpers of the CUDA backend (error checks, the stencil launch request shared between the
// backend TU and the per-precision kernel TUs). Not installed; include only from .cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "framework/backends/cuda/stream_schedule.hpp"
#include "framework/field/field_layout.hpp"
#include "framework/stencil/stencil.hpp"

namespace perksolve::cuda_detail {

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                             "): " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

#define PERKSOLVE_CUDA_CHECK(expr) ::perksolve::cuda_detail::check((expr), #expr, __FILE__, __LINE__)
#define PERKSOLVE_CUDA_CHECK_LAUNCH(name) ::perksolve::cuda_detail::check(cudaGetLastError(), name, __FILE__, __LINE__)

// ---- programmatic dependent launch (sm_90) ----------------------------------------------------------------
// A kernel launched by pdl_launch may start its blocks while the kernel before it in the stream is finishing (the
// tail of one short kernel overlaps the start of the next: the multigrid cycle's coarse levels are chains of them).
// Such a kernel must call pdl_enter() first: it waits until the previous kernel has completed and its writes are
// visible, then lets the next kernel start its blocks. A kernel whose successor should start only as its blocks exit
// calls pdl_wait() alone (the boundary-faces kernel: PERKSOLVE_CUDA_PDL_FACES). Launched any other way, they do
// nothing.
// The chains: the multigrid cycle (pair, transfers, faces, copy_boxes, CSR) and CG's own kernels (streaming stencil,
// point-wise updates, dot products and their finishing kernel). PERKSOLVE_CUDA_PDL=0 launches normally (the same
// results; for comparison).
// Its two halves: wait for the previous kernel (and its writes); let the next kernel start its blocks (without it, the
// next kernel's blocks start as this kernel's blocks exit).
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_release_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_enter() {
  pdl_wait();
  pdl_release_dependents();
}
bool pdl_enabled();  // cuda_backend.cu: PERKSOLVE_CUDA_PDL (default on)
// The device clock shared by all SMs (ns; the persistent kernels' traces compare blocks on different SMs with it).
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
template <class... Params, class... Args>
void pdl_launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                Args&&... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = pdl_enabled() ? 1 : 0;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  PERKSOLVE_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...));
}

// Per-block partial sums of a fused reduction never exceed this many blocks.
constexpr int kMaxPartials = 1 << 16;

// Every device field allocation is this many bytes longer than its layout: the bulk (TMA) stencil loads
// copy whole 16-byte units and may read up to 15 bytes past the last element of the layout.
constexpr std::size_t kFieldSlackBytes = 64;

// apply: out = S x | residual: out = b - S x | jacobi: out = x + scale (b - S x), sum of (b - S x)^2 |
// apply_dot: out = S x and the sum of x * out over the outputs (CG's q = A p with p.q; persistent CG only).
enum class StencilMode : int { apply = 0, residual = 1, jacobi = 2, apply_dot = 3 };
// Whether a mode reads b (the tile configuration stages it).
constexpr bool stencil_mode_has_b(int mode) {
  return mode == static_cast<int>(StencilMode::residual) || mode == static_cast<int>(StencilMode::jacobi);
}

template <class Real>
struct StencilRequest {
  const Stencil* stencil = nullptr;
  FieldLayout layout;
  const Real* x = nullptr;  // allocation base (element index(-g,-g,-g))
  const Real* b = nullptr;  // residual / jacobi
  Real* out = nullptr;
  Real scale = 0;           // jacobi: omega / centre
  double* partials = nullptr;
  unsigned* work_counters = nullptr;  // two zeroed device counters (dynamic work distribution), or null
  int sm_count = 1;
  cudaStream_t stream = nullptr;
  bool symmetric = false;  // coefficients are mirror-symmetric (CSE variant allowed)
  bool wide_tiles = true;  // false: the exact K&D two-load tile (one output per thread and plane)
  bool fast_memory = false;  // the large tier takes its fast-memory variant (perks_fast_memory in perks_model.hpp)
  // Dynamic schedules end in chunks this many times shorter (plan_stream_tail in stream_schedule.hpp); 0: equal
  // chunks. PERKSOLVE_CUDA_STREAM_TAIL overrides it in the backend.
  int schedule_tail = kStreamTailDiv;
};

// Launchers implemented in the per-(dim, precision) translation units. They return the number of
// per-block partial sums written (jacobi) or 0, and -1 when the shape is not compiled in.
template <class Real>
int launch_templated_stencil_3d(const StencilRequest<Real>& r, StencilMode mode, bool* used_symmetric);
template <class Real>
int launch_templated_stencil_2d(const StencilRequest<Real>& r, StencilMode mode);
template <class Real>
int launch_generic_stencil(const StencilRequest<Real>& r, StencilMode mode);
// Two Jacobi sweeps in one pass (jacobi_pair.cu): whether the shape has a pair kernel that fits the layout, and the
// launch (s1, s2 = omega / a_centre; zero: from x = 0; residual: also b - A out there, from zero only, the allocation
// base of a field of the same layout; dot: the blocks' partial sums of b . out there, from x only; throws
// std::logic_error where none is available). Returns the block count (the partials of dot), or -1 when dot needs more
// blocks than kMaxPartials (nothing launched).
template <class Real>
bool jacobi_pair_available(const ShapeSpec& s, const FieldLayout& l);
template <class Real>
long launch_jacobi_pair(const StencilRequest<Real>& r, Real s1, Real s2, bool zero, Real* residual = nullptr,
                        double* dot = nullptr);

// A vector of N elements of Real for one load or store of up to 16 bytes, and its elements into an array.
template <class Real, int N>
struct VecOfT;
template <> struct VecOfT<double, 2> { using type = double2; };
template <> struct VecOfT<float, 2> { using type = float2; };
template <> struct VecOfT<float, 4> { using type = float4; };
template <class Real, int N>
using VecOf = typename VecOfT<Real, N>::type;
__device__ __forceinline__ void vec_to_array(double2 t, double* w) { w[0] = t.x, w[1] = t.y; }
__device__ __forceinline__ void vec_to_array(float2 t, float* w) { w[0] = t.x, w[1] = t.y; }
__device__ __forceinline__ void vec_to_array(float4 t, float* w) { w[0] = t.x, w[1] = t.y, w[2] = t.z, w[3] = t.w; }
// The N elements of w stored as one vector at p (aligned to N elements).
template <int N>
__device__ __forceinline__ void store_vec(double* p, const double (&w)[N]) {
  static_assert(N == 2);
  *reinterpret_cast<double2*>(p) = make_double2(w[0], w[1]);
}
template <int N>
__device__ __forceinline__ void store_vec(float* p, const float (&w)[N]) {
  if constexpr (N == 2) *reinterpret_cast<float2*>(p) = make_float2(w[0], w[1]);
  else *reinterpret_cast<float4*>(p) = make_float4(w[0], w[1], w[2], w[3]);
}

}  // namespace perksolve::cuda_detail
