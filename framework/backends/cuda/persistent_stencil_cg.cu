// Matrix-free persistent CG (PERKS, issue 6 item 3; docs/perf/persistent-cg.md): the whole unpreconditioned
// CG loop with a constant stencil operator as ONE cooperative kernel (CudaBackend::persistent_stencil_cg).
//
// One iteration, three device-wide barriers:
//   A  q = A p and p.q: the per-sweep streaming kernel's body (stream_sweep, mode apply_dot: its wide tile,
//      bulk / 16-byte row copies, dynamic items), which also sums p * (A p) over the block's outputs
//                                                                  | barrier | p.q summed by every block
//   B  r -= alpha q, r.r over the block's cells                    | barrier | r.r summed by every block
//   C  x += alpha p, p = r + beta p over the block's cells; then the boundary ghosts of p whose source cells
//      are the block's (homogeneous rules)                         | barrier (the next A reads p's halo)
// x is updated in C rather than B: C reads p anyway, so B touches r and q only.
// The point-wise phases B and C give each block a fixed range of whole grid rows, the same in every
// iteration, so the first cells of that range keep r (3 accesses per iteration), then x (2), in shared memory
// after the streaming ring; q is written by whichever block streams its item (dynamic items) and p's halo is
// read by other blocks: both stay in global memory. DRAM traffic per cell and iteration with r on chip:
// A reads p and writes q (16 B in fp64), B reads q (8 B), C reads p, reads and writes x, writes p (32 B).
// Every block sums the per-block partials in the same order: all blocks take the same decisions (breakdown,
// thresholds) from bit-identical scalars.
#include <cooperative_groups.h>

#include <algorithm>

#include "framework/backends/cuda/grid_reduce.cuh"
#include "framework/backends/cuda/perks_pipelined.cuh"
#include "framework/backends/cuda/stencil_cg_request.cuh"
#include "framework/backends/cuda/stencil_kernels.cuh"

namespace perksolve::cuda_detail {
namespace {

namespace cgrp = cooperative_groups;

template <class Real>
struct StencilCgArgs {
  StreamArgs<Real, kMaxTemplatedPoints> s;  // phase A: x = p, out = q (element (0,0,0)), coefficients, items
  Real* x;  // element (0,0,0) of x, r, p, q
  Real* r;
  Real* p;
  Real* q;
  Real* p_alloc;  // p's allocation (the ghost fill indexes it with `layout`)
  FieldLayout layout;
  cuda_ops::FaceSet<Real> faces;
  int sy, sz;                   // strides of the layout's second and third axes
  FastDivU32 div_nx, div_n1;    // by the owned extents of the first and second axes
  long iterations, first;
  double rr;
  LoopStop stop;
  int cache_r, cache_x;  // cells (of each block's range, from its first) kept in shared memory
  double* part_pq;       // gridDim.x each
  double* part_rr;
  double* result;   // iterations, stop (0 budget, 1 threshold, 2 breakdown), r.r, p.q
  double* history;  // r.r after each iteration
};

// What the point-wise phases of one block touch: its cells (rows [row0, row0 + cells / nx), x fastest), the
// first kr / kx of which keep r / x in shared memory (cr, cx). Passed by value to the phases, which are not
// inlined: their registers (kU cells in flight) are then allocated apart from the streaming body's, which
// ptxas otherwise pushed to 145-155 registers (2D) or into 56-112 bytes of spill (3D).
template <class Real>
struct BlockCells {
  Real *x, *r, *p, *q;  // element (0,0,0)
  Real *cr, *cx;
  int row0, cells, kr, kx, nx, n1, sy, sz;
  FastDivU32 div_nx, div_n1;
  // Element offset of cell e from (0,0,0); 32 bits: the host declines layouts of 2^31 elements or more.
  __device__ __forceinline__ int offset(int e) const {
    const unsigned ro = div_nx.div(static_cast<unsigned>(e));
    const int i = e - static_cast<int>(ro) * nx;
    const unsigned row = static_cast<unsigned>(row0) + ro;
    const unsigned k = div_n1.div(row);
    const int j = static_cast<int>(row - k * static_cast<unsigned>(n1));
    return i + j * sy + static_cast<int>(k) * sz;
  }
};

// Phase B: r -= alpha q over the block's cells; returns the thread's sum of r^2 (cells t, t + NT, ... in order).
// kU cells per thread and step with every load first: one at a time, the 256-512 threads per SM kept too few
// loads in flight (128^3 fp64 at ~0.5 TB/s, 207 us per iteration; H200, run 1).
template <int NT, int kU, class Real>
__device__ __noinline__ double update_r(const BlockCells<Real> c, Real alpha) {
  double acc = 0.0;
  for (int base = threadIdx.x; base < c.cells; base += NT * kU) {
    int o[kU];
    Real qv[kU], rv[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const int e = base + u * NT;
      if (e < c.cells) {
        o[u] = c.offset(e);
        qv[u] = c.q[o[u]];
        rv[u] = e < c.kr ? c.cr[e] : c.r[o[u]];
      }
    }
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const int e = base + u * NT;
      if (e < c.cells) {
        const Real ri = rv[u] - alpha * qv[u];
        if (e < c.kr) c.cr[e] = ri;
        else c.r[o[u]] = ri;
        acc += static_cast<double>(ri) * static_cast<double>(ri);
      }
    }
  }
  return acc;
}

// Phase C: x += alpha p, p = r + beta p over the block's cells (kU cells per step, loads first).
template <int NT, int kU, class Real>
__device__ __noinline__ void update_x_p(const BlockCells<Real> c, Real alpha, Real beta) {
  for (int base = threadIdx.x; base < c.cells; base += NT * kU) {
    int o[kU];
    Real pv[kU], xv[kU], rv[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const int e = base + u * NT;
      if (e < c.cells) {
        o[u] = c.offset(e);
        pv[u] = c.p[o[u]];
        xv[u] = e < c.kx ? c.cx[e] : c.x[o[u]];
        rv[u] = e < c.kr ? c.cr[e] : c.r[o[u]];
      }
    }
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const int e = base + u * NT;
      if (e < c.cells) {
        const Real xi = xv[u] + alpha * pv[u];
        if (e < c.kx) c.cx[e] = xi;
        else c.x[o[u]] = xi;
        c.p[o[u]] = rv[u] + beta * pv[u];
      }
    }
  }
}

// The boundary ghosts of p whose source cells lie in rows [row0, row1) (row = j + n1 k): those rows are at
// most three boxes (the rest of the first plane, whole planes, the start of the last one). After the block's
// stores of p; every block does its rows, so every non-constant ghost is written once. The constant ones
// (homogeneous Dirichlet boundary vertices) were filled before the launch and never change.
template <int NT, class Real>
__device__ __forceinline__ void fill_row_range_ghosts(const StencilCgArgs<Real>& a, int row0, int row1) {
  if (row1 <= row0) return;
  const FieldLayout& l = a.layout;
  const int n1 = l.n[1];
  const int k0 = row0 / n1, j0 = row0 - k0 * n1;
  const int kl = (row1 - 1) / n1, jl = row1 - 1 - kl * n1;
  __syncthreads();  // the block's stores of p are visible to the block
  Real* const f = a.p_alloc;
  auto fill_box = [&](int ja, int jb, int ka, int kb) {
    if (ja >= jb || ka >= kb) return;
    const int lo[3] = {0, ja, ka}, hi[3] = {l.n[0], jb, kb};
    const cuda_ops::FaceBoxGhosts g = cuda_ops::face_box_ghosts(l, a.faces, lo, hi);
    if (g.total() == 0) return;
    cuda_ops::fill_box_face_ghosts<NT, 1>(f, l, a.faces, g,
                                          [&](const int (&c)[3]) { return f[l.index(c[0], c[1], c[2])]; });
  };
  if (k0 == kl) {
    fill_box(j0, jl + 1, k0, k0 + 1);
  } else {
    fill_box(j0, n1, k0, k0 + 1);
    fill_box(0, n1, k0 + 1, kl);
    fill_box(0, jl + 1, kl, kl + 1);
  }
}

template <class Real, int DIM, int KIND, int RADIUS, class T>
__global__ void __launch_bounds__(T::BXT* T::BYT, pipelined_min_blocks<Real, DIM, KIND, RADIUS, T>())
    stencil_cg_kernel(const StencilCgArgs<Real> a) {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  constexpr int kMode = static_cast<int>(StencilMode::apply_dot);
  using C = TileCfg<Real, S, T, false>;
  constexpr int NT = C::NT;
  constexpr int kU = 2;  // cells per thread and step of the point-wise phases (update_r, update_x_p)
  extern __shared__ __align__(16) unsigned char stencil_cg_smem[];
  __shared__ __align__(8) StreamBarriers<C> bars;
  stream_barriers_init<C>(bars);
  StreamPipeState pipe;
  Real* const tiles = reinterpret_cast<Real*>(stencil_cg_smem);
  Real* const cr = reinterpret_cast<Real*>(stencil_cg_smem + C::SMEM_BYTES);
  Real* const cx = cr + a.cache_r;
  cgrp::grid_group grid = cgrp::this_grid();

  // The block's cells of the point-wise phases (rows [row0, row1), row = j + n1 k), the same in every
  // iteration. Derived again where needed rather than kept in registers across the streaming body.
  auto cells_of_block = [&]() {
    BlockCells<Real> c;
    const long rows = static_cast<long>(a.layout.n[1]) * a.layout.n[2];
    c.x = a.x;
    c.r = a.r;
    c.p = a.p;
    c.q = a.q;
    c.cr = cr;
    c.cx = cx;
    c.row0 = static_cast<int>(rows * blockIdx.x / gridDim.x);
    c.nx = a.layout.n[0];
    c.n1 = a.layout.n[1];
    c.cells = (static_cast<int>(rows * (blockIdx.x + 1) / gridDim.x) - c.row0) * c.nx;
    c.kr = min(a.cache_r, c.cells);
    c.kx = min(a.cache_x, c.cells);
    c.sy = a.sy;
    c.sz = a.sz;
    c.div_nx = a.div_nx;
    c.div_n1 = a.div_n1;
    return c;
  };
  const int t = threadIdx.x;
  {
    const BlockCells<Real> c = cells_of_block();
    for (int e = t; e < c.kr; e += NT) cr[e] = a.r[c.offset(e)];
    for (int e = t; e < c.kx; e += NT) cx[e] = a.x[c.offset(e)];
  }
  // The loop's scalars live in shared memory (block-uniform), for the same reason.
  __shared__ double loop_rr, loop_pq, sum_pq, sum_rr;
  __shared__ long loop_k;
  __shared__ int loop_stop;
  if (t == 0) {
    loop_rr = a.rr;
    loop_pq = 0.0;
    loop_k = a.first;
    loop_stop = kCgBudget;
  }
  __syncthreads();
  const long last = a.first + a.iterations;
  while (loop_k < last) {
    // ---- A: q = A p, p.q -----------------------------------------------------------------------------
    const double dot = stream_sweep<Real, S, kMode, false, T>(a.s, a.p, a.q, tiles, bars, pipe);
    store_block_partial<NT>(a.part_pq, dot);
    grid.sync();
    const double pq = grid_partials_total(a.part_pq, &sum_pq);
    const double rr = loop_rr;
    const long k = loop_k;
    if (!(pq > 0.0) || !isfinite(pq)) {
      if (t == 0) {
        loop_pq = pq;
        loop_stop = kCgBreakdown;
      }
      break;
    }
    // ---- B: r -= alpha q, r.r ----------------------------------------------------------------------------
    const Real alpha = static_cast<Real>(rr / pq);
    store_block_partial<NT>(a.part_rr, update_r<NT, kU>(cells_of_block(), alpha));
    grid.sync();
    const double rr_new = grid_partials_total(a.part_rr, &sum_rr);
    // ---- C: x += alpha p, p = r + beta p, p's boundary ghosts ------------------------------------------
    const Real beta = static_cast<Real>(rr_new / rr);
    const BlockCells<Real> c = cells_of_block();
    update_x_p<NT, kU>(c, alpha, beta);
    fill_row_range_ghosts<NT>(a, c.row0, c.row0 + c.cells / c.nx);
    if constexpr (C::BULK) fence_global_for_bulk_reads();  // the next A copies p with the bulk (TMA) engine
    if (blockIdx.x == 0 && t == 0) a.history[k - a.first] = rr_new;
    const double res = sqrt(rr_new);
    const bool stop = a.stop.cg_stops(k + 1, res);
    __syncthreads();  // every thread has read the loop scalars
    if (t == 0) {
      loop_rr = rr_new;
      loop_pq = pq;
      loop_k = k + 1;
      loop_stop = stop ? kCgThreshold : kCgBudget;
    }
    __syncthreads();
    if (stop) break;
    if (k + 1 < last) grid.sync();  // the next A reads p's halo from other blocks
  }
  __syncthreads();
  {
    const BlockCells<Real> c = cells_of_block();
    for (int e = t; e < c.kr; e += NT) a.r[c.offset(e)] = cr[e];
    for (int e = t; e < c.kx; e += NT) a.x[c.offset(e)] = cx[e];
  }
  if (blockIdx.x == 0 && t == 0) {
    write_cg_loop_result(a.result, loop_k - a.first, loop_stop, loop_rr, loop_pq);
  }
}

// One tile: the per-sweep decomposition of the apply kernel within this kernel's co-residency, then the
// shared memory left beside the ring for r, then x.
template <class Real, ShapeSpec S, class T>
StencilCgLaunch launch_stencil_cg_tile(const StencilCgRequest<Real>& q) {
  using C = TileCfg<Real, S, T, false>;
  auto kernel = stencil_cg_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, T>;
  StencilCgLaunch out;
  const StencilRequest<Real>& r = q.base;
  static const int ring_occupancy = blocks_per_sm(kernel, C::NT, C::SMEM_BYTES);
  if (ring_occupancy < 1) return out;
  StencilCgArgs<Real> a{};
  long blocks = 0;
  if (!plan_stream_grid<Real, S, T, false>(r, ring_occupancy, T::IPB, a.s, &blocks)) return out;
  if (q.max_blocks > 0) blocks = std::min<long>(blocks, q.max_blocks);
  blocks = std::min<long>(blocks, static_cast<long>(ring_occupancy) * r.sm_count);
  blocks = std::min<long>(blocks, kMaxPartials / 2);
  const FieldLayout& l = r.layout;
  const long rows = static_cast<long>(l.n[1]) * l.n[2];
  // More blocks than stream items where the point-wise phases need them (small domains: the per-sweep
  // decomposition gives a few long items); blocks without an item only take part in phases B and C.
  if (q.max_blocks <= 0)
    blocks = std::max(blocks, std::min<long>(static_cast<long>(ring_occupancy) * r.sm_count,
                                             l.owned_size() / (static_cast<long>(C::NT) * 16) + 1));
  blocks = std::max(1L, std::min(blocks, rows));
  const long cells_max = (rows + blocks - 1) / blocks * l.n[0];

  cudaFuncAttributes attr{};
  PERKSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  const long per_sm = (blocks + r.sm_count - 1) / r.sm_count;
  long spare = smem_per_block_share(q.device.smem_per_sm, q.device.smem_per_block, per_sm) -
               static_cast<long>(attr.sharedSizeBytes) - C::SMEM_BYTES;
  if (q.cache_bytes >= 0) spare = std::min(spare, q.cache_bytes);
  long budget = std::max(0L, spare) / static_cast<long>(sizeof(Real));
  const long cache_r = std::min(cells_max, budget);
  budget -= cache_r;
  const long cache_x = std::min(cells_max, budget);
  const int smem = C::SMEM_BYTES + static_cast<int>((cache_r + cache_x) * static_cast<long>(sizeof(Real)));
  if (blocks_per_sm(kernel, C::NT, smem) * static_cast<long>(r.sm_count) < blocks) return out;  // not co-resident

  const long origin = l.index(0, 0, 0);
  a.x = q.x + origin;
  a.r = q.r + origin;
  a.p = const_cast<Real*>(r.x) + origin;
  a.q = r.out + origin;
  a.p_alloc = const_cast<Real*>(r.x);
  a.layout = l;
  a.faces = q.faces;
  a.sy = static_cast<int>(l.stride_y());
  a.sz = static_cast<int>(l.stride_z());
  a.div_nx = FastDivU32(static_cast<unsigned>(l.n[0]));
  a.div_n1 = FastDivU32(static_cast<unsigned>(l.n[1]));
  a.iterations = q.iterations;
  a.first = q.first;
  a.rr = q.rr;
  a.stop = q.stop;
  a.cache_r = static_cast<int>(cache_r);
  a.cache_x = static_cast<int>(cache_x);
  a.part_pq = r.partials;
  a.part_rr = r.partials + kMaxPartials / 2;
  a.result = q.result_dev;
  a.history = q.history_dev;
  void* args[] = {&a};
  PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                                                   dim3(C::NT), args, static_cast<std::size_t>(smem), r.stream));
  out.launched = true;
  out.blocks = static_cast<int>(blocks);
  out.threads = C::NT;
  long kept_r = 0, kept_x = 0;
  for (long b = 0; b < blocks; ++b) {
    const long c = (rows * (b + 1) / blocks - rows * b / blocks) * l.n[0];
    kept_r += std::min(c, cache_r);
    kept_x += std::min(c, cache_x);
  }
  const double n = static_cast<double>(l.owned_size());
  out.cached_r = static_cast<double>(kept_r) / n;
  out.cached_x = static_cast<double>(kept_x) / n;
  return out;
}

// The smallest wide tile of the shape (256 / 512 threads, 128 registers). With the 1024-thread tiles (64
// registers) the CG loop's state around the streaming body spilled 570-950 bytes per thread (ptxas).
template <class Real, ShapeSpec S>
StencilCgLaunch launch_stencil_cg(const StencilCgRequest<Real>& q) {
  if (q.base.work_counters == nullptr) return StencilCgLaunch{};
  return launch_stencil_cg_tile<Real, S, WideTune<Real, S, false>>(q);
}

template <class Real, ShapeSpec... Ss>
StencilCgLaunch dispatch_stencil_cg(const StencilCgRequest<Real>& q) {
  StencilCgLaunch result;
  (void)((q.base.stencil->shape == Ss ? (result = launch_stencil_cg<Real, Ss>(q), true) : false) || ...);
  return result;
}

// The operators CG runs on: the Laplacian shapes (7- and 27-point in 3D, 5- and 9-point in 2D). Any other
// constant stencil iterates operation by operation.
#define PERKSOLVE_CUDA_SHAPES_CG                                                                     \
  ShapeSpec{3, ShapeKind::star, 1}, ShapeSpec{3, ShapeKind::box, 1}, ShapeSpec{2, ShapeKind::star, 1}, \
      ShapeSpec { 2, ShapeKind::box, 1 }

}  // namespace

template <class Real>
StencilCgLaunch launch_templated_stencil_cg(const StencilCgRequest<Real>& q) {
  return dispatch_stencil_cg<Real, PERKSOLVE_CUDA_SHAPES_CG>(q);
}

template StencilCgLaunch launch_templated_stencil_cg<float>(const StencilCgRequest<float>&);
template StencilCgLaunch launch_templated_stencil_cg<double>(const StencilCgRequest<double>&);

}  // namespace perksolve::cuda_detail
