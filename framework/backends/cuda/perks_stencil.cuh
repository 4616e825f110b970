// PERKS stencil iteration (issue 6, after Zhang et al.): the sweep loop of an explicit stencil iteration
// (x <- S x) or of weighted Jacobi (x <- x + omega/a_c (b - A x)) inside ONE cooperative kernel.
//
//  * Each block owns fixed work items (tile x chunk of planes, the streaming kernel's decomposition,
//    dealt round-robin) for the whole run and streams them every sweep with the streaming kernel's compute
//    (stream_plane: the same bits as the per-sweep kernel).
//  * Caching: the first `cache_planes` output planes of a block (in its processing order) stay in shared
//    memory between sweeps, the tile's cells only. At the next sweep a cached plane's tile comes from the
//    cache; only its halo ring is loaded from global memory. A cached output is written to global memory only
//    where another block or the boundary rule reads it: the tile's boundary ring of width R (clipped to the
//    domain), the first and last R planes of its chunk, and the cells within ghost + 1 of the domain's edge
//    (the cells a boundary face mirrors, e.g. index 1 for a vertex-centred Neumann face). The paper's priority: interior cells, then block
//    boundary cells, never halos.
//  * Boundary faces: after each item the block fills the ghosts of the new iterate whose source cells are in
//    the item (perks_fill_box_ghosts; the composed rule of grid_point_ops.cuh). Between sweeps: one
//    device-wide barrier.
//  * Jacobi: the fused residual norm of the input iterate is reduced in the kernel every sweep; at the
//    sweeps the solver checks (k % check_every == 0) the kernel stops when sqrt(rr) meets one of the
//    thresholds the host passes (rtol * r0, atol, divergence) or is not finite. Every block sums the block
//    partials in the same order, so all blocks take the same decision. A stop keeps the stopping sweep's
//    INPUT iterate (as the Jacobi solver does), so the sweep before a check sweep writes all its outputs
//    to global memory as well as to the cache: with check_every = 1 caching then saves loads only.
//  * After the last sweep every cached plane is written back to global memory.
//
// Restrictions (the launcher checks them): scalar cp.async loads and static items (a Tune with VEC = 0,
// DYN = false), constant coefficients, one rank (no MPI halos in the kernel), no periodic axes.
#pragma once

#include "framework/backends/cuda/perks_model.hpp"
#include "framework/backends/cuda/perks_pipelined.cuh"
#include "framework/backends/cuda/perks_request.cuh"
#include "framework/backends/cuda/perks_resident.cuh"
#include "framework/backends/cuda/perks_sweep_common.cuh"

namespace perksolve::cuda_detail {

template <class Real, int DIM, int KIND, int RADIUS, int MODE, bool SYM, class T>
__global__ void __launch_bounds__(T::BXT* T::BYT, 1) perks_stencil_kernel(const PerksArgs<Real> pa) {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  constexpr bool kJacobi = MODE == static_cast<int>(StencilMode::jacobi);
  static_assert(MODE != static_cast<int>(StencilMode::residual), "PERKS iterates apply or Jacobi sweeps");
  using C = TileCfg<Real, S, T, kJacobi>;
  static_assert(!C::VEC && !T::DYN, "PERKS uses scalar loads and static items");
  using G = StreamGeo<S>;
  constexpr int MX = C::MX, MY = C::MY;
  constexpr int RX = G::RX, RY = G::RY, RS = G::RS;
  constexpr int NS = C::NS;
  constexpr int CP = C::BX * C::BY;  // cells of one cached tile plane
  const StreamArgs<Real, kMaxTemplatedPoints>& a = pa.s;

  extern __shared__ __align__(16) unsigned char perks_smem[];
  Real* const tiles = reinterpret_cast<Real*>(perks_smem);
  Real* const bbuf = tiles + NS * C::STAGE_ELEMS;
  Real* const cache = reinterpret_cast<Real*>(perks_smem + C::SMEM_BYTES);

  const int tid = threadIdx.x;
  const int tx = tid % C::BXT;
  const int ty = tid / C::BXT;
  int lrow[C::LOADS], lcol[C::LOADS];
  tile_load_units<C>(tid, lrow, lcol);  // scalar loads: C::V == 1

  const PerksLoopEnd end = perks_sweep_loop<kJacobi, C::NT, false>(pa, [&](long t, const Real* __restrict__ src,
                                                                    Real* __restrict__ dst) {
    const bool from_cache = t > 0;  // the cache holds the previous sweep's outputs
    // The next sweep is a check sweep: its input (this sweep's output) must be whole in global memory.
    const bool store_all = kJacobi && perks_is_check_sweep(pa, t + 1);
    double rsum = 0.0;

    // ---- issue cursor: input planes into the ring, NS - 1 ahead of the compute cursor ----
    long iu = blockIdx.x;
    int ip = 0, iP = 0, is0 = 0, ilen = 0, ibase = 0, ibx0 = 0, iby0 = 0;
    long goff[C::LOADS];
    bool ok[C::LOADS];
    auto issue_setup = [&]() {
      const long q = iu / a.tiles;
      const long u = iu - q * a.tiles;
      stream_chunk_planes(stream_chunks(a), q, is0, ilen);
      iP = ilen + 2 * RS;
      ibx0 = static_cast<int>(u % a.tiles_x) * C::BX;
      iby0 = static_cast<int>(u / a.tiles_x) * C::BY;
#pragma unroll
      for (int l = 0; l < C::LOADS; ++l) {
        const bool live = C::EXACT || tid + l * C::NT < C::NLOAD;
        scalar_tile_load<C>(a, ibx0, iby0, lrow[l], lcol[l], live, ok[l], goff[l]);
      }
    };
    if (iu < a.items) issue_setup();
    auto issue = [&](int slot) {
      if (iu < a.items) {
        const int k = is0 - RS + ip;
        Real* d = tiles + slot * C::STAGE_ELEMS;
        const int cidx = k >= is0 && k < is0 + ilen ? ibase + (k - is0) : -1;
        const bool cached = from_cache && cidx >= 0 && cidx < pa.cache_planes;
        const Real* plane = src + static_cast<long>(k) * a.step;
#pragma unroll
        for (int l = 0; l < C::LOADS; ++l) {
          if (!(C::EXACT || tid + l * C::NT < C::NLOAD)) continue;
          if (cached) {
            const int cy = lrow[l] - C::HY, cx = lcol[l] - C::HX;
            if (cy >= 0 && cy < C::BY && cx >= 0 && cx < C::BX && ibx0 + cx < a.nx && iby0 + cy < a.ny) {
              d[lrow[l] * C::SW + lcol[l]] = cache[static_cast<long>(cidx) * CP + cy * C::BX + cx];
              continue;
            }
          }
          cp_async_elem<sizeof(Real)>(d + lrow[l] * C::SW + lcol[l], ok[l] ? plane + goff[l] : src, ok[l]);
        }
        if constexpr (kJacobi) {
          if (ip >= 2 * RS) {
            const Real* bs = a.b + static_cast<long>(is0 + ip - 2 * RS) * a.step;
            stage_b_plane<C>(bbuf + slot * C::BB_ELEMS, bs, a, ibx0, iby0, tx, ty, tid);
          }
        }
        if (++ip == iP) {
          ip = 0;
          ibase += ilen;
          iu += gridDim.x;
          if (iu < a.items) issue_setup();
        }
      }
      cp_async_commit();
    };

#pragma unroll
    for (int p = 0; p < NS - 1; ++p) issue(p);

    // ---- compute cursor ----
    int slot = 0;
    int cbase = 0;  // cache counter of the first output plane of the current item
    for (long cu = blockIdx.x; cu < a.items; cu += gridDim.x) {
      const long q = cu / a.tiles;
      const long u = cu - q * a.tiles;
      int s0 = 0, len = 0;
      stream_chunk_planes(stream_chunks(a), q, s0, len);
      const int P = len + 2 * RS;
      const int x0 = static_cast<int>(u % a.tiles_x) * C::BX;
      const int y0 = static_cast<int>(u / a.tiles_x) * C::BY;
      const int xe = min(x0 + C::BX, a.nx), ye = min(y0 + C::BY, a.ny);  // the tile clipped to the domain
      const int ox0 = x0 + tx, oy0 = y0 + ty * MY;
      const long ooff = ox0 + oy0 * a.row_stride;

      Real acc[MY][MX][2 * RS + 1];
      Real xq[MY][MX][RS > 0 ? RS : 1];
      clear_stream_state(acc, xq);

      for (int i = 0; i < P; ++i) {
        cp_async_wait<NS - 2>();
        __syncthreads();
        issue(slot == 0 ? NS - 1 : slot - 1);
        const Real* cur = tiles + slot * C::STAGE_ELEMS + (ty * MY + C::HY) * C::SW + tx + C::HXL;
        stream_plane<Real, S, C, SYM, kJacobi>(cur, a.c, acc, xq, [&](int jy, int jx, Real sum, Real xc) {
          const int ox = ox0 + jx * C::BXT, oy = oy0 + jy;
          if (i < 2 * RS || ox >= a.nx || oy >= a.ny) return;
          const int z = s0 + i - 2 * RS;
          Real value = sum;
          if constexpr (kJacobi) {
            const Real r = bbuf[slot * C::BB_ELEMS + (jy * MX + jx) * C::NT + tid] - sum;
            value = xc + a.scale * r;
            rsum += static_cast<double>(r) * static_cast<double>(r);
          }
          Real* o = dst + ooff + jx * C::BXT + jy * a.row_stride + static_cast<long>(z) * a.step;
          const int cidx = cbase + (z - s0);
          if (cidx < pa.cache_planes) {
            cache[static_cast<long>(cidx) * CP + (oy - y0) * C::BX + (ox - x0)] = value;
            if (store_all || perks_read_by_others<RX, RY, RS>(pa, ox, oy, z, x0, y0, xe, ye, s0, len)) *o = value;
          } else {
            *o = value;
          }
        });
        slot = slot + 1 == NS ? 0 : slot + 1;
      }
      cbase += len;
      perks_fill_box_ghosts<C::NT, S.dim == 3>(pa, t, x0, xe, y0, ye, s0, len);
    }
    cp_async_wait<0>();
    return rsum;
  });

  // The cached planes back to global memory (the last written iterate: buf[done & 1]). After a Jacobi stop
  // the solver keeps the stopping sweep's input, buf[(done - 1) & 1], which the sweep before it wrote whole
  // (store_all); the stopping sweep's own outputs are discarded.
  Real* out = pa.buf[end.done & 1];
  if (!end.stopped && end.done > 0) {
    int cbase = 0;
    for (long cu = blockIdx.x; cu < a.items; cu += gridDim.x) {
      const long q = cu / a.tiles;
      const long u = cu - q * a.tiles;
      int s0 = 0, len = 0;
      stream_chunk_planes(stream_chunks(a), q, s0, len);
      const int x0 = static_cast<int>(u % a.tiles_x) * C::BX;
      const int y0 = static_cast<int>(u / a.tiles_x) * C::BY;
      for (int z = s0; z < s0 + len && cbase + (z - s0) < pa.cache_planes; ++z) {
        const long cidx = cbase + (z - s0);
        for (int c = tid; c < CP; c += C::NT) {
          const int cy = c / C::BX, cx = c - cy * C::BX;
          if (x0 + cx < a.nx && y0 + cy < a.ny)
            out[(x0 + cx) + (y0 + cy) * a.row_stride + static_cast<long>(z) * a.step] = cache[cidx * CP + c];
        }
      }
      cbase += len;
    }
  }
  perks_store_result(pa, end);
}

}  // namespace perksolve::cuda_detail

namespace perksolve::cuda_detail {

// The PERKS tile of a shape: the medium streaming tile (docs/perf/two-load-stencils.md) with static items
// and scalar loads, and 3D R = 1 at 512 threads (one block per SM with 128 registers per thread: the
// persistent kernel's extra state spills at 1024 x 64). Every PERKS shape has one tile: 13 shapes x
// (apply, Jacobi) x 2 precisions + the symmetric 27-point variant = 56 kernels.
template <class Real, ShapeSpec S, bool HASB>
struct PerksTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  using type = std::conditional_t<
      S.dim == 3,
      std::conditional_t<S.radius == 1,
                         std::conditional_t<F64, Tune<256, 2, 1, 2, 3, 1, 0, false, 0>,
                                            Tune<256, 2, 1, HASB ? 2 : 4, 3, 1, 0, false, 0>>,
                         std::conditional_t<F64, Tune<64, 4, 1, HASB ? 2 : 4, 3, 1, 0, false, 0>,
                                            Tune<128, 2, 1, HASB ? 4 : 8, 3, 1, 0, false, 0>>>,
      std::conditional_t<(S.radius > 4), Tune<256, 1, F64 ? 2 : 4, 1, 0, 1, 0, false, 0>,
                         std::conditional_t<F64, Tune<512, 1, 2, 1, 8, 1, 0, false, 0>,
                                            Tune<512, 1, 4, 1, 6, 1, 0, false, 0>>>>;
};

template <class Real, ShapeSpec S, int MODE, bool SYM>
PerksLaunch launch_perks_stencil(const PerksRequest<Real>& pr) {
  constexpr bool kHasB = MODE == static_cast<int>(StencilMode::jacobi);
  using T = typename PerksTuneSel<Real, S, kHasB>::type;
  using C = TileCfg<Real, S, T, kHasB>;
  auto kernel = perks_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, T>;
  PerksLaunch out;
  const StencilRequest<Real>& r = pr.base;
  PerksArgs<Real> pa{};
  pa.s = stream_geometry<Real, S, C>(r);
  StreamArgs<Real, kMaxTemplatedPoints>& a = pa.s;
  if (a.tiles <= 0 || a.ns <= 0) return out;
  // The concurrency model (perks_model.hpp): blocks per SM from Little's law within the occupancy of the
  // kernel without a cache, then the cache from the shared memory left. Per kernel, once (all devices of a
  // process are taken to be alike): its static shared memory and its occupancy without a cache.
  struct KernelFacts {
    long static_smem = 0;
    int occupancy = 0;
  };
  static const KernelFacts facts = [&] {
    KernelFacts k;
    cudaFuncAttributes fa{};
    PERKSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    k.static_smem = static_cast<long>(fa.sharedSizeBytes);
    k.occupancy = blocks_per_sm(kernel, C::NT, C::SMEM_BYTES);
    return k;
  }();
  if (facts.occupancy < 1) return out;  // cannot be resident (registers): the caller sweeps one kernel at a time
  const PerksDeviceModel& dm = pr.device;
  PerksTileModel tm;
  tm.ring_bytes = C::SMEM_BYTES + facts.static_smem;
  tm.inflight_bytes = static_cast<long>(C::NS - 1) * C::STAGE_BYTES;
  tm.plane_cells = static_cast<long>(C::BX) * C::BY;
  tm.plane_bytes = tm.plane_cells * static_cast<long>(sizeof(Real));
  {
    using G = StreamGeo<S>;
    tm.ring_share = tile_ring_share(C::BX, C::BY, G::RX, S.dim == 3 ? G::RY : 0, C::HX, C::HY);
  }
  tm.max_blocks_per_sm = facts.occupancy;
  // Blocks per SM first (they set the item split), then the items, then the cache.
  const int per_sm_wanted = perks_blocks_per_sm(dm, tm);
  // Items (tile x chunk of planes), dealt round-robin to the blocks for the whole run: choose the number
  // of chunks q that minimises the makespan, rounds x (chunk + 2R) planes (a block that gets one item more
  // than the others sets the pace of every sweep; measured: 192 items on 132 blocks ran at 0.6 of the
  // per-sweep kernel).
  long max_blocks = static_cast<long>(r.sm_count) * per_sm_wanted;
  if (pr.max_blocks > 0) max_blocks = std::min<long>(max_blocks, pr.max_blocks);
  {
    using G = StreamGeo<S>;
    const long q_max = std::max(1L, std::min<long>(a.ns / std::max(4, 2 * G::RS), 4096));
    long best_q = 1, best_cost = -1;
    for (long qq = 1; qq <= q_max; ++qq) {
      const long chunk = (a.ns + qq - 1) / qq;
      const long items = a.tiles * ((a.ns + chunk - 1) / chunk);
      const long nb = std::min(max_blocks, items);
      const long cost = (items + nb - 1) / nb * (chunk + 2 * G::RS);
      if (best_cost < 0 || cost < best_cost) best_cost = cost, best_q = qq;
    }
    a.chunk = static_cast<int>((a.ns + best_q - 1) / best_q);
    a.items = a.tiles * stream_chunk_count(stream_chunks(a));
  }
  const int blocks = static_cast<int>(std::min<long>(max_blocks, a.items));
  PerksDomainModel dom;
  dom.cells = static_cast<double>(a.nx) * a.ny * a.ns;
  dom.bytes_per_sweep = dom.cells * static_cast<double>(sizeof(Real)) * (kHasB ? 3.0 : 2.0);
  dom.blocks = blocks;
  dom.planes_per_block = (a.items + blocks - 1) / blocks * a.chunk;
  const PerksPlan plan = plan_perks(dm, tm, dom, pr.cache_bytes);
  const int planes = plan.cache_planes;
  const long smem = C::SMEM_BYTES + planes * tm.plane_bytes;
  const int per_sm = blocks_per_sm(kernel, C::NT, static_cast<int>(smem));
  if (per_sm < 1 || static_cast<long>(per_sm) * r.sm_count < blocks) return out;  // never over-subscribed
  fill_perks_args<Real, S.dim>(pa, pr);
  pa.cache_planes = planes;
  void* args[] = {&pa};
  PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                                                   dim3(C::NT), args, static_cast<std::size_t>(smem), r.stream));
  out.launched = true;
  out.kernel = PerksKernel::streaming;
  out.blocks = blocks;
  out.threads = C::NT;
  out.cache_planes = planes;
  out.cached_fraction = plan.cached_fraction;
  out.inflight_bytes_per_sm = plan.inflight_per_sm;
  out.needed_bytes_per_sm = plan.needed_per_sm;
  out.model_speedup = plan.predicted_speedup;
  return out;
}

// The kernel asked for, or (automatic) the resident kernel where the domain fits, else the pipelined one
// (docs/perf/perks.md: on domains larger than the on-chip memory the cached streaming kernel measured
// 0.65-0.85 of the per-sweep rate before its cache, the pipelined one runs at that rate).
template <class Real, ShapeSpec S, int MODE, bool SYM>
PerksLaunch launch_perks_kernel(const PerksRequest<Real>& pr) {
  switch (pr.kernel) {
    case PerksKernel::resident: return launch_perks_resident<Real, S, MODE, SYM>(pr);
    case PerksKernel::pipelined: return launch_perks_pipelined<Real, S, MODE, SYM>(pr);
    case PerksKernel::streaming: return launch_perks_stencil<Real, S, MODE, SYM>(pr);
    case PerksKernel::automatic: break;
  }
  const PerksLaunch res = launch_perks_resident<Real, S, MODE, SYM>(pr);
  if (res.launched) return res;
  return launch_perks_pipelined<Real, S, MODE, SYM>(pr);
}

template <class Real, ShapeSpec S, bool SYM>
PerksLaunch launch_perks_mode(const PerksRequest<Real>& pr, StencilMode mode) {
  if (mode == StencilMode::jacobi) return launch_perks_kernel<Real, S, static_cast<int>(StencilMode::jacobi), SYM>(pr);
  return launch_perks_kernel<Real, S, static_cast<int>(StencilMode::apply), SYM>(pr);
}

}  // namespace perksolve::cuda_detail
