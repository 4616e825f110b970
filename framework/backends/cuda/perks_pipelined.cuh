// The pipelined PERKS kernel (issue 6): the per-sweep streaming kernel's pipeline (stream_sweep in
// stencil_kernels.cuh: its wide tile, 16-byte / bulk row copies, dynamic short items, 1024 threads where the
// per-sweep kernel has them) run for every sweep inside ONE cooperative kernel, with the step between sweeps of
// the other PERKS kernels (one device-wide barrier and the Jacobi residual test). The boundary ghosts of the new
// iterate are written either in a face phase after the sweep's items or per item (pipelined_face_phase).
//
//  * Nothing is cached between sweeps: on domains far larger than the on-chip memory the cached share f is a
//    few per cent, and the cached streaming kernel (perks_stencil.cuh) gives up more than 1/(1-f) by running
//    a 512-thread tile with scalar loads (docs/perf/perks.md). This kernel keeps the per-sweep kernel's rate
//    and drops the kernel boundaries and the host round trips of a Jacobi solve (the residual test stays in
//    the kernel).
//  * Same arithmetic as the per-sweep kernel (the same stream_sweep instantiation body), so the same bits.
//  * Dynamic items: the last block to finish a sweep resets the global counters before it reaches the barrier,
//    so every sweep starts from zero.
//  * The ring's position (planes issued / consumed) carries over from sweep to sweep: the mbarrier phases of
//    the bulk copies continue without a re-initialisation.
#pragma once

#include <mutex>

#include "framework/backends/cuda/perks_model.hpp"
#include "framework/backends/cuda/perks_request.cuh"
#include "framework/backends/cuda/perks_resident.cuh"
#include "framework/backends/cuda/perks_sweep_common.cuh"

namespace perksolve::cuda_detail {

// Blocks per SM promised to the compiler: the tile's own, and for the 3D tiles of <= 256 threads at least 2
// (at most 128 registers). Their per-sweep kernels fit 128 registers and run 2 blocks per SM; the sweep loop's
// extra state pushed some persistent copies to 130-134 registers, one block per SM and 0.80 of the per-sweep
// rate (3d13pt fp64 at 384^3). With the cap ptxas spills nothing there. The same for the 3D fp32 R >= 2 tiles of at
// most 4 rows per thread (MY; the Jacobi sweeps' tile of 3d13pt: per-sweep kernel 118 registers, the pipelined copy
// 182, one block per SM and 0.76 of the per-sweep rate at 384^3; bound, 0.85: benchmarks/results/
// gpu-h200-2026-11-29-face-planes, runs 3-4). Not for those of 8 rows (their per-sweep kernel needs ~146-156
// registers; capped, 148 bytes spill) nor for the 2D tiles (wide-star Jacobi spills 88-168 bytes), which keep the
// tile's own bound, except the fp32 256-thread row tile (NarrowRowTile) for the 2D shapes of
// radius <= 3 and >= 25 points (2d25pt): 3. The per-sweep kernels of 2d13pt and 2d25pt on that tile fit 80 registers
// and run three blocks per SM; their pipelined copies took the 128 registers of the tile's bound of two and ran two
// (ptxas -v). Bound to three (80 registers, 28-50 bytes of spill stores), measured on the H200 at 6898^2 against the
// per-sweep kernel (benchmarks/results/gpu-h200-2026-11-28-pipelined-occupancy/run1, perks_bench twice each way):
// 2d25pt 0.882 -> 0.919-0.925, but 2d13pt 0.988-0.995 -> 0.946-0.955 (run 2, ncu: 9 % more instructions than the
// per-sweep kernel at three blocks, 3 % at two), so 2d13pt keeps two.
template <class Real, int DIM, int KIND, int RADIUS, class T>
constexpr int pipelined_min_blocks() {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  constexpr bool cap =
      DIM == 3 && T::BXT * T::BYT <= 256 && T::MINB < 2 && (sizeof(Real) == 8 || RADIUS == 1 || T::MY <= 4);
  constexpr bool narrow_rows =
      DIM == 2 && sizeof(Real) == 4 &&
      std::is_same_v<tune_rot<T, false>,
                     tune_rot<typename MediumFastMemTuneSel<Real, S, false>::NarrowRowTile, false>>;
  return cap ? 2 : narrow_rows && RADIUS <= 3 && shape_point_count(S) >= 25 ? 3 : T::MINB;
}

// Where the boundary ghosts of each sweep's new iterate are written (measured on the H200, fp64, large domains,
// docs/perf/perks.md "Pipelined kernel: why its plane loop was slower"):
//  * a face phase after the sweep's items (a second device-wide barrier, then all blocks; out of line:
//    perks_fill_faces_call in fp32, perks_fill_faces_local_call in fp64) for 3D radius 1 and 2D radius >= 5.
//    Inlined into the item loop, the per-item fill's loop invariants held uniform registers across the plane loop,
//    which then reloaded the coefficients every plane: 13 % more instructions per sweep than the per-sweep kernel
//    (3d27pt 0.95 -> 1.01-1.03 of the per-sweep path, 2ds25pt 0.96 -> 1.27, 2d21pt 0.94 -> 0.97);
//  * per item, by the block that wrote the item (fp32 out of line, perks_fill_item_ghosts_call; fp64 inline,
//    perks_fill_box_ghosts) for 2D radius <= 4 and 3D
//    radius >= 2, where the phase's barrier and fill cost more than they save (with the phase: 2d13pt 1.03 -> 0.94,
//    2d25pt 0.98 -> 0.90, 3d13pt fp64 at 297^3 1.00 -> 0.94);
//  * except for tiles with bulk row copies (3D, `bulk`): 3d13pt fp32 on its bulk tile ran at 0.76 of the per-sweep
//    kernel with the per-item fill (benchmarks/results/gpu-h200-2026-11-26-cg-async-gather/run4), so it takes the
//    phase (run 5);
//  * and for the 3D fp32 Jacobi sweeps (radius 2: 3d13pt): with the fill's call in the item loop the
//    kernel needed 128 registers and 32 bytes of stack (the per-sweep kernel 118, none), and its blocks' work was 6 %
//    above the per-sweep kernel's (benchmarks/results/gpu-h200-2026-11-29-chunk-lead/run2); with the phase 0.85 ->
//    0.99 of the per-sweep kernel (run 3). Not in fp64, whose fill is inline: with the phase its 3d13pt Jacobi kernel
//    took 320 bytes of stack and read 0.94 against 0.94-0.97 (run 4, fp64_face_phase.patch).
// BULK: the tile's bulk row copies; HASB: Jacobi sweeps.
template <class Real, int DIM, int RADIUS, bool BULK, bool HASB>
constexpr bool pipelined_face_phase() {
  return DIM == 3 ? RADIUS == 1 || BULK || (sizeof(Real) == 4 && HASB) : RADIUS >= 5;
}
// Whether a launch runs the face phase: the shape takes it and some ghost is not constant (the constant ones are
// written once, perks_fill_constant_ghosts). The kernel and the launcher's model (its barriers per sweep) ask this.
template <class Real, int DIM, int RADIUS, bool BULK, bool HASB>
__host__ __device__ bool pipelined_runs_face_phase(const PerksArgs<Real>& pa) {
  return pipelined_face_phase<Real, DIM, RADIUS, BULK, HASB>() && pa.varying_ghosts;
}

// How the pipelined kernel fills the ghosts (measured on the H200, large domains, against the previous inline fills:
// benchmarks/results/gpu-h200-2026-11-28-pipelined-planes/run4, perks_bench twice each way):
//  * fp32 out of line, with the face geometry in shared memory and 4 cells per thread and step
//    (perks_fill_item_ghosts_call, perks_fill_faces_call): 3d13pt 0.877 -> 0.91 of the per-sweep kernel, 2ds25pt
//    0.91 -> 0.96, 2d21pt 0.935 -> 0.97, 2ds9pt 0.98 -> 1.01, 2d5pt 1.026 -> 1.057; no shape slower;
//  * fp64 inline, one cell per step (perks_fill_box_ghosts, perks_fill_faces_local_call): out of line, most fp64
//    kernels lost 3-46 % (3d13pt 1.00 -> 0.54, 2ds9pt 1.00 -> 0.61, 2d5pt 1.41 -> 0.84 of the per-sweep kernel).
template <class Real>
constexpr bool pipelined_fills_out_of_line() {
  return sizeof(Real) == 4;
}

// Whether the pipelined kernel fills the ghosts outside along y and z by row segments (fill_box_face_ghosts_by_rows,
// fill_face_slabs_in_grid_by_rows: one decode and one 16-byte load and store per 16 bytes of a row) instead of cell
// by cell. Measured on the H200 against the cell-by-cell fills (benchmarks/results/gpu-h200-2026-11-29-row-fills:
// runs 1-2 tried them everywhere, run 3 is this rule; perks_bench twice each way, pipelined over per-sweep on large
// domains; cuobjdump -res-usage, run 2, for the registers and stacks):
//  * fp32 per-item fill (out of line), 2D: Jacobi 2d17pt 0.88 -> 0.93, 2d13pt 0.94 -> 0.98-0.99, 2ds9pt 0.98 ->
//    0.99-1.00 (2d9pt 1.00 -> 0.98-0.99); apply 2d17pt 0.96 -> 0.98, 2d13pt 0.96 -> 0.97-0.98. Session 32's trace
//    had put the blocks of 2d17pt Jacobi's first items (the y face: 4 ghost rows of 2048 cells, one dependent load per
//    cell and step) 12 us above the mean block; run 4's: 5 us. 3D: 3d13pt fp32 Jacobi 0.85 -> 0.69 (run 1), so 3D
//    keeps the cell-by-cell fill;
//  * fp64 per-item fill (inline): apply 3d13pt 0.956 -> 0.963-0.966, 2d17pt 0.98 -> 1.00-1.01, 2d25pt 1.06 -> 1.08;
//    Jacobi 3d13pt 0.96 -> 0.97; but the 2D radius-4 Jacobi kernel (2d17pt, already at its 128 registers) spilled and
//    lost 0.966 -> 0.92 (run 2), so the 2D Jacobi sweeps of radius >= 4 keep the cell-by-cell fill;
//  * fp32 face phase (out of line): apply 3d13pt 0.947 -> 0.964, 2d21pt 0.978 -> 0.982;
//  * never in a kernel bound to fewer than 128 registers per thread: the segments then grew its stack (2d25pt fp32
//    apply at three blocks per SM, 80 registers, 64 -> 88 bytes: 0.895 -> 0.80; the 3D radius-1 fp32 Jacobi tile, 64
//    registers, 96 -> 112 bytes: 3d7pt 1.04 -> 0.98).
template <class Real, int DIM, int KIND, int RADIUS, bool HASB, class T>
constexpr bool pipelined_row_fills() {
  if (65536 / (T::BXT * T::BYT * pipelined_min_blocks<Real, DIM, KIND, RADIUS, T>()) < 128) return false;
  if constexpr (sizeof(Real) == 8) return !(DIM == 2 && HASB && RADIUS >= 4);
  else return DIM == 2 || pipelined_face_phase<Real, DIM, RADIUS, T::BULK, HASB>();
}

template <class Real, int DIM, int KIND, int RADIUS, int MODE, bool SYM, class T>
__global__ void __launch_bounds__(T::BXT* T::BYT, pipelined_min_blocks<Real, DIM, KIND, RADIUS, T>())
    perks_pipelined_kernel(const __grid_constant__ PerksArgs<Real> pa) {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  constexpr bool kJacobi = MODE == static_cast<int>(StencilMode::jacobi);
  static_assert(MODE != static_cast<int>(StencilMode::residual), "PERKS iterates apply or Jacobi sweeps");
  using C = TileCfg<Real, S, T, kJacobi>;
  // fp32: the fills out of line with the face geometry in shared memory; fp64: inline (pipelined_fills_out_of_line).
  constexpr bool kOutOfLine = pipelined_fills_out_of_line<Real>();
  constexpr int kFillBatch =
      pipelined_fill_batch<T::BXT * T::BYT, pipelined_min_blocks<Real, DIM, KIND, RADIUS, T>(), DIM, kJacobi>();
  constexpr bool kRows = pipelined_row_fills<Real, DIM, KIND, RADIUS, kJacobi, T>();
  extern __shared__ __align__(16) unsigned char pipelined_smem[];
  __shared__ __align__(8) StreamBarriers<C> bars;
  stream_barriers_init<C>(bars);
  if constexpr (kOutOfLine) perks_share_face_geometry(pa);
  StreamPipeState pipe;
  const PerksLoopEnd end = perks_sweep_loop<kJacobi, C::NT, false>(pa, [&](long t, const Real* src, Real* dst) {
    Real* const smem = reinterpret_cast<Real*>(pipelined_smem);
    if constexpr (pipelined_face_phase<Real, DIM, RADIUS, T::BULK, kJacobi>()) {
      const double rsum = stream_sweep<Real, S, MODE, SYM, T>(pa.s, src, dst, smem, bars, pipe);
      // The ghosts of the new iterate: a face phase of the whole grid, out of line.
      if (pipelined_runs_face_phase<Real, DIM, RADIUS, T::BULK, kJacobi>(pa)) {
        cooperative_groups::this_grid().sync();
        if constexpr (kOutOfLine) perks_fill_faces_call<kFillBatch, kRows>(pa.alloc[(t + 1) & 1]);
        else perks_fill_faces_local_call(&pa, t);
      }
      return rsum;
    } else {
      // After each item: the ghosts of the new iterate whose source cells are in it.
      auto item_ghosts = [&](int x0, int xe, int y0, int ye, int s0, int len) {
        if constexpr (kOutOfLine)
          perks_fill_item_ghosts_call<C::NT, kFillBatch, DIM == 3, kRows>(pa.alloc[(t + 1) & 1], x0, xe, y0, ye, s0,
                                                                          len);
        else
          perks_fill_box_ghosts<C::NT, DIM == 3, kRows>(pa, t, x0, xe, y0, ye, s0, len);
      };
      return stream_sweep<Real, S, MODE, SYM, T>(pa.s, src, dst, smem, bars, pipe, item_ghosts);
    }
  });
  // Every output went to global memory: after a Jacobi stop the kept iterate (the stopping sweep's input,
  // buf[(end.done - 1) & 1]) is whole.
  perks_store_result(pa, end);
}

// Items per block of the pipelined kernel's sweep: the tile's own (T::IPB, the per-sweep kernel's), except on the fp64 3D
// 7-point star's large fast-memory tile (apply), measured on the H200 at 448^3 (benchmarks/results/
// gpu-h200-2026-11-28-x-face-images/run6, two runs each, pipelined over per-sweep): 16 -> 8 items: 1.019-1.023 ->
// 1.037-1.038. (fp32 took 16 instead of 8 on the 256 x 12 tile of that time, 1.065-1.068 -> 1.102-1.107; its 512 x 4
// tile since 2026-11-30 takes its own 32: at 448^3 215.7-216.3 us per sweep, the 256 x 12 tile with 16 items 216.2-217.0
// us in the same session, benchmarks/results/gpu-h200-2026-11-30-stencil-sequence, runs 4 and 6. The other 3D
// radius-1 shapes did not move with 16; in 2D, short items instead of one long item per block lost 5-35 %.)
template <class Real, ShapeSpec S, class T, bool HASB>
constexpr int pipelined_items_per_block() {
  if constexpr (!HASB && sizeof(Real) == 8 && S.dim == 3 && S.radius == 1 && S.kind == ShapeKind::star &&
                std::is_same_v<T, WideLargeFastMemTune<Real, S, false>>)
    return 8;
  return T::IPB;
}

// Face work of a static item in planes (StaticItemWork::face_planes): on the H200 trace of 3d13pt fp64 Jacobi at 384^3
// (the fp64 fill inline, cell by cell on the x faces) the blocks with an x-face item in every second item took 45 us
// more per sweep than those with none, ~5.3 us per x-face item against ~0.86 us per plane of an item
// (benchmarks/results/gpu-h200-2026-11-29-row-fills/run4/trace.txt).
constexpr int kPipelinedFaceItemPlanes = 6;

// The pipelined kernel's block count for static items with the per-item fill (balance_static_blocks, between the
// planned count and the resident slots). On the H200 (benchmarks/results/gpu-h200-2026-11-29-static-balance/run2,
// PERKSOLVE_PERKS_STATIC_BALANCE=0 / 1 on one library, twice each) 3d13pt fp64 Jacobi at 384^3 takes 256 blocks
// instead of 255: 0.969-0.972 -> 0.986-0.987 of the per-sweep path on large domains, 0.973 -> 0.987-0.988 saturating
// (no other case changes its blocks). Remembers the last plan, so that repeated launches of one sweep do not redo the
// search on the host.
template <ShapeSpec S, class Real, int NP>
long pipelined_static_blocks(const StreamArgs<Real, NP>& a, long planned, long resident) {
  struct Key {
    StreamChunks c;
    long tiles_x = 0, tiles = 0, planned = 0, resident = 0;
    bool operator==(const Key&) const = default;
  };
  static std::mutex mu;
  static Key memo_key;
  static long memo_blocks = 0;
  const Key key{stream_chunks(a), a.tiles_x, a.tiles, planned, resident};
  const std::lock_guard<std::mutex> lock(mu);
  if (memo_blocks <= 0 || !(memo_key == key)) {
    const StaticItemWork w{a.tiles_x, a.tiles, S.dim == 3, 2 * StreamGeo<S>::RS, kPipelinedFaceItemPlanes};
    memo_blocks = balance_static_blocks(key.c, w, a.items, planned, std::min<long>(resident, a.items));
    memo_key = key;
  }
  return memo_blocks;
}

// Launches the pipelined kernel with the wide tile the per-sweep path would take on this layout, on the
// per-sweep kernel's decomposition (plan_stream_grid, pipelined_items_per_block) within the cooperative occupancy of
// this kernel.
template <class Real, ShapeSpec S, int MODE, bool SYM, class T>
PerksLaunch launch_perks_pipelined_tile(const PerksRequest<Real>& pr) {
  constexpr bool kHasB = MODE == static_cast<int>(StencilMode::jacobi);
  using C = TileCfg<Real, S, T, kHasB>;
  auto kernel = perks_pipelined_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, T>;
  PerksLaunch out;
  const StencilRequest<Real>& r = pr.base;
  static const int occupancy = blocks_per_sm(kernel, C::NT, C::SMEM_BYTES);
  if (occupancy < 1) return out;
  PerksArgs<Real> pa{};
  long blocks = 0;
  if (!plan_stream_grid<Real, S, T, kHasB>(r, occupancy, pipelined_items_per_block<Real, S, T, kHasB>(), pa.s, &blocks))
    return out;
  fill_perks_args<Real, S.dim>(pa, pr);  // (reads only pa.s's ghost widths of the plan)
  pa.cache_planes = 0;
  // Without the face phase, each item fills the ghosts whose sources it wrote (the per-item fill).
  constexpr bool kPerItemFill = !pipelined_face_phase<Real, S.dim, S.radius, T::BULK, kHasB>();
  // 2D per-item ghost fill: the first and last chunks' items fill the streamed axis's ghost rows, so half the slack
  // moves to the front (plan_stream_lead; the items stay the same in number; stream_sweep reads it in 2D only).
  if constexpr (S.dim == 2 && kPerItemFill)
    if (pr.chunk_lead) pa.s.lead = plan_stream_lead(stream_chunks(pa.s)).lead;
  // Static items with the per-item fill: a block count whose stride spreads the face items over the blocks.
  if constexpr (!T::DYN && kPerItemFill)
    if (pr.static_balance && pa.varying_ghosts)
      blocks = pipelined_static_blocks<S>(pa.s, blocks, static_cast<long>(occupancy) * r.sm_count);
  // Fewer blocks (tests: several items per block): static items are dealt by the grid stride, dynamic ones
  // taken from the counter, so any block count covers every item.
  if (pr.max_blocks > 0) blocks = std::min<long>(blocks, pr.max_blocks);
  blocks = std::min<long>(blocks, static_cast<long>(occupancy) * r.sm_count);  // never over-subscribed
  void* args[] = {&pa};
  PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                                                   dim3(C::NT), args, static_cast<std::size_t>(C::SMEM_BYTES), r.stream));
  out.launched = true;
  out.kernel = PerksKernel::pipelined;
  out.blocks = static_cast<int>(blocks);
  out.threads = C::NT;
  PerksDomainModel dom;
  dom.cells = static_cast<double>(pa.s.nx) * pa.s.ny * pa.s.ns;
  dom.bytes_per_sweep = dom.cells * static_cast<double>(sizeof(Real)) * (kHasB ? 3.0 : 2.0);
  const bool face_phase = pipelined_runs_face_phase<Real, S.dim, S.radius, T::BULK, kHasB>(pa);
  const PerksPlan plan = plan_perks_pipelined(pr.device, dom, kPerksBarriersPerSweep + (face_phase ? 1.0 : 0.0));
  out.cached_fraction = 0.0;
  out.model_speedup = plan.predicted_speedup;
  return out;
}

// The pipelined kernel's tile: the per-sweep kernel's, with the partial sums shifted in fp32 below radius 5 (Tune's ROT
// off). ptxas -v (stencil_2d_f32.cu): with ROT, most fp32 pipelined row tiles of radius 2-4 needed more than their
// bound of 128 registers (80 for 2d25pt at three blocks per SM) and spilled 72-124 bytes, where the per-sweep kernels
// fit in 92-114; at radius 5 (2d21pt) the pipelined kernel fits in 128, at 6 (2ds25pt) it spills 24 bytes. The fp64
// ones fit (96-128 registers, 4 bytes of spill for 2ds25pt). Rotated or shifted, the sums are the same bits.
template <class Real, ShapeSpec S, class T>
using pipelined_tune = std::conditional_t<sizeof(Real) == 4 && S.radius < 5, tune_rot<T, false>, T>;

template <class Real, ShapeSpec S, int MODE, bool SYM>
PerksLaunch launch_perks_pipelined(const PerksRequest<Real>& pr) {
  constexpr bool kHasB = MODE == static_cast<int>(StencilMode::jacobi);
  if (pr.base.work_counters == nullptr) return PerksLaunch{};
  return with_wide_tune<Real, S, kHasB>(pr.base.layout, pr.base.fast_memory, [&](auto tag) {
    return launch_perks_pipelined_tile<Real, S, MODE, SYM, pipelined_tune<Real, S, typename decltype(tag)::type>>(pr);
  });
}

}  // namespace perksolve::cuda_detail
