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
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include <type_traits>

#include "framework/backends/cuda/cp_async.cuh"
#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/grid_reduce.cuh"
#include "framework/backends/cuda/stream_schedule.hpp"
#include "framework/stencil/shape.hpp"
#include "framework/util/env.hpp"

namespace perksolve::cuda_detail {

template <int B, int E, class F>
__device__ __forceinline__ void static_for(F&& f) {
  if constexpr (B < E) {
    f(std::integral_constant<int, B>{});
    static_for<B + 1, E>(f);
  }
}

// Steps i = I0 .. end - 1 of a plane loop unrolled by the NR rotations of its partial sums (Tune's ROT; stream_plane's
// ROT = i % NR): step(rotation, i), the rotation a compile-time constant (std::integral_constant) of each copy.
template <int NR, int I0, class Step>
__device__ __forceinline__ void rotating_steps(int end, Step&& step) {
  for (int i = I0; i < end;) {
    bool more = true;
    static_for<0, NR>([&](auto K) {
      if (more) {
        step(std::integral_constant<int, (I0 + decltype(K)::value) % NR>{}, i);
        more = ++i < end;
      }
    });
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

// Tuning knobs of one kernel variant (compile time; a type, because nvcc 13's host-stub generator
// cannot spell class-type non-type template arguments of kernels):
//   BXT x BYT threads, each computing MX (interleaved, stride BXT) x MY (consecutive rows) outputs per
//   plane; NS shared-memory stages (NS - 1 planes in flight; 0 = automatic); MINB = minimum resident
//   blocks per SM promised to the compiler (__launch_bounds__, caps the registers); VEC = 1 (2): 16-byte
//   cp.async.cg (.ca) of the tile rows (the row window is aligned down to 16 bytes and the per-row shift is
//   applied when reading shared memory); STCS = streaming (evict-first) stores of the output;
//   IPB = target work items per block for 3D (0: one long chunk per tile, chosen as for 2D); MAXB = most blocks per
//   SM the per-sweep launch puts on the grid (0: as many as are resident), for a tile measured at that occupancy;
//   CONSEC = the MX outputs of a thread are consecutive columns (x = tx * MX + jx), read from shared memory as
//   vectors and stored as one MX-element vector per row (alignment rules: TileCfg); ROT = the plane loop is unrolled by
//   the 2R+1 output planes of the streamed axis, so that the partial sums rotate by index instead of being shifted
//   register to register every plane (stream_sweep).
template <int BXT_, int BYT_, int MX_, int MY_, int NS_ = 0, int MINB_ = 1, int VEC_ = 0, bool STCS_ = false,
          int IPB_ = 0, bool DYN_ = false, int MAXB_ = 0, bool CONSEC_ = false, bool ROT_ = false>
struct Tune {
  static constexpr int BXT = BXT_, BYT = BYT_, MX = MX_, MY = MY_, NS = NS_, MINB = MINB_, IPB = IPB_, MAXB = MAXB_;
  static constexpr bool CONSEC = CONSEC_;
  static constexpr bool ROT = ROT_;
  // DYN_: work items are handed out in order by a global atomic counter (a block that finishes early takes
  // the next item), instead of the static round-robin; keeps the concurrently streamed planes together.
  static constexpr bool DYN = DYN_;
  // VEC_: 0 scalar cp.async; 1 16-byte cp.async.cg (L1 bypass); 2 16-byte .ca; 3 one bulk (TMA) copy per
  // tile row completing on an mbarrier, block barrier per plane; 4 bulk copies with per-stage "full" and
  // "empty" mbarriers and no block-wide barrier per plane.
  static constexpr bool VEC = VEC_ != 0, VEC_CA = VEC_ == 2;
  static constexpr bool BULK = VEC_ >= 3, BULK_EMPTY = VEC_ == 4;
  static constexpr bool STCS = STCS_;
};

// The same tile with Tune's ROT set to R (partial sums rotated, or shifted for R = false).
template <class T, bool R>
struct TuneRot;
template <int BXT_, int BYT_, int MX_, int MY_, int NS_, int MINB_, int VEC_, bool STCS_, int IPB_, bool DYN_, int MAXB_,
          bool CONSEC_, bool ROT_, bool R>
struct TuneRot<Tune<BXT_, BYT_, MX_, MY_, NS_, MINB_, VEC_, STCS_, IPB_, DYN_, MAXB_, CONSEC_, ROT_>, R> {
  using type = Tune<BXT_, BYT_, MX_, MY_, NS_, MINB_, VEC_, STCS_, IPB_, DYN_, MAXB_, CONSEC_, R>;
};
template <class T, bool R>
using tune_rot = typename TuneRot<T, R>::type;

// Tile configuration derived from a Tune.
template <class Real, ShapeSpec S, class T, bool HASB>
struct TileCfg {
  static constexpr int R = S.radius;
  static constexpr bool D3 = S.dim == 3;
  static constexpr bool F64 = sizeof(Real) == 8;
  static constexpr int SECTOR = 32 / static_cast<int>(sizeof(Real));
  static constexpr int HX = ((R + SECTOR - 1) / SECTOR) * SECTOR;  // sector-wide x halo (scalar loads)
  static constexpr int HY = D3 ? R : 0;
  static constexpr int BXT = T::BXT, BYT = T::BYT, MX = T::MX, MY = T::MY;
  static constexpr int BX = BXT * MX;
  static constexpr int BY = BYT * MY;
  static constexpr int NT = BXT * BYT;
  // Output columns of a thread: tx + jx * BXT (interleaved), or CONSEC: tx * MX + jx. Consecutive columns read a row
  // window as vectors of MX elements aligned to MX elements (stream_plane) and store a row's MX outputs as one
  // vector, so the window and the outputs must start on MX-element boundaries in shared and global memory: the
  // static_assert below for the shared rows (scalar loads: the sector-wide halo; 16-byte or bulk loads: the window's
  // shift, applied once), consec_origin_ok / stream_geometry (host) for the fields' origins.
  static constexpr bool CONSEC = T::CONSEC;
  static constexpr int XS = CONSEC ? MX : 1, XJ = CONSEC ? 1 : BXT;
  static constexpr bool VEC = T::VEC;
  static constexpr bool BULK = T::BULK, BULK_EMPTY = T::BULK_EMPTY;
  static constexpr int V = VEC ? 16 / static_cast<int>(sizeof(Real)) : 1;  // elements per load unit
  // Scalar loads: the window of a row is [x0 - HX, x0 + BX + HX) (sector aligned when the rows are).
  // 16-byte loads: [x0 - R - m, ...) with m = the 16-byte misalignment of x0 - R (0 <= m < V), TWL wide.
  static constexpr int HXL = VEC ? R : HX;
  static constexpr int TW = BX + 2 * HX;
  static constexpr int TWL = VEC ? ((BX + 2 * R + V - 1 + V - 1) / V) * V : TW;
  static constexpr int NCH = TWL / V;  // load units per row
  static constexpr int TH = BY + 2 * HY;
  static constexpr int NLOAD = TH * NCH;
  static constexpr int LOADS = (NLOAD + NT - 1) / NT;
  static constexpr bool EXACT = NLOAD == LOADS * NT;
  // Shared row stride: a warp's compute-phase reads are bank-conflict free when consecutive threads
  // read consecutive words (row-major thread index -> SW congruent to BXT modulo the bank period).
  static constexpr int PERIOD = 128 / static_cast<int>(sizeof(Real));
  static constexpr int SW =
      (BXT % PERIOD == 0 || BYT == 1) ? TWL : TWL + (((BXT - TWL) % PERIOD) + PERIOD) % PERIOD;
  static_assert(SW % V == 0, "16-byte loads need 16-byte aligned shared rows");
  static_assert(!CONSEC || (MX > 1 && MX * sizeof(Real) <= 16 && BXT % 32 == 0 && SW % MX == 0 && (VEC || HXL % MX == 0)),
                "consecutive columns: vectors of at most 16 bytes, aligned in every shared row; a warp reads one row");
  static constexpr int STAGE_ELEMS = TH * SW;
  static constexpr int BB_ELEMS = HASB ? NT * MX * MY : 0;
  static constexpr int STAGE_BYTES = (STAGE_ELEMS + BB_ELEMS) * static_cast<int>(sizeof(Real));
  // Automatic ring depth (T::NS == 0): up to 6 (3D) / 8 (2D) stages within ~46 KB (3D fp64: 40 KB).
  static constexpr int NS_WANT = D3 ? 6 : 8;
  static constexpr int NS_FIT = ((D3 && F64 ? 40 : 46) * 1024) / STAGE_BYTES;
  static constexpr int NS_AUTO = NS_WANT < NS_FIT ? NS_WANT : (NS_FIT < 3 ? 3 : NS_FIT);
  static constexpr int NS = T::NS > 0 ? T::NS : NS_AUTO;
  static constexpr int SMEM_BYTES = NS * STAGE_BYTES;
  static constexpr int MINB = T::MINB;
  static_assert(NS >= 2, "at least two shared-memory stages");
  static_assert(!D3 || R <= SECTOR, "3D radius larger than a sector is not supported by TileCfg");
};

// The exact Krotkiewski-Dabrowski two-load tile: one output per thread and plane, loaded tile =
// 2 x threads. fp64 24 x 4R threads -> (24 + 8) x (4R + 2R); fp32 32 x 6R -> 48 x 8R; 2D 256-thread
// rows (halo by a second, predicated load).
// (2D: at least 3 blocks per SM, as before the Tune rework added ~10 registers to the 2D kernels.)
template <class Real, ShapeSpec S>
using TwoLoadTune = Tune<S.dim == 3 ? (sizeof(Real) == 8 ? 24 : 32) : 256,
                         S.dim == 3 ? (sizeof(Real) == 8 ? 4 : 6) * S.radius : 1, 1, 1, 0, S.dim == 3 ? 1 : 3, 0,
                         false, S.dim == 3 && sizeof(Real) == 8 ? 16 : 0>;

// The "wide" tiles (default), chosen from the measurements in docs/perf/two-load-stencils.md
// (benchmarks/results/gpu-h100-2026-11-22-b/stencil_sweep.log). Three tiers, the widest one whose row
// wastes at most a fifth of the threads on the x extent is launched (launch_stream_variant):
//  * large: the medium tile or a better measured variant of it (LargeTuneSel below);
//  * medium (rows >= ~4/5 of the tile width): long contiguous rows and 32 warps per SM
//      3D R=1 fp64: 256 x 4 threads x (1 x 2) outputs = 256 x 8 tile, 1024 threads (with b: 256 x 2
//                   threads, 256 x 4 tile, 512 threads: the 64-register cap of 1024 threads spilled);
//      3D R=1 fp32: 256 x 4 threads x (1 x 4) outputs = 256 x 16 tile, 1024 threads;
//      2D R <= 4 fp64: 512 threads x 2 interleaved columns = 1024; fp32: 512 x 4 = 2048 (R >= 5: the
//      small tile; the large one spilled and measured 0.83 / 0.73 instead of ~0.90 / 0.83);
//      3D R >= 2: the small tile (registers);
//  * small (the tile of the 2026-11-22 results; small grids, e.g. coarse multigrid levels)
//      3D fp64: 64 x 4 threads x (1 x 4) outputs = 64 x 16 tile (1 x 2 when b is streamed too);
//      3D fp32: 128 x 2 threads x (1 x 8) outputs = 128 x 16 tile (1 x 4 with b);
//      2D: 256 threads x 2 (fp64) / 4 (fp32) interleaved columns.
// Ring depth 3 (3D) / 8 or 6 (2D): deeper rings measured slower (docs/perf/two-load-stencils.md).
template <class Real, ShapeSpec S, bool HASB>
struct SmallTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  using type = std::conditional_t<
      S.dim == 3,
      std::conditional_t<F64, Tune<64, 4, 1, HASB ? 2 : 4, 3, 1, 0, false, 16>,
                         Tune<128, 2, 1, HASB ? 4 : 8, 0, 1, 0, false, 0>>,
      Tune<256, 1, F64 ? 2 : 4, 1, 0, 1, 0, false, 0>>;
};
// Which 2D row tiles rotate the partial sums of the streamed axis instead of shifting them (Tune's ROT): those of the
// shapes of radius >= 2, in apply mode, and in fp64 also in the modes with b (the 1024-wide tile of radius 2-4). Round
// 24 of the sweep (H200, 16384^2, benchmarks/results/gpu-h200-2026-11-28-fp64-pipelined-rows/run3, each twice against
// the production tile): fp64 2d13pt 0.876-0.877 -> 0.926, 2d17pt 0.729-0.733 -> 0.803-0.804, 2ds25pt 0.778-0.800 ->
// 0.859-0.862, 2d21pt 0.878-0.881 -> 0.891-0.893, 2d25pt and 2ds9pt unchanged; fp32 2ds25pt 0.682-0.693 ->
// 0.758-0.764, 2d21pt 0.736-0.737 -> 0.774-0.780, 2d13pt / 2d17pt / 2d25pt +2.5-3 %, 2ds9pt +1 %. fp64 Jacobi (run 7, perks_bench --sweep jacobi, three times each way): 2d17pt at
// 4096^2 126.5-127.6 -> 120.5-121.7 us per sweep, 2d13pt and 2d25pt within 1 % (ptxas: 93-120 registers, no spill).
// Not for fp32 with b: the fp32 2d21pt Jacobi tile spilled (128 registers, 48 bytes) and lost 17 %; nor in 3D, where
// nothing gained and 3d13pt fp64 lost an occupancy step (128 -> 139 registers).
template <class Real, ShapeSpec S, bool HASB>
inline constexpr bool kRot2d = S.dim == 2 && S.radius >= 2 && (!HASB || sizeof(Real) == 8);

// Medium: 3D R=1 256-wide tiles (1024 threads; 512 with b), 2D R <= 4 the 1024/2048-wide rows. 3D (and 2D fp64) items
// are short chunks (~8 per block) handed out dynamically (DYN): a static round-robin of a few items per
// block leaves SMs idle in the last round (measured: 128 of 132 blocks busy at 512^3 fp32).
template <class Real, ShapeSpec S, bool HASB>
struct MediumTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  using type = std::conditional_t<
      S.dim == 3,
      std::conditional_t<S.radius == 1,
                         std::conditional_t<F64,
                                            std::conditional_t<HASB, Tune<256, 2, 1, 2, 3, 1, 0, false, 8, true>,
                                                               Tune<256, 4, 1, 2, 3, 1, 0, false, 8, true>>,
                                            Tune<256, 4, 1, HASB ? 2 : 4, 3, 1, 0, false, 8, true>>,
                         typename SmallTuneSel<Real, S, HASB>::type>,
      std::conditional_t<(S.radius > 4), typename SmallTuneSel<Real, S, HASB>::type,
                         std::conditional_t<F64,
                                            Tune<512, 1, 2, 1, 8, 1, 0, false, 0, true, 1, false, kRot2d<Real, S, HASB>>,
                                            Tune<512, 1, 4, 1, 6, 1, 0, false, 0>>>>;
};
// (2D fp64 takes its chunks of rows dynamically since round 12 of the sweep, H200: 2d5pt 0.900-0.902 -> 0.918-0.920
// of the copy bound at 16384^2; benchmarks/results/gpu-h200-2026-11-25-row-kernels/run6. fp32 not measured. It runs
// one block per SM, as measured there: when the output addressing left the radius-1 kernels 64 registers and so two
// blocks per SM, 2d5pt fp64 fell to 0.889-0.892 and 2d9pt to 0.882-0.889; benchmarks/results/
// gpu-h200-2026-11-26-output-addressing/run1.)
// Large: where round 3 of the sweep (benchmarks/results/gpu-h100-2026-11-22-e/) measured something better
// than the medium tile on 512^3, apply mode:
//   fp64 3D 7-point: 512 x 2 threads x (1 x 2) outputs, dynamic items of ~8 per block (0.886-0.895 vs
//                    0.876-0.881; it spills for the 27-point shapes: 0.705);
//   fp64 3D other R=1: the medium tile with dynamic items (27-point symmetric 0.880 vs 0.869-0.871);
//   fp32 3D 7-point: the medium tile with bulk (TMA) row copies on mbarriers and a block barrier per
//                plane, 4 stages (0.782-0.790 vs 0.705-0.740 in the same run); dynamic short items since
//                2026-11-23 (the static schedule ran 128 blocks on 132 SMs). The variant without the
//                block barrier (per-stage "empty" mbarriers, VEC 4) measured 0.801-0.811, but
//                compute-sanitizer racecheck does not follow mbarrier arrivals and reports its stage reuse
//                as WAR hazards, so it is not used. Bulk copies cost the fp32 box-like shapes 5-18 %.
// Everything else: the medium tile.
template <class Real, ShapeSpec S, bool HASB>
struct LargeTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  static constexpr bool kTuned = S.dim == 3 && S.radius == 1 && !HASB && (F64 || S.kind == ShapeKind::star);
  using type = std::conditional_t<
      !kTuned, typename MediumTuneSel<Real, S, HASB>::type,
      std::conditional_t<F64,
                         std::conditional_t<S.kind == ShapeKind::star, Tune<512, 2, 1, 2, 3, 1, 0, false, 8, true>,
                                            Tune<256, 4, 1, 2, 3, 1, 0, false, 8, true>>,
                         Tune<256, 4, 1, 4, 4, 1, 3, false, 8, true>>>;
};
// Large on a device with fast memory (StencilRequest::fast_memory, perks_fast_memory in perks_model.hpp: an SM
// must keep > 31 KB in flight, e.g. the H200's 4.8 TB/s over 132 SMs). Rounds 6-7 of the sweep on an H200
// (benchmarks/results/gpu-h200-2026-11-25-stencils/) found bulk (TMA) row copies on a 4-stage ring 10-25 %
// faster than the tiles above there (on the H100 they were slower for fp64: 0.843 vs 0.909):
//   fp64 3D 7-point: 512 x 2 threads x (1 x 2), items of ~16 per block (0.888-0.890 of the copy bound vs 0.80);
//   fp64 3D other R=1: 256 x 4 threads x (1 x 2), items of ~4 per block (27-point CSE 0.880 vs 0.79); since round 27
//                    (below) 512 x 4 tiles;
//   fp32 3D 7-point: 256 x 2 threads x (1 x 6), two blocks per SM (0.83 vs 0.64 with one block of 1024 threads:
//                    ncu put a third of the warps' cycles at the block barrier of the plane; 8 rows per thread
//                    0.80, 4 rows 0.77, round 8). Since round 20 (2026-11-28, benchmarks/results/
//                    gpu-h200-2026-11-28-consecutive-columns/run1) the same 256 x 12 tile with consecutive columns:
//                    64 x 4 threads x (4 x 3), float4 shared loads and stores, two blocks of 256 threads per SM
//                    (0.837-0.841 vs 0.827-0.830); since round 27 a 512 x 4 tile (below).
// (3 and 5 stages were slower than 4 in every case: fp64 3d7pt 0.79 / 0.78 vs 0.88.)
// As many tiles per plane as SMs (rounds 25-27, 2026-11-30, benchmarks/results/gpu-h200-2026-11-30-stencil-sequence,
// runs 1-3). Dynamic items are taken in order, chunk by chunk, so the blocks that run at once stream neighbouring tiles
// of one chunk of planes. With about one tile per SM, that is one chunk of every tile: the grid sweeps whole planes, one
// after the other, and a chunk's z halo was read by the chunk below just before. The fp64 3d7pt tile (512 x 4, one
// block per SM: 128 tiles on 132 SMs) worked that way and reached 0.90; the fp32 tile above (86 tiles on 264 blocks)
// ran three chunks at once and stopped at 0.83-0.84, as did every fp32 tile of the earlier rounds. Now, on one block per
// SM (MAXB 1), 512 x 4 tiles with consecutive columns and bulk rows:
//   fp32 3D 7-point: 128 x 2 threads x (4 x 2), 10 stages, ~32 items per block: 0.881-0.887 of the copy bound against
//                    0.838-0.847 (8 and 12 stages 0.878-0.884, 512 threads 0.866-0.871, 64 items 0.84);
//   fp64 3D other R=1: 256 x 2 threads x (2 x 2), 4 stages, ~16 items per block: 27-point 0.899-0.902 against
//                    0.880-0.888, CSE form 0.898-0.899 against 0.877-0.887, poisson 0.892-0.895 against 0.870, 3d17pt
//                    0.894-0.896 against 0.877-0.879.
// Not for the fp32 boxes (27-point 0.775 against 0.828) nor 3d13pt fp32 (0.777 against 0.823), which lost on it; fp64
// 3d7pt on 512 threads measured the same as its tile (0.903-0.905 against 0.901-0.903).
// On the fp32 grid rows of 8 elements (grid_row_align, 2026-11-30 session 47; those rounds ran on rows of 32), the fp32
// 3d7pt tile takes 8 stages instead of 10: 0.917-0.922 against 0.902-0.903 (~32 items per block; 28 items 0.918-0.920,
// 24 0.915, 128 threads x 4 rows 0.915-0.919, 12 stages 0.884; benchmarks/results/gpu-h200-2026-11-30-sweep-order/run4,
// stencil_sweep rounds 26-27 again). The fp32 27-point box and 3d13pt still lose on 512 x 4 there (0.78 / 0.79 against
// 0.84); the CSE 27-point form would gain (0.877-0.879 against 0.860-0.863) but shares the box's tile.
// On the fp64 grid rows of 4 elements (32 bytes; grid_row_align since session 48), the fp64 3d7pt tile takes ~24 items
// per block instead of 16: 5.562-5.571e-4 against 5.591-5.596e-4 s per 512^3 sweep (+0.5 %; 32 items 5.706e-4; 3, 5 and
// 6 stages 3-13 % slower; the 512- and 256-thread forms of the tile as fast as it; benchmarks/results/
// gpu-h200-2026-11-30-fp64-rows/run2, stencil_sweep round 29).
// 3D radius-2 star (3d13pt), apply mode; round 19 (benchmarks/results/gpu-h200-2026-11-26-cg-async-gather/run3), 512^3:
//   fp32: 256 x 1 threads x (1 x 6), bulk rows, two blocks per SM (89 registers), items of ~4 per block: 0.815-0.823 of
//         the copy bound vs 0.370-0.372 for the small tile (128 x 2 threads x 8 rows: 151 registers, one block of
//         8 warps per SM, DRAM 33 % of peak);
//   fp64: the small tile with dynamic items of ~8 per block: 0.786 vs 0.737-0.740.
// 3D fp32 radius-1 shapes other than the star (27-point box, 19-point "poisson", 17-point), apply mode; round 21
// (benchmarks/results/gpu-h200-2026-11-28-consecutive-columns/run3), 512^3: bulk rows with consecutive columns, 64 x 4
// threads x (4 x 2), two blocks per SM: 27-point 0.824-0.825 (0.542-0.543 for the scalar medium tile it had), its CSE
// form 0.843-0.845 (0.612-0.614). (On the H100 bulk copies had cost these shapes 5-18 %, LargeTuneSel.)
// Everything else: the large tile.
template <class Real, ShapeSpec S, bool HASB>
struct LargeFastMemTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  static constexpr bool kStar2 = S.dim == 3 && S.radius == 2 && S.kind == ShapeKind::star && !HASB;
  static constexpr bool kBox32 = S.dim == 3 && S.radius == 1 && S.kind != ShapeKind::star && !F64 && !HASB;
  using type = std::conditional_t<
      kStar2,
      std::conditional_t<F64, Tune<64, 4, 1, 4, 3, 1, 0, false, 8, true>, Tune<256, 1, 1, 6, 4, 2, 3, false, 4, true>>,
      std::conditional_t<
          kBox32, Tune<64, 4, 4, 2, 4, 2, 3, false, 8, true, 0, true>,
          std::conditional_t<
          !LargeTuneSel<Real, S, HASB>::kTuned, typename LargeTuneSel<Real, S, HASB>::type,
          std::conditional_t<F64,
                             std::conditional_t<S.kind == ShapeKind::star, Tune<512, 2, 1, 2, 4, 1, 3, false, 24, true>,
                                                Tune<256, 2, 2, 2, 4, 1, 3, false, 16, true, 1, true>>,
                             Tune<128, 2, 4, 2, 8, 1, 3, false, 32, true, 1, true>>>>>;
};
// Medium on a device with fast memory, for the 3D 7-point star: bulk (TMA) 256-wide tiles. Round 10 of the sweep
// (H200, benchmarks/results/gpu-h200-2026-11-25-row-kernels/run2) at 255^3, the PCG-MG fine grid, whose rows are too
// short for the 512-wide large tile, and for the modes with b (residual, Jacobi: the multigrid smoother) at every
// size, which no bulk tile covered (ratios to the copy bound of 2 sizeof(T) per cell; the modes with b move 3):
//   fp64 apply: 256 x 2 threads x (1 x 4), items of ~4 per block: 0.76-0.77 vs 0.62-0.64 (the scalar medium tile);
//   fp64 with b: the same tile: 0.556-0.560 vs 0.42-0.44 at 255^3, 0.61 vs 0.50-0.53 at 512^3;
//   fp32 with b: 256 x 2 threads x (1 x 6), two blocks per SM (the fp32 large tile): 0.39 vs 0.29 at 255^3, 0.556 vs
//   0.40 at 512^3.
// (fp32 apply takes the large tile, 256 wide.)
// 2D rows, apply mode (every 2D tier: the large ones are the medium tile in 2D), with consecutive columns, 16-byte
// cp.async rows and dynamic items (benchmarks/results/gpu-h200-2026-11-28-consecutive-columns):
//   fp32, radius <= 4: 512 threads x 4 columns; round 21 (run 3) at 16384^2: 2d5pt 0.816-0.817 vs 0.779-0.782, 2d9pt
//                      0.813-0.815 vs 0.744-0.745 (the interleaved medium tile); run 4: 2ds9pt 0.80 vs 0.71, 2d13pt
//                      0.77 vs 0.62, 2d17pt 0.80 vs 0.52, 2d25pt 0.74 vs 0.61;
//   radius >= 5 (the small tile before: the interleaved 512-thread tile spilled): 256 threads x 4 (fp32) / 2 (fp64)
//                      columns, two blocks per SM; a row window of 2 ceil(R / MX) + 1 vectors takes fewer registers
//                      (104-110 against 112-142); round 23 (run 5).
// Everything else: the medium tile.
template <class Real, ShapeSpec S, bool HASB>
struct MediumFastMemTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  static constexpr bool kTuned = S.dim == 3 && S.radius == 1 && S.kind == ShapeKind::star && (F64 || HASB);
  static constexpr bool kRows = S.dim == 2 && !HASB && (!F64 || S.radius >= 5);
  // The 2D row tiles: 512 threads x 4 columns (radius <= 4), and 256 threads x 4 (fp32) / 2 (fp64) columns, two blocks
  // per SM (radius >= 5; NarrowRowFastMemTuneSel also gives it to some fp32 shapes of radius <= 4).
  using WideRowTile = Tune<512, 1, 4, 1, 6, 1, 1, false, 0, true, 0, true, kRot2d<Real, S, HASB>>;
  using NarrowRowTile = Tune<256, 1, F64 ? 2 : 4, 1, 8, 2, 1, false, 0, true, 0, true, kRot2d<Real, S, HASB>>;
  using RowTile = std::conditional_t<S.radius <= 4, WideRowTile, NarrowRowTile>;
  using type = std::conditional_t<
      kRows, RowTile,
      std::conditional_t<!kTuned, typename MediumTuneSel<Real, S, HASB>::type,
                         std::conditional_t<F64, Tune<256, 2, 1, 4, 4, 1, 3, false, 4, true>,
                                            Tune<256, 2, 1, 6, 4, 2, 3, false, 8, true>>>>;
};
// The 2D fp32 rows of radius <= 4 and at least 13 points on a device with fast memory also have a tile half as wide
// (1024 columns, 256 threads x 4, two blocks per SM; the radius-5/6 row tile), taken where it leaves less of the last
// tile column empty (narrow_rows_pay). A row tile's plane costs about the same however much of its width lies in the
// field, so a partial last column costs a full one's time: at 6898^2 (3 x 2048 + 754 columns) the 2048-wide tile ran
// 2d5pt at 0.68 of the copy bound against 0.81 at 16384^2. Measured on the H200 at 6898^2 (benchmarks/results/
// gpu-h200-2026-11-28-sector-windows, stencil_bench twice each way; run 5): 2d13pt 0.658-0.661 -> 0.677-0.686, 2d17pt
// 0.612-0.614 -> 0.638-0.640, 2d25pt 0.578-0.585 -> 0.680-0.683. With the narrow tile the lighter shapes did not gain
// (run 4: 2d5pt 0.679-0.682 -> 0.686, 2d9pt 0.692 -> 0.683, 2ds9pt 0.686 -> 0.677): the narrow tile's rate per cell at
// full width is lower, and only for the heavier planes does its second block per SM make up for it.
template <class Real, ShapeSpec S, bool HASB>
struct NarrowRowFastMemTuneSel {
  using Medium = MediumFastMemTuneSel<Real, S, HASB>;
  static constexpr bool kHas = Medium::kRows && sizeof(Real) == 4 && S.radius <= 4 && shape_point_count(S) >= 13;
  using type = std::conditional_t<kHas, typename Medium::NarrowRowTile, typename Medium::type>;
};
template <class Real, ShapeSpec S, bool HASB>
using WideTune = typename SmallTuneSel<Real, S, HASB>::type;
template <class Real, ShapeSpec S, bool HASB>
using WideMediumTune = typename MediumTuneSel<Real, S, HASB>::type;
template <class Real, ShapeSpec S, bool HASB>
using WideLargeTune = typename LargeTuneSel<Real, S, HASB>::type;
template <class Real, ShapeSpec S, bool HASB>
using WideLargeFastMemTune = typename LargeFastMemTuneSel<Real, S, HASB>::type;
template <class Real, ShapeSpec S, bool HASB>
using WideMediumFastMemTune = typename MediumFastMemTuneSel<Real, S, HASB>::type;

constexpr int kMaxTemplatedPoints = 27;

template <class Real, int NP>
struct StreamArgs {
  const Real* x;     // element (0,0,0) of the input
  const Real* b;     // element (0,0,0) of b (residual / jacobi)
  Real* out;         // element (0,0,0) of the output
  double* partials;  // jacobi: one per block
  unsigned* work;    // DYN: [0] items handed out beyond the first gridDim.x, [1] finished blocks (self-resetting)
  long row_stride;   // stride of the in-plane second axis (3D: y; 2D: z)
  long step;         // stride of the streamed axis (3D: z; 2D: y)
  int nx, ny, ns;    // owned extents: x, in-plane second axis, streamed axis
  int gx, gy;        // ghost widths of x and the in-plane second axis (load bounds)
  int tiles_x;
  long tiles;  // tiles per plane
  int chunk;   // streamed planes per work item (per head chunk when there is a tail)
  long items;  // work items = tiles * chunks; item u = (chunk u / tiles, tile u % tiles)
  // Tail of a dynamic schedule (stream_sweep; StreamChunks in stream_schedule.hpp): chunks q >= head_chunks are
  // tail_chunk planes long; tail_chunk = 0: equal chunks.
  int head_chunks;
  int tail_chunk;
  int lead;  // planes by which the chunks start early (StreamChunks::lead): stream_sweep with an item hook, resident PERKS
  Real scale;
  Real c[NP];
};

// The chunks of stream_sweep's items (stream_schedule.hpp; the lead is read only by stream_chunk_planes<true>).
template <class Real, int NP>
__host__ __device__ __forceinline__ StreamChunks stream_chunks(const StreamArgs<Real, NP>& a) {
  return StreamChunks{a.ns, a.chunk, a.head_chunks, a.tail_chunk, a.lead};
}

// ---- tile staging shared by the streaming kernel and the PERKS kernel (perks_stencil.cuh) ---------------
// Tile-independent part of the load mapping, row-major over the staged tile's rows x load units: load l of
// thread tid fills row lrow[l], element column lcol[l].
template <class C>
__device__ __forceinline__ void tile_load_units(int tid, int (&lrow)[C::LOADS], int (&lcol)[C::LOADS]) {
#pragma unroll
  for (int l = 0; l < C::LOADS; ++l) {
    const int idx = tid + l * C::NT;
    lrow[l] = idx / C::NCH;
    lcol[l] = (idx - lrow[l] * C::NCH) * C::V;
  }
}

// A scalar load of the tile whose first owned cell is (x0, y0): whether its cell lies in the plane's
// readable range [-g, n + g) (ok) and its element offset in the plane (goff; 0 when not ok).
template <class C, class Real, int NP>
__device__ __forceinline__ void scalar_tile_load(const StreamArgs<Real, NP>& a, int x0, int y0, int row, int col,
                                                 bool live, bool& ok, long& goff) {
  const int gx = x0 - C::HX + col, gy = y0 - C::HY + row;
  ok = live && gx >= -a.gx && gx < a.nx + a.gx && gy >= -a.gy && gy < a.ny + a.gy;
  goff = ok ? gx + gy * a.row_stride : 0;
}

// Issues the asynchronous copy of one plane of b (source plane bs) for the MY x MX outputs of thread
// (tx, ty) in the tile at (x0, y0) into bd; outputs outside the owned plane get zeros.
template <class C, class Real, int NP>
__device__ __forceinline__ void stage_b_plane(Real* bd, const Real* bs, const StreamArgs<Real, NP>& a, int x0, int y0,
                                              int tx, int ty, int tid) {
#pragma unroll
  for (int jy = 0; jy < C::MY; ++jy)
#pragma unroll
    for (int jx = 0; jx < C::MX; ++jx) {
      const int ox = x0 + tx * C::XS + jx * C::XJ, oy = y0 + ty * C::MY + jy;
      const bool act = ox < a.nx && oy < a.ny;
      cp_async_elem<sizeof(Real)>(&bd[(jy * C::MX + jx) * C::NT + tid], act ? bs + ox + oy * a.row_stride : a.b, act);
    }
}

// ---- mbarrier + bulk (TMA) copies, sm_90 ----------------------------------------------------------
// A bulk copy moves a contiguous, 16-byte aligned run of global memory (size a multiple of 16 bytes) into
// shared memory and signals the bytes it delivered on an mbarrier ("complete_tx"); the phase of the
// barrier completes when the expected arrivals and the announced bytes have all arrived.
__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
// Order this thread's generic-proxy stores to global memory before later asynchronous-proxy (bulk copy)
// reads of the same memory, e.g. by another block after a device-wide barrier.
__device__ __forceinline__ void fence_global_for_bulk_reads() {
  asm volatile("fence.proxy.async.global;\n" ::: "memory");
}
// Make the initialised barriers visible to the asynchronous (TMA) proxy.
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned long long* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_wait_parity(unsigned long long* bar, unsigned parity) {
  const unsigned a = smem_addr(bar);
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(a), "r"(parity)
        : "memory");
  } while (!done);
}
__device__ __forceinline__ void bulk_copy_g2s(void* smem, const void* gmem, unsigned bytes, unsigned long long* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(smem_addr(smem)),
      "l"(gmem), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}

// A predicated global store without a branch (STCS: streaming, evict-first). The plane loops store only the outputs
// inside the domain (and PERKS only those that others read); a branch per output costs a convergence barrier and the
// address computation behind it (ncu: ~16 instructions per output in the 3D streaming tiles, against 42 FMAs per
// plane of 6 outputs). No memory clobber, so that the shared loads around it keep their schedule; as volatile asm it
// keeps its order with the block and device barriers and fences that publish the stores.
// The asm of one predicated store: cache operator CACHE ("" or ".cs"), PTX type TYPE, register constraint CON.
#define PERKSOLVE_STORE_GLOBAL_IF(CACHE, TYPE, CON, p, v, pred)                                                   \
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %2, 0;\n @q st.global" CACHE "." TYPE " [%0], %1;\n}\n" ::"l"(p), \
               CON(v), "r"(pred))
template <bool STCS = false>
__device__ __forceinline__ void store_out_if(double* p, double v, unsigned pred) {
  if constexpr (STCS) PERKSOLVE_STORE_GLOBAL_IF(".cs", "f64", "d", p, v, pred);
  else PERKSOLVE_STORE_GLOBAL_IF("", "f64", "d", p, v, pred);
}
template <bool STCS = false>
__device__ __forceinline__ void store_out_if(float* p, float v, unsigned pred) {
  if constexpr (STCS) PERKSOLVE_STORE_GLOBAL_IF(".cs", "f32", "f", p, v, pred);
  else PERKSOLVE_STORE_GLOBAL_IF("", "f32", "f", p, v, pred);
}
#undef PERKSOLVE_STORE_GLOBAL_IF
// The same for a vector of N consecutive outputs v[0..N) at p (aligned to N elements): one st.global.v2 / v4.
#define PERKSOLVE_STORE_GLOBAL_V2_IF(CACHE, TYPE, CON, p, v, pred)                                               \
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %3, 0;\n @q st.global" CACHE ".v2." TYPE " [%0], {%1, %2};\n}\n" ::"l"(p), \
               CON(v[0]), CON(v[1]), "r"(pred))
#define PERKSOLVE_STORE_GLOBAL_V4_IF(CACHE, TYPE, CON, p, v, pred)                                                 \
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %5, 0;\n @q st.global" CACHE ".v4." TYPE                    \
               " [%0], {%1, %2, %3, %4};\n}\n" ::"l"(p),                                                           \
               CON(v[0]), CON(v[1]), CON(v[2]), CON(v[3]), "r"(pred))
template <bool STCS, int N>
__device__ __forceinline__ void store_vec_if(double* p, const double (&v)[N], unsigned pred) {
  static_assert(N == 2, "16 bytes at most");
  if constexpr (STCS) PERKSOLVE_STORE_GLOBAL_V2_IF(".cs", "f64", "d", p, v, pred);
  else PERKSOLVE_STORE_GLOBAL_V2_IF("", "f64", "d", p, v, pred);
}
template <bool STCS, int N>
__device__ __forceinline__ void store_vec_if(float* p, const float (&v)[N], unsigned pred) {
  static_assert(N == 2 || N == 4, "16 bytes at most");
  if constexpr (N == 2) {
    if constexpr (STCS) PERKSOLVE_STORE_GLOBAL_V2_IF(".cs", "f32", "f", p, v, pred);
    else PERKSOLVE_STORE_GLOBAL_V2_IF("", "f32", "f", p, v, pred);
  } else {
    if constexpr (STCS) PERKSOLVE_STORE_GLOBAL_V4_IF(".cs", "f32", "f", p, v, pred);
    else PERKSOLVE_STORE_GLOBAL_V4_IF("", "f32", "f", p, v, pred);
  }
}
#undef PERKSOLVE_STORE_GLOBAL_V2_IF
#undef PERKSOLVE_STORE_GLOBAL_V4_IF

// Zeroes the partial sums and the Jacobi centre queue of a work item (before its first plane).
template <class Real, int MY, int MX, int NA, int NQ>
__device__ __forceinline__ void clear_stream_state(Real (&acc)[MY][MX][NA], Real (&xq)[MY][MX][NQ]) {
#pragma unroll
  for (int jy = 0; jy < MY; ++jy)
#pragma unroll
    for (int jx = 0; jx < MX; ++jx) {
#pragma unroll
      for (int j = 0; j < NA; ++j) acc[jy][jx][j] = Real(0);
#pragma unroll
      for (int j = 0; j < NQ; ++j) xq[jy][jx][j] = Real(0);
    }
}

// Consecutive columns: the vectors q = first .. last (elements q * mx .. q * mx + mx - 1 from the thread's first
// column) that cover a row window [-r, mx - 1 + r].
constexpr int consec_first_vec(int r, int mx) { return -((r + mx - 1) / mx); }
constexpr int consec_last_vec(int r, int mx) { return (mx - 1 + r) / mx; }
// One streamed plane of the compute: reads the in-plane values a thread needs from the shared-memory
// plane `cur` (pointing at the thread's first output: row ty * MY, column tx, or tx * MX for C::CONSEC; for 16-byte
// and bulk loads (C::VEC) shifted by the window's misalignment, the same for every row since such tiles need rows of
// whole 16-byte units, vec_rows_ok), adds the plane's contribution to the
// 2R+1 output planes it touches (acc, a shift register along the streamed axis), and hands each output
// that is now complete to emit(jy, jx, sum, centre) before shifting. `centre` is the input at the output
// (from the xq queue, kept when kCentre: Jacobi's x, apply_dot's p). Summation per output: the canonical
// offset order (streamed axis outer, then y, then x), or the mirror classes for SYM. Shared by the streaming kernel and the persistent
// (PERKS) kernel, so both give the same bits.
template <class Real, ShapeSpec S, class C, bool SYM, bool kCentre, int ROT = -1, class Emit>
__device__ __forceinline__ void stream_plane(const Real* cur, const Real* c,
                                             Real (&acc)[C::MY][C::MX][2 * S.radius + 1],
                                             Real (&xq)[C::MY][C::MX][S.radius > 0 ? S.radius : 1], Emit&& emit) {
  using G = StreamGeo<S>;
  constexpr int MX = C::MX, MY = C::MY;
  constexpr int RX = G::RX, RY = G::RY, RS = G::RS;
  // acc[.][.][slot(l)] holds output plane l of the shift register (0: complete after this plane). ROT < 0: the
  // register shifts every plane, slot(l) = l. ROT >= 0: it rotates instead, slot(l) = (l + ROT) % (2 RS + 1), and the
  // caller passes ROT = planes streamed so far mod 2 RS + 1 (a compile-time constant of an unrolled plane loop).
  constexpr auto slot = [](int l) { return ROT < 0 ? l : (l + ROT) % (2 * RS + 1); };
  // In-plane values: rows -RY .. MY-1+RY around the thread's first row, per output column.
  Real v[MY + 2 * RY][MX][2 * RX + 1];
  if constexpr (C::CONSEC) {
    // Consecutive columns (C::CONSEC): a row's window [x - RX, x + MX - 1 + RX] of the thread's MX outputs is read as
    // Q1 - Q0 + 1 vectors of MX elements aligned to MX elements (the thread's first column x is; MX * sizeof(Real) <=
    // 16 bytes). A warp's vector load covers consecutive words, so a row costs (Q1 - Q0 + 1) / (2 RX + 1) of the
    // interleaved tile's wavefronts per output. Every row of the window is read (the 2D resident tiles have one).
    constexpr int Q0 = consec_first_vec(RX, MX), Q1 = consec_last_vec(RX, MX);
    using Vec = VecOf<Real, MX>;
    static_for<-RY, MY + RY>([&](auto YY) {
      constexpr int yy = decltype(YY)::value;
      const Real* row = cur + yy * C::SW;
      Real w[(Q1 - Q0 + 1) * MX];
#pragma unroll
      for (int q = Q0; q <= Q1; ++q) {
        const Vec t = *reinterpret_cast<const Vec*>(row + q * MX);
        vec_to_array(t, &w[(q - Q0) * MX]);
      }
#pragma unroll
      for (int jx = 0; jx < MX; ++jx)
#pragma unroll
        for (int ix = -RX; ix <= RX; ++ix) v[yy + RY][jx][ix + RX] = w[jx + ix - Q0 * MX];
    });
  } else
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
        const Real* row = cur + yy * C::SW;
#pragma unroll
        for (int jx = 0; jx < MX; ++jx) v[yy + RY][jx][ix + RX] = row[jx * C::BXT + ix];
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
              if constexpr (ci >= 0) acc[jy][jx][slot(RS - ds)] = fma(c[ci], val(iy, ix), acc[jy][jx][slot(RS - ds)]);
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
              if constexpr (ci >= 0) tsum = fma(c[ci], cls[ay][ax], tsum);
            });
          });
          acc[jy][jx][slot(RS - ads)] += tsum;
          if constexpr (ads > 0) acc[jy][jx][slot(RS + ads)] += tsum;
        });
      }

      emit(jy, jx, acc[jy][jx][slot(0)], xq[jy][jx][0]);
      if constexpr (ROT < 0) {
#pragma unroll
        for (int j = 0; j < 2 * RS; ++j) acc[jy][jx][j] = acc[jy][jx][j + 1];
      }
      // The newest output plane of the next plane: the last slot after a shift, the completed one after a rotation.
      acc[jy][jx][ROT < 0 ? 2 * RS : slot(0)] = Real(0);
      if constexpr (kCentre) {
#pragma unroll
        for (int j = 0; j + 1 < RS; ++j) xq[jy][jx][j] = xq[jy][jx][j + 1];
        xq[jy][jx][RS - 1] = val(0, 0);
      }
    });
  }
}

// Kernel template parameters are plain ints and a Tune type (nvcc 13's host-stub generator cannot
// spell class-type non-type template arguments); the ShapeSpec is rebuilt inside.
//
// Block b processes items b, b + gridDim.x, b + 2 gridDim.x, ... (tile index fastest), so at any
// moment the resident blocks work on neighbouring tiles of the same few planes: the halo sectors a
// block loads were just loaded by its neighbours and come from L2, and DRAM sees long contiguous runs.
// The cp.async ring runs continuously across a block's items (no pipeline drain between items).
// The mbarriers of the bulk (TMA) ring: one "full" barrier per stage (the row copies arrive on it with their
// byte counts); BULK_EMPTY adds an "empty" barrier per stage on which every warp arrives when it is done
// reading the stage, so that no block-wide barrier is needed per plane. Declared by the kernel (shared memory),
// initialised once per launch.
template <class C>
struct StreamBarriers {
  unsigned long long full[C::BULK ? C::NS : 1];
  unsigned long long empty[C::BULK_EMPTY ? C::NS : 1];
};
template <class C>
__device__ __forceinline__ void stream_barriers_init(StreamBarriers<C>& bars) {
  if constexpr (C::BULK) {
    if (threadIdx.x == 0) {
      for (int st = 0; st < C::NS; ++st) {
        mbar_init(&bars.full[st], C::TH);
        if constexpr (C::BULK_EMPTY) mbar_init(&bars.empty[st], C::NT / 32);
      }
      mbar_init_fence();
    }
    __syncthreads();
  }
}
// What one block's pipeline carries from one sweep to the next in a persistent loop: the planes issued into
// and consumed from the ring so far (they fix the ring slot and the mbarrier phase of the next plane).
struct StreamPipeState {
  int n_issued = 0;
  unsigned n_used = 0;
};

// One sweep of the streaming kernel by one block: every work item the block takes (static round-robin or,
// DYN, from the global counter) streamed plane by plane from x to out. `tiles` is the dynamic shared memory
// (the ring, then b's staging buffers). Returns the thread's sum of squared residuals (Jacobi; else 0).
// Used once by stream_stencil_kernel and once per sweep by the persistent pipelined kernel
// (perks_pipelined.cuh); with DYN the last block to finish resets the counters, so the next sweep (after a
// grid barrier) or the next launch starts from zero.
// item_done(x0, xe, y0, ye, s0, len) runs in every thread after the block's last plane of an item (the item's
// owned cells [x0, xe) x [y0, ye) x [s0, s0 + len)); the persistent kernel fills boundary ghosts there.
struct NoItemHook {
  __device__ void operator()(int, int, int, int, int, int) const {}
};
template <class Real, ShapeSpec S, int MODE, bool SYM, class T, class ItemDone = NoItemHook>
__device__ __forceinline__ double stream_sweep(const StreamArgs<Real, kMaxTemplatedPoints>& a, const Real* x, Real* out,
                                               Real* const tiles,
                                               StreamBarriers<TileCfg<Real, S, T, stencil_mode_has_b(MODE)>>& bars,
                                               StreamPipeState& pipe, ItemDone item_done = {}) {
  constexpr bool kHasB = stencil_mode_has_b(MODE);
  using C = TileCfg<Real, S, T, kHasB>;
  constexpr int MX = C::MX, MY = C::MY, V = C::V;
  using G = StreamGeo<S>;
  constexpr int RS = G::RS;
  constexpr int NS = C::NS;
  constexpr bool kJacobi = MODE == static_cast<int>(StencilMode::jacobi);
  constexpr bool kDot = MODE == static_cast<int>(StencilMode::apply_dot);
  // 2D with an item hook (the pipelined PERKS kernel's per-item ghost fill): the chunks take their lead
  // (plan_stream_lead); every other kernel compiles the plain chunk arithmetic. (3D: the lead measured within the
  // runs' spread on 3d13pt, the one 3D shape with a per-item fill, benchmarks/results/gpu-h200-2026-11-29-chunk-lead.)
  constexpr bool kLed = S.dim == 2 && !std::is_same_v<ItemDone, NoItemHook>;
  const auto item_planes = [&a](long q, int& s0, int& len) {
    stream_chunk_planes<kLed>(stream_chunks(a), q, s0, len);
  };
  Real* const bbuf = tiles + NS * C::STAGE_ELEMS;
  unsigned long long* const full_bar = bars.full;
  unsigned long long* const empty_bar = bars.empty;

  const int tid = threadIdx.x;
  const int tx = tid % C::BXT;
  const int ty = tid / C::BXT;
  double rsum = 0.0;
  // 16-byte loads: misalignment (in elements, mod V) of x. Rows and planes are whole 16-byte units (vec_rows_ok), so
  // the window of a tile whose first column is x0, [x0 - HXL, ...) aligned down to 16 bytes, starts window_shift(x0)
  // elements early in every row and plane: the loads, the bulk copies and the compute all use that one shift.
  const int mx0 = C::VEC ? static_cast<int>((reinterpret_cast<unsigned long long>(x) / sizeof(Real)) & (V - 1)) : 0;
  const auto window_shift = [mx0](int x0) { return (mx0 + x0 - C::HXL) & (V - 1); };
  const Real* const xsafe = x - mx0;  // 16-byte aligned, inside the allocation (never read)

  static_assert(!(T::DYN && C::BULK_EMPTY), "dynamic items need the block barrier per plane");
  // The items of a block: static, blockIdx.x + k gridDim.x. DYN: the issue cursor takes the item thread 0
  // fetched two planes before its switch (dyn_next); thread 0 records the item of every ring slot that receives
  // an item's first plane (or the end, an item >= a.items), and the compute cursor takes its next item from the
  // slot it consumes next. (One shared "next item" for both cursors was overwritten when the issue cursor
  // passed a whole short item, e.g. a short last chunk, before the compute cursor had started it: that item
  // was skipped.) The record is read NS - 2 >= 1 block barriers after it was written.
  static_assert(!T::DYN || NS >= 3, "dynamic items need at least three ring stages");
  __shared__ long dyn_next;
  __shared__ long item_of_slot[T::DYN ? NS : 1];
  int n_issued = pipe.n_issued;     // planes issued into the ring so far
  unsigned n_used = pipe.n_used;    // planes consumed so far (stage n_used % NS, barrier phase (n_used / NS) & 1)

  int lrow[C::LOADS], lcol[C::LOADS];
  tile_load_units<C>(tid, lrow, lcol);
  // Bulk ring: the tile row this thread copies (when < TH). Rows are spread over the warps (row r: lane r / NW of
  // warp r % NW): the compiler issues a warp's bulk copies one elected lane at a time, so with every row in warp 0
  // that warp ran ~10 more instructions per row and plane than the others before each block barrier (ncu, the fp32
  // 3D tile: 14 rows).
  static_assert(!C::BULK || C::NT % 32 == 0, "bulk rows are dealt to whole warps");
  const int brow = (tid & 31) * (C::NT / 32) + (tid >> 5);

  // ---- issue cursor (runs NS-1 planes ahead of the compute cursor) ----
  long iu = blockIdx.x;
  int ip = 0, iP = 0, is0 = 0;
  // Per item, so that a plane's issue adds offsets instead of recomputing them (the pipelined kernel did the plane
  // term k * step and the window shift in uniform registers every plane: 15 more instructions per plane than the
  // per-sweep kernel on 2d25pt fp32, benchmarks/results/gpu-h200-2026-11-28-pipelined-occupancy/run5):
  long ikoff = 0;       // k * step of the plane k issued next (from is0 - RS, one step per plane)
  long goff[C::LOADS];  // scalar: element offset of the load in plane 0; VEC: of the unit's first element in plane 0
  bool ok[C::LOADS];    // scalar: element inside [-g, n + g); VEC: row inside [-gy, ny + gy)
  int icx0 = 0;         // VEC and bulk: x of the window's first element (x0 - HXL - window_shift(x0); column x is
                        // 16-byte aligned iff (x + mx0) % V == 0)
  int ibx0 = 0, iby0 = 0;
  // Bulk ring: this thread's tile row (brow < TH) of the item being issued, fixed per item: the bytes it copies, its
  // source offset from x without the plane term, and its destination offset in a stage. Planes differ only by
  // k * step, since rows and planes are whole 16-byte units (vec_rows_ok).
  unsigned bbytes = 0;
  long bsrc = 0;
  int bdst = 0;
  auto issue_setup = [&]() {
    const long q = iu / a.tiles;
    const long t = iu - q * a.tiles;
    item_planes(q, is0, iP);
    iP += 2 * RS;
    ikoff = static_cast<long>(is0 - RS) * a.step;
    const int x0 = static_cast<int>(t % a.tiles_x) * C::BX;
    const int y0 = static_cast<int>(t / a.tiles_x) * C::BY;
    if constexpr (C::VEC) icx0 = x0 - C::HXL - window_shift(x0);
#pragma unroll
    for (int l = 0; l < (C::BULK ? 0 : C::LOADS); ++l) {
      const bool live = C::EXACT || tid + l * C::NT < C::NLOAD;
      if constexpr (C::VEC) {
        const int gy = y0 - C::HY + lrow[l];
        ok[l] = live && gy >= -a.gy && gy < a.ny + a.gy;
        goff[l] = (icx0 + lcol[l]) + static_cast<long>(gy) * a.row_stride;
      } else {
        scalar_tile_load<C>(a, x0, y0, lrow[l], lcol[l], live, ok[l], goff[l]);
      }
    }
    ibx0 = x0;
    iby0 = y0;
    if constexpr (C::BULK) {
      // The row's window [icx0, icx0 + TWL) (x0 - R aligned down to 16 bytes, window_shift: the window of the 16-byte
      // path), clipped to the row's valid range [-gx, nx + gx) widened to 16-byte boundaries. The widening may read a few elements of the neighbouring rows (never used) and, on the very last
      // row, up to 15 bytes past the layout's end: device fields carry that slack (kFieldSlackBytes).
      bbytes = 0;
      const int gy = y0 - C::HY + brow;
      if (brow < C::TH && gy >= -a.gy && gy < a.ny + a.gy) {
        const int lo = -a.gx - ((mx0 - a.gx) & (V - 1));
        const int e = a.nx + a.gx;
        const int hi = e + ((V - ((e + mx0) & (V - 1))) & (V - 1));
        const int cs = max(icx0, lo), ce = min(icx0 + C::TWL, hi);
        if (ce > cs) {
          bbytes = static_cast<unsigned>(ce - cs) * sizeof(Real);
          bsrc = cs + static_cast<long>(gy) * a.row_stride;
          bdst = brow * C::SW + (cs - icx0);
        }
      }
    }
  };
  if (iu < a.items) issue_setup();
  auto issue = [&](int slot) {
    if constexpr (T::DYN) {
      if (ip == 0 && tid == 0) item_of_slot[slot] = iu;
    }
    if (iu < a.items) {
      Real* dst = tiles + slot * C::STAGE_ELEMS;
      if constexpr (C::BULK) {
        // One thread per tile row (brow < TH) copies the row's window of plane k (issue_setup).
        if (brow < C::TH) {
          if constexpr (C::BULK_EMPTY) {
            if (n_issued >= NS) mbar_wait_parity(&empty_bar[slot], static_cast<unsigned>((n_issued / NS) - 1) & 1u);
          }
          mbar_arrive_expect_tx(&full_bar[slot], bbytes);
          if (bbytes) bulk_copy_g2s(dst + bdst, x + (bsrc + ikoff), bbytes, &full_bar[slot]);
        }
      } else if constexpr (C::VEC) {
#pragma unroll
        for (int l = 0; l < C::LOADS; ++l) {
          if (C::EXACT || tid + l * C::NT < C::NLOAD) {
            const int cx = icx0 + lcol[l];  // x of the unit's first element
            const Real* p = x + (goff[l] + ikoff);
            Real* d = dst + lrow[l] * C::SW + lcol[l];
            const int lo = -a.gx, hi = a.nx + a.gx;
            if (ok[l] && cx >= lo && cx + V <= hi) {
              cp_async16<T::VEC_CA>(d, p, true);
            } else if (!ok[l] || cx + V <= lo || cx >= hi) {
              cp_async16<T::VEC_CA>(d, xsafe, false);
            } else {  // unit straddles the end of the row's valid range: element by element
#pragma unroll
              for (int j = 0; j < V; ++j) {
                const bool e = cx + j >= lo && cx + j < hi;
                cp_async_elem<sizeof(Real)>(d + j, e ? p + j : x, e);
              }
            }
          }
        }
      } else {
        const Real* src = x + ikoff;
#pragma unroll
        for (int l = 0; l < C::LOADS; ++l) {
          if (C::EXACT || tid + l * C::NT < C::NLOAD)
            cp_async_elem<sizeof(Real)>(dst + lrow[l] * C::SW + lcol[l], ok[l] ? src + goff[l] : x, ok[l]);
        }
      }
      if constexpr (kHasB) {
        if (ip >= 2 * RS) {
          const Real* bs = a.b + (ikoff - static_cast<long>(RS) * a.step);  // plane k - RS
          stage_b_plane<C>(bbuf + slot * C::BB_ELEMS, bs, a, ibx0, iby0, tx, ty, tid);
        }
      }
      ++n_issued;
      ikoff += a.step;
      if constexpr (T::DYN) {
        // Fetched two planes before the switch: the next issue() runs after a __syncthreads.
        if (ip == iP - 2 && tid == 0) dyn_next = static_cast<long>(atomicAdd(a.work, 1u)) + gridDim.x;
      }
      if (++ip == iP) {
        ip = 0;
        if constexpr (T::DYN)
          iu = dyn_next;
        else
          iu += gridDim.x;
        if (iu < a.items) issue_setup();
      }
    }
    cp_async_commit();
  };

  // The ring continues where the previous sweep left it: the plane consumed next is plane n_used of the ring.
  const int slot0 = static_cast<int>(n_used % NS);
#pragma unroll
  for (int p = 0; p < NS - 1; ++p) {
    issue(slot0 + p < NS ? slot0 + p : slot0 + p - NS);
    if constexpr (T::DYN) __syncthreads();  // a short first item may switch items within the prefill
  }

  int slot = slot0;  // ring slot of the plane being computed
  for (long cu = blockIdx.x; cu < a.items; cu = T::DYN ? item_of_slot[slot] : cu + static_cast<long>(gridDim.x)) {
    const long q = cu / a.tiles;
    const long t = cu - q * a.tiles;
    int s0 = 0, P = 0;
    item_planes(q, s0, P);
    P += 2 * RS;
    const int x0 = static_cast<int>(t % a.tiles_x) * C::BX;
    const int y0 = static_cast<int>(t / a.tiles_x) * C::BY;
    const int ox0 = x0 + tx * C::XS;
    const int oy0 = y0 + ty * MY;
    // The thread's outputs: plane i's at oplane + jy * row_stride + jx * XJ (32-bit offsets, stream_geometry checks
    // that they fit), oplane advanced by one plane per step, so that no output address takes a 64-bit multiply.
    // omask: bit jy * MX + jx set when that output lies in the owned plane; nothing is stored for the first 2 RS
    // planes (their outputs are not complete).
    Real* oplane = out + (ox0 + oy0 * a.row_stride) + static_cast<long>(s0 - 2 * RS) * a.step;
    const int ors = static_cast<int>(a.row_stride);
    unsigned omask = 0;
#pragma unroll
    for (int jy = 0; jy < MY; ++jy)
#pragma unroll
      for (int jx = 0; jx < MX; ++jx)
        if (ox0 + jx * C::XJ < a.nx && oy0 + jy < a.ny) omask |= 1u << (jy * MX + jx);
    // CONSEC: bit jy of vmask is set when all MX outputs of row jy lie in the plane (one vector store); emask holds the
    // outputs of the other rows that do (element stores, at the end of the x extent only).
    unsigned vmask = 0, emask = 0;
    if constexpr (C::CONSEC) {
      constexpr unsigned kRow = (1u << MX) - 1u;
#pragma unroll
      for (int jy = 0; jy < MY; ++jy) {
        const unsigned row = (omask >> (jy * MX)) & kRow;
        if (row == kRow) vmask |= 1u << jy;
        else emask |= row << (jy * MX);
      }
    }
    const int vshift = C::VEC ? window_shift(x0) : 0;

    Real acc[MY][MX][2 * RS + 1];
    Real xq[MY][MX][RS > 0 ? RS : 1];
    clear_stream_state(acc, xq);

    // Plane i of the item (RC: the rotation of the partial sums, stream_plane's ROT; -1: shifted).
    auto plane = [&](auto RC, int i) {
      if constexpr (C::BULK) {
        mbar_wait_parity(&full_bar[slot], (n_used / NS) & 1u);
        if constexpr (kHasB) cp_async_wait<NS - 2>();  // b travels by cp.async (per thread, own outputs)
      } else {
        cp_async_wait<NS - 2>();
      }
      if constexpr (!C::BULK_EMPTY) __syncthreads();
      issue(slot == 0 ? NS - 1 : slot - 1);

      const Real* cur = tiles + slot * C::STAGE_ELEMS + (ty * MY + C::HY) * C::SW + tx * C::XS + C::HXL + vshift;
      const unsigned pmask = i >= 2 * RS ? omask : 0u;
      // 3D: predicated stores (store_out_if). 2D (one row per thread): a plain store behind the test, which the
      // compiler predicates itself; the asm form measured 3-8 % slower there in the resident PERKS tiles.
      // CONSEC: the plane's outputs, stored after the plane one vector per row.
      Real ov[C::CONSEC ? MY : 1][MX];
      auto put = [&ov](Real* o, Real v, unsigned on, int jy, int jx) {
        if constexpr (C::CONSEC) {
          (void)o, (void)on;
          ov[jy][jx] = v;
        } else if constexpr (S.dim == 3) {
          (void)ov, (void)jy, (void)jx;
          store_out_if<T::STCS>(o, v, on);
        } else if (on) {
          if constexpr (T::STCS) __stcs(o, v);
          else *o = v;
        }
      };
      constexpr int kRot = decltype(RC)::value;
      stream_plane<Real, S, C, SYM, kJacobi || kDot, kRot>(cur, a.c, acc, xq, [&](int jy, int jx, Real sum, Real xc) {
        const unsigned on = (pmask >> (jy * MX + jx)) & 1u;
        Real* const o = oplane + ((C::BY > 1 ? jy * ors : 0) + jx * C::XJ);
        if constexpr (!kHasB) {
          put(o, sum, on, jy, jx);
          if constexpr (kDot) rsum += on ? static_cast<double>(xc) * static_cast<double>(sum) : 0.0;
        } else {
          // (b of an output outside the plane was staged as zero: r stays finite.)
          const Real r = bbuf[slot * C::BB_ELEMS + (jy * MX + jx) * C::NT + tid] - sum;
          if constexpr (kJacobi) {
            put(o, xc + a.scale * r, on, jy, jx);
            rsum += on ? static_cast<double>(r) * static_cast<double>(r) : 0.0;
          } else {
            put(o, r, on, jy, jx);
          }
        }
      });
      if constexpr (C::CONSEC) {
        const unsigned pv = i >= 2 * RS ? vmask : 0u, pe = i >= 2 * RS ? emask : 0u;
#pragma unroll
        for (int jy = 0; jy < MY; ++jy) store_vec_if<T::STCS>(oplane + jy * ors, ov[jy], (pv >> jy) & 1u);
        if (pe) {
#pragma unroll
          for (int jy = 0; jy < MY; ++jy)
#pragma unroll
            for (int jx = 0; jx < MX; ++jx)
              store_out_if<T::STCS>(oplane + (jy * ors + jx), ov[jy][jx], (pe >> (jy * MX + jx)) & 1u);
        }
      }
      if constexpr (C::BULK_EMPTY) {
        __syncwarp();
        if ((tid & 31) == 0) mbar_arrive(&empty_bar[slot]);
      }
      oplane += a.step;
      ++n_used;
      slot = slot + 1 == NS ? 0 : slot + 1;
    };
    if constexpr (T::ROT) {
      // Unrolled by the 2 RS + 1 output planes, so that plane i's rotation i % (2 RS + 1) is a constant of each copy.
      rotating_steps<2 * RS + 1, 0>(P, plane);
    } else {
      for (int i = 0; i < P; ++i) plane(std::integral_constant<int, -1>{}, i);
    }
    item_done(x0, min(x0 + C::BX, a.nx), y0, min(y0 + C::BY, a.ny), s0, P - 2 * RS);
  }
  cp_async_wait<0>();
  if constexpr (T::DYN) {
    // The last block to finish resets the counters for the next launch (stream order).
    __syncthreads();
    if (tid == 0) {
      __threadfence();
      if (atomicAdd(a.work + 1, 1u) == gridDim.x - 1) {
        a.work[0] = 0;
        a.work[1] = 0;
        __threadfence();
      }
    }
  }

  pipe.n_issued = n_issued;
  pipe.n_used = n_used;
  return rsum;
}

template <class Real, int DIM, int KIND, int RADIUS, int MODE, bool SYM, class T>
__global__ void __launch_bounds__(T::BXT* T::BYT, T::MINB)
    stream_stencil_kernel(const StreamArgs<Real, kMaxTemplatedPoints> a) {
  pdl_enter();
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  using C = TileCfg<Real, S, T, stencil_mode_has_b(MODE)>;
  extern __shared__ __align__(16) unsigned char stream_smem[];
  __shared__ __align__(8) StreamBarriers<C> bars;
  stream_barriers_init<C>(bars);
  StreamPipeState pipe;
  const double rsum = stream_sweep<Real, S, MODE, SYM, T>(a, a.x, a.out, reinterpret_cast<Real*>(stream_smem), bars, pipe);
  if constexpr (MODE == static_cast<int>(StencilMode::jacobi) || MODE == static_cast<int>(StencilMode::apply_dot))
    store_block_partial<C::NT>(a.partials, rsum);
}

// Whether a layout suits the tiles with 16-byte or bulk row loads (TileCfg::VEC): rows (hence planes) of whole
// 16-byte units, so that a tile window's misalignment is the same in every row and plane and the compute applies it
// once (stream_sweep). Grid fields (FieldLayout::align = grid_row_align) always are; packed layouts may not be, and
// take a scalar tile (with_wide_tune).
template <class Real>
bool vec_rows_ok(const FieldLayout& l) {
  return l.stride_y() % (16 / static_cast<long>(sizeof(Real))) == 0;
}
// Whether the tiles with consecutive columns (TileCfg::CONSEC, MX outputs per thread) suit a layout: cell (0, 0, 0)
// on an MX-element boundary of the allocation (device allocations are 256-byte aligned), so that every thread's
// first column is too. Grid fields (grid_row_align) always are.
template <int MX>
bool consec_origin_ok(const FieldLayout& l) {
  return l.index(0, 0, 0) % MX == 0;
}

// The streaming kernels' view of a request: pointers at element (0,0,0), the in-plane / streamed axes (3D:
// x, y in plane, z streamed; 2D: x in plane, y streamed), coefficients and the tile count of tile config C.
// Throws std::logic_error for a layout the tile cannot address: VEC tiles need vec_rows_ok, and a thread's output
// offsets within a plane (up to BY rows) are 32-bit.
template <class Real, ShapeSpec S, class C>
StreamArgs<Real, kMaxTemplatedPoints> stream_geometry(const StencilRequest<Real>& r) {
  using G = StreamGeo<S>;
  const FieldLayout& l = r.layout;
  StreamArgs<Real, kMaxTemplatedPoints> a{};
  const long origin = l.index(0, 0, 0);
  a.x = r.x + origin;
  a.b = r.b ? r.b + origin : r.x + origin;
  a.out = r.out + origin;
  a.partials = r.partials;
  a.work = r.work_counters;
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
  if constexpr (C::VEC) {
    if (!vec_rows_ok<Real>(l))
      throw std::logic_error("stream_geometry: a tile with 16-byte row loads on rows that are not whole 16-byte units");
  }
  if constexpr (C::CONSEC) {
    const auto aligned = [](const Real* p) { return reinterpret_cast<std::uintptr_t>(p) % (C::MX * sizeof(Real)) == 0; };
    if (!aligned(a.x) || !aligned(a.out))
      throw std::logic_error("stream_geometry: a tile with consecutive columns on fields whose cell (0,0,0) is not "
                             "aligned to its vectors");
  }
  if (C::BY > 1 && a.row_stride * C::BY + C::BX > std::numeric_limits<int>::max())
    throw std::logic_error("stream_geometry: rows too long for the 32-bit output offsets of a tile");
  a.scale = r.scale;
  for (int p = 0; p < G::NP; ++p) a.c[p] = static_cast<Real>(r.stencil->coeffs[p]);
  a.tiles_x = (a.nx + C::BX - 1) / C::BX;
  a.tiles = static_cast<long>(a.tiles_x) * ((a.ny + C::BY - 1) / C::BY);
  return a;
}

// Rounds of work items per block when `tiles` tile columns are cut into q chunks each on `resident` block slots.
inline long stream_rounds(long tiles, long q, long resident) { return (tiles * q + resident - 1) / resident; }

// The cost model of both chunk rules of plan_stream_grid: ns planes of `tiles` tile columns cut into q chunks (of
// ceil(ns / q) planes) on `resident` block slots cost (rounds of items per block) x (planes per chunk + halo_planes
// re-read per chunk).
inline long stream_chunking_cost(long ns, long tiles, long resident, long q, long halo_planes) {
  return stream_rounds(tiles, q, resident) * ((ns + q - 1) / q + halo_planes);
}

// The chunk count q in [q_min, q_max] with the lowest stream_chunking_cost (the first of equal ones); the search stops
// after the first q whose items take more than max_rounds rounds.
inline long best_stream_chunk_count(long ns, long tiles, long resident, long q_min, long q_max, long halo_planes,
                                    long max_rounds) {
  long best_q = q_min, best_cost = -1;
  for (long q = q_min; q <= q_max; ++q) {
    const long cost = stream_chunking_cost(ns, tiles, resident, q, halo_planes);
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best_q = q;
    }
    if (stream_rounds(tiles, q, resident) > max_rounds) break;
  }
  return best_q;
}

// The work decomposition of one instantiation on a persistent grid of `per_sm` blocks per SM: the chunk of
// planes per work item and the number of blocks (into a and *blocks). items_per_block (3D): target number of
// work items per block (short chunks of planes, all blocks sweeping the same slab); 0: long chunks chosen by
// the cost model below. The block count is balanced so that every block gets the same number of items
// (+-1); with dynamic items (T::DYN) every resident slot takes part. Returns false when there is nothing to do.
template <class Real, ShapeSpec S, class T, bool kHasB>
bool plan_stream_grid(const StencilRequest<Real>& r, int per_sm, int items_per_block,
                      StreamArgs<Real, kMaxTemplatedPoints>& a, long* blocks_out) {
  using C = TileCfg<Real, S, T, kHasB>;
  using G = StreamGeo<S>;
  a = stream_geometry<Real, S, C>(r);
  if (a.tiles <= 0 || a.ns <= 0) return false;
  // A tile measured at T::MAXB blocks per SM runs at most that many in every kernel that takes it (per-sweep, pipelined
  // PERKS, matrix-free persistent CG): the same decomposition everywhere.
  if constexpr (T::MAXB > 0) per_sm = std::min(per_sm, T::MAXB);
  const long resident = static_cast<long>(per_sm) * r.sm_count;
  const long min_chunk = std::max(8, 4 * G::RS);
  if (S.dim == 3 && items_per_block > 0) {
    // Short items: every block does ~items_per_block of them; the resident blocks sweep the same slab.
    long c0 = (static_cast<long>(a.ns) * a.tiles + resident * items_per_block - 1) / (resident * items_per_block);
    if (c0 < min_chunk) {
      // The target needs chunks shorter than the floor (few tiles per plane, e.g. 255^3 with a 256 x 12 tile): take
      // the chunk length with the fewest rounds x (planes + re-read halo planes) per block instead. At 255^3 fp32 the
      // floor gave 2.7 rounds of 8-plane items, this one round of 22 planes: Jacobi 0.39 -> 0.46, apply 0.56 -> 0.62
      // of the copy bound (H200, benchmarks/results/gpu-h200-2026-11-25-row-kernels/run8).
      long best = -1;
      for (long c = min_chunk; c <= a.ns; ++c) {
        const long q = (a.ns + c - 1) / c;
        const long cost = stream_chunking_cost(a.ns, a.tiles, resident, q, 2 * G::RS);
        if (best < 0 || cost < best) {
          best = cost;
          c0 = c;
        }
        if (q == 1) break;
      }
    }
    c0 = std::min<long>(std::max(c0, min_chunk), a.ns);
    const long nchunks = (a.ns + c0 - 1) / c0;
    a.chunk = static_cast<int>((a.ns + nchunks - 1) / nchunks);  // balanced chunk lengths
  } else {
    // Number of chunks Q along the streamed axis: enough items to fill ~90% of the resident slots,
    // then the Q minimising (rounds of items per block) x (chunk + R), R ~ the re-read halo planes.
    const long q_max = std::max(1L, a.ns / min_chunk);
    long q_min = std::min(q_max, std::max(1L, (resident * 9 / 10 + a.tiles - 1) / a.tiles));
    const long best_q = best_stream_chunk_count(a.ns, a.tiles, resident, q_min, q_max, G::RS, 64);
    a.chunk = static_cast<int>((a.ns + best_q - 1) / best_q);
  }
  if constexpr (T::DYN) {
    // A short last round of items (stream_schedule.hpp).
    const StreamChunks c = plan_stream_tail(stream_chunks(a), a.tiles, resident, min_chunk, r.schedule_tail);
    a.chunk = c.chunk;
    a.head_chunks = c.head_chunks;
    a.tail_chunk = c.tail_chunk;
  }
  a.items = a.tiles * stream_chunk_count(stream_chunks(a));
  // Balanced persistent grid: as many rounds as the resident slots need, then the fewest blocks that
  // still finish in that many rounds (every block gets the same number of items, +-1).
  const long rounds = (a.items + resident - 1) / resident;
  long blocks = std::min<long>((a.items + rounds - 1) / rounds, static_cast<long>(kMaxPartials));
  if constexpr (T::DYN) {
    if (r.work_counters == nullptr) throw std::logic_error("stream_stencil_kernel: dynamic items need work counters");
    blocks = std::min(resident, a.items);
  }
  *blocks_out = blocks;
  return true;
}

// Resident blocks per SM of `kernel` with `threads` threads and `smem` bytes of dynamic shared memory (the
// opt-in above 48 KB is set first); 0 when it cannot be resident.
template <class Kernel>
int blocks_per_sm(Kernel kernel, int threads, int smem) {
  if (smem > 48 * 1024)
    PERKSOLVE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int v = 0;
  PERKSOLVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, threads, smem));
  return v;
}

// Launch one instantiation with a persistent grid (plan_stream_grid). Returns the number of blocks for
// jacobi and apply_dot (partial sums written), else 0.
template <class Real, ShapeSpec S, int MODE, bool SYM, class T>
int launch_stream_stencil(const StencilRequest<Real>& r, int items_per_block = T::IPB, bool one_item_per_block = false) {
  constexpr bool kHasB = stencil_mode_has_b(MODE);
  using C = TileCfg<Real, S, T, kHasB>;
  static_assert(StreamGeo<S>::NP <= kMaxTemplatedPoints);
  auto kernel = stream_stencil_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, T>;
  static const int per_sm = std::max(1, blocks_per_sm(kernel, C::NT, C::SMEM_BYTES));  // (plan_stream_grid: MAXB)
  StreamArgs<Real, kMaxTemplatedPoints> a{};
  long blocks = 0;
  if (!plan_stream_grid<Real, S, T, kHasB>(r, per_sm, items_per_block, a, &blocks)) return 0;
  if (one_item_per_block) blocks = a.items;  // experiment: hardware block dispatch hands out the items
  pdl_launch(kernel, dim3(static_cast<unsigned>(blocks)), dim3(C::NT), C::SMEM_BYTES, r.stream, a);
  return MODE == static_cast<int>(StencilMode::jacobi) || MODE == static_cast<int>(StencilMode::apply_dot)
             ? static_cast<int>(blocks)
             : 0;
}

// Which wide tile: PERKSOLVE_CUDA_WIDE_TILE=large|medium|small forces one (tests, experiments; a tier that
// a shape does not have falls back to the next smaller one); otherwise the widest tile whose row width
// wastes at most a fifth of the threads on this x extent.
inline int wide_tile_override() {
  static const int v = [] {
    const std::string s = env_choice("PERKSOLVE_CUDA_WIDE_TILE", {"large", "medium", "small"}, "");
    return s == "large" ? 3 : s == "medium" ? 2 : s == "small" ? 1 : 0;  // "": unset, the automatic choice
  }();
  return v;
}
// (A tile with 16-byte row loads also needs rows of whole 16-byte units, vec_rows_ok; the forced tiers too.)
template <class Real, ShapeSpec S, class T>
bool tile_usable(const FieldLayout& l) {
  using C = TileCfg<Real, S, T, false>;
  return (!C::VEC || vec_rows_ok<Real>(l)) && (!C::CONSEC || consec_origin_ok<C::MX>(l));
}
template <class Real, ShapeSpec S, class T>
bool tile_fits(const FieldLayout& l) {
  constexpr int bx = TileCfg<Real, S, T, false>::BX;
  const long nx = l.n[0];
  return tile_usable<Real, S, T>(l) && nx > 0 && ((nx + bx - 1) / bx) * bx * 4 <= 5 * nx;
}

template <class T>
struct TuneTag {
  using type = T;
};
// Calls f(TuneTag<T>{}) with the wide tile T chosen for this layout (or forced by the environment); the large
// tier takes its fast-memory variant where the request says so (StencilRequest::fast_memory).
template <class Real, ShapeSpec S, bool kHasB, class F>
decltype(auto) with_wide_tune(const FieldLayout& layout, bool fast_memory, F&& f) {
  using Small = WideTune<Real, S, kHasB>;
  using Medium = WideMediumTune<Real, S, kHasB>;
  using Large = WideLargeTune<Real, S, kHasB>;
  using LargeFast = WideLargeFastMemTune<Real, S, kHasB>;
  using MediumFast = WideMediumFastMemTune<Real, S, kHasB>;
  using NarrowRowFast = typename NarrowRowFastMemTuneSel<Real, S, kHasB>::type;
  const int forced = wide_tile_override();
  // Tile T of a tier that is forced (forced_tier) or, automatically, fits the x extent; either way usable here.
  auto take = [&](auto tag, bool forced_tier) {
    using T = typename decltype(tag)::type;
    return forced_tier ? tile_usable<Real, S, T>(layout) : forced == 0 && tile_fits<Real, S, T>(layout);
  };
  if constexpr (!std::is_same_v<LargeFast, Large>) {
    if (fast_memory && take(TuneTag<LargeFast>{}, forced == 3)) return f(TuneTag<LargeFast>{});
  }
  if constexpr (!std::is_same_v<Large, Medium>) {
    if (take(TuneTag<Large>{}, forced == 3)) return f(TuneTag<Large>{});
  }
  if constexpr (!std::is_same_v<MediumFast, Medium>) {
    if (fast_memory && take(TuneTag<MediumFast>{}, forced >= 2)) {
      if constexpr (!std::is_same_v<NarrowRowFast, MediumFast>) {
        if (forced == 0 && tile_usable<Real, S, NarrowRowFast>(layout) &&
            narrow_rows_pay(layout.n[0], TileCfg<Real, S, MediumFast, kHasB>::BX, TileCfg<Real, S, NarrowRowFast, kHasB>::BX))
          return f(TuneTag<NarrowRowFast>{});
      }
      return f(TuneTag<MediumFast>{});
    }
  }
  if constexpr (!std::is_same_v<Medium, Small>) {
    if (take(TuneTag<Medium>{}, forced >= 2)) return f(TuneTag<Medium>{});
  }
  return f(TuneTag<Small>{});
}

template <class Real, ShapeSpec S, int MODE, bool SYM>
int launch_stream_variant(const StencilRequest<Real>& r) {
  constexpr bool kHasB = stencil_mode_has_b(MODE);
  if (!r.wide_tiles) return launch_stream_stencil<Real, S, MODE, SYM, TwoLoadTune<Real, S>>(r);
  return with_wide_tune<Real, S, kHasB>(r.layout, r.fast_memory, [&](auto tag) {
    return launch_stream_stencil<Real, S, MODE, SYM, typename decltype(tag)::type>(r);
  });
}

// Shapes that get the per-sweep apply_dot kernel (CG's q = A p with p.q): the radius-1 stars and the 3D box,
// the shapes of the Laplacian operators CG runs on. Other shapes return -1 (the backend applies, then dots),
// which keeps the instantiation count down.
constexpr bool has_apply_dot(ShapeSpec s) {
  return s.radius == 1 && (s.kind == ShapeKind::star || (s.dim == 3 && s.kind == ShapeKind::box));
}

template <class Real, ShapeSpec S, bool SYM>
int launch_stream_mode(const StencilRequest<Real>& r, StencilMode mode) {
  switch (mode) {
    case StencilMode::apply: return launch_stream_variant<Real, S, 0, SYM>(r);
    case StencilMode::residual: return launch_stream_variant<Real, S, 1, SYM>(r);
    case StencilMode::jacobi: return launch_stream_variant<Real, S, 2, SYM>(r);
    case StencilMode::apply_dot:
      if constexpr (has_apply_dot(S)) return launch_stream_variant<Real, S, 3, SYM>(r);
      return -1;
  }
  return -1;
}

}  // namespace perksolve::cuda_detail
