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
//  * Work distribution: a persistent grid (one wave of resident blocks). Work items are (chunk of
//    planes, tile) pairs, tile index fastest, dealt round-robin to the blocks, so concurrently running
//    blocks stream neighbouring tiles through the same planes (halo sectors hit in L2, DRAM reads are
//    long contiguous runs) and the tail is at most one short item.
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

// Tile configuration. WIDE = false: the Krotkiewski-Dabrowski two-load tile (one output per thread
// and plane; loaded tile = 2 x threads). WIDE = true: a wider tile in which every thread computes
// MX x MY outputs per plane (MX interleaved columns, MY consecutive rows), trading the exact
// two-load mapping for a smaller halo fraction and fewer per-output instructions (see
// docs/perf/two-load-stencils.md). Valid for radius <= one sector in elements (3D).
template <class Real, ShapeSpec S, bool WIDE, bool HASB = false>
struct TileCfg {
  static constexpr int R = S.radius;
  static constexpr bool D3 = S.dim == 3;
  static constexpr bool F64 = sizeof(Real) == 8;
  static constexpr int SECTOR = 32 / static_cast<int>(sizeof(Real));
  static constexpr int HX = ((R + SECTOR - 1) / SECTOR) * SECTOR;
  static constexpr int HY = D3 ? R : 0;
  // wide 3D: fp64 64x16 outputs (64x4 threads), fp32 128x16 outputs (128x2 threads); halved MY for
  // kernels that also stream b through shared memory. wide 2D: 512 (fp64) / 1024 (fp32) columns.
  static constexpr int BXT = D3 ? (WIDE ? (F64 ? 64 : 128) : (F64 ? 24 : 32)) : 256;  // threads along x
  static constexpr int BYT = D3 ? (WIDE ? (F64 ? 4 : 2) : (F64 ? 4 * R : 6 * R)) : 1;  // threads along y
  static constexpr int MX = D3 ? 1 : (WIDE ? (F64 ? 2 : 4) : 1);                      // outputs per thread, x
  static constexpr int MY = D3 ? (WIDE ? (F64 ? 4 : 8) / (HASB ? 2 : 1) : 1) : 1;    // outputs per thread, y
  static constexpr int BX = BXT * MX;
  static constexpr int BY = BYT * MY;
  static constexpr int NT = BXT * BYT;
  static constexpr int TW = BX + 2 * HX;
  static constexpr int TH = BY + 2 * HY;
  static constexpr int LOADS = (TW * TH + NT - 1) / NT;
  static constexpr bool EXACT = TW * TH == LOADS * NT;
  // Shared row stride: make a warp's compute-phase reads bank-conflict free (row-major thread
  // index -> SW congruent to BXT modulo the 128-byte bank period).
  static constexpr int PERIOD = 128 / static_cast<int>(sizeof(Real));
  static constexpr int SW = (BXT % PERIOD == 0 || BYT == 1) ? TW : TW + (((BXT - TW) % PERIOD) + PERIOD) % PERIOD;
  // Shared-memory ring depth (NS-1 planes in flight), kept within the 48 KB static limit.
  static constexpr int STAGE_BYTES = (TH * SW + (HASB ? NT * MX * MY : 0)) * static_cast<int>(sizeof(Real));
  static constexpr int NS_WANT = D3 ? 6 : 8;
  static constexpr int NS_FIT = ((D3 && F64 ? 40 : 46) * 1024) / STAGE_BYTES;  // fp64 3D: 3 stages measured faster than 4
  static constexpr int NS = NS_WANT < NS_FIT ? NS_WANT : (NS_FIT < 3 ? 3 : NS_FIT);
  static_assert(!D3 || R <= SECTOR, "3D radius larger than a sector is not supported by TileCfg");
  static_assert(!D3 || WIDE || EXACT, "the 3D two-load tile must satisfy the two-load property");
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
  long tiles;  // tiles per plane
  int chunk;   // streamed planes per work item
  long items;  // work items = tiles * ceil(ns / chunk); item u = (chunk u / tiles, tile u % tiles)
  Real scale;
  Real c[NP];
};

// Kernel template parameters are plain ints (nvcc 13's host-stub generator cannot spell class-type
// non-type template arguments); the ShapeSpec is rebuilt inside.
//
// Block b processes items b, b + gridDim.x, b + 2 gridDim.x, ... (tile index fastest), so at any
// moment the resident blocks work on neighbouring tiles of the same few planes: the halo sectors a
// block loads were just loaded by its neighbours and come from L2, and DRAM sees long contiguous runs.
// The cp.async ring runs continuously across a block's items (no pipeline drain between items).
template <class Real, int DIM, int KIND, int RADIUS, int MODE, bool SYM, bool WIDE>
__global__ void __launch_bounds__(TileCfg<Real, ShapeSpec{DIM, static_cast<ShapeKind>(KIND), RADIUS}, WIDE>::NT)
    stream_stencil_kernel(const StreamArgs<Real, kMaxTemplatedPoints> a) {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  constexpr bool kHasB = MODE != static_cast<int>(StencilMode::apply);
  using C = TileCfg<Real, S, WIDE, kHasB>;
  constexpr int MX = C::MX, MY = C::MY;
  using G = StreamGeo<S>;
  constexpr int RX = G::RX, RY = G::RY, RS = G::RS;
  constexpr int NS = C::NS;
  constexpr bool kJacobi = MODE == static_cast<int>(StencilMode::jacobi);

  __shared__ __align__(16) Real tile[NS][C::TH * C::SW];
  __shared__ __align__(16) Real bbuf[kHasB ? NS : 1][kHasB ? C::NT * MX * MY : 1];

  const int tid = threadIdx.x;
  const int tx = tid % C::BXT;
  const int ty = tid / C::BXT;
  double rsum = 0.0;

  // Tile-independent part of the two-load mapping.
  int lrow[C::LOADS], lcol[C::LOADS];
#pragma unroll
  for (int l = 0; l < C::LOADS; ++l) {
    const int idx = tid + l * C::NT;
    lrow[l] = idx / C::TW;
    lcol[l] = idx - lrow[l] * C::TW;
  }

  // ---- issue cursor (runs NS-1 planes ahead of the compute cursor) ----
  long iu = blockIdx.x;
  int ip = 0, iP = 0, is0 = 0;
  long goff[C::LOADS];
  bool ok[C::LOADS];
  int ibx0 = 0, iby0 = 0;
  auto issue_setup = [&]() {
    const long q = iu / a.tiles;
    const long t = iu - q * a.tiles;
    is0 = static_cast<int>(q) * a.chunk;
    iP = min(a.ns, is0 + a.chunk) - is0 + 2 * RS;
    const int x0 = static_cast<int>(t % a.tiles_x) * C::BX;
    const int y0 = static_cast<int>(t / a.tiles_x) * C::BY;
#pragma unroll
    for (int l = 0; l < C::LOADS; ++l) {
      const int gx = x0 - C::HX + lcol[l];
      const int gy = y0 - C::HY + lrow[l];
      ok[l] = (C::EXACT || tid + l * C::NT < C::TW * C::TH) && gx >= -a.gx && gx < a.nx + a.gx && gy >= -a.gy &&
              gy < a.ny + a.gy;
      goff[l] = ok[l] ? gx + gy * a.row_stride : 0;
    }
    ibx0 = x0;
    iby0 = y0;
  };
  if (iu < a.items) issue_setup();
  auto issue = [&](int slot) {
    if (iu < a.items) {
      const int k = is0 - RS + ip;
      const Real* src = a.x + static_cast<long>(k) * a.step;
      Real* dst = tile[slot];
#pragma unroll
      for (int l = 0; l < C::LOADS; ++l) {
        if (C::EXACT || tid + l * C::NT < C::TW * C::TH)
          cp_async_elem<sizeof(Real)>(dst + lrow[l] * C::SW + lcol[l], ok[l] ? src + goff[l] : a.x, ok[l]);
      }
      if constexpr (kHasB) {
        if (ip >= 2 * RS) {
          const Real* bs = a.b + static_cast<long>(is0 + ip - 2 * RS) * a.step;
#pragma unroll
          for (int jy = 0; jy < MY; ++jy)
#pragma unroll
            for (int jx = 0; jx < MX; ++jx) {
              const int ox = ibx0 + tx + jx * C::BXT, oy = iby0 + ty * MY + jy;
              const bool act = ox < a.nx && oy < a.ny;
              cp_async_elem<sizeof(Real)>(&bbuf[slot][(jy * MX + jx) * C::NT + tid],
                                          act ? bs + ox + oy * a.row_stride : a.b, act);
            }
        }
      }
      if (++ip == iP) {
        ip = 0;
        iu += gridDim.x;
        if (iu < a.items) issue_setup();
      }
    }
    cp_async_commit();
  };

#pragma unroll
  for (int p = 0; p < NS - 1; ++p) issue(p);

  int slot = 0;  // ring slot of the plane being computed
  for (long cu = blockIdx.x; cu < a.items; cu += gridDim.x) {
    const long q = cu / a.tiles;
    const long t = cu - q * a.tiles;
    const int s0 = static_cast<int>(q) * a.chunk;
    const int P = min(a.ns, s0 + a.chunk) - s0 + 2 * RS;
    const int ox0 = static_cast<int>(t % a.tiles_x) * C::BX + tx;
    const int oy0 = static_cast<int>(t / a.tiles_x) * C::BY + ty * MY;
    const long ooff = ox0 + oy0 * a.row_stride;

    Real acc[MY][MX][2 * RS + 1];
    Real xq[MY][MX][RS > 0 ? RS : 1];
#pragma unroll
    for (int jy = 0; jy < MY; ++jy)
#pragma unroll
      for (int jx = 0; jx < MX; ++jx) {
#pragma unroll
        for (int j = 0; j < 2 * RS + 1; ++j) acc[jy][jx][j] = Real(0);
#pragma unroll
        for (int j = 0; j < (RS > 0 ? RS : 1); ++j) xq[jy][jx][j] = Real(0);
      }

    for (int i = 0; i < P; ++i) {
      cp_async_wait<NS - 2>();
      __syncthreads();
      issue(slot == 0 ? NS - 1 : slot - 1);

      const Real* cur = tile[slot] + (ty * MY + C::HY) * C::SW + tx + C::HX;
      // In-plane values: rows -RY .. MY-1+RY around the thread's first row, per output column.
      Real v[MY + 2 * RY][MX][2 * RX + 1];
      static_for<-RY, MY + RY>([&](auto YY) {
        constexpr int yy = decltype(YY)::value;
        static_for<-RX, RX + 1>([&](auto IX) {
          constexpr int ix = decltype(IX)::value;
          constexpr bool need = [] {
            for (int jy = 0; jy < MY; ++jy)
              if (yy - jy >= -RY && yy - jy <= RY && G::needed(ix, yy - jy)) return true;
            return false;
          }();
          if constexpr (need) {
#pragma unroll
            for (int jx = 0; jx < MX; ++jx) v[yy + RY][jx][ix + RX] = cur[yy * C::SW + jx * C::BXT + ix];
          }
        });
      });

#pragma unroll
      for (int jx = 0; jx < MX; ++jx) {
        static_for<0, MY>([&](auto JY) {
          constexpr int jy = decltype(JY)::value;
          auto val = [&](int iy, int ix) -> Real& { return v[jy + iy + RY][jx][ix + RX]; };
          if constexpr (!SYM) {
            // Canonical order within the plane (dy outer, dx inner) for every output plane it feeds.
            static_for<-RS, RS + 1>([&](auto DS) {
              constexpr int ds = decltype(DS)::value;
              static_for<-RY, RY + 1>([&](auto IY) {
                constexpr int iy = decltype(IY)::value;
                static_for<-RX, RX + 1>([&](auto IX) {
                  constexpr int ix = decltype(IX)::value;
                  constexpr int ci = G::index(ix, iy, ds);
                  if constexpr (ci >= 0) acc[jy][jx][RS - ds] = fma(a.c[ci], val(iy, ix), acc[jy][jx][RS - ds]);
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
                  Real sum = val(ay, ax);
                  if constexpr (ax > 0) sum += val(ay, -ax);
                  if constexpr (ay > 0) {
                    Real other = val(-ay, ax);
                    if constexpr (ax > 0) other += val(-ay, -ax);
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
              acc[jy][jx][RS - ads] += tsum;
              if constexpr (ads > 0) acc[jy][jx][RS + ads] += tsum;
            });
          }

          const int ox = ox0 + jx * C::BXT, oy = oy0 + jy;
          if (i >= 2 * RS && ox < a.nx && oy < a.ny) {
            Real* o = a.out + ooff + jx * C::BXT + jy * a.row_stride + static_cast<long>(s0 + i - 2 * RS) * a.step;
            if constexpr (!kHasB) {
              *o = acc[jy][jx][0];
            } else {
              const Real r = bbuf[slot][(jy * MX + jx) * C::NT + tid] - acc[jy][jx][0];
              if constexpr (kJacobi) {
                *o = xq[jy][jx][0] + a.scale * r;
                rsum += static_cast<double>(r) * static_cast<double>(r);
              } else {
                *o = r;
              }
            }
          }
#pragma unroll
          for (int j = 0; j < 2 * RS; ++j) acc[jy][jx][j] = acc[jy][jx][j + 1];
          acc[jy][jx][2 * RS] = Real(0);
          if constexpr (kJacobi) {
#pragma unroll
            for (int j = 0; j + 1 < RS; ++j) xq[jy][jx][j] = xq[jy][jx][j + 1];
            xq[jy][jx][RS - 1] = val(0, 0);
          }
        });
      }
      slot = slot + 1 == NS ? 0 : slot + 1;
    }
  }
  cp_async_wait<0>();

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

// Launch one instantiation with a persistent grid (one wave of resident blocks). Returns the number
// of blocks.
template <class Real, ShapeSpec S, int MODE, bool SYM, bool WIDE>
int launch_stream_stencil(const StencilRequest<Real>& r) {
  using C = TileCfg<Real, S, WIDE, MODE != static_cast<int>(StencilMode::apply)>;
  using G = StreamGeo<S>;
  static_assert(G::NP <= kMaxTemplatedPoints);
  auto kernel = stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, WIDE>;
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
  a.b = r.b ? r.b + origin : r.x + origin;
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
  a.tiles = static_cast<long>(a.tiles_x) * ((a.ny + C::BY - 1) / C::BY);
  if (a.tiles <= 0 || a.ns <= 0) return 0;
  // 2D: number of chunks Q along the streamed axis: enough items to fill ~90% of the resident slots,
  // then the Q minimising (rounds of items per block) x (chunk + R), R ~ the re-read halo planes
  // (read only, half the bytes of a plane). Typically one round: every block streams one long chunk
  // and all blocks run side by side from start to end (no tail, neighbours share halos in L2).
  // Measured on an H100 (benchmarks/results): 3D fp64 prefers ~16 short items per block (all blocks
  // sweep the same ~32-plane slab at a time); 3D fp32 and 2D one long item per block.
  const long resident = static_cast<long>(per_sm) * r.sm_count;
  const long min_chunk = std::max(8, 4 * G::RS);
  if constexpr (S.dim == 3 && sizeof(Real) == 8) {
    constexpr long kItemsPerBlock = 16;
    long c0 = (static_cast<long>(a.ns) * a.tiles + resident * kItemsPerBlock - 1) / (resident * kItemsPerBlock);
    c0 = std::min<long>(std::max(c0, min_chunk), a.ns);
    const long nchunks = (a.ns + c0 - 1) / c0;
    a.chunk = static_cast<int>((a.ns + nchunks - 1) / nchunks);  // balanced chunk lengths
  } else {
    const long q_max = std::max(1L, a.ns / min_chunk);
    long q_min = std::min(q_max, std::max(1L, (resident * 9 / 10 + a.tiles - 1) / a.tiles));
    long best_q = q_min, best_cost = -1;
    for (long q = q_min; q <= q_max; ++q) {
      const long c = (a.ns + q - 1) / q;
      const long items = a.tiles * q;
      const long rounds = (items + resident - 1) / resident;
      const long cost = rounds * (c + G::RS);
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best_q = q;
      }
      if (rounds > 64) break;
    }
    a.chunk = static_cast<int>((a.ns + best_q - 1) / best_q);
  }
  a.items = a.tiles * ((a.ns + a.chunk - 1) / a.chunk);
  const long blocks = std::min<long>({resident, a.items, static_cast<long>(kMaxPartials)});
  kernel<<<static_cast<unsigned>(blocks), C::NT, 0, r.stream>>>(a);
  PERKSOLVE_CUDA_CHECK_LAUNCH("stream_stencil_kernel");
  return MODE == static_cast<int>(StencilMode::jacobi) ? static_cast<int>(blocks) : 0;
}

template <class Real, ShapeSpec S, bool SYM>
int launch_stream_mode(const StencilRequest<Real>& r, StencilMode mode) {
  switch (mode) {
    case StencilMode::apply:
      return r.wide_tiles ? launch_stream_stencil<Real, S, 0, SYM, true>(r) : launch_stream_stencil<Real, S, 0, SYM, false>(r);
    case StencilMode::residual:
      return r.wide_tiles ? launch_stream_stencil<Real, S, 1, SYM, true>(r) : launch_stream_stencil<Real, S, 1, SYM, false>(r);
    case StencilMode::jacobi:
      return r.wide_tiles ? launch_stream_stencil<Real, S, 2, SYM, true>(r) : launch_stream_stencil<Real, S, 2, SYM, false>(r);
  }
  return -1;
}

}  // namespace perksolve::cuda_detail
