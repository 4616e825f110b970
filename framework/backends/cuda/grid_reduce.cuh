// Device-wide sums inside persistent (cooperative) kernels: each block stores its partial, and after a device
// barrier every block reads all partials back in the same order, so every block holds the same bits and takes
// the same decisions (stop tests, CG's alpha and beta). Used by the PERKS stencil kernels, the CSR persistent CG
// and the matrix-free persistent CG. Not installed; include only from .cu / .cuh files.
#pragma once

#include <cuda_runtime.h>

namespace perksolve::cuda_detail {

// The block's sum (fixed order: shuffles within warps, then warp 0's sums in warp order) into
// partials[blockIdx.x], written by thread 0.
template <int NT>
__device__ __forceinline__ void store_block_partial(double* partials, double v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  __shared__ double warp_sums[(NT + 31) / 32];
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double s = 0.0;
    for (int w = 0; w < (NT + 31) / 32; ++w) s += warp_sums[w];
    partials[blockIdx.x] = s;
  }
}

// The sum of part[0 .. gridDim.x), called by every thread of every block after the device barrier that follows
// the stores: warp 0 reads the partials 32 at a time (__ldcg: other blocks rewrite them between barriers) and
// reduces by shuffles, the same order in every block; `slot` (shared) hands the total to the block. The caller
// must not rewrite `slot` before every thread has read the result (the next block or device barrier does it).
// One thread summing the partials serially waited one L2 latency per block: with 264 blocks that was ~80 us per
// CG iteration (H200, docs/perf/persistent-cg.md).
__device__ __forceinline__ double grid_partials_total(const double* part, double* slot) {
  if (threadIdx.x < 32) {
    double s = 0.0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += 32) s += __ldcg(part + b);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) *slot = s;
  }
  __syncthreads();
  return *slot;
}

// The sum of v over the NT threads of a block in a fixed order (shuffles within each warp, then the warps' sums, in warp
// order, by warp 0's shuffles), returned to every thread through `slot`. `warp_sums` (NT / 32 doubles) and `slot` are
// shared; rewrite them only after the next block or device barrier. (A separate slot, not warp_sums[NT / 32]: with the
// one array ptxas spilled 16 more bytes of the row-block CG kernel's loop state.)
template <int NT>
__device__ __forceinline__ double block_total(double v, double* warp_sums, double* slot) {
  constexpr int kWarps = NT / 32;
  static_assert(NT % 32 == 0 && kWarps <= 32, "whole warps, at most 32");
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    double s = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0.0;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) *slot = s;
  }
  __syncthreads();
  return *slot;
}

// The total of grid_partials_total with every thread of an NT-thread block reading partials (t, t + NT, ...), then
// block_total: one L2 round trip per NT partials instead of one per 32. Every block adds in the same order, so all
// hold the same bits (not those of grid_partials_total). `warp_sums` and `slot` as for block_total.
template <int NT>
__device__ __forceinline__ double grid_partials_total_wide(const double* part, double* warp_sums, double* slot) {
  double s = 0.0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += NT) s += __ldcg(part + b);
  return block_total<NT>(s, warp_sums, slot);
}

}  // namespace perksolve::cuda_detail
