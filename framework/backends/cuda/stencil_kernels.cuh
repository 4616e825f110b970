// Streaming stencil kernels after Krotkiewski & Dabrowski, generated from a ShapeSpec.
//
//  * A thread block owns a BX x BY tile of one "plane" (3D: an XY plane, z streamed; 2D: a row
//    segment, y streamed) and walks along the streamed axis.
//  * Each step loads ONE input plane of the tile plus its halo into shared memory. The x halo is
//    widened to whole 32-byte sectors (HX elements), and BX x BY is chosen so that the loaded
//    (BX + 2 HX) x (BY + 2 RY) tile holds exactly twice as many values as there are threads: the
//    tile + halo is read by two coalesced, branch-free load instructions per thread ("halo =
//    interior"). fp32: 32x6 threads -> 48x8 loaded (two 48x4 loads); fp64: 24x4 threads -> 32x6
//    loaded (two 32x3 loads, each warp reading one whole 256-byte row).
//  * Every thread reads the in-plane neighbours it needs from shared memory once and adds the
//    plane's contribution to the 2R+1 output planes it touches; the partial sums live in registers
//    (a shift register along the streamed axis), and the oldest one is written when complete.
//  * Software prefetching: planes are copied global->shared with cp.async, NS-1 planes ahead of the
//    one being computed (a ring of NS shared buffers, one __syncthreads per plane).
//  * CSE (SYM = true): for mirror-symmetric coefficients the in-plane values are first summed per
//    class (|dx|, |dy|), and one weighted sum per |dz| serves both dz and -dz.
//  * Work distribution: a persistent grid (one wave of resident blocks); the (tile, plane) work items
//    are split into equal contiguous ranges, one per block, so every block streams the same number
//    of planes whatever the grid size (no tail wave).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include <type_traits>

#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/stencil/shape.hpp"

namespace perksolve::cuda_detail {

// cp.async of one element into shared memory; when !pred nothing is read and zeros are stored.
template <int SIZE>
__device__ __forceinline__ void cp_async_elem(void* smem, const void* gmem, bool pred) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int src_size = pred ? SIZE : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(gmem), "n"(SIZE), "r"(src_size)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

template <int B, int E, class F>
__device__ __forceinline__ void static_for(F&& f) {
  if constexpr (B < E) {
    f(std::integral_constant<int, B>{});
    static_for<B + 1, E>(f);
  }
}

// Geometry of a shape seen by the streaming kernel: in-plane (ix, iy) and streamed ds offsets.
template <ShapeSpec S>
struct StreamGeo {
  static constexpr int dim = S.dim;
  static constexpr int R = S.radius;
  static constexpr int RX = R;
  static constexpr int RY = dim == 3 ? R : 0;
  static constexpr int RS = R;
  static constexpr int NP = shape_point_count(S);
  // Canonical coefficient index of in-plane (ix, iy), streamed ds; -1 when not in the shape.
  __host__ __device__ static constexpr int index(int ix, int iy, int ds) {
    int dx = ix, dy = 0, dz = 0;
    if constexpr (dim == 3) {
      dy = iy;
      dz = ds;
    } else {
      if (iy != 0) return -1;
      dy = ds;
    }
    if (!shape_contains(S, dx, dy, dz)) return -1;
    int n = 0;
    const int rz = dim == 3 ? R : 0;
    for (int z = -rz; z <= rz; ++z)
      for (int y = -R; y <= R; ++y)
        for (int x = -R; x <= R; ++x)
          if (shape_contains(S, x, y, z)) {
            if (x == dx && y == dy && z == dz) return n;
            ++n;
          }
    return -1;
  }
  __host__ __device__ static constexpr bool needed(int ix, int iy) {
    for (int ds = -RS; ds <= RS; ++ds)
      if (index(ix, iy, ds) >= 0) return true;
    return false;
  }
};

// Tile configuration (see the header comment). Valid for radius <= one sector in elements.
template <class Real, ShapeSpec S>
struct TileCfg {
  static constexpr int R = S.radius;
  static constexpr int SECTOR = 32 / static_cast<int>(sizeof(Real));
  static constexpr int HX = ((R + SECTOR - 1) / SECTOR) * SECTOR;
  static constexpr int HY = S.dim == 3 ? R : 0;
  static constexpr int BX = S.dim == 3 ? (sizeof(Real) == 8 ? 24 : 32) : 256;
  static constexpr int BY = S.dim == 3 ? (sizeof(Real) == 8 ? 4 * R : 6 * R) : 1;
  static constexpr int NT = BX * BY;
  static constexpr int TW = BX + 2 * HX;
  static constexpr int TH = BY + 2 * HY;
  static constexpr int LOADS = (TW * TH + NT - 1) / NT;
  static constexpr bool EXACT = TW * TH == LOADS * NT;
  // Shared row stride: make a warp's compute-phase reads bank-conflict free (row-major thread
  // index -> SW congruent to BX modulo the 128-byte bank period).
  static constexpr int PERIOD = 128 / static_cast<int>(sizeof(Real));
  static constexpr int SW = (BX % PERIOD == 0 || BY == 1) ? TW : TW + (((BX - TW) % PERIOD) + PERIOD) % PERIOD;
  static constexpr int NS = 4;  // shared-memory ring depth: NS-1 planes in flight
  static_assert(S.dim == 2 || R <= SECTOR, "3D radius larger than a sector is not supported by TileCfg");
  static_assert(S.dim == 2 || EXACT, "3D tiles must satisfy the two-load property");
};

constexpr int kMaxTemplatedPoints = 27;

template <class Real, int NP>
struct StreamArgs {
  const Real* x;     // element (0,0,0) of the input
  const Real* b;     // element (0,0,0) of b (residual / jacobi)
  Real* out;         // element (0,0,0) of the output
  double* partials;  // jacobi: one per block
  long row_stride;   // stride of the in-plane second axis (3D: y; 2D: z)
  long step;         // stride of the streamed axis (3D: z; 2D: y)
  int nx, ny, ns;    // owned extents: x, in-plane second axis, streamed axis
  int gx, gy;        // ghost widths of x and the in-plane second axis (load bounds)
  int tiles_x;
  long total_work;      // tiles * ns
  long work_per_block;  // contiguous work items per block
  Real scale;
  Real c[NP];
};

// Kernel template parameters are plain ints (nvcc 13's host-stub generator cannot spell class-type
// non-type template arguments); the ShapeSpec is rebuilt inside.
template <class Real, int DIM, int KIND, int RADIUS, int MODE, bool SYM>
__global__ void __launch_bounds__(TileCfg<Real, ShapeSpec{DIM, static_cast<ShapeKind>(KIND), RADIUS}>::NT)
    stream_stencil_kernel(const StreamArgs<Real, kMaxTemplatedPoints> a) {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  using C = TileCfg<Real, S>;
  using G = StreamGeo<S>;
  constexpr int RX = G::RX, RY = G::RY, RS = G::RS;
  constexpr bool kHasB = MODE != static_cast<int>(StencilMode::apply);
  constexpr bool kJacobi = MODE == static_cast<int>(StencilMode::jacobi);

  __shared__ __align__(16) Real tile[C::NS][C::TH * C::SW];
  __shared__ __align__(16) Real bbuf[kHasB ? C::NS : 1][kHasB ? C::NT : 1];

  const int tid = threadIdx.x;
  const int tx = tid % C::BX;
  const int ty = tid / C::BX;
  double rsum = 0.0;

  const long w_begin = static_cast<long>(blockIdx.x) * a.work_per_block;
  const long w_end = min(a.total_work, w_begin + a.work_per_block);

  for (long w = w_begin; w < w_end;) {
    const long t = w / a.ns;
    const int s0 = static_cast<int>(w - t * a.ns);
    const int s1 = static_cast<int>(min(static_cast<long>(a.ns), s0 + (w_end - w)));
    w += s1 - s0;
    const int bx = static_cast<int>(t % a.tiles_x);
    const int by = static_cast<int>(t / a.tiles_x);
    const int x0 = bx * C::BX, y0 = by * C::BY;

    // Two-load mapping of the threads onto the loaded tile (precomputed once per segment).
    long goff[C::LOADS];
    int soff[C::LOADS];
    bool ok[C::LOADS];
#pragma unroll
    for (int l = 0; l < C::LOADS; ++l) {
      const int idx = tid + l * C::NT;
      const int row = idx / C::TW;
      const int col = idx - row * C::TW;
      const int gx = x0 - C::HX + col;
      const int gy = y0 - C::HY + row;
      ok[l] = (C::EXACT || idx < C::TW * C::TH) && gx >= -a.gx && gx < a.nx + a.gx && gy >= -a.gy &&
              gy < a.ny + a.gy;
      goff[l] = ok[l] ? gx + gy * a.row_stride : 0;
      soff[l] = (C::EXACT || idx < C::TW * C::TH) ? row * C::SW + col : 0;
    }
    const int ox = x0 + tx, oy = y0 + ty;
    const bool active = ox < a.nx && oy < a.ny;
    const long ooff = active ? ox + oy * a.row_stride : 0;
    const int P = s1 - s0 + 2 * RS;  // input planes of this segment

    __syncthreads();  // all threads done with the ring of the previous segment

    auto issue = [&](int p) {
      if (p < P) {
        const int k = s0 - RS + p;
        const Real* src = a.x + static_cast<long>(k) * a.step;
        Real* dst = tile[p % C::NS];
#pragma unroll
        for (int l = 0; l < C::LOADS; ++l) {
          if (C::EXACT || tid + l * C::NT < C::TW * C::TH)
            cp_async_elem<sizeof(Real)>(dst + soff[l], ok[l] ? src + goff[l] : a.x, ok[l]);
        }
        if constexpr (kHasB) {
          if (p >= 2 * RS) {
            const int s = s0 + p - 2 * RS;
            cp_async_elem<sizeof(Real)>(&bbuf[p % C::NS][tid],
                                        active ? a.b + ooff + static_cast<long>(s) * a.step : a.b, active);
          }
        }
      }
      cp_async_commit();
    };

#pragma unroll
    for (int p = 0; p < C::NS - 1; ++p) issue(p);

    Real acc[2 * RS + 1];
#pragma unroll
    for (int j = 0; j < 2 * RS + 1; ++j) acc[j] = Real(0);
    Real xq[RS > 0 ? RS : 1];
#pragma unroll
    for (int j = 0; j < (RS > 0 ? RS : 1); ++j) xq[j] = Real(0);

    for (int i = 0; i < P; ++i) {
      cp_async_wait<C::NS - 2>();
      __syncthreads();
      issue(i + C::NS - 1);

      const Real* cur = tile[i % C::NS] + (ty + C::HY) * C::SW + tx + C::HX;
      Real v[2 * RY + 1][2 * RX + 1];
      static_for<-RY, RY + 1>([&](auto IY) {
        constexpr int iy = decltype(IY)::value;
        static_for<-RX, RX + 1>([&](auto IX) {
          constexpr int ix = decltype(IX)::value;
          if constexpr (G::needed(ix, iy)) v[iy + RY][ix + RX] = cur[iy * C::SW + ix];
        });
      });

      if constexpr (!SYM) {
        // Canonical order within the plane (dy outer, dx inner) for every output plane it feeds.
        static_for<-RS, RS + 1>([&](auto DS) {
          constexpr int ds = decltype(DS)::value;
          static_for<-RY, RY + 1>([&](auto IY) {
            constexpr int iy = decltype(IY)::value;
            static_for<-RX, RX + 1>([&](auto IX) {
              constexpr int ix = decltype(IX)::value;
              constexpr int ci = G::index(ix, iy, ds);
              if constexpr (ci >= 0) acc[RS - ds] = fma(a.c[ci], v[iy + RY][ix + RX], acc[RS - ds]);
            });
          });
        });
      } else {
        // Class sums over the mirror images (|ix|, |iy|), then one weighted sum per |ds|.
        Real cls[RY + 1][RX + 1];
        static_for<0, RY + 1>([&](auto AY) {
          constexpr int ay = decltype(AY)::value;
          static_for<0, RX + 1>([&](auto AX) {
            constexpr int ax = decltype(AX)::value;
            if constexpr (G::needed(ax, ay)) {
              Real sum = v[RY + ay][RX + ax];
              if constexpr (ax > 0) sum += v[RY + ay][RX - ax];
              if constexpr (ay > 0) {
                Real other = v[RY - ay][RX + ax];
                if constexpr (ax > 0) other += v[RY - ay][RX - ax];
                sum += other;
              }
              cls[ay][ax] = sum;
            }
          });
        });
        static_for<0, RS + 1>([&](auto ADS) {
          constexpr int ads = decltype(ADS)::value;
          Real tsum = Real(0);
          static_for<0, RY + 1>([&](auto AY) {
            constexpr int ay = decltype(AY)::value;
            static_for<0, RX + 1>([&](auto AX) {
              constexpr int ax = decltype(AX)::value;
              constexpr int ci = G::index(ax, ay, ads);
              if constexpr (ci >= 0) tsum = fma(a.c[ci], cls[ay][ax], tsum);
            });
          });
          acc[RS - ads] += tsum;
          if constexpr (ads > 0) acc[RS + ads] += tsum;
        });
      }

      const Real xc_out = xq[0];
      if (i >= 2 * RS) {
        const int s = s0 + i - 2 * RS;
        if (active) {
          Real* o = a.out + ooff + static_cast<long>(s) * a.step;
          if constexpr (!kHasB) {
            *o = acc[0];
          } else {
            const Real bv = bbuf[i % C::NS][tid];
            const Real r = bv - acc[0];
            if constexpr (kJacobi) {
              *o = xc_out + a.scale * r;
              rsum += static_cast<double>(r) * static_cast<double>(r);
            } else {
              *o = r;
            }
          }
        }
      }
#pragma unroll
      for (int j = 0; j < 2 * RS; ++j) acc[j] = acc[j + 1];
      acc[2 * RS] = Real(0);
      if constexpr (kJacobi) {
#pragma unroll
        for (int j = 0; j + 1 < RS; ++j) xq[j] = xq[j + 1];
        xq[RS - 1] = v[RY][RX];
      }
    }
  }

  if constexpr (kJacobi) {
    // Block reduction of the squared residual, fixed order.
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) rsum += __shfl_down_sync(0xffffffffu, rsum, o);
    __shared__ double warp_sums[(C::NT + 31) / 32];
    if ((tid & 31) == 0) warp_sums[tid >> 5] = rsum;
    __syncthreads();
    if (tid == 0) {
      double s = 0.0;
      for (int wdx = 0; wdx < (C::NT + 31) / 32; ++wdx) s += warp_sums[wdx];
      a.partials[blockIdx.x] = s;
    }
  }
}

// Launch one instantiation with a persistent, load-balanced grid. Returns the number of blocks.
template <class Real, ShapeSpec S, int MODE, bool SYM>
int launch_stream_stencil(const StencilRequest<Real>& r) {
  using C = TileCfg<Real, S>;
  using G = StreamGeo<S>;
  static_assert(G::NP <= kMaxTemplatedPoints);
  auto kernel = stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM>;
  static int per_sm = -1;
  if (per_sm < 0) {
    int v = 0;
    PERKSOLVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, C::NT, 0));
    per_sm = v > 0 ? v : 1;
  }
  const FieldLayout& l = r.layout;
  StreamArgs<Real, kMaxTemplatedPoints> a{};
  const long origin = l.index(0, 0, 0);
  a.x = r.x + origin;
  a.b = r.b ? r.b + origin : nullptr;
  a.out = r.out + origin;
  a.partials = r.partials;
  a.nx = l.n[0];
  a.gx = l.ghost[0];
  if constexpr (S.dim == 3) {
    a.row_stride = l.stride_y();
    a.step = l.stride_z();
    a.ny = l.n[1];
    a.gy = l.ghost[1];
    a.ns = l.n[2];
  } else {
    a.row_stride = l.stride_z();
    a.step = l.stride_y();
    a.ny = l.n[2];
    a.gy = l.ghost[2];
    a.ns = l.n[1];
  }
  a.scale = r.scale;
  for (int p = 0; p < G::NP; ++p) a.c[p] = static_cast<Real>(r.stencil->coeffs[p]);
  a.tiles_x = (a.nx + C::BX - 1) / C::BX;
  const long tiles_y = (a.ny + C::BY - 1) / C::BY;
  a.total_work = a.tiles_x * tiles_y * a.ns;
  if (a.total_work <= 0) return 0;
  // At least kMinPlanes planes per block so the 2R halo planes of a restart stay cheap.
  constexpr long kMinPlanes = 16;
  long blocks = static_cast<long>(per_sm) * r.sm_count;
  blocks = std::min(blocks, std::max(1L, (a.total_work + kMinPlanes - 1) / kMinPlanes));
  blocks = std::min<long>(blocks, kMaxPartials);
  a.work_per_block = (a.total_work + blocks - 1) / blocks;
  blocks = (a.total_work + a.work_per_block - 1) / a.work_per_block;
  kernel<<<static_cast<unsigned>(blocks), C::NT, 0, r.stream>>>(a);
  PERKSOLVE_CUDA_CHECK_LAUNCH("stream_stencil_kernel");
  return MODE == static_cast<int>(StencilMode::jacobi) ? static_cast<int>(blocks) : 0;
}

template <class Real, ShapeSpec S, bool SYM>
int launch_stream_mode(const StencilRequest<Real>& r, StencilMode mode) {
  switch (mode) {
    case StencilMode::apply: return launch_stream_stencil<Real, S, 0, SYM>(r);
    case StencilMode::residual: return launch_stream_stencil<Real, S, 1, SYM>(r);
    case StencilMode::jacobi: return launch_stream_stencil<Real, S, 2, SYM>(r);
  }
  return -1;
}

}  // namespace perksolve::cuda_detail
