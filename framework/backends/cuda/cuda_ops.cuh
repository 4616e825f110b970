// Device helpers shared by the solver-kernel translation units of the CUDA backend
// (cuda_solver_ops.cu, cuda_sparse.cu). Not installed; include only from .cu files.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/util/fast_div.hpp"

namespace perksolve::cuda_ops {

constexpr int kThreads = 256;

// a x + b y with one explicit rounding order, shared by every kernel that must agree with axpby bit for bit
// (axpby itself, and cg_advance's fused pair of axpbys).
template <class Real>
__device__ __forceinline__ Real axpby_value(Real a, Real x, Real b, Real y) {
  return fma(a, x, b * y);
}

// Owned cell e (x fastest) -> linear index in the padded allocation.
struct OwnedMap {
  int nx, ny;
  long sy, sz, origin;
  FastDivU32 div_nx, div_ny;
  bool fast;  // every e < 2^32 (the 32-bit divisions apply)
  __device__ __forceinline__ long operator()(long e) const {
    long row, k;
    if (fast) {
      const unsigned r = div_nx.div(static_cast<unsigned>(e));
      row = r;
      k = div_ny.div(r);
    } else {
      row = e / nx;
      k = row / ny;
    }
    const int i = static_cast<int>(e - row * nx);
    const long j = row - k * ny;
    return origin + i + j * sy + k * sz;
  }
  // Local (i, j, k) of owned cell e.
  __device__ __forceinline__ void ijk(long e, int& i, int& j, int& k) const {
    long row, kk;
    if (fast) {
      const unsigned r = div_nx.div(static_cast<unsigned>(e));
      row = r;
      kk = div_ny.div(r);
    } else {
      row = e / nx;
      kk = row / ny;
    }
    i = static_cast<int>(e - row * nx);
    j = static_cast<int>(row - kk * ny);
    k = static_cast<int>(kk);
  }
};

inline OwnedMap owned_map(const FieldLayout& l) {
  return OwnedMap{l.n[0],
                  l.n[1],
                  l.stride_y(),
                  l.stride_z(),
                  l.index(0, 0, 0),
                  FastDivU32(static_cast<unsigned>(l.n[0])),
                  FastDivU32(static_cast<unsigned>(l.n[1])),
                  l.owned_size() <= 0xffffffffL};
}

// True for page-locked host memory (cudaMallocHost / registered), false for pageable memory.
inline bool is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

// Grid-stride loop size: enough blocks to fill the GPU, never more than the work needs.
inline int grid_for(long n, int sm_count) {
  const long want = (n + kThreads - 1) / kThreads;
  return static_cast<int>(std::max(1L, std::min<long>(want, 32L * sm_count)));
}

// Launch shape for kernels that need (i, j, k): x threads along i, grid.y strides over rows (j, k).
struct RowLaunch {
  dim3 grid, block;
};
constexpr int kRowThreads = 128;
inline RowLaunch row_launch(const FieldLayout& l) {
  const long rows = static_cast<long>(l.n[1]) * l.n[2];
  RowLaunch r;
  r.block = dim3(kRowThreads, 1, 1);
  r.grid = dim3(static_cast<unsigned>((l.n[0] + kRowThreads - 1) / kRowThreads),
                static_cast<unsigned>(std::max(1L, std::min<long>(rows, 65535L))), 1);
  return r;
}

// Sum of one double over the block, written to out[blockIdx.x] (blockDim.x == kThreads, or any
// multiple of 32 up to kThreads).
__device__ __forceinline__ double block_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  __shared__ double warp_vals[kThreads / 32];
  const int nthreads = blockDim.x * blockDim.y;
  const int t = threadIdx.x + threadIdx.y * blockDim.x;
  __syncthreads();  // warp_vals reuse across calls
  if ((t & 31) == 0) warp_vals[t >> 5] = v;
  __syncthreads();
  double s = 0.0;
  if (t == 0) {
    s = warp_vals[0];
    for (int w = 1; w < nthreads / 32; ++w) s += warp_vals[w];
  }
  return s;  // valid in thread 0
}

template <class Real>
const CudaField<Real>& as_cuda(const Field<Real>& f) {
  if (f.backend_name() != "cuda")
    throw std::logic_error("cuda backend was handed a field of backend '" + std::string(f.backend_name()) + "'");
  return static_cast<const CudaField<Real>&>(f);
}
template <class Real>
CudaField<Real>& as_cuda(Field<Real>& f) {
  return const_cast<CudaField<Real>&>(as_cuda(static_cast<const Field<Real>&>(f)));
}

inline void require_same_layout(const FieldLayout& a, const FieldLayout& b, const char* op) {
  if (!(a == b)) throw std::logic_error(std::string("cuda backend: fields of different layouts passed to ") + op);
}

}  // namespace perksolve::cuda_ops
