// Generic stencil kernel: any shape, one output point per thread, offsets and coefficients read from
// constant memory. Used for shapes that are not compiled as templates (and by tests as a cross-check).
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "framework/backends/cuda/cuda_common.cuh"

namespace perksolve::cuda_detail {
namespace {

constexpr int kMaxGenericPoints = 512;
__constant__ long c_offsets[kMaxGenericPoints];
__constant__ double c_coeffs_f64[kMaxGenericPoints];
__constant__ float c_coeffs_f32[kMaxGenericPoints];

template <class Real>
__device__ __forceinline__ Real coeff(int p) {
  if constexpr (sizeof(Real) == 8) return c_coeffs_f64[p];
  else return c_coeffs_f32[p];
}

template <class Real, int MODE>
__global__ void __launch_bounds__(256) generic_stencil_kernel(const Real* __restrict__ x, const Real* __restrict__ b,
                                                              Real* __restrict__ out, FieldLayout l, int np,
                                                              Real scale, double* partials) {
  const long total = l.owned_size();
  const int nx = l.n[0], ny = l.n[1];
  const long sy = l.stride_y(), sz = l.stride_z();
  const long origin = l.index(0, 0, 0);
  double rsum = 0.0;
  for (long e = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<long>(gridDim.x) * blockDim.x) {
    const long row = e / nx;
    const int i = static_cast<int>(e - row * nx);
    const int k = static_cast<int>(row / ny);
    const int j = static_cast<int>(row - static_cast<long>(k) * ny);
    const long n = origin + i + j * sy + k * sz;
    Real acc = 0;
    for (int p = 0; p < np; ++p) acc += coeff<Real>(p) * x[n + c_offsets[p]];
    if constexpr (MODE == 0) {
      out[n] = acc;
    } else {
      const Real r = b[n] - acc;
      if constexpr (MODE == 1) {
        out[n] = r;
      } else {
        out[n] = x[n] + scale * r;
        rsum += static_cast<double>(r) * static_cast<double>(r);
      }
    }
  }
  if constexpr (MODE == 2) {
    for (int o = 16; o > 0; o >>= 1) rsum += __shfl_down_sync(0xffffffffu, rsum, o);
    __shared__ double warp_sums[8];
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = rsum;
    __syncthreads();
    if (threadIdx.x == 0) {
      double s = 0.0;
      for (int w = 0; w < 8; ++w) s += warp_sums[w];
      partials[blockIdx.x] = s;
    }
  }
}

}  // namespace

template <class Real>
int launch_generic_stencil(const StencilRequest<Real>& r, StencilMode mode) {
  const Stencil& s = *r.stencil;
  if (s.size() > kMaxGenericPoints)
    throw std::runtime_error("cuda backend: stencil '" + s.name + "' has more than " +
                             std::to_string(kMaxGenericPoints) + " points");
  const FieldLayout& l = r.layout;
  std::vector<long> off(s.size());
  std::vector<Real> cf(s.size());
  for (int p = 0; p < s.size(); ++p) {
    off[p] = s.offsets[p].dx + s.offsets[p].dy * l.stride_y() + s.offsets[p].dz * l.stride_z();
    cf[p] = static_cast<Real>(s.coeffs[p]);
  }
  // Stream-ordered updates of the constant bank (the previous launch has read its copy already).
  PERKSOLVE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_offsets, off.data(), off.size() * sizeof(long), 0,
                                               cudaMemcpyHostToDevice, r.stream));
  if constexpr (sizeof(Real) == 8)
    PERKSOLVE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_coeffs_f64, cf.data(), cf.size() * sizeof(Real), 0,
                                                 cudaMemcpyHostToDevice, r.stream));
  else
    PERKSOLVE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_coeffs_f32, cf.data(), cf.size() * sizeof(Real), 0,
                                                 cudaMemcpyHostToDevice, r.stream));
  // The async copies read pageable host vectors: cudaMemcpyToSymbolAsync stages them before returning.
  const long total = l.owned_size();
  if (total <= 0) return 0;
  const long want = (total + 255) / 256;
  const int blocks = static_cast<int>(std::min<long>(want, std::min<long>(kMaxPartials, 16L * r.sm_count)));
  switch (mode) {
    case StencilMode::apply:
      generic_stencil_kernel<Real, 0><<<blocks, 256, 0, r.stream>>>(r.x, r.b, r.out, l, s.size(), r.scale, r.partials);
      break;
    case StencilMode::residual:
      generic_stencil_kernel<Real, 1><<<blocks, 256, 0, r.stream>>>(r.x, r.b, r.out, l, s.size(), r.scale, r.partials);
      break;
    case StencilMode::jacobi:
      generic_stencil_kernel<Real, 2><<<blocks, 256, 0, r.stream>>>(r.x, r.b, r.out, l, s.size(), r.scale, r.partials);
      break;
  }
  PERKSOLVE_CUDA_CHECK_LAUNCH("generic_stencil_kernel");
  return mode == StencilMode::jacobi ? blocks : 0;
}

template int launch_generic_stencil<float>(const StencilRequest<float>&, StencilMode);
template int launch_generic_stencil<double>(const StencilRequest<double>&, StencilMode);

}  // namespace perksolve::cuda_detail
