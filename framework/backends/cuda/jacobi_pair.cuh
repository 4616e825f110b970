// Two Jacobi sweeps in one pass over memory (temporal blocking, 3D; Backend::jacobi_update_pair): the multigrid
// smoother's pairs of sweeps. docs/perf/jacobi-pair.md has the byte model and the measurements.
//
//  * A block owns a BX x BY tile of an XY plane and a chunk of L planes along z, and streams planes through a ring
//    in shared memory (16-byte cp.async): x on the tile widened by 2R rows and 16 bytes of columns, b on the tile
//    widened by R rows and the same columns.
//  * Step i: stage 1 computes the first sweep x1 on plane s0 + i - R over the tile widened by R (the cells the second
//    sweep reads), into a ring of 2R + 2 x1 planes in shared memory; stage 2 computes the second sweep on plane
//    s0 + i - 2R of the tile and stores it. Stage 2 of step i - 1 runs in the same phase as stage 1 of step i; a phase
//    holds STEPS steps and ends at one block barrier. x1 outside the owned cells is +0 (its ghosts, which the caller
//    guarantees a refresh would write).
//  * Each thread walks its cells' columns along z: the values of a cell's own column (x for stage 1, x1 and b for
//    stage 2) stay in registers from plane to plane, and only the other offsets come from shared memory (7-point
//    star: 4 in-plane loads per stage and cell). A thread's tile cells run both stages, so stage 2 finds x1 of its
//    column in the thread's own registers; the ring of the widened region around the tile runs stage 1 only.
//  * Per output the sums run in the canonical offset order (dz outer, then dy, dx), as in the streaming kernel
//    (stencil_kernels.cuh), and the update is x + s (b - sum): the bits of two jacobi_update calls.
//  * From zero (ZERO): x is not read, x1 = s1 b (the bits of scale()).
//  * From x with the dot product b . out (DOT; Backend::jacobi_update_pair_dot): each thread sums b out of its output
//    cells in double, and the block's sum goes to dot[blockIdx.x] (the caller sums the blocks' partials).
//  * From zero with the residual (RESID; Backend::jacobi_pair_residual): x1 = s1 b is read through the x path from
//    the b window (which then has the x window's rows), stage 1 computes the second sweep x2 on the widened region
//    and stores its tile cells, and stage 2 computes r = b - A x2 on the tile (x2 outside the owned cells +0).
//  * The cells are dealt to the threads once per block (clipped to the owned cells; the x1 cells outside stay +0 from
//    the start), and the step loop is unrolled by the period of the register queues, so a thread's per-step work is
//    loads, sums and stores with no index arithmetic and no register moves.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>

#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/grid_reduce.cuh"
#include "framework/backends/cuda/stencil_kernels.cuh"

namespace perksolve::cuda_detail {

// Tile of the pair kernel: BX x BY outputs per plane, NT threads, STEPS steps per block barrier. The windows of x and
// b are V = 16 bytes wide at each side (V >= 2R), so that every row is copied by 16-byte cp.async units: the grid
// fields' rows start on 16-byte boundaries (FieldLayout::align, jacobi_pair_layout_fits checks it).
// At least two blocks share an SM (53-106 KB of shared memory each). A tile twice as wide, one block of 512 threads per
// SM, measured the same (H200, benchmarks/results/gpu-h200-2026-11-26-jacobi-pair/run3; commit cc644dd has both).
template <class Real, ShapeSpec S, bool ZERO, int STEPS, bool RESID = false>
struct JacobiPairCfg {
  using RealT = Real;
  static constexpr int R = S.radius;
  static constexpr int V = 16 / static_cast<int>(sizeof(Real));
  static constexpr int BX = sizeof(Real) == 8 ? 64 : 128;
  static constexpr int BY = 8;
  static constexpr int NT = BX * BY / 2;
  static constexpr int MINB = 2;
  static constexpr int SP = STEPS;
  static constexpr int PF = SP == 1 ? 1 : 0;        // planes still in flight when a phase starts (2 during a phase)
  static constexpr int WX = BX + 2 * V;              // window columns (x and b): x0 - V .. x0 + BX + V - 1
  static constexpr int UX = WX / V;                  // 16-byte units per window row
  static constexpr int HX = BY + 4 * R;              // x window rows: y0 - 2R .. y0 + BY + 2R - 1
  static constexpr int H1 = BY + 2 * R;              // stage-1 region rows: y0 - R ..
  static constexpr int W1 = BX + 2 * R;              // stage-1 region (x1) columns: x0 - R ..
  static constexpr bool XWIN = !ZERO && !RESID;      // x has a window of its own (from x)
  static constexpr int HB = RESID ? HX : H1;         // b window rows: from y0 - 2R with RESID, else from y0 - R
  static constexpr int XW = XWIN ? HX * WX : 0;
  static constexpr int BW = HB * WX;
  static constexpr int X1W = H1 * W1;
  static constexpr int STAGE = XW + BW;              // elements of one ring stage: x window, then b window
  static constexpr int NSX = 2 * SP + 2 * R + PF;    // ring stages: a phase's planes, the next phase's, PF more
  static constexpr int NX1 = 2 * R + 2;              // x1 planes (2R + 1 read while the next one is written)
  static constexpr int SMEM_BYTES = (NSX * STAGE + NX1 * X1W) * static_cast<int>(sizeof(Real));
  static constexpr int KX = (HX * UX + NT - 1) / NT;  // x units per thread and plane (0 from zero)
  static constexpr int KB = (HB * UX + NT - 1) / NT;
  static constexpr int K2 = BX * BY / NT;            // tile cells per thread (both stages)
  static constexpr int NH = 2 * R * W1 + 2 * R * BY;  // cells of the widened region's ring around the tile
  static constexpr int KH = (NH + NT - 1) / NT;      // ring cells per thread (stage 1 only)
  static constexpr int P = 2 * R + 1;                // depth of the register queues (planes modulo P)
  static constexpr int PERIOD = std::lcm(P, SP);     // steps per unrolled block of the step loop
  static_assert(S.dim == 3, "the pair kernel is 3D");
  static_assert(V >= 2 * R, "the window's side must cover the two sweeps' reach");
  static_assert(K2 * NT == BX * BY, "the tile's cells are dealt evenly");
  static_assert(HX * WX < 65536 && X1W < 65536, "packed shared-memory offsets are 16 bits");
  // Stage 2 of a phase's later steps reads x1 of the phase's earlier steps: only along the cell's own column (its own
  // registers) for a star, anywhere for other shapes.
  static_assert(SP == 1 || (S.kind == ShapeKind::star && SP <= R + 1), "several steps per barrier need a star");
  static_assert(!(ZERO && RESID), "RESID starts from zero through the x path");
};

template <class Real, int NP>
struct JacobiPairArgs {
  const Real* x;  // element (0,0,0); null from zero
  const Real* b;
  Real* out;
  Real* res;  // RESID: r = b - A out
  double* dot;  // DOT: the block's partial sum of b . out, at dot[blockIdx.x]
  int row_stride, step;  // y and z strides (elements)
  int nx, ny, ns, gx, gy, gz;
  int tiles_x, tiles, chunk;
  Real s1, s2;  // omega / a_centre of the two sweeps
  Real c[NP];
};

// Per block, once: the 16-byte units a thread copies from every plane of a window whose row 0 is y = y0 - top and
// whose columns start at x0 - V, and which of them overlap the readable range [-gx, nx + gx) x [-gy, ny + gy); bytes:
// how many of a unit's 16 bytes lie in the range (units start on 16-byte boundaries from x = 0, so only a unit across
// the right end is partial).
template <class C, int K, int ROWS>
__device__ __forceinline__ void pair_window_units(int tid, int x0, int y0, int top, int nx, int gx, int ny, int gy,
                                                  int row_stride, int (&off)[K], unsigned& ok, int (&bytes)[K]) {
  ok = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int u = tid + k * C::NT;
    const int row = u / C::UX, cu = u - row * C::UX;
    const int x = x0 - C::V + cu * C::V, y = y0 - top + row;
    const bool in = u < ROWS * C::UX && y >= -gy && y < ny + gy && x + C::V > -gx && x < nx + gx;
    off[k] = in ? x + y * row_stride : 0;
    ok |= in ? 1u << k : 0u;
    bytes[k] = min(C::V, nx + gx - x) * static_cast<int>(sizeof(typename C::RealT));
  }
}

// Per plane: a thread's 16-byte units (pair_window_units) of one window plane from src (the plane's element
// (0, 0)) into dst by cp.async; units outside the readable range, or the whole plane when !plane_in, are zero-filled
// (any valid address stands in as the source). PARTIAL: so is the part of a unit past the range's right end (else
// whatever lies there is copied too).
template <class C, int K, int ROWS, bool PARTIAL, class Real>
__device__ __forceinline__ void pair_copy_window(int tid, Real* dst, const Real* src, bool plane_in,
                                                 const int (&off)[K], unsigned ok_bits, const int (&bytes)[K],
                                                 const Real* any_valid) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int u = tid + k * C::NT;
    const bool ok = plane_in && ((ok_bits >> k) & 1u);
    if (u < ROWS * C::UX)
      cp_async16_part<false>(dst + u * C::V, ok ? src + off[k] : any_valid, ok ? (PARTIAL ? bytes[k] : 16) : 0);
  }
}

// The canonical sum (dz outer, then dy, dx) with the cell's own column from registers: col(DZ) is the value at
// (0, 0, dz) (DZ an integral constant), plane(dz) points at the cell in plane dz (rows W apart) for the other offsets,
// whose values are load(pointer).
template <ShapeSpec S, int W, class Real, class Col, class Plane, class Load>
__device__ __forceinline__ Real pair_column_sum(const Real* c, Col&& col, Plane&& plane, Load&& load) {
  using G = StreamGeo<S>;
  constexpr int R = S.radius;
  Real sum = Real(0);
  static_for<-R, R + 1>([&](auto DZ) {
    constexpr int dz = decltype(DZ)::value;
    static_for<-R, R + 1>([&](auto DY) {
      constexpr int dy = decltype(DY)::value;
      static_for<-R, R + 1>([&](auto DX) {
        constexpr int dx = decltype(DX)::value;
        constexpr int ci = G::index(dx, dy, dz);
        if constexpr (ci >= 0) {
          if constexpr (dx == 0 && dy == 0)
            sum = fma(c[ci], col(DZ), sum);
          else
            sum = fma(c[ci], load(plane(dz) + (dy * W + dx)), sum);
        }
      });
    });
  });
  return sum;
}

template <class Real, int KIND, int RADIUS, bool ZERO, int STEPS, bool RESID, bool DOT>
__global__ void __launch_bounds__(
    JacobiPairCfg<Real, ShapeSpec{3, static_cast<ShapeKind>(KIND), RADIUS}, ZERO, STEPS, RESID>::NT,
    JacobiPairCfg<Real, ShapeSpec{3, static_cast<ShapeKind>(KIND), RADIUS}, ZERO, STEPS, RESID>::MINB)
    jacobi_pair_kernel(const JacobiPairArgs<Real, kMaxTemplatedPoints> a) {
  constexpr ShapeSpec S{3, static_cast<ShapeKind>(KIND), RADIUS};
  using C = JacobiPairCfg<Real, S, ZERO, STEPS, RESID>;
  constexpr int R = C::R, V = C::V, NT = C::NT, NSX = C::NSX, NX1 = C::NX1, P = C::P, SP = C::SP;
  constexpr int K2 = C::K2, KH = C::KH, KC = K2 + KH;
  static_assert(!DOT || C::XWIN, "DOT runs from x");
  pdl_enter();
  extern __shared__ __align__(16) unsigned char jacobi_pair_smem[];
  Real* const ring = reinterpret_cast<Real*>(jacobi_pair_smem);
  Real* const x1r = ring + NSX * C::STAGE;
  const int tid = threadIdx.x;

  const int q = static_cast<int>(blockIdx.x / a.tiles);
  const int t = static_cast<int>(blockIdx.x - static_cast<long>(q) * a.tiles);
  const int x0 = (t % a.tiles_x) * C::BX, y0 = (t / a.tiles_x) * C::BY;
  const int s0 = q * a.chunk;
  const int L = min(a.chunk, a.ns - s0);
  const int nload = L + 4 * R;  // planes s0 - 2R .. s0 + L - 1 + 2R

  for (int i = tid; i < NX1 * C::X1W; i += NT) x1r[i] = Real(0);

  // With RESID the b window stands for x1 = s1 b, whose cells outside the owned ones must be +0 (PARTIAL copies).
  int xoff[C::KX > 0 ? C::KX : 1], boff[C::KB], xbytes[C::KX > 0 ? C::KX : 1], bbytes[C::KB];
  unsigned xok = 0, bok = 0;
  if constexpr (C::XWIN)
    pair_window_units<C, C::KX, C::HX>(tid, x0, y0, 2 * R, a.nx, a.gx, a.ny, a.gy, a.row_stride, xoff, xok, xbytes);
  pair_window_units<C, C::KB, C::HB>(tid, x0, y0, RESID ? 2 * R : R, a.nx, 0, a.ny, 0, a.row_stride, boff, bok,
                                     bbytes);
  auto issue = [&](int j) {
    if (j < nload) {
      const int p = s0 - 2 * R + j;
      Real* const st = ring + (j % NSX) * C::STAGE;
      if constexpr (C::XWIN)
        pair_copy_window<C, C::KX, C::HX, false>(tid, st, a.x + static_cast<long>(p) * a.step,
                                                 p >= -a.gz && p < a.ns + a.gz, xoff, xok, xbytes, a.b);
      pair_copy_window<C, C::KB, C::HB, RESID>(tid, st + C::XW, a.b + static_cast<long>(p) * a.step, p >= 0 && p < a.ns,
                                               boff, bok, bbytes, a.b);
    }
    cp_async_commit();
  };

  // A thread's cells, clipped to the owned cells (-1: none): the tile's cells tid + k NT (k < K2, both stages), then
  // the ring's cells tid + k NT (stage 1). Packed: x1-region offset (low 16 bits) and x-window offset; out2: the
  // output's in-plane offset.
  int cell[KC], out2[K2];
  {
    const int c1x0 = max(x0 - R, 0), c1x1 = min(x0 + C::BX + R, a.nx);
    const int c1y0 = max(y0 - R, 0), c1y1 = min(y0 + C::BY + R, a.ny);
    auto pack = [&](int gx, int gy) {
      const bool in = gx >= c1x0 && gx < c1x1 && gy >= c1y0 && gy < c1y1;
      const int roff = (gy - (y0 - R)) * C::W1 + (gx - (x0 - R));
      const int woff = (gy - (y0 - 2 * R)) * C::WX + (gx - (x0 - V));
      return in ? roff | (woff << 16) : -1;
    };
#pragma unroll
    for (int k = 0; k < K2; ++k) {
      const int e = tid + k * NT;
      const int gx = x0 + e % C::BX, gy = y0 + e / C::BX;
      cell[k] = pack(gx, gy);
      out2[k] = gx + gy * a.row_stride;
    }
#pragma unroll
    for (int k = 0; k < KH; ++k) {
      const int e = tid + k * NT;
      int gx, gy;
      if (e < 2 * R * C::W1) {  // rows above and below the tile
        const int rr = e / C::W1;
        gx = x0 - R + (e - rr * C::W1);
        gy = rr < R ? y0 - R + rr : y0 + C::BY + rr - R;
      } else {  // columns left and right of the tile
        const int f = e - 2 * R * C::W1;
        const int cc = f % (2 * R);
        gx = cc < R ? x0 - R + cc : x0 + C::BX + cc - R;
        gy = y0 + f / (2 * R);
      }
      cell[K2 + k] = e < C::NH ? pack(gx, gy) : -1;
    }
  }

  // x values of the window (at x-window offsets): x itself, or with RESID x1 = s1 b from the b window (zero outside
  // the owned cells, so +0 there as x1's ghosts); b at x-window offsets for stage 1.
  const auto xload = [&](const Real* p) -> Real {
    if constexpr (RESID) return a.s1 * *p;
    else return *p;
  };
  const auto plain = [](const Real* p) -> Real { return *p; };
  constexpr int BAT = RESID ? 0 : C::XW - R * C::WX;  // b window element at x-window offset 0 of a stage
  const Real s_stage1 = RESID ? a.s2 : a.s1;          // the sweep stage 1 computes

  // Register queues, by plane modulo P: x by window plane j (every cell), x1 by step, b by window plane (tile cells).
  Real xq[KC][P], x1q[K2][P], bq[K2][P];
#pragma unroll
  for (int k = 0; k < KC; ++k)
#pragma unroll
    for (int u = 0; u < P; ++u) xq[k][u] = Real(0);
#pragma unroll
  for (int k = 0; k < K2; ++k)
#pragma unroll
    for (int u = 0; u < P; ++u) x1q[k][u] = bq[k][u] = Real(0);

  // Window planes are issued one commit group each. A phase of steps i .. i + SP - 1 needs planes up to
  // i + SP - 1 + 2R; PF more may still be in flight when it starts, and it issues the next SP.
  constexpr int AHEAD = SP - 1 + 2 * R + C::PF;  // the last plane issued before the first phase
#pragma unroll
  for (int j = 0; j <= AHEAD; ++j) issue(j);

  // Step i: stage 2 of step i - 1 (output plane s0 + i - 1 - 2R from x1 steps i - 1 - 2R .. i - 1 and b plane
  // j = i - 1), then stage 1 of step i (x1 on plane s0 + i - R from x planes j = i .. i + 2R and b plane j = i + R,
  // into x1 slot i). Stage 2 first, so that step i's x1 takes the register of step i - 1 - 2R just after its last use.
  const int nstep = L + 2 * R + 1;
  double dot_sum = 0.0;  // DOT: b . out over the thread's output cells
  for (int i0 = 0; i0 < nstep; i0 += C::PERIOD) {
    static_for<0, C::PERIOD>([&](auto UU) {
      constexpr int U = decltype(UU)::value;
      const int i = i0 + U;
      if (i >= nstep) return;
      if constexpr (U % SP == 0) {
        cp_async_wait<C::PF>();
        __syncthreads();
#pragma unroll
        for (int s = 1; s <= SP; ++s) issue(i + AHEAD + s);
      }

      if constexpr (!ZERO && U == 0) {
        if (i == 0) {  // the first 2R planes of the cells' columns
#pragma unroll
          for (int k = 0; k < KC; ++k) {
            if (cell[k] < 0) continue;
            const int woff = cell[k] >> 16;
            static_for<0, 2 * R>([&](auto J) { xq[k][J] = xload(ring + (J * C::STAGE + woff)); });
          }
        }
      }

      if (i - 1 >= 2 * R) {
        const long p2 = s0 + i - 1 - 2 * R;
#pragma unroll
        for (int k = 0; k < K2; ++k) {
          if (cell[k] < 0) continue;
          const int roff = cell[k] & 0xffff;
          const Real sum = pair_column_sum<S, C::W1>(
              a.c, [&](auto DZ) { return x1q[k][(U + 2 * P - 1 - R + DZ) % P]; },
              [&](int dz) { return x1r + ((i - 1 - R + dz) % NX1) * C::X1W + roff; }, plain);
          const Real r = bq[k][(U + P - 1) % P] - sum;
          if constexpr (RESID)
            a.res[out2[k] + p2 * a.step] = r;
          else {
            const Real o = x1q[k][(U + 2 * P - 1 - R) % P] + a.s2 * r;
            a.out[out2[k] + p2 * a.step] = o;
            if constexpr (DOT) dot_sum += static_cast<double>(bq[k][(U + P - 1) % P]) * static_cast<double>(o);
          }
        }
      }

      if (i < L + 2 * R) {
        const int p1 = s0 + i - R;
        const bool live = p1 >= 0 && p1 < a.ns;
        Real* const x1 = x1r + (i % NX1) * C::X1W;
        const Real* const bw = ring + ((i + R) % NSX) * C::STAGE + BAT;  // b window, at x-window offsets
#pragma unroll
        for (int k = 0; k < KC; ++k) {
          if (cell[k] < 0) continue;
          const int roff = cell[k] & 0xffff, woff = cell[k] >> 16;
          const Real bv = bw[woff];
          Real v = Real(0);
          if constexpr (ZERO) {
            if (live) v = a.s1 * bv;
          } else {
            xq[k][(U + 2 * R) % P] = xload(ring + (((i + 2 * R) % NSX) * C::STAGE + woff));
            if (live) {
              const Real sum = pair_column_sum<S, C::WX>(
                  a.c, [&](auto DZ) { return xq[k][(U + R + DZ) % P]; },
                  [&](int dz) { return ring + ((i + R + dz) % NSX) * C::STAGE + woff; }, xload);
              const Real r = bv - sum;
              v = xq[k][(U + R) % P] + s_stage1 * r;
              if constexpr (RESID)  // x2 of the block's own planes
                if (k < K2 && i >= R && i < L + R) a.out[out2[k < K2 ? k : 0] + static_cast<long>(p1) * a.step] = v;
            }
          }
          x1[roff] = v;
          if (k < K2) {
            x1q[k < K2 ? k : 0][U % P] = v;
            bq[k < K2 ? k : 0][(U + R) % P] = bv;
          }
        }
      }
    });
  }
  cp_async_wait<0>();
  if constexpr (DOT) store_block_partial<NT>(a.dot, dot_sum);
}

// Whether the pair kernel can run on this layout: ghosts at least the radius wide, rows on 16-byte boundaries (the
// windows' 16-byte copies), offsets within 32 bits.
template <class Real>
bool jacobi_pair_layout_fits(const FieldLayout& l, int radius) {
  for (int ax = 0; ax < 3; ++ax)
    if (l.ghost[ax] < radius) return false;
  if (l.align % (16 / static_cast<int>(sizeof(Real))) != 0) return false;
  return l.stride_z() * (static_cast<long>(l.n[2]) + 2 * l.ghost[2]) < (1L << 31);
}

// Launches the pair kernel of shape S on a layout that fits (jacobi_pair_layout_fits); RESID: also r = b - A out into
// res (from zero); DOT: the blocks' partial sums of b . out into dot[0 ..). Returns the block count (DOT: the partials
// written), or -1 when DOT would need more than kMaxPartials blocks (nothing launched).
template <class Real, ShapeSpec S, bool ZERO, int STEPS, bool RESID = false, bool DOT = false>
long launch_jacobi_pair_shape(const StencilRequest<Real>& r, Real s1, Real s2, Real* res = nullptr,
                              double* dot = nullptr) {
  using C = JacobiPairCfg<Real, S, ZERO, STEPS, RESID>;
  const FieldLayout& l = r.layout;
  auto kernel = jacobi_pair_kernel<Real, static_cast<int>(S.kind), S.radius, ZERO, STEPS, RESID, DOT>;
  static const int per_sm = std::max(1, blocks_per_sm(kernel, C::NT, C::SMEM_BYTES));
  JacobiPairArgs<Real, kMaxTemplatedPoints> a{};
  const long origin = l.index(0, 0, 0);
  a.x = C::XWIN ? r.x + origin : nullptr;
  a.b = r.b + origin;
  a.out = r.out + origin;
  a.res = RESID ? res + origin : nullptr;
  a.dot = DOT ? dot : nullptr;
  a.row_stride = static_cast<int>(l.stride_y());
  a.step = static_cast<int>(l.stride_z());
  a.nx = l.n[0];
  a.ny = l.n[1];
  a.ns = l.n[2];
  a.gx = l.ghost[0];
  a.gy = l.ghost[1];
  a.gz = l.ghost[2];
  a.tiles_x = (a.nx + C::BX - 1) / C::BX;
  a.tiles = a.tiles_x * ((a.ny + C::BY - 1) / C::BY);
  a.s1 = s1;
  a.s2 = s2;
  for (int p = 0; p < StreamGeo<S>::NP; ++p) a.c[p] = static_cast<Real>(r.stencil->coeffs[p]);
  if (a.tiles <= 0 || a.ns <= 0) return 0;
  if (DOT && a.tiles > kMaxPartials) return -1;
  // Chunks along z: the count with the fewest rounds of blocks x (planes + re-read halo planes) per block (DOT: at
  // most one partial sum per slot of the partials).
  const long resident = static_cast<long>(per_sm) * r.sm_count;
  long best_q = best_stream_chunk_count(a.ns, a.tiles, resident, 1, a.ns, 4 * S.radius, 16);
  if (DOT) best_q = std::min(best_q, static_cast<long>(kMaxPartials / a.tiles));
  a.chunk = static_cast<int>((a.ns + best_q - 1) / best_q);
  const long blocks = static_cast<long>(a.tiles) * ((a.ns + a.chunk - 1) / a.chunk);
  pdl_launch(kernel, dim3(static_cast<unsigned>(blocks)), dim3(C::NT), C::SMEM_BYTES, r.stream, a);
  return blocks;
}

}  // namespace perksolve::cuda_detail
