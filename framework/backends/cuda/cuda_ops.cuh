// Device helpers shared by the solver-kernel translation units of the CUDA backend
// (cuda_solver_ops.cu, cuda_sparse.cu). Not installed; include only from .cu files.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/row_walk.hpp"
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

// ---- point-wise kernels walked by owned rows ---------------------------------------------------------
// The owned cells of a row (fixed j, k) are contiguous in the allocation. A warp takes one row (or segment, below) at a time
// (one division per row, none per cell) and its lanes take the row's cells in batches of U per lane, U
// loads of every operand in flight before any store: 32 U consecutive cells per batch, each warp-wide access
// one coalesced run. (The grid-stride loop over owned cells before it decoded every cell with two
// multiply-high divisions and kept one load per operand in flight: 2.7 TB/s on an H200 whose copy reaches
// 4.2; docs/perf/pcg-mg-work-units.md.)
// Rows longer than the warps can share are cut into segments (a vector layout, e.g. an assembled matrix's, is
// ONE row of n cells; walked by one warp, a CG iteration operation by operation on a 2 M-row matrix took 27.8 ms
// instead of 0.16 ms on an H200): a row is
// cut when the layout has fewer than kRowWorkItems rows, into segments of whole multiples of kRowSegmentCells
// (a multiple of 32 U for every U <= 32: the batches of a segment are those of the uncut row).
constexpr long kRowWorkItems = 8192;
constexpr int kRowSegmentCells = 1024;

struct OwnedRows {
  int nx, ny;
  long sy, sz, origin;
  FastDivU32 div_ny;
  bool fast;  // ny nz < 2^32
  int seg_len;  // cells per segment of a row (nx: rows are not cut)
  int segs;     // segments per row
  long items;   // rows x segs: the work items the warps share
  // Index of the first owned cell of row r, and the row's (j, k).
  __device__ __forceinline__ long start(long r, int& j, int& k) const {
    const long kk = fast ? static_cast<long>(div_ny.div(static_cast<unsigned>(r))) : r / ny;
    j = static_cast<int>(r - kk * ny);
    k = static_cast<int>(kk);
    return origin + j * sy + kk * sz;
  }
};

inline OwnedRows owned_rows(const FieldLayout& l) {
  const long rows = static_cast<long>(l.n[1]) * l.n[2];
  const int nx = l.n[0];
  int seg_len = nx, segs = 1;
  if (rows > 0 && rows < kRowWorkItems && nx > kRowSegmentCells) {
    const long want = (kRowWorkItems + rows - 1) / rows;  // segments per row
    const long len = (nx + want - 1) / want;
    seg_len = static_cast<int>(std::max<long>(kRowSegmentCells, (len + kRowSegmentCells - 1) / kRowSegmentCells * kRowSegmentCells));
    segs = static_cast<int>((nx + seg_len - 1) / seg_len);
  }
  return OwnedRows{nx, l.n[1], l.stride_y(), l.stride_z(), l.index(0, 0, 0),
                   FastDivU32(static_cast<unsigned>(l.n[1])), rows <= 0xffffffffL, seg_len, segs, rows * segs};
}

// Cells per lane and batch: 32 bytes of every operand per lane in flight.
template <class Real>
constexpr int row_batch() {
  return 32 / static_cast<int>(sizeof(Real));
}

// Blocks of kThreads for a row walk: one warp per row up to one wave of kRowBlocksPerSm resident blocks per SM
// (the row kernels promise it in __launch_bounds__: at most 64 registers), then each warp loops over rows
// (dealt round-robin). Reductions write one partial per block.
constexpr int kRowBlocksPerSm = 4;
inline int rows_grid(const OwnedRows& m, int sm_count) {
  const long warps_per_block = kThreads / 32;
  const long want = (m.items + warps_per_block - 1) / warps_per_block;
  return static_cast<int>(std::max(1L, std::min<long>(want, static_cast<long>(kRowBlocksPerSm) * sm_count)));
}

// Calls body(b, batch, i0, j, k) for every batch of every owned row segment this warp takes (row_walk.hpp): the
// batch's cells are i = i0 + batch.offset(u) (u < U) of row (j, k), at allocation index b + batch.offset(u), where
// batch.live(u). The body loads every operand of the U cells, then stores. (One base index and offsets known at
// compile time but for u = 0: an array of U indices per batch made the four-operand kernels spill in fp64.)
// The walk itself: seg(s, i_begin, i_end, j, k) for every owned row segment this warp takes (cells i_begin .. i_end - 1
// of row (j, k); s = the allocation index of the row's cell 0).
template <class Seg>
__device__ __forceinline__ void for_owned_row_segments(const OwnedRows& m, Seg&& seg) {
  const long nwarps = static_cast<long>(gridDim.x) * (blockDim.x >> 5);
  for (long w = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w < m.items; w += nwarps) {
    const long r = m.segs == 1 ? w : w / m.segs;
    const int i_begin = static_cast<int>(w - r * m.segs) * m.seg_len;
    const int i_end = min(m.nx, i_begin + m.seg_len);
    int j, k;
    const long s = m.start(r, j, k);
    seg(s, i_begin, i_end, j, k);
  }
}

template <int U, class Body>
__device__ __forceinline__ void for_owned_row_batches(const OwnedRows& m, Body&& body) {
  static_assert(kRowSegmentCells % (32 * U) == 0, "a segment holds whole batches");
  const int lane = static_cast<int>(threadIdx.x & 31);
  for_owned_row_segments(m, [&](long s, int i_begin, int i_end, int j, int k) {
    const RowWalk walk = row_walk(s, i_begin, i_end, 32 * U, 1);
    for (int p = walk.first + lane; p < walk.first + walk.span; p += 32 * U) body(s + p, walk.batch(p), p, j, k);
  });
}

// The same walk with G contiguous cells per lane: body(b, live, i0, j, k) for every run of a row segment this warp
// takes, cells i0 .. i0 + live - 1 (live <= G; i0 - the segment's start a multiple of G) of row (j, k) at allocation
// index b onwards, walked as row_walk.hpp says (from the line at or below the segment's start as far as runs of G
// allow; a run that would lie before the start takes the one a span further).
template <int G, class Body>
__device__ __forceinline__ void for_owned_row_runs(const OwnedRows& m, Body&& body) {
  static_assert(kRowSegmentCells % (32 * G) == 0, "a segment holds whole runs");
  const int lane = static_cast<int>(threadIdx.x & 31);
  for_owned_row_segments(m, [&](long s, int i_begin, int i_end, int j, int k) {
    const RowWalk walk = row_walk(s, i_begin, i_end, 32 * G, G);
    for (int p = walk.first + G * lane; p < walk.first + walk.span; p += 32 * G) {
      const int i0 = walk.cell(p);
      if (i0 < i_end) body(s + i0, min(G, i_end - i0), i0, j, k);
    }
  });
}

// The two halves of a row batch body (for_owned_row_batches): load_row_cells reads the live cells u (batch.live(u)) of
// every operand, cell-major, into v[k][u], before for_live_cells hands each live cell (u, its allocation index) to
// the caller's update. All loads of a batch are in flight before its first store.
template <int U, class Real, int K>
__device__ __forceinline__ void load_row_cells(long n, RowBatch batch, Real (&v)[K][U], const Real* const (&ops)[K]) {
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (batch.live(u))
#pragma unroll
      for (int k = 0; k < K; ++k) v[k][u] = ops[k][n + batch.offset(u)];
}
template <int U, class Update>
__device__ __forceinline__ void for_live_cells(long n, RowBatch batch, Update&& update) {
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (batch.live(u)) update(u, n + batch.offset(u));
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

// y = a x + b y on the owned rows (axpby_value: the values of axpby). MIXED: y_other = y in the other precision (the
// values of convert). NORM: the block's sum of y.y of the new y at partials[blockIdx.x] (Backend::axpby_norm_later,
// axpby_mixed_norm_later). One kernel for the four point-wise variants of the r update; launched with pdl_launch.
template <class Real, bool MIXED, bool NORM>
__global__ void __launch_bounds__(kThreads, kRowBlocksPerSm)
    axpby_rows_kernel(Real a, const Real* __restrict__ x, Real b, Real* __restrict__ y,
                      OtherReal<Real>* __restrict__ y_other, OwnedRows m, double* partials) {
  cuda_detail::pdl_enter();
  constexpr int U = row_batch<Real>();
  double acc = 0.0;
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[2][U];
    load_row_cells<U>(n, batch, v, {x, y});
    for_live_cells<U>(n, batch, [&](int u, long e) {
      const Real yn = axpby_value(a, v[0][u], b, v[1][u]);
      y[e] = yn;
      if constexpr (MIXED) y_other[e] = static_cast<OtherReal<Real>>(yn);
      if constexpr (NORM) acc += static_cast<double>(yn) * static_cast<double>(yn);
    });
  });
  if constexpr (NORM) {
    const double s = block_sum(acc);
    if (threadIdx.x == 0) partials[blockIdx.x] = s;
  }
}

// Launches axpby_rows_kernel over the owned rows of y's layout (y_other: MIXED's field, else null; partials: NORM's).
// Returns the block count: with NORM the partial sums written (at most kMaxPartials), 0 when there are no owned cells.
// The caller checks the layouts.
template <bool MIXED, bool NORM, class Real>
int launch_axpby_rows(Real a, const Field<Real>& x, Real b, Field<Real>& y, Field<OtherReal<Real>>* y_other,
                      double* partials, int sm_count, cudaStream_t stream) {
  if (y.layout().owned_size() <= 0) return 0;
  const OwnedRows m = owned_rows(y.layout());
  const int blocks = NORM ? std::min(rows_grid(m, sm_count), cuda_detail::kMaxPartials) : rows_grid(m, sm_count);
  cuda_detail::pdl_launch(axpby_rows_kernel<Real, MIXED, NORM>, dim3(blocks), dim3(kThreads), 0, stream, a,
                          as_cuda(x).data(), b, as_cuda(y).data(), MIXED ? as_cuda(*y_other).data() : nullptr, m,
                          NORM ? partials : nullptr);
  return blocks;
}

}  // namespace perksolve::cuda_ops
