// Persistent CG (PERKS, issue 6; docs/perf/persistent-cg.md): the whole unpreconditioned CG loop on a CSR
// matrix as ONE cooperative kernel (CudaBackend::persistent_cg). This file: the merge-path walks, for matrices
// whose working set fits in L2; above it (CudaCgWalk::automatic) or when asked (CudaCgWalk::rows) the row-block
// walk of persistent_cg_rows.cu runs instead.
//
// Work split (computed once per matrix and block count, kept in CudaCsr):
//   - Blocks own contiguous row ranges cut along the merge path of (row ends, non-zeros) (Merrill &
//     Garland): every block gets the same number of rows + non-zeros, rounded to a row boundary, so a
//     block's rows are complete in the block and it can keep their vectors on chip.
//   - Inside a block the SpMV is merge-based: each tile of kCgThreads * kCgItems merge items is split into
//     equal per-thread pieces (diagonal search), so long and short rows cost the same per thread. A row cut
//     by a thread or tile boundary is finished by adding the carried partial sums in thread order (a fixed
//     order: the result is deterministic).
//   - Staged walk (CudaCgWalk::staged, the default where the matrix is not cached): the tile's entries are
//     read with coalesced loads (thread t takes entries t, t + kCgThreads, ...), multiplied by the gathered
//     p and staged in shared memory, next to the ends of the tile's rows. The tile's first row comes from a
//     table computed once on the host, so each thread's diagonal search runs in shared memory too. The
//     per-thread walk then reads only shared memory. The per-thread walk over global memory (each thread
//     loads its own 8 consecutive entries: a warp's load touches 32 sectors) stays selectable.
//     Both walks form the same products and add them in the same order: the same bits.
// One iteration, three device-wide barriers:
//   A  q = A p over the block's rows, p.q partial          | barrier | p.q summed by every block
//   B  x += alpha p, r -= alpha q, r.r partial             | barrier | r.r summed by every block
//   C  p = r + beta p                                      | barrier (the next SpMV gathers p)
// Every block sums the per-block partials in the same order, so all blocks take the same decisions
// (breakdown, thresholds) from bit-identical scalars. With one block the barriers are block barriers.
// On-chip caching by access count (the paper's argument, r before A): per iteration r is read twice and
// written once, q (= A p) written and read once, x read and written once, A read once. So shared memory
// holds, for the first rows of each block, r first, then q, then x; p stays in global memory because other
// blocks gather it.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "framework/backends/cuda/csr_cg_args.cuh"
#include "framework/backends/cuda/cuda_csr.cuh"
#include "framework/backends/cuda/cuda_ops.cuh"
#include "framework/backends/cuda/grid_reduce.cuh"
#include "framework/backends/cuda/loop_stop.cuh"
#include "framework/backends/cuda/perks_model.hpp"

namespace perksolve {

using namespace cuda_ops;
namespace cgrp = cooperative_groups;

namespace {

constexpr int kCgThreads = 512;
constexpr int kCgItems = 8;  // merge items (one non-zero or one row end) per thread and tile
constexpr int kCgTile = kCgThreads * kCgItems;
constexpr int kCgWarps = kCgThreads / 32;
constexpr int kCgBatch = 4;  // staged walk: entries per thread whose loads are issued together

template <class Real>
struct CgArgs : CsrCgArgs<Real> {
  const int* block_row;           // gridDim.x + 1 entries
  int cache_r, cache_q, cache_x;  // rows (of each block, from its first) kept in shared memory
  int cache_p;                    // 1: p lives in shared memory (one block only: no other block gathers it)
  int cache_a;                    // 1: the block's rows of A (row ends, columns, values) live in shared memory
  int cache_a_nnz, cache_a_rows;  // capacity of the matrix cache (entries, rows)
  const int* tile_first;          // staged walk: block b's tile k starts at row tile_row[tile_first[b] + k]
  const int* tile_row;
};

// Shared memory of the staged walk: one tile's products and the ends of its rows (at most one per item).
template <class Real>
constexpr long kCgStagedBytes = static_cast<long>(kCgTile) * static_cast<long>(sizeof(Real)) +
                                static_cast<long>(kCgTile + 1) * static_cast<long>(sizeof(int));

// The merge-path row of diagonal d: the first row in [lo, hi) whose end lies at or beyond (row, d - row),
// where row_end(i) is the entry at which row i ends (hi if there is none).
template <class RowEnd>
__host__ __device__ __forceinline__ int merge_search(long d, int lo, int hi, RowEnd row_end) {
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (row_end(mid) <= d - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The same over all nb rows and nnzb entries; row i ends at entry rp[i] - rp_base. Used by the kernel (a
// block's rows, within a tile) and by the host (the block partition and its tiles).
__host__ __device__ __forceinline__ int merge_row(long d, int nb, int nnzb, const int* __restrict__ rp, int rp_base) {
  return merge_search(d, static_cast<int>(d - nnzb > 0 ? d - nnzb : 0), static_cast<int>(d < nb ? d : nb),
                      [&](int i) { return rp[i] - rp_base; });
}

__device__ __forceinline__ void device_barrier(cgrp::grid_group& grid) {
  if (gridDim.x == 1) __syncthreads();
  else grid.sync();
}

template <class Real, bool kStaged>
__global__ void __launch_bounds__(kCgThreads, 2) persistent_cg_kernel(const CgArgs<Real> a) {
  cgrp::grid_group grid = cgrp::this_grid();
  __shared__ double red[kCgWarps + 1];
  __shared__ Real carry_val[kCgThreads];
  __shared__ int carry_row[kCgThreads];
  __shared__ Real tile_carry_val;
  __shared__ int tile_carry_row, tile_row0;
  extern __shared__ __align__(16) unsigned char cg_dynamic[];
  Real* const cr = reinterpret_cast<Real*>(cg_dynamic);
  Real* const cq = cr + a.cache_r;
  Real* const cx = cq + a.cache_q;
  Real* const cp = cx + a.cache_x;                           // cache_p: all rows
  // After the vectors: the block's whole matrix (cache_a: values, columns, row ends) or, for the staged
  // walk, one tile's products and row ends.
  Real* const cv = cp + (a.cache_p ? a.cache_r : 0);
  int* const cci = reinterpret_cast<int*>(cv + (a.cache_a ? a.cache_a_nnz : 0));
  int* const crp = cci + (a.cache_a ? a.cache_a_nnz : 0);  // cache_a: row ends, local to the block's first entry
  Real* const sprod = cv;                                  // staged: products of the tile's entries
  int* const swin = reinterpret_cast<int*>(sprod + (kStaged ? kCgTile : 0));  // staged: ends of the tile's rows

  const int t = threadIdx.x;
  const int R0 = a.block_row[blockIdx.x], R1 = a.block_row[blockIdx.x + 1];
  const int nb = R1 - R0;
  const int nz0 = a.rp[R0], nnzb = a.rp[R1] - nz0;
  const long items = static_cast<long>(nb) + nnzb;
  const int kr = min(a.cache_r, nb), kq = min(a.cache_q, nb), kx = min(a.cache_x, nb);
  Real* const gx = a.x + R0;
  Real* const gr = a.r + R0;
  Real* const gq = a.q + R0;
  // The matrix and p through generic pointers: shared memory when cached, global memory otherwise.
  if (a.cache_a) {
    for (int i = t; i < nb; i += kCgThreads) crp[i] = a.rp[R0 + 1 + i] - nz0;
    for (int e = t; e < nnzb; e += kCgThreads) {
      cci[e] = a.ci[nz0 + e];
      cv[e] = a.v[nz0 + e];
    }
  }
  const int* __restrict__ rp = a.cache_a ? crp : a.rp + R0 + 1;  // rp[i] - rp_base: end of local row i
  const int rp_base = a.cache_a ? 0 : nz0;
  const int* __restrict__ ci = a.cache_a ? cci : a.ci + nz0;
  const Real* __restrict__ v = a.cache_a ? cv : a.v + nz0;
  const int* __restrict__ tile_rows = kStaged ? a.tile_row + a.tile_first[blockIdx.x] : nullptr;
  Real* const p = a.cache_p ? cp : a.p + R0;
  if (a.cache_p)
    for (int i = t; i < nb; i += kCgThreads) cp[i] = a.p[R0 + i];
  for (int i = t; i < kr; i += kCgThreads) cr[i] = gr[i];
  for (int i = t; i < kx; i += kCgThreads) cx[i] = gx[i];
  __syncthreads();

  double rr = a.rr;
  long k = a.first;
  const long last = a.first + a.iterations;
  int end = cuda_detail::kCgBudget;
  double pq = 0.0;
  while (k < last) {
    // ---- A: q = A p (merge-based, tile by tile), p.q ----------------------------------------------
    double dot = 0.0;
    if (t == 0) tile_carry_row = -1;
    __syncthreads();
    int tile = 0;
    for (long D0 = 0; D0 < items; D0 += kCgTile, ++tile) {
      const long d = min(items, D0 + static_cast<long>(t) * kCgItems);
      const long dend = min(items, d + kCgItems);
      const int steps = static_cast<int>(dend - d);
      const int in_row = tile_carry_row;  // read before the barriers below; rewritten after them
      const Real in_val = tile_carry_val;
      // This thread's piece: at most kCgItems entries and row ends, all loaded first (independent loads in
      // flight), then walked over registers (shifted, so every index is static).
      Real prod[kCgItems];
      int end[kCgItems + 1];
      int i, j;
      if constexpr (kStaged) {
        // The tile spans rows [row0, row1] and entries [j0, j1).
        const int row0 = tile_rows[tile], row1 = tile_rows[tile + 1];
        const int j0 = static_cast<int>(D0 - row0), j1 = static_cast<int>(min(items, D0 + kCgTile) - row1);
        const int wlast = min(row1, nb - 1);
        for (int w = t; w <= wlast - row0; w += kCgThreads) swin[w] = rp[row0 + w] - rp_base;
        const int ne = j1 - j0;  // <= kCgTile: every entry is a merge item of the tile
        // In batches of kCgBatch entries per thread: their loads in flight together (more would spill).
#pragma unroll
        for (int u0 = 0; u0 < kCgItems; u0 += kCgBatch) {
          int col[kCgBatch];
          Real val[kCgBatch];
#pragma unroll
          for (int u = 0; u < kCgBatch; ++u) {
            const int e = t + (u0 + u) * kCgThreads;
            if (e < ne) {
              col[u] = ci[j0 + e];
              val[u] = v[j0 + e];
            }
          }
#pragma unroll
          for (int u = 0; u < kCgBatch; ++u) {
            const int e = t + (u0 + u) * kCgThreads;
            if (e < ne) sprod[e] = val[u] * p[col[u] - R0];
          }
        }
        if (t == 0) tile_row0 = row0;
        __syncthreads();
        i = merge_search(d, max(row0, static_cast<int>(d - nnzb)), static_cast<int>(min(static_cast<long>(row1), d)),
                         [&](int r) { return swin[r - row0]; });
        j = static_cast<int>(d - i);
#pragma unroll
        for (int u = 0; u < kCgItems; ++u) prod[u] = u < steps && j + u < j1 ? sprod[j + u - j0] : Real(0);
#pragma unroll
        for (int u = 0; u <= kCgItems; ++u) end[u] = u <= steps && i + u <= wlast ? swin[i + u - row0] : nnzb;
      } else {
        i = merge_row(d, nb, nnzb, rp, rp_base);
        j = static_cast<int>(d - i);
        if (t == 0) tile_row0 = i;
#pragma unroll
        for (int u = 0; u < kCgItems; ++u) {
          const int e = j + u;
          prod[u] = e < nnzb && u < steps ? v[e] * p[ci[e] - R0] : Real(0);
        }
#pragma unroll
        for (int u = 0; u <= kCgItems; ++u) end[u] = i + u < nb && u <= steps ? rp[i + u] - rp_base : nnzb;
      }
      Real acc = Real(0);
#pragma unroll
      for (int s = 0; s < kCgItems; ++s) {
        if (s < steps) {
          if (j < end[0]) {
            acc += prod[0];
            ++j;
#pragma unroll
            for (int u = 0; u + 1 < kCgItems; ++u) prod[u] = prod[u + 1];
          } else {  // row i ends here: this thread's part of it
            if (i < kq) cq[i] = acc;
            else gq[i] = acc;
            acc = Real(0);
            ++i;
#pragma unroll
            for (int u = 0; u < kCgItems; ++u) end[u] = end[u + 1];
          }
        }
      }
      carry_row[t] = i;
      carry_val[t] = acc;
      __syncthreads();
      // Fix-up: rows cut by thread boundaries get the carried parts in thread order.
      const int i0 = tile_row0, i1 = carry_row[kCgThreads - 1];
      const int row = carry_row[t];
      if (t == 0 && in_row >= 0 && in_row != row && in_row < nb) {
        if (in_row < kq) cq[in_row] += in_val;
        else gq[in_row] += in_val;
      }
      if (row >= nb) {  // threads past the block's last item: nothing carried (and a run of them is long)
        if (t == 0 || carry_row[t - 1] != row) tile_carry_row = -1;
      } else if (t == 0 || carry_row[t - 1] != row) {
        Real s = (t == 0 && in_row == row) ? in_val : Real(0);
        int u = t;
        for (; u < kCgThreads && carry_row[u] == row; ++u) s += carry_val[u];
        if (u == kCgThreads) {  // still open at the tile's end: carried into the next tile
          tile_carry_row = row;
          tile_carry_val = s;
        } else {
          if (row < kq) cq[row] += s;
          else gq[row] += s;
        }
      }
      __syncthreads();
      for (int r = i0 + t; r < i1; r += kCgThreads)
        dot += static_cast<double>(p[r]) * static_cast<double>(r < kq ? cq[r] : gq[r]);
    }
    const double dot_block = cuda_detail::block_total<kCgThreads>(dot, red, &red[kCgWarps]);
    if (t == 0) a.part_pq[blockIdx.x] = dot_block;
    device_barrier(grid);
    pq = cuda_detail::grid_partials_total(a.part_pq, &red[kCgWarps]);
    if (!(pq > 0.0) || !isfinite(pq)) {
      end = cuda_detail::kCgBreakdown;
      break;
    }
    // ---- B: x += alpha p, r -= alpha q, r.r -------------------------------------------------------
    const Real alpha = static_cast<Real>(rr / pq);
    double acc_rr = 0.0;
    for (int i = t; i < nb; i += kCgThreads) {
      const Real pi = p[i];
      if (i < kx) cx[i] += alpha * pi;
      else gx[i] += alpha * pi;
      const Real qi = i < kq ? cq[i] : gq[i];
      const Real ri = (i < kr ? cr[i] : gr[i]) - alpha * qi;
      if (i < kr) cr[i] = ri;
      else gr[i] = ri;
      acc_rr += static_cast<double>(ri) * static_cast<double>(ri);
    }
    const double rr_block = cuda_detail::block_total<kCgThreads>(acc_rr, red, &red[kCgWarps]);
    if (t == 0) a.part_rr[blockIdx.x] = rr_block;
    device_barrier(grid);
    const double rr_new = cuda_detail::grid_partials_total(a.part_rr, &red[kCgWarps]);
    // ---- C: p = r + beta p -----------------------------------------------------------------------
    const Real beta = static_cast<Real>(rr_new / rr);
    for (int i = t; i < nb; i += kCgThreads) p[i] = Real(1) * (i < kr ? cr[i] : gr[i]) + beta * p[i];
    rr = rr_new;
    ++k;
    if (blockIdx.x == 0 && t == 0) a.history[k - 1 - a.first] = rr;
    const double res = sqrt(rr);
    if (a.stop.cg_stops(k, res)) {
      end = cuda_detail::kCgThreshold;
      break;
    }
    if (k < last) device_barrier(grid);  // the next SpMV gathers p from every block
  }
  __syncthreads();
  for (int i = t; i < kr; i += kCgThreads) gr[i] = cr[i];
  for (int i = t; i < kx; i += kCgThreads) gx[i] = cx[i];
  if (a.cache_p)
    for (int i = t; i < nb; i += kCgThreads) a.p[R0 + i] = cp[i];
  if (blockIdx.x == 0 && t == 0) {
    cuda_detail::write_cg_loop_result(a.result, k - a.first, end, rr, pq);
  }
}

// Block b starts at the first row whose merge-path coordinate reaches b / blocks of the rows + non-zeros.
std::vector<int> merge_path_block_rows(const std::vector<int>& row_ptr, int blocks) {
  const int rows = static_cast<int>(row_ptr.size()) - 1, nnz = row_ptr.back();
  const long total = static_cast<long>(rows) + nnz;
  std::vector<int> start(blocks + 1);
  for (int b = 0; b <= blocks; ++b) start[b] = merge_row(total * b / blocks, rows, nnz, row_ptr.data() + 1, 0);
  start[0] = 0;
  start[blocks] = static_cast<int>(rows);
  for (int b = 1; b <= blocks; ++b) start[b] = std::max(start[b], start[b - 1]);
  return start;
}

// The staged walk's tile table: for each block, the (block-local) first row of each of its tiles of kCgTile
// merge items, and its row count after the last; first[b] indexes block b's entries in rows.
void merge_path_tile_rows(const std::vector<int>& row_ptr, const std::vector<int>& block_start, std::vector<int>& first,
                          std::vector<int>& rows) {
  const int blocks = static_cast<int>(block_start.size()) - 1;
  first.assign(static_cast<std::size_t>(blocks) + 1, 0);
  rows.clear();
  for (int b = 0; b < blocks; ++b) {
    const int R0 = block_start[b], nb = block_start[b + 1] - R0;
    const int nz0 = row_ptr[R0], nnzb = row_ptr[block_start[b + 1]] - nz0;
    const long items = static_cast<long>(nb) + nnzb;
    first[b] = static_cast<int>(rows.size());
    for (long D = 0; D < items; D += kCgTile) rows.push_back(merge_row(D, nb, nnzb, row_ptr.data() + R0 + 1, nz0));
    rows.push_back(nb);
  }
  first[blocks] = static_cast<int>(rows.size());
}

}  // namespace

template <class Real>
PersistentCg CudaBackend<Real>::persistent_cg(const SparseMatrix<Real>& Am, Field<Real>& x, Field<Real>& r,
                                              Field<Real>& p, Field<Real>& q, const PersistentCgRequest& req) {
  PersistentCg res;
  CudaCsr<Real>& A = const_cast<CudaCsr<Real>&>(as_csr(Am));
  const long n = A.rows();
  for (Field<Real>* f : {&x, &r, &p, &q}) require_vector(f->layout(), n, "persistent_cg");
  if (n <= 0 || A.ghost_cols() > 0 || req.iterations <= 0 || builder_) return res;
  PERKSOLVE_CUDA_CHECK(cudaSetDevice(device_));
  // Where the matrix and the vectors exceed the L2, the merge-path kernel is slower than the operation loop
  // (persistent_cg_declines) and the row-block walk (persistent_cg_rows.cu) faster than both.
  const std::string above_l2 = cuda_detail::persistent_cg_declines(
      csr_matrix_bytes(A), static_cast<double>(n) * sizeof(Real), static_cast<double>(perks_device_.l2_bytes), false);
  if (cg_walk_ == CudaCgWalk::rows || (cg_walk_ == CudaCgWalk::automatic && !above_l2.empty()))
    return persistent_cg_rows(A, x, r, p, q, req);
  // Both walks have the same static shared memory; the walk is chosen below, with the caches.
  auto kernel = persistent_cg_kernel<Real, false>;

  // Blocks: enough tiles to go round, at most what is co-resident (never over-subscribed).
  // Device attributes one by one: cudaGetDeviceProperties costs about a millisecond per call.
  int smem_per_sm = 0, smem_optin = 0;
  PERKSOLVE_CUDA_CHECK(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device_));
  PERKSOLVE_CUDA_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_));
  const int want_per_sm = req.blocks_per_sm > 0 ? req.blocks_per_sm : 2;
  const long items = n + A.nnz();
  long blocks = std::min<long>((items + kCgTile - 1) / kCgTile, static_cast<long>(want_per_sm) * sm_count_);
  if (req.max_blocks > 0) blocks = std::min<long>(blocks, req.max_blocks);
  blocks = std::max(1L, std::min<long>(blocks, cuda_detail::kMaxPartials / 2));
  if (static_cast<long>(A.cg_block_start.size()) != blocks + 1) {
    A.cg_block_start = merge_path_block_rows(A.host_row_ptr, static_cast<int>(blocks));
    if (A.cg_block_row) PERKSOLVE_CUDA_CHECK(cudaFree(A.cg_block_row));
    A.cg_block_row = device_copy(A.cg_block_start, stream_);
    std::vector<int> tile_first, tile_row;
    merge_path_tile_rows(A.host_row_ptr, A.cg_block_start, tile_first, tile_row);
    if (A.cg_tile_first) PERKSOLVE_CUDA_CHECK(cudaFree(A.cg_tile_first));
    if (A.cg_tile_row) PERKSOLVE_CUDA_CHECK(cudaFree(A.cg_tile_row));
    A.cg_tile_first = device_copy(tile_first, stream_);
    A.cg_tile_row = device_copy(tile_row, stream_);
    PERKSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  const std::vector<int>& start = A.cg_block_start;
  long rows_max = 0, nnz_max = 0;  // of the largest block
  for (long b = 0; b < blocks; ++b) {
    rows_max = std::max<long>(rows_max, start[b + 1] - start[b]);
    nnz_max = std::max<long>(nnz_max, A.host_row_ptr[start[b + 1]] - A.host_row_ptr[start[b]]);
  }

  // Shared memory per block: a co-resident block's share of the SM, less the static part.
  cudaFuncAttributes attr{};
  PERKSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  const long per_sm_blocks = (blocks + sm_count_ - 1) / sm_count_;
  long spare = cuda_detail::smem_per_block_share(smem_per_sm, smem_optin, per_sm_blocks) -
               static_cast<long>(attr.sharedSizeBytes);
  // The staged walk's buffer (one tile's products and row ends) comes first, unless the whole matrix is
  // cached (decided below), which needs no staging; where it does not fit a block's share of the SM, the
  // block walks per thread.
  const bool walk_staged = cg_walk_ == CudaCgWalk::staged && spare >= kCgStagedBytes<Real>;
  if (walk_staged) spare -= kCgStagedBytes<Real>;
  if (req.cache_bytes >= 0) spare = std::min<long>(spare, req.cache_bytes);
  // Priority by accesses per iteration and byte: p when one block does everything (every gather), r, A p,
  // x, then the block's rows of A (read once per iteration, 12-16 bytes per entry).
  long budget = std::max(0L, spare) / static_cast<long>(sizeof(Real));
  const long cache_p = blocks == 1 && budget >= 2 * rows_max ? 1 : 0;  // with r: the kernel sizes p's slot as r's
  if (cache_p) budget -= rows_max;
  const long cache_r = std::min(rows_max, budget);
  budget -= cache_r;
  const long cache_q = std::min(rows_max, budget);
  budget -= cache_q;
  const long cache_x = std::min(rows_max, budget);
  budget -= cache_x;
  // The matrix as a whole per block or not at all (values + int columns + int row ends); the staging
  // buffer's bytes are free for it.
  const long a_bytes = nnz_max * static_cast<long>(sizeof(Real) + sizeof(int)) + rows_max * static_cast<long>(sizeof(int));
  const long freed = walk_staged ? kCgStagedBytes<Real> : 0;
  const long cache_a = req.cache_bytes != 0 && budget * static_cast<long>(sizeof(Real)) + freed >= a_bytes + 16 ? 1 : 0;
  if (req.only_where_faster && !cache_a && !above_l2.empty()) {  // a merge walk forced above the L2
    res.declined = above_l2;
    return res;
  }
  const bool staged = walk_staged && !cache_a;
  if (staged) kernel = persistent_cg_kernel<Real, true>;
  const std::size_t smem =
      static_cast<std::size_t>(cache_r + cache_q + cache_x + (cache_p ? cache_r : 0)) * sizeof(Real) +
      (cache_a ? static_cast<std::size_t>(a_bytes) : 0) + (staged ? static_cast<std::size_t>(kCgStagedBytes<Real>) : 0);
  PERKSOLVE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int per_sm = 0;
  PERKSOLVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kCgThreads, smem));
  if (per_sm <= 0 || blocks > static_cast<long>(per_sm) * sm_count_) return res;  // cannot be co-resident

  // Device scratch: partials of p.q and r.r, the r.r history, the result.
  const std::size_t hist_bytes = static_cast<std::size_t>(req.iterations) * sizeof(double);
  ensure_device_scratch(hist_bytes + 8 * sizeof(double));
  double* history = static_cast<double*>(scratch_dev_);
  double* result = history + req.iterations;
  CgArgs<Real> args{};
  set_csr_cg_args<Real>(args, A, as_cuda(x).data(), as_cuda(r).data(), as_cuda(p).data(), as_cuda(q).data(), partials_,
                        history, req);
  args.block_row = A.cg_block_row;
  args.cache_r = static_cast<int>(cache_r);
  args.cache_q = static_cast<int>(cache_q);
  args.cache_x = static_cast<int>(cache_x);
  args.cache_p = static_cast<int>(cache_p);
  args.cache_a = static_cast<int>(cache_a);
  args.cache_a_nnz = static_cast<int>(nnz_max);
  args.cache_a_rows = static_cast<int>(rows_max);
  args.tile_first = A.cg_tile_first;
  args.tile_row = A.cg_tile_row;
  void* params[] = {&args};
  PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                                                   dim3(kCgThreads), params, smem, stream_));
  PERKSOLVE_CUDA_CHECK_LAUNCH("persistent_cg_kernel");
  res = read_persistent_cg_result(result, history);
  res.blocks = static_cast<int>(blocks);
  res.threads = kCgThreads;
  long kept[3] = {0, 0, 0};
  for (long b = 0; b < blocks; ++b) {
    const long nb = start[b + 1] - start[b];
    kept[0] += std::min(nb, cache_r);
    kept[1] += std::min(nb, cache_q);
    kept[2] += std::min(nb, cache_x);
  }
  res.cached_r = static_cast<double>(kept[0]) / static_cast<double>(n);
  res.cached_q = static_cast<double>(kept[1]) / static_cast<double>(n);
  res.cached_x = static_cast<double>(kept[2]) / static_cast<double>(n);
  res.cached_p = cache_p != 0;
  res.cached_a = cache_a != 0;
  return res;
}

template PersistentCg CudaBackend<float>::persistent_cg(const SparseMatrix<float>&, Field<float>&, Field<float>&,
                                                        Field<float>&, Field<float>&, const PersistentCgRequest&);
template PersistentCg CudaBackend<double>::persistent_cg(const SparseMatrix<double>&, Field<double>&, Field<double>&,
                                                         Field<double>&, Field<double>&, const PersistentCgRequest&);

}  // namespace perksolve
