// One row block of the stream CSR SpMV (CSR-adaptive, Greathouse & Daga), as a device function shared by the
// operation loop's SpMV kernel (cuda_sparse.cu) and the persistent CG's row-block walk (persistent_cg_rows.cu):
// the same products added in the same order, so both give the same bits. Not installed; .cu files only.
#pragma once

#include <cuda_runtime.h>

#include "framework/backends/cuda/cuda_csr.cuh"

namespace perksolve::cuda_ops {

// Rows [r0, r1) whose entries [rp[r0], rp[r1]) are contiguous, summed by a block of NT threads:
//   - at most kStreamNnz entries: every thread streams products (product(e) = v[e] * x[col[e]]) into `prod`
//     (shared, kStreamNnz values), then a group of G lanes per row sums them (G the largest power of two <= 32
//     with G * rows <= NT: more lanes when the block holds few, long rows);
//   - one longer row: per-thread strided partial sums, then a tree in `prod` (fixed order).
// sink(r, sum) is called once per row, by one thread. The caller puts a block barrier between two calls that
// share `prod`.
template <int NT, class Real, class Product, class Sink>
__device__ __forceinline__ void csr_stream_rows(int r0, int r1, const int* __restrict__ rp, Real* prod, Product product,
                                                Sink sink) {
  const int e0 = rp[r0], e1 = rp[r1];
  if (e1 - e0 <= kStreamNnz) {
#pragma unroll 4
    for (int e = e0 + static_cast<int>(threadIdx.x); e < e1; e += NT) prod[e - e0] = product(e);
    __syncthreads();
    const int nrows = r1 - r0;
    int G = 1;
    while (G < 32 && 2 * G * nrows <= NT) G *= 2;
    const int grp = static_cast<int>(threadIdx.x) / G, lane = static_cast<int>(threadIdx.x) % G;
    for (int base = 0; base < nrows; base += NT / G) {  // block-uniform trip count (shuffles)
      const int r = r0 + base + grp;
      Real acc = 0;
      if (r < r1) {
        const int end = rp[r + 1] - e0;
        for (int k = rp[r] - e0 + lane; k < end; k += G) acc += prod[k];
      }
      for (int o = G / 2; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o, G);
      if (lane == 0 && r < r1) sink(r, acc);
    }
  } else {  // one long row
    Real acc = 0;
    for (int e = e0 + static_cast<int>(threadIdx.x); e < e1; e += NT) acc += product(e);
    prod[threadIdx.x] = acc;
    __syncthreads();
    for (int o = NT / 2; o > 0; o >>= 1) {
      if (static_cast<int>(threadIdx.x) < o) prod[threadIdx.x] += prod[threadIdx.x + o];
      __syncthreads();
    }
    if (threadIdx.x == 0) sink(r0, prod[0]);
  }
}

}  // namespace perksolve::cuda_ops
