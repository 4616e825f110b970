// What the PERKS stencil kernels share: the kernel arguments, the rule that decides which outputs another
// block (or the boundary rule) reads from global memory, the boundary faces filled by the block that wrote
// their source cells, the Jacobi block partial, and the step between two sweeps (one device-wide barrier and
// the residual test; in the resident kernel a wait for the neighbouring bricks where no residual is summed).
//  * perks_stencil.cuh  streaming: each block streams fixed items; the first planes of a block are cached.
//  * perks_resident.cuh resident: the whole domain on chip, one brick per block (small domains).
//  * perks_pipelined.cuh pipelined: the per-sweep streaming kernel's pipeline in a sweep loop, nothing cached.
#pragma once

#include <cooperative_groups.h>

#include <type_traits>

#include "framework/backends/cuda/grid_point_ops.cuh"
#include "framework/backends/cuda/grid_reduce.cuh"
#include "framework/backends/cuda/loop_stop.cuh"
#include "framework/backends/cuda/perks_request.cuh"
#include "framework/backends/cuda/perks_trace.hpp"
#include "framework/backends/cuda/stencil_kernels.cuh"

namespace perksolve::cuda_detail {

template <class Real>
struct PerksArgs {
  StreamArgs<Real, kMaxTemplatedPoints> s;  // geometry, coefficients, Jacobi scale, b; s.x / s.out unused
  Real* buf[2];    // element (0,0,0) of the two iterates: sweep t reads buf[t & 1], writes buf[(t + 1) & 1]
  Real* alloc[2];  // the two allocations (ghost fills index them with `layout`)
  FieldLayout layout;
  cuda_ops::FaceSet<Real> faces;
  long sweeps;       // at most this many sweeps
  long first;        // global iteration number of the first sweep of this launch (for check_every)
  int cache_planes;  // streaming kernel: output planes per block kept in shared memory
  int keep_x, keep_y, keep_s;  // cells this close to the domain's edge (x, in-plane second, streamed axis) are
                               // always written to global memory: the boundary rule mirrors them into ghosts
  LoopStop stop;     // Jacobi: test the thresholds at iterations first + t that are checks
  bool const_ghosts; // some face has constant ghosts (a vertex-centred Dirichlet face)
  bool varying_ghosts;  // some face has ghosts that are not constant (the pipelined kernel's face phase)
  bool rhs_on_chip;     // resident Jacobi: b of every owned plane stays in shared memory (else a ring streams it)
  bool face_planes_on_chip;  // resident: the bricks at the streamed axis's faces compute their ghost planes on chip
  double* partials;  // 2 gridDim.x doubles: the block partials of the k-th summed sweep at [(k & 1) gridDim.x, ...)
  double* result;    // device: [0] sweeps done, [1] rr of the last sweep's input iterate, [2] 1 if stopped
  double* history;   // Jacobi, when not null: history[t] = rr of sweep t's input iterate
  PerksSweepFlags sweep_flags;  // resident kernel: sync with the neighbouring bricks only (flag null: not)
#if PERKSOLVE_PERKS_TRACE_BUILD
  unsigned long long* timing;  // PERKSOLVE_PERKS_TRACE, when not null: the blocks' stamps (perks_stamp)
#endif
};

// Whether the output (ox, oy, z) of the item whose owned cells are [x0, xe) x [y0, ye) x [s0, s0 + len) is
// read from global memory by someone else: the R-wide boundary ring of the tile, the first and last R
// planes of the chunk, and the cells the boundary rule mirrors into ghosts. The in-plane and the streamed
// parts are separate functions so that a kernel can evaluate the in-plane part once per thread.
template <int RX, int RY, class Real>
__device__ __forceinline__ bool perks_read_in_plane(const PerksArgs<Real>& pa, int ox, int oy, int x0, int y0, int xe,
                                                    int ye) {
  return ox - x0 < RX || ox >= xe - RX || oy - y0 < RY || oy >= ye - RY || ox < pa.keep_x ||
         ox >= pa.s.nx - pa.keep_x || oy < pa.keep_y || oy >= pa.s.ny - pa.keep_y;
}
// The streamed part as a range: the planes [lo, hi) of the chunk that nobody else reads (computed once per item).
struct PerksPrivatePlanes {
  int lo, hi;
  __device__ __forceinline__ bool read_by_others(int z) const { return z < lo || z >= hi; }
};
template <int RS, class Real>
__device__ __forceinline__ PerksPrivatePlanes perks_private_planes(const PerksArgs<Real>& pa, int s0, int len) {
  return {max(s0 + RS, pa.keep_s), min(s0 + len - RS, pa.s.ns - pa.keep_s)};
}
template <int RS, class Real>
__device__ __forceinline__ bool perks_read_plane(const PerksArgs<Real>& pa, int z, int s0, int len) {
  return perks_private_planes<RS>(pa, s0, len).read_by_others(z);
}
template <int RX, int RY, int RS, class Real>
__device__ __forceinline__ bool perks_read_by_others(const PerksArgs<Real>& pa, int ox, int oy, int z, int x0, int y0,
                                                     int xe, int ye, int s0, int len) {
  return perks_read_in_plane<RX, RY>(pa, ox, oy, x0, y0, xe, ye) || perks_read_plane<RS>(pa, z, s0, len);
}

// Jacobi: whether the solver tests its thresholds at sweep t of this launch (iteration first + t).
template <class Real>
__device__ __forceinline__ bool perks_is_check_sweep(const PerksArgs<Real>& pa, long t) {
  return pa.stop.is_check(pa.first + t);
}

// Jacobi: whether sweep t's residual is needed (LoopStop::residual_needed: a check sweep, or the launch's last).
// The resident kernel computes and sums it only there (kWhereNeeded); the streaming kernels at every sweep.
template <class Real>
__device__ __forceinline__ bool perks_needs_residual(const PerksArgs<Real>& pa, long t) {
  return pa.stop.residual_needed(pa.first, t, pa.sweeps);
}

// The block's sum of squared residuals into the slot of reduction k's parity (k counts the sweeps whose residual
// is summed over the grid; a block may store reduction k + 1's partial while a slower one still sums reduction k's,
// never k + 2's: a device-wide barrier precedes every sum).
template <int NT, class Real>
__device__ __forceinline__ void perks_store_block_partial(const PerksArgs<Real>& pa, long k, double rsum) {
  store_block_partial<NT>(pa.partials + (k & 1) * gridDim.x, rsum);
}

// Boundary faces without a phase of their own. Before the first sweep the constant ghosts of the second buffer
// (those of the first are up to date on entry); after a block has stored a box of sweep t's outputs, the
// ghosts of the new iterate whose source cells lie in the box (fill_box_face_ghosts). The boxes of a sweep
// partition the owned cells, so every ghost is written once, by the block that wrote its source, before the
// barrier that ends the sweep. Nobody reads the new iterate's ghosts before that barrier, and the next sweep
// writes the other buffer: one device-wide barrier per sweep suffices.
template <class Real>
__device__ __forceinline__ void perks_fill_constant_ghosts(const PerksArgs<Real>& pa) {
  if (!pa.const_ghosts) return;
  cuda_ops::for_each_face_ghost_in_grid(pa.faces.total(), [&](long g) {
    cuda_ops::fill_constant_face_ghost(pa.alloc[1], pa.layout, pa.faces, g);
  });
}
// The ghosts whose sources lie in the box [x0, xe) x [y0, ye) (in-plane) x [s0, s0 + len) (streamed axis), and whether
// its rows start on 16-byte units (the row-segment fills' vector loads).
template <bool D3, class Real>
__device__ __forceinline__ cuda_ops::FaceBoxGhosts perks_box_face_ghosts(const FieldLayout& l,
                                                                         const cuda_ops::FaceSet<Real>& fs, int x0,
                                                                         int xe, int y0, int ye, int s0, int len) {
  const int lo[3] = {x0, D3 ? y0 : s0, D3 ? s0 : 0};
  const int hi[3] = {xe, D3 ? ye : s0 + len, D3 ? s0 + len : 1};
  return cuda_ops::face_box_ghosts(l, fs, lo, hi);
}
template <class Real>
__device__ __forceinline__ bool perks_box_rows_aligned(const FieldLayout& l, int x0) {
  return cuda_ops::rows_hold_vec16<Real>(l) && x0 % cuda_ops::kVec16<Real> == 0;
}
// The box is [x0, xe) x [y0, ye) (in-plane) x [s0, s0 + len) (streamed axis) in the kernel's axes; the block
// calls it with the same box in every thread after its stores of the box (it synchronises the block itself,
// and only where the box is the source of a ghost). value_at(src) gives a source cell's new value (layout
// coordinates); U ghost cells per thread and step have their sources read before any store.
//  * The resident kernel reads the sources from its brick in shared memory, U = 4 (H100: 3d7pt fp64 126^3
//    11.9 -> 11.5 us per sweep against U = 1 from global memory).
//  * The cached streaming kernel reads them from the new iterate in global memory, U = 1: inside its item loop
//    a batch's registers made 1024-thread tiles (64-register cap) spill, 2x slower per sweep. The pipelined kernel
//    calls the fill out of line instead (perks_fill_item_ghosts_call).
// streamed_faces = false leaves out the ghosts outside along the streamed axis (the resident kernel's face planes).
// ROWS: the ghosts outside along y or z by row segments (fill_box_face_ghosts_by_rows; load_segment reads a segment's
// sources; unused without ROWS), U / kVec16 segments per step (at least one).
template <int NT, int U, bool D3, bool ROWS, class Real, class ValueAt, class LoadSegment>
__device__ __forceinline__ void perks_fill_box_ghosts_with(const PerksArgs<Real>& pa, long t, int x0, int xe, int y0,
                                                           int ye, int s0, int len, ValueAt&& value_at,
                                                           LoadSegment&& load_segment, bool streamed_faces) {
  cuda_ops::FaceBoxGhosts g = perks_box_face_ghosts<D3>(pa.layout, pa.faces, x0, xe, y0, ye, s0, len);
  if (!streamed_faces) cuda_ops::face_box_drop_ghosts_along<streamed_axis(D3 ? 3 : 2)>(g);
  if (g.total() == 0) return;
  __syncthreads();  // the box's stores by every thread of the block are visible to the block
  Real* const f = pa.alloc[(t + 1) & 1];
  if constexpr (ROWS) {
    const bool aligned = perks_box_rows_aligned<Real>(pa.layout, x0);
    cuda_ops::fill_box_face_ghosts_by_rows<NT, U, cuda_ops::segments_per_step<Real>(U)>(f, pa.layout, pa.faces, g,
                                                                                       aligned, value_at, load_segment);
  } else {
    cuda_ops::fill_box_face_ghosts<NT, U>(f, pa.layout, pa.faces, g, value_at);
  }
}
// Sources read by value_at, cell by cell (the resident kernel: its brick in shared memory). (Row segments read from the
// brick made the 2D resident kernels 3-35 % slower: benchmarks/results/gpu-h200-2026-11-29-row-fills, run 1.)
template <int NT, int U, bool D3, class Real, class ValueAt>
__device__ __forceinline__ void perks_fill_box_ghosts(const PerksArgs<Real>& pa, long t, int x0, int xe, int y0, int ye,
                                                      int s0, int len, ValueAt&& value_at, bool streamed_faces = true) {
  perks_fill_box_ghosts_with<NT, U, D3, false>(pa, t, x0, xe, y0, ye, s0, len, value_at, 0, streamed_faces);
}
// Sources read from the new iterate in global memory, one cell per step; ROWS: by row segments with 16-byte loads.
template <int NT, bool D3, bool ROWS = false, class Real>
__device__ __forceinline__ void perks_fill_box_ghosts(const PerksArgs<Real>& pa, long t, int x0, int xe, int y0, int ye,
                                                      int s0, int len) {
  const Real* const f = pa.alloc[(t + 1) & 1];
  perks_fill_box_ghosts_with<NT, 1, D3, ROWS>(
      pa, t, x0, xe, y0, ye, s0, len, [&](const int (&c)[3]) { return f[pa.layout.index(c[0], c[1], c[2])]; },
      cuda_ops::LoadSegmentFromField<Real>{f, &pa.layout}, true);
}

// Every ghost of the new iterate of sweep t, by all blocks of the grid (the caller puts a device-wide barrier
// before it: the sources are other blocks' outputs), one cell per thread and step, with the layout and face set
// copied into each thread's local memory: the pipelined kernel's face phase in fp64 (pipelined_fills_out_of_line).
// The fp32 phase's slab walk (fill_face_slabs_in_grid) made 2d21pt fp64 slower here (0.92 -> 0.89 of the per-sweep
// kernel, benchmarks/results/gpu-h200-2026-11-28-face-boxes/run3), and with the face set in shared memory as in fp32
// (run 6) fp64 lost 2 % overall (2ds25pt 0.87 -> 0.90, but 2d21pt and the 3D radius-1 kernels slower), so fp64
// keeps this.
// Out of line: the per-item fill inlined into the item loop kept the layout and face set fields it reads (loop
// invariants) in uniform registers across the plane loop, which then reloaded stencil coefficients every plane,
// 13-15 % more instructions per sweep than the per-sweep kernel (docs/perf/perks.md, "Pipelined kernel: why its
// plane loop was slower"). pa points at the kernel's __grid_constant__ parameter (its address needs no local copy).
// Read through the pointer inside the loop, every ghost cell reloaded the fields (the stores to f may alias them),
// ~1700 instructions per cell in 2D (benchmarks/results/gpu-h200-2026-11-25-pipelined-codegen, run 6).
template <class Real>
__device__ __noinline__ void perks_fill_faces_local_call(const PerksArgs<Real>* pa, long t) {
  Real* __restrict__ const f = pa->alloc[(t + 1) & 1];
  const FieldLayout l = pa->layout;
  const cuda_ops::FaceSet<Real> fs = pa->faces;
  cuda_ops::for_each_face_ghost_in_grid(fs.total(), [&](long g) { cuda_ops::fill_face_ghost(f, l, fs, g); });
}

// The pipelined kernel's fills in fp32 (pipelined_fills_out_of_line): out of line as well, with the layout and face set
// in shared memory (perks_share_face_geometry copies them once per block at the kernel's start) and several cells
// per thread and step (pipelined_fill_batch). Measured on the H200 (benchmarks/results/gpu-h200-2026-11-28-
// pipelined-planes; run 3 timed the same kernel with its fills left out, the ceiling): the fills had cost the
// pipelined kernel 3-25 % of a sweep on large domains (3d13pt fp32 at 448^3 0.88 of the per-sweep kernel against
// 1.13 without fills, 2d13pt fp32 0.93 against 1.00):
//  * the face phase's local copy of the face set (~270 bytes, indexed by slab and side at run time) was stored and
//    loaded in every thread at every sweep;
//  * one cell per thread and step is one dependent L2 round trip per cell: a 2048 x 3 face of a 2D item took 12 of
//    them, and the sweep waits for that item;
//  * batching 8 cells per step inline (run 2) raised the plane loop's registers (91 -> 128 for 2d13pt fp32) and
//    made most shapes slower still.
// Out of line with the geometry in shared memory (run 4): 3d13pt fp32 0.91, 2d13pt fp32 0.94; pipelined_fills_out_of_line.
template <class Real>
struct PerksFaceGeometry {
  FieldLayout layout;
  cuda_ops::FaceSet<Real> faces;
};
template <class Real>
__device__ __forceinline__ PerksFaceGeometry<Real>& perks_shared_face_geometry() {
  __shared__ __align__(16) unsigned char raw[sizeof(PerksFaceGeometry<Real>)];
  return *reinterpret_cast<PerksFaceGeometry<Real>*>(raw);
}
template <class Real>
__device__ __forceinline__ void perks_share_face_geometry(const PerksArgs<Real>& pa) {
  if (threadIdx.x == 0) {
    PerksFaceGeometry<Real>& g = perks_shared_face_geometry<Real>();
    g.layout = pa.layout;
    g.faces = pa.faces;
  }
  __syncthreads();
}
// Ghost cells per thread and step of the pipelined kernel's fills: 4 where the kernel may use 128 registers per
// thread, else 1 (with a 64-register cap the batch spilled ~1 KB in the face phase); and 1 in the 2D Jacobi sweeps.
// There the fill is called from the item loop while the issue cursor's state, b's included, stays live across the
// call: with 4 cells the fp32 2D Jacobi kernels took 128 registers and spilled two of the cursor's 64-bit load
// offsets, reloaded at every plane (ncu, benchmarks/results/gpu-h200-2026-11-28-rotating-resident/run2: 2.6 M local
// requests over 4 sweeps of 2d5pt at 6144^2); with 1, 117-128 registers and no spill (ptxas -v). Measured on the
// H200 (run 3, Jacobi, large domains, two runs each way), pipelined over per-sweep: 2d5pt fp32 0.78-0.79 ->
// 0.97-0.99, 2ds9pt 0.70-0.72 -> 0.97-0.98, 2d13pt 0.71-0.73 -> 0.93-0.94, 2d25pt 0.71-0.74 -> 0.96; in 3D the
// 3D radius-1 shapes moved by 1-2 % and 3d13pt fp32 lost 2-3 %, so 3D keeps 4.
template <int NT, int MIN_BLOCKS, int DIM, bool HASB>
constexpr int pipelined_fill_batch() {
  return !(HASB && DIM == 2) && 65536 / (NT * MIN_BLOCKS) >= 128 ? 4 : 1;
}
// Every ghost of f (the new iterate of a sweep), by all blocks of the grid (the caller puts a device-wide barrier
// before it: the sources are other blocks' outputs). Called once per sweep after the item loop (the pipelined
// kernel's face phase, pipelined_face_phase). Slab by slab (fill_face_slabs_in_grid): 185 instead of 288 instructions
// per ghost cell, 3d13pt fp32 0.91 -> 0.94 of the per-sweep kernel (benchmarks/results/gpu-h200-2026-11-28-face-boxes,
// runs 3-4); with U = 8 instead of 4 it was slower (0.85).
template <int U, bool ROWS, class Real>
__device__ __noinline__ void perks_fill_faces_call(Real* __restrict__ f) {
  const PerksFaceGeometry<Real>& g = perks_shared_face_geometry<Real>();
  if constexpr (ROWS)
    cuda_ops::fill_face_slabs_in_grid_by_rows<U, cuda_ops::segments_per_step<Real>(U)>(f, g.layout, g.faces);
  else
    cuda_ops::fill_face_slabs_in_grid<U>(f, g.layout, g.faces);
}
// The ghosts of f whose sources lie in the item the block has just stored (perks_fill_box_ghosts; every thread
// calls it with the same box), with the geometry from shared memory. (It stays a function of its own: making
// perks_fill_box_ghosts_with serve both changed the register allocation of the fp64 pipelined kernels, which keep
// the inline fill, 2d13pt 96 -> 92 registers.)
template <int NT, int U, bool D3, bool ROWS, class Real>
__device__ __noinline__ void perks_fill_item_ghosts_call(Real* __restrict__ f, int x0, int xe, int y0, int ye, int s0,
                                                        int len) {
  const PerksFaceGeometry<Real>& g = perks_shared_face_geometry<Real>();
  const cuda_ops::FaceBoxGhosts box = perks_box_face_ghosts<D3>(g.layout, g.faces, x0, xe, y0, ye, s0, len);
  if (box.total() == 0) return;
  __syncthreads();  // the box's stores by every thread of the block are visible to the block
  auto value_at = [&](const int (&c)[3]) { return f[g.layout.index(c[0], c[1], c[2])]; };
  if constexpr (!ROWS) {
    cuda_ops::fill_box_face_ghosts<NT, U>(f, g.layout, g.faces, box, value_at);
  } else {
    const bool aligned = perks_box_rows_aligned<Real>(g.layout, x0);
    cuda_ops::fill_box_face_ghosts_by_rows<NT, U, cuda_ops::segments_per_step<Real>(U)>(
        f, g.layout, g.faces, box, aligned, value_at, cuda_ops::LoadSegmentFromField<Real>{f, &g.layout});
  }
}

// After sweep t wrote its outputs and their ghosts: a device-wide barrier, and for Jacobi where `reduce` the residual
// test of sweep t's input at a check sweep (every block sums the partials of reduction k in the same order: the same
// rr, the same decision everywhere; warp 0 sums them, grid_partials_total). Returns whether to stop. The caller
// reduces at every sweep, or where perks_needs_residual (the history's other entries are left to the host).
template <bool kJacobi, class Real>
__device__ __forceinline__ bool perks_between_sweeps(const PerksArgs<Real>& pa, long t, bool reduce, long k,
                                                     double& last_rr) {
  namespace cg = cooperative_groups;
  cg::this_grid().sync();
  bool stop = false;
  if constexpr (kJacobi) {
    if (reduce) {
      __shared__ double rr_slot;  // rewritten only after the next device barrier
      const double rr = grid_partials_total(pa.partials + (k & 1) * gridDim.x, &rr_slot);
      last_rr = rr;
      if (pa.history && blockIdx.x == 0 && threadIdx.x == 0) pa.history[t] = rr;
      if (perks_is_check_sweep(pa, t)) {
        const double res = sqrt(rr);
        stop = pa.stop.met(res);
      }
    }
  }
  return stop;
}

// ---- The resident kernel's sync between sweeps: with the neighbouring bricks only ----
// A resident brick reads, in sweep t + 1, only cells that the bricks around it wrote in sweep t: its halo (their
// boundary rings and planes) and the boundary ghosts next to it, whose sources lie within R + 1 cells of those
// ghosts, in the bricks around it too. So instead of a device-wide barrier after every sweep, each block announces
// the sweeps it has completed (its flag) and waits for the bricks one tile away in x and y and reach_s chunks along
// the streamed axis. The relation is symmetric, so the same wait also orders the other way: a block writes the
// buffer of sweep t + 1 only after its neighbours have completed sweep t - 1, the last sweep that read it.
// Device-wide barriers stay where the whole grid must agree: the Jacobi sums (check sweeps and the launch's last),
// and after the first sweep where the constant ghosts were written (by blocks in any order, before it).
// Memory order as in cooperative groups' grid barrier (sm_70+): a block barrier, then one thread's release store of the
// flag; on the other side acquire loads until the value, then a block barrier. (With fences, __threadfence, and
// relaxed accesses instead, the sweeps were 0.1-0.6 us slower than with the device-wide barrier: H200, run 1 of
// benchmarks/results/gpu-h200-2026-11-29-neighbour-sync.)
struct PerksBrickNeighbours {
  int q, ux, uy;                          // this brick: its chunk, tile column and tile row
  int chunks, tiles_x, tiles_y, reach_s;  // the grid of bricks (block (q tiles_y + uy) tiles_x + ux)
  __device__ __forceinline__ int count() const { return 9 * (2 * reach_s + 1); }
  // The block of neighbour k < count(), or -1 where it lies outside the grid or is this brick.
  __device__ __forceinline__ int block(int k) const {
    const int dx = k % 3 - 1, dy = k / 3 % 3 - 1, dq = k / 9 - reach_s;
    const int x = ux + dx, y = uy + dy, c = q + dq;
    if (x < 0 || x >= tiles_x || y < 0 || y >= tiles_y || c < 0 || c >= chunks || (dx == 0 && dy == 0 && dq == 0))
      return -1;
    return (c * tiles_y + y) * tiles_x + x;
  }
};
// Kernels whose blocks keep no fixed brick (streaming, pipelined): a device-wide barrier after every sweep.
struct PerksNoNeighbours {};

// This launch's flag values start above every earlier launch's (read by every block before it finishes).
template <class Real>
__device__ __forceinline__ unsigned long long perks_flag_base(const PerksArgs<Real>& pa) {
  return static_cast<unsigned long long>(*reinterpret_cast<const volatile unsigned*>(pa.sweep_flags.epoch)) << 32;
}
// After the block's stores of a sweep (called by every thread): its flag becomes `value`. The flags lie
// kPerksFlagStride apart (one per 128-byte line).
template <class Real>
__device__ __forceinline__ void perks_post_sweep(const PerksArgs<Real>& pa, unsigned long long value) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long* const f = pa.sweep_flags.flag + static_cast<long>(blockIdx.x) * kPerksFlagStride;
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(f), "l"(value) : "memory");
  }
}
// Until every neighbour's flag has reached `value` (warp 0 polls, one neighbour per lane; called by every thread).
template <class Real>
__device__ __forceinline__ void perks_wait_neighbours(const PerksArgs<Real>& pa, const PerksBrickNeighbours& nb,
                                                      unsigned long long value) {
  if (threadIdx.x < 32) {
    const int n = nb.count();
    for (int k = static_cast<int>(threadIdx.x); k < n; k += 32) {
      const int b = nb.block(k);
      if (b < 0) continue;
      const unsigned long long* const f = pa.sweep_flags.flag + static_cast<long>(b) * kPerksFlagStride;
      unsigned long long v;
      do {
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(f) : "memory");
      } while (v < value);
    }
  }
  __syncthreads();
}
// At the launch's end: the last block to get here advances the epoch for the next launch.
template <class Real>
__device__ __forceinline__ void perks_sweep_flags_done(const PerksArgs<Real>& pa) {
  if (threadIdx.x == 0) {
    unsigned* const e = pa.sweep_flags.epoch;
    __threadfence();
    if (atomicAdd(e + 1, 1u) == gridDim.x - 1) {
      atomicExch(e + 1, 0u);
      atomicAdd(e, 1u);
    }
  }
}

// PERKSOLVE_PERKS_TRACE (perks_trace.hpp): thread 0 stamps the device clock into slot k of sweep t (0: start, 1: the
// whole block is done with the sweep, after a block barrier of its own; 2: past the device-wide barrier; the resident
// kernel's phases, each after a block barrier the kernel has anyway: 3 its loads done, 4 its plane loop done). Only in a
// build configured with -DPERKSOLVE_PERKS_TRACE=ON, and there nothing where the launch is not traced (pa.timing null,
// the same for every thread).
template <class Real>
__device__ __forceinline__ void perks_stamp([[maybe_unused]] const PerksArgs<Real>& pa, [[maybe_unused]] long t,
                                            [[maybe_unused]] int k) {
#if PERKSOLVE_PERKS_TRACE_BUILD
  if (pa.timing == nullptr || t >= kPerksTracedSweeps) return;
  if (k == 1) __syncthreads();
  if (threadIdx.x == 0) pa.timing[(t * gridDim.x + blockIdx.x) * kPerksStampsPerSweep + k] = global_ns();
#endif
}
// How a sweep loop ended: sweeps done, rr of the last sweep's input (Jacobi), whether a threshold stopped it.
struct PerksLoopEnd {
  long done = 0;
  double last_rr = 0.0;
  bool stopped = false;
};

// The sweep loop of every PERKS stencil kernel: sweep(t, src, dst) runs sweep t of the block (src = buf[t & 1],
// dst = buf[(t + 1) & 1]) and returns the thread's sum of squared residuals (Jacobi; else ignored; with
// kWhereNeeded only where perks_needs_residual); then the block partial and the step between sweeps. Stops
// after pa.sweeps sweeps or at a met threshold. The sweep fills the ghosts whose sources it wrote
// (perks_fill_box_ghosts) or, in the pipelined kernel's face phase, all of them (perks_fill_faces_call); the
// constant ones are written here first. With the brick's neighbours (the resident kernel) and pa.sweep_flags set,
// the step between sweeps waits for those neighbours only, except where perks_between_sweeps must run.
template <bool kJacobi, int NT, bool kWhereNeeded, class Real, class Sweep, class Neighbours = PerksNoNeighbours>
__device__ __forceinline__ PerksLoopEnd perks_sweep_loop(const PerksArgs<Real>& pa, Sweep&& sweep,
                                                         const Neighbours& nb = {}) {
  constexpr bool kBricks = std::is_same_v<Neighbours, PerksBrickNeighbours>;
  const bool p2p = kBricks && pa.sweep_flags.flag != nullptr;
  perks_fill_constant_ghosts(pa);
  const unsigned long long base = p2p ? perks_flag_base(pa) : 0;
  PerksLoopEnd e;
  long reductions = 0;  // sweeps whose residual was summed over the grid (the partials' slot parity)
  for (; e.done < pa.sweeps && !e.stopped; ++e.done) {
    const long t = e.done;
    perks_stamp(pa, t, 0);
    const double rsum = sweep(t, pa.buf[t & 1], pa.buf[(t + 1) & 1]);
    const bool reduce = kJacobi && (!kWhereNeeded || perks_needs_residual(pa, t));
    if (reduce) perks_store_block_partial<NT>(pa, reductions, rsum);
    perks_stamp(pa, t, 1);
    bool neighbours_only = false;  // the step between sweeps is a wait for the neighbouring bricks only
    if constexpr (kBricks) {
      if (p2p) {
        perks_post_sweep(pa, base + t + 1);
        neighbours_only = !reduce && !(t == 0 && pa.const_ghosts);
        if (neighbours_only && t + 1 < pa.sweeps) perks_wait_neighbours(pa, nb, base + t + 1);
      }
    }
    if (!neighbours_only) {
      e.stopped = perks_between_sweeps<kJacobi>(pa, t, reduce, reductions, e.last_rr);
      reductions += reduce;
    }
    perks_stamp(pa, t, 2);
  }
  if (p2p) perks_sweep_flags_done(pa);
  return e;
}

// The kernel's outcome for the host. The sweep count last, behind a system-scope fence: where the result is in mapped
// pinned memory the host may poll that slot instead of waiting for the stream (CudaBackend::persistent_sweeps), and
// then reads the other slots and the residual history (written by this thread too) after it.
template <class Real>
__device__ __forceinline__ void perks_store_result(const PerksArgs<Real>& pa, const PerksLoopEnd& e) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    pa.result[1] = e.last_rr;
    pa.result[2] = e.stopped ? 1.0 : 0.0;
    __threadfence_system();
    *reinterpret_cast<volatile double*>(pa.result) = static_cast<double>(e.done);
  }
}

}  // namespace perksolve::cuda_detail
