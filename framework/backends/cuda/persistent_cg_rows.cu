// Persistent CG, row-block walk (CudaCgWalk::rows; docs/perf/persistent-cg.md): the CG loop on a CSR matrix as
// one cooperative kernel that keeps nothing on chip and instead runs the operation loop's own memory-parallel
// pieces inside the loop, at six or eight 256-thread blocks per SM. For matrices whose working set exceeds the L2, where
// the merge-path kernel (persistent_cg.cu: 1024 threads per SM sharing one walk, the vectors of a few per cent of
// the rows cached) kept too few loads in flight; CudaCgWalk::automatic picks it there.
//
// One iteration, three device-wide barriers (as in persistent_cg.cu):
//   A  q = A p: the stream SpMV body (csr_stream_rows, the same bits as CudaBackend::spmv's native path),
//      row blocks strided over the grid; p.q partial summed as the rows are written | barrier | p.q
//   B  x += alpha p, r -= alpha q, r.r partial (grid-strided over the rows)          | barrier | r.r
//   C  p = r + beta p (grid-strided)                                                  | barrier
// Every block sums the per-block partials in the same order, so all take the same decisions.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "framework/backends/cuda/csr_cg_args.cuh"
#include "framework/backends/cuda/csr_stream_rows.cuh"
#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/cuda_csr.cuh"
#include "framework/backends/cuda/cuda_ops.cuh"
#include "framework/backends/cuda/grid_reduce.cuh"
#include "framework/backends/cuda/loop_stop.cuh"
#include "framework/backends/cuda/perks_model.hpp"

namespace perksolve {

using namespace cuda_ops;
namespace cgrp = cooperative_groups;

namespace {

template <class Real>
struct CgRowsArgs : CsrCgArgs<Real> {
  const int* row_block;  // row_blocks + 1 entries: the stream SpMV's blocks of consecutive rows
  int row_blocks;
  long n;
};

// Grid-strided over [0, n): body(i) for each row i of the thread (i, i + stride, ...). Four rows per thread with all
// their loads first, for four times the bytes in flight, spilled 170-560 bytes at 32-40 registers and ran 1.1-1.6x
// slower (run 3 of the results).
template <class Body>
__device__ __forceinline__ void for_rows_strided(long n, Body body) {
  const long stride = gridDim.x * static_cast<long>(blockDim.x);
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += stride) body(i);
}

// kMinBlocks: blocks of 256 threads per SM promised to ptxas. 6 (40 registers; fp64 spills ~90 bytes of loop state,
// fp32 ~60) and 8 (2048 threads, the stream SpMV kernel's occupancy; 32 registers, 108-124 bytes spilled): on the
// H200, 8 streams 4-7 % faster on matrices of 8-13x the L2, 6 is 1-6 % faster on 2.5-5x the L2 and in it
// (benchmarks/results/gpu-h200-2026-11-30-cg-rows-walk, runs 1-3); rows_walk_blocks_per_sm picks by the working set.
// The two grid sums per iteration read the 792-1056 block partials with every thread (grid_partials_total_wide):
// 1.4-1.8 % faster at 1056 blocks than warp 0 alone (25-33 dependent L2 reads), no change at 792 (run 5).
template <class Real, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks) persistent_cg_rows_kernel(const CgRowsArgs<Real> a) {
  cgrp::grid_group grid = cgrp::this_grid();
  __shared__ Real prod[kStreamNnz];
  __shared__ double total;
  __shared__ double warp_sums[kThreads / 32];
  auto grid_total = [&](const double* part) {
    return cuda_detail::grid_partials_total_wide<kThreads>(part, warp_sums, &total);
  };
  const Real* p_in = a.p;  // read in phase A, written in phase C a device barrier later (no __restrict__, no .nc)
  double rr = a.rr, pq = 0.0;
  long k = a.first;
  const long last = a.first + a.iterations;
  int end = cuda_detail::kCgBudget;
  while (k < last) {
    // ---- A: q = A p, p.q ---------------------------------------------------------------------------
    double dot = 0.0;
    for (int b = blockIdx.x; b < a.row_blocks; b += gridDim.x) {
      if (b != static_cast<int>(blockIdx.x)) __syncthreads();  // the previous row block's sums have read prod
      csr_stream_rows<kThreads>(
          a.row_block[b], a.row_block[b + 1], a.rp, prod,
          [&](int e) {
            // Coherent loads of p (not the read-only path): other blocks rewrite it between iterations.
            const int c = __ldcs(a.ci + e);
            return __ldcs(a.v + e) * p_in[c];
          },
          [&](int row, Real sum) {
            a.q[row] = sum;
            dot += static_cast<double>(p_in[row]) * static_cast<double>(sum);
          });
    }
    cuda_detail::store_block_partial<kThreads>(a.part_pq, dot);
    grid.sync();
    pq = grid_total(a.part_pq);
    if (!(pq > 0.0) || !isfinite(pq)) {
      end = cuda_detail::kCgBreakdown;
      break;
    }
    // ---- B: x += alpha p, r -= alpha q, r.r ------------------------------------------------------
    const Real alpha = static_cast<Real>(rr / pq);
    double acc_rr = 0.0;
    for_rows_strided(a.n, [&](long i) {
      const Real pi = a.p[i], xi = a.x[i], ri = a.r[i], qi = a.q[i];
      a.x[i] = xi + alpha * pi;
      const Real ri_new = ri - alpha * qi;
      a.r[i] = ri_new;
      acc_rr += static_cast<double>(ri_new) * static_cast<double>(ri_new);
    });
    cuda_detail::store_block_partial<kThreads>(a.part_rr, acc_rr);
    grid.sync();
    const double rr_new = grid_total(a.part_rr);
    // ---- C: p = r + beta p -------------------------------------------------------------------------
    const Real beta = static_cast<Real>(rr_new / rr);
    for_rows_strided(a.n, [&](long i) {
      const Real ri = a.r[i], pi = a.p[i];
      a.p[i] = Real(1) * ri + beta * pi;
    });
    rr = rr_new;
    ++k;
    if (blockIdx.x == 0 && threadIdx.x == 0) a.history[k - 1 - a.first] = rr;
    if (a.stop.cg_stops(k, sqrt(rr))) {
      end = cuda_detail::kCgThreshold;
      break;
    }
    if (k < last) grid.sync();  // the next SpMV gathers p from every block
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) cuda_detail::write_cg_loop_result(a.result, k - a.first, end, rr, pq);
}

}  // namespace

template <class Real>
PersistentCg CudaBackend<Real>::persistent_cg_rows(const CudaCsr<Real>& A, Field<Real>& x, Field<Real>& r,
                                                   Field<Real>& p, Field<Real>& q, const PersistentCgRequest& req) {
  PersistentCg res;
  const auto kernel = cuda_detail::rows_walk_blocks_per_sm(csr_matrix_bytes(A), static_cast<double>(A.rows()) * sizeof(Real),
                                                           static_cast<double>(perks_device_.l2_bytes)) == 8
                          ? persistent_cg_rows_kernel<Real, 8>
                          : persistent_cg_rows_kernel<Real, 6>;
  int per_sm = 0;
  PERKSOLVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  if (per_sm <= 0) return res;
  if (req.blocks_per_sm > 0) per_sm = std::min(per_sm, req.blocks_per_sm);
  long blocks = static_cast<long>(per_sm) * sm_count_;
  if (req.max_blocks > 0) blocks = std::min<long>(blocks, req.max_blocks);
  blocks = std::max(1L, std::min<long>(blocks, cuda_detail::kMaxPartials / 2));

  const std::size_t hist_bytes = static_cast<std::size_t>(req.iterations) * sizeof(double);
  ensure_device_scratch(hist_bytes + 8 * sizeof(double));
  double* history = static_cast<double*>(scratch_dev_);
  CgRowsArgs<Real> args{};
  set_csr_cg_args<Real>(args, A, as_cuda(x).data(), as_cuda(r).data(), as_cuda(p).data(), as_cuda(q).data(), partials_,
                        history, req);
  args.row_block = A.row_block;
  args.row_blocks = A.row_blocks;
  args.n = A.rows();
  void* params[] = {&args};
  PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                                                   dim3(kThreads), params, 0, stream_));
  PERKSOLVE_CUDA_CHECK_LAUNCH("persistent_cg_rows_kernel");
  res = read_persistent_cg_result(args.result, history);
  res.blocks = static_cast<int>(blocks);
  res.threads = kThreads;
  return res;
}

template PersistentCg CudaBackend<float>::persistent_cg_rows(const CudaCsr<float>&, Field<float>&, Field<float>&,
                                                             Field<float>&, Field<float>&, const PersistentCgRequest&);
template PersistentCg CudaBackend<double>::persistent_cg_rows(const CudaCsr<double>&, Field<double>&, Field<double>&,
                                                              Field<double>&, Field<double>&,
                                                              const PersistentCgRequest&);

}  // namespace perksolve
