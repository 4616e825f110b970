// What the two PERKS stencil kernels share: the kernel arguments, the rule that decides which outputs
// another block (or the boundary rule) reads from global memory, the Jacobi block partial, and the step
// between two sweeps (barrier, boundary faces, residual test, barrier).
//  * perks_stencil.cuh  streaming: each block streams fixed items; the first planes of a block are cached.
//  * perks_resident.cuh resident: the whole domain on chip, one brick per block (small domains).
//  * perks_pipelined.cuh pipelined: the per-sweep streaming kernel's pipeline in a sweep loop, nothing cached.
#pragma once

#include <cooperative_groups.h>

#include "framework/backends/cuda/grid_point_ops.cuh"
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
  int check_every;   // Jacobi: test the thresholds when (first + t) % check_every == 0 (0: never)
  double stop_rel, stop_abs, stop_div;  // stop when sqrt(rr) <= stop_rel or <= stop_abs or > stop_div
  double* partials;  // gridDim.x doubles
  double* result;    // device: [0] sweeps done, [1] rr of the last sweep's input iterate, [2] 1 if stopped
  double* history;   // Jacobi, when not null: history[t] = rr of sweep t's input iterate
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
template <int RS, class Real>
__device__ __forceinline__ bool perks_read_plane(const PerksArgs<Real>& pa, int z, int s0, int len) {
  return z < s0 + RS || z >= s0 + len - RS || z < pa.keep_s || z >= pa.s.ns - pa.keep_s;
}
template <int RX, int RY, int RS, class Real>
__device__ __forceinline__ bool perks_read_by_others(const PerksArgs<Real>& pa, int ox, int oy, int z, int x0, int y0,
                                                     int xe, int ye, int s0, int len) {
  return perks_read_in_plane<RX, RY>(pa, ox, oy, x0, y0, xe, ye) || perks_read_plane<RS>(pa, z, s0, len);
}

// Jacobi: whether the solver tests its thresholds at sweep t of this launch (iteration first + t).
template <class Real>
__device__ __forceinline__ bool perks_is_check_sweep(const PerksArgs<Real>& pa, long t) {
  return pa.check_every > 0 && (pa.first + t) % pa.check_every == 0;
}

// Jacobi: the block's sum of squared residuals into pa.partials[blockIdx.x].
template <int NT, class Real>
__device__ __forceinline__ void perks_store_block_partial(const PerksArgs<Real>& pa, double rsum) {
  store_block_partial<NT>(pa.partials, rsum);
}

// After sweep t wrote its outputs: a device-wide barrier, the boundary faces of the new iterate (their mirror
// cells are in global memory), and for Jacobi the residual test of sweep t's input at a check sweep (every
// block sums the partials in the same order: the same rr, the same decision everywhere), then a barrier
// (ghosts filled; no block overwrites a partial before every block has read them). Returns whether to stop.
template <bool kJacobi, class Real>
__device__ __forceinline__ bool perks_between_sweeps(const PerksArgs<Real>& pa, long t, double& last_rr) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  grid.sync();
  {
    const long total = pa.faces.total();
    const long gsize = static_cast<long>(gridDim.x) * blockDim.x;
    for (long g = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; g < total; g += gsize)
      cuda_ops::fill_face_ghost(pa.alloc[(t + 1) & 1], pa.layout, pa.faces, g);
  }
  bool stop = false;
  if constexpr (kJacobi) {
    double rr = 0.0;
    for (unsigned b = 0; b < gridDim.x; ++b) rr += pa.partials[b];
    last_rr = rr;
    if (pa.history && blockIdx.x == 0 && threadIdx.x == 0) pa.history[t] = rr;
    if (perks_is_check_sweep(pa, t)) {
      const double res = sqrt(rr);
      stop = !(res == res) || res <= pa.stop_rel || res <= pa.stop_abs || res > pa.stop_div || isinf(res);
    }
  }
  grid.sync();
  return stop;
}

// How a sweep loop ended: sweeps done, rr of the last sweep's input (Jacobi), whether a threshold stopped it.
struct PerksLoopEnd {
  long done = 0;
  double last_rr = 0.0;
  bool stopped = false;
};

// The sweep loop of every PERKS stencil kernel: sweep(t, src, dst) runs sweep t of the block (src = buf[t & 1],
// dst = buf[(t + 1) & 1]) and returns the thread's sum of squared residuals (Jacobi; else ignored); then the
// block partial and the step between sweeps. Stops after pa.sweeps sweeps or at a met threshold.
template <bool kJacobi, int NT, class Real, class Sweep>
__device__ __forceinline__ PerksLoopEnd perks_sweep_loop(const PerksArgs<Real>& pa, Sweep&& sweep) {
  PerksLoopEnd e;
  for (; e.done < pa.sweeps && !e.stopped; ++e.done) {
    const double rsum = sweep(e.done, pa.buf[e.done & 1], pa.buf[(e.done + 1) & 1]);
    if constexpr (kJacobi) perks_store_block_partial<NT>(pa, rsum);
    e.stopped = perks_between_sweeps<kJacobi>(pa, e.done, e.last_rr);
  }
  return e;
}

// The kernel's outcome for the host.
template <class Real>
__device__ __forceinline__ void perks_store_result(const PerksArgs<Real>& pa, const PerksLoopEnd& e) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    pa.result[0] = static_cast<double>(e.done);
    pa.result[1] = e.last_rr;
    pa.result[2] = e.stopped ? 1.0 : 0.0;
  }
}

}  // namespace perksolve::cuda_detail
