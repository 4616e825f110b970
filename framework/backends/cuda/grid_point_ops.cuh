// Per-cell bodies of the grid operations that more than one CUDA kernel runs: the multigrid transfers
// and the composed boundary-face rule. The per-operation kernels (cuda_solver_ops.cu, cuda_backend.cu)
// and the persistent program kernel (persistent_program.cu) call the same functions, so one operation
// gives the same bits whichever kernel runs it. Include only from .cu files.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "framework/backend/boundary_rule.hpp"
#include "framework/backend/transfer_rule.hpp"
#include "framework/backends/cuda/face_slab_walk.hpp"
#include "framework/backends/cuda/ghost_code.hpp"
#include "framework/field/field_layout.hpp"
#include "framework/util/fast_div.hpp"

namespace perksolve::cuda_ops {

// ---- multigrid transfers ------------------------------------------------------------------------------
struct TransferArgs {
  FieldLayout lf, lc;
  int s0, s1, s2;
  int rz;  // 1 in 3D, 0 in 2D
};

// The transfers at one cell (framework/backend/transfer_rule.hpp, shared with the other backends). The
// dimension is a template argument of the restriction bodies so that their loops unroll and all the fine
// loads of a cell are in flight together (the entry points below pick it from a.rz).
template <class Real, bool Three>
__device__ __forceinline__ Real restrict_fw_point_dim(const Real* __restrict__ fv, const TransferArgs& a, int i, int j,
                                                      int k) {
  auto at = [&](int x, int y, int z) { return fv[a.lf.index(x, y, z)]; };
  return transfer_rule::full_weighting<Real>(at, 2 * i + a.s0, 2 * j + a.s1, Three ? 2 * k + a.s2 : 0, Three);
}
template <class Real, bool Three>
__device__ __forceinline__ Real restrict_cc_point_dim(const Real* __restrict__ fv, const TransferArgs& a, int i, int j,
                                                      int k) {
  auto at = [&](int x, int y, int z) { return fv[a.lf.index(x, y, z)]; };
  return transfer_rule::cell_restriction<Real>(at, 2 * i + a.s0, 2 * j + a.s1, Three ? 2 * k + a.s2 : 0, Three);
}

// Vertex-centred full weighting at coarse cell (i, j, k).
template <class Real>
__device__ __forceinline__ Real restrict_fw_point(const Real* __restrict__ fv, const TransferArgs& a, int i, int j,
                                                  int k) {
  return a.rz ? restrict_fw_point_dim<Real, true>(fv, a, i, j, k) : restrict_fw_point_dim<Real, false>(fv, a, i, j, k);
}

// Cell-centred restriction at coarse cell (i, j, k).
template <class Real>
__device__ __forceinline__ Real restrict_cc_point(const Real* __restrict__ fv, const TransferArgs& a, int i, int j,
                                                  int k) {
  return a.rz ? restrict_cc_point_dim<Real, true>(fv, a, i, j, k) : restrict_cc_point_dim<Real, false>(fv, a, i, j, k);
}

// (P coarse) at fine owned cell (i, j, k).
template <class Real>
__device__ __forceinline__ Real prolongate_point(const Real* __restrict__ cv, const TransferArgs& a, bool vertex, int i,
                                                 int j, int k) {
  auto at = [&](int x, int y, int z) { return cv[a.lc.index(x, y, z)]; };
  return transfer_rule::interpolation<Real>(at, vertex, i - a.s0, j - a.s1, k - a.s2, a.rz != 0);
}

// ---- boundary faces: the composed rule -----------------------------------------------------------------
// All physical faces of a field at once. The ghost cells of the padded box are numbered as three slabs
// (slab a: outside along axis a, owned along the axes before a, padded along the axes after a). A cell
// outside along the physical axes P (in increasing order) gets what one fill per face in axis order
// leaves there: the value at the cell mirrored along every axis of P, mapped by each face's affine rule
// in axis order (a constant rule, the Dirichlet boundary vertex, restarts the chain). Cells outside only
// along non-physical axes (MPI or periodic ghosts) are left alone.
template <class Real>
struct FaceSet {
  boundary_rule::FaceRule<Real> rule[3][2];
  bool has[3][2];
  long slab[3];  // ghost cells per slab
  // Slab a is a box: ext[a][b] cells along axis b (b < a: owned, b == a: the 2 ghost layers, b > a: padded);
  // by_ext[a][b] divides by it (multiply and shift: the numbering is decoded per ghost cell).
  unsigned ext[3][3];
  FastDivU32 by_ext[3][3];
  __host__ __device__ long total() const { return slab[0] + slab[1] + slab[2]; }
};

// Fills fs.slab, fs.ext and fs.by_ext from the layout (fs.has set; every slab empty when no face is physical).
template <class Real>
inline void face_set_slabs(const FieldLayout& l, FaceSet<Real>& fs) {
  bool any = false;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) any |= fs.has[a][s];
  for (int a = 0; a < 3; ++a) {
    fs.slab[a] = any ? 1 : 0;
    for (int b = 0; b < 3; ++b) {
      const int e = b < a ? l.n[b] : b == a ? 2 * l.ghost[b] : l.padded(b);
      fs.ext[a][b] = static_cast<unsigned>(e);
      fs.by_ext[a][b] = FastDivU32(static_cast<unsigned>(e));
      fs.slab[a] *= e;
    }
  }
}

// The slab of cell k of a numbering in three consecutive slabs (sizes slab[0..2]); k becomes the index within it.
__host__ __device__ __forceinline__ int slab_of(const long (&slab)[3], long& k) {
  if (k < slab[0]) return 0;
  k -= slab[0];
  if (k < slab[1]) return 1;
  k -= slab[1];
  return 2;
}

// The second half of a ghost cell's geometry, from its index idx: per axis from axis FIRST on (the axes before are
// owned), its distance from a physical face and side, its source (mirrored along those axes) and the restart axis
// of the composed rule. Returns false when no physical face touches the cell.
template <int FIRST, class Real>
__device__ __forceinline__ bool face_ghost_mirror(const FieldLayout& l, const FaceSet<Real>& fs, const int (&idx)[3],
                                                  int (&src)[3], int (&dist)[3], int (&side)[3], int& restart) {
  restart = -1;  // last physical axis whose rule is constant
  bool any = false;
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    src[b] = idx[b];
    dist[b] = -1;
    side[b] = 0;
    if (b < FIRST) continue;
    if (idx[b] < 0 && fs.has[b][0]) {
      dist[b] = -1 - idx[b];
    } else if (idx[b] >= l.n[b] && fs.has[b][1]) {
      dist[b] = idx[b] - l.n[b], side[b] = 1;
    }
    if (dist[b] >= 0) {
      any = true;
      const boundary_rule::FaceRule<Real>& r = side[b] ? fs.rule[b][1] : fs.rule[b][0];
      src[b] = boundary_rule::mirror_index(r, l.n[b], dist[b]);
      if (boundary_rule::ghost_is_constant(r, dist[b])) restart = b;
    }
  }
  return any;
}

// Where ghost cell t (0 <= t < fs.total()) of the slab numbering lies (idx), the owned cell its value comes from
// (src; a constant rule from axis `restart` on), and per axis its distance from the face (-1: not a ghost on that
// axis) and side. Returns false when no physical face touches it (a halo cell left to the exchange). Every axis
// loop is unrolled and every table is indexed with constants (a run-time index into the kernel's parameters
// would copy them to local memory).
template <class Real>
__device__ __forceinline__ bool face_ghost_geometry(const FieldLayout& l, const FaceSet<Real>& fs, long t, int (&idx)[3],
                                                    int (&src)[3], int (&dist)[3], int (&side)[3], int& restart) {
  long q64 = t;
  const int a = slab_of(fs.slab, q64);
  unsigned q = static_cast<unsigned>(q64);  // a slab of ghost cells has far fewer than 2^32 cells
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    const unsigned e = a == 0 ? fs.ext[0][b] : a == 1 ? fs.ext[1][b] : fs.ext[2][b];
    const unsigned qn = a == 0 ? fs.by_ext[0][b].div(q) : a == 1 ? fs.by_ext[1][b].div(q) : fs.by_ext[2][b].div(q);
    const int u = static_cast<int>(q - qn * e);
    q = qn;
    idx[b] = face_slab_coordinate(l, a, b, u);
  }
  return face_ghost_mirror<0>(l, fs, idx, src, dist, side, restart);
}

// The ghost's value from its source value v (the source cell's value, unused when a rule is constant): the
// face rules composed in axis order.
template <class Real>
__device__ __forceinline__ Real face_ghost_value(const FaceSet<Real>& fs, const int (&dist)[3], const int (&side)[3],
                                                 int restart, Real v) {
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    const boundary_rule::FaceRule<Real>& r = side[b] ? fs.rule[b][1] : fs.rule[b][0];
    if (b == restart) v = r.value;
    else if (b > restart && dist[b] >= 0) v = boundary_rule::ghost_value(r, dist[b], v);
  }
  return v;
}

// Ghost cell t (0 <= t < fs.total()) of the slab numbering.
template <class Real>
__device__ __forceinline__ void fill_face_ghost(Real* __restrict__ f, const FieldLayout& l, const FaceSet<Real>& fs,
                                                long t) {
  int idx[3], src[3], dist[3], side[3], restart;
  if (!face_ghost_geometry(l, fs, t, idx, src, dist, side, restart)) return;
  const Real v = restart >= 0 ? Real(0) : f[l.index(src[0], src[1], src[2])];
  f[l.index(idx[0], idx[1], idx[2])] = face_ghost_value(fs, dist, side, restart, v);
}

// Ghost cell t of the slab numbering, only where its value is a constant (the Dirichlet boundary vertex, and
// every cell whose composed chain passes through it). A kernel that fills the other ghosts from their source
// cells (fill_box_face_ghosts) writes these once.
template <class Real>
__device__ __forceinline__ void fill_constant_face_ghost(Real* __restrict__ f, const FieldLayout& l,
                                                         const FaceSet<Real>& fs, long t) {
  int idx[3], src[3], dist[3], side[3], restart;
  if (!face_ghost_geometry(l, fs, t, idx, src, dist, side, restart) || restart < 0) return;
  f[l.index(idx[0], idx[1], idx[2])] = face_ghost_value(fs, dist, side, restart, Real(0));
}

// Every ghost cell of a face set by all threads of the grid (grid-stride): per_cell(t) for 0 <= t < total, where
// t numbers the ghost cells as the slabs do (fill_face_ghost, fill_constant_face_ghost).
template <class PerCell>
__device__ __forceinline__ void for_each_face_ghost_in_grid(long total, PerCell&& per_cell) {
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long t = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; t < total; t += stride) per_cell(t);
}

// Ghost cell q (0 <= q < fs.slab[A]) of slab A of the slab numbering: face_ghost_geometry for a slab known at compile
// time. The axes before A are owned there (never outside), and the slab's extents and divisors are compile-time
// indices, so the decode has no selects by slab. Returns false when no physical face touches the cell.
template <int A, class Real>
__device__ __forceinline__ bool face_slab_ghost(const FieldLayout& l, const FaceSet<Real>& fs, unsigned q, int (&idx)[3],
                                                int (&src)[3], int (&dist)[3], int (&side)[3], int& restart) {
  face_slab_cell<A>(l, fs.ext[A], fs.by_ext[A], q, idx);
  return face_ghost_mirror<A>(l, fs, idx, src, dist, side, restart);
}

// The cells of slab A by all threads of the grid (fill_face_slabs_in_grid), U per thread and step with all their
// sources read before any store. `before` is the number of cells walked so far modulo the threads.
template <int A, int U, class Real>
__device__ __forceinline__ void fill_face_slab_in_grid(Real* __restrict__ f, const FieldLayout& l, const FaceSet<Real>& fs,
                                                       unsigned me, unsigned threads, unsigned& before) {
  const unsigned count = static_cast<unsigned>(fs.slab[A]);
  const unsigned first = face_slab_first_cell(me, before, threads);
  before = face_slabs_walked(before, count, threads);
  for (unsigned k = first; k < count; k += threads * U) {
    long at[U];
    unsigned code[U];
    Real v[U];
#pragma unroll
    for (int j = 0; j < U; ++j) {
      const unsigned kk = k + j * threads;
      int idx[3], src[3], dist[3], side[3], restart;
      at[j] = -1;
      if (kk < count && face_slab_ghost<A>(l, fs, kk, idx, src, dist, side, restart)) {
        v[j] = restart >= 0 ? Real(0) : f[l.index(src[0], src[1], src[2])];
        at[j] = l.index(idx[0], idx[1], idx[2]);
        code[j] = pack_ghost_code(dist, side, restart);
      }
    }
#pragma unroll
    for (int j = 0; j < U; ++j)
      if (at[j] != -1) {
        int dist[3], side[3], restart;
        unpack_ghost_code(code[j], dist, side, restart);
        f[at[j]] = face_ghost_value(fs, dist, side, restart, v[j]);
      }
  }
}

// Every ghost cell of the face set by all threads of the grid, slab by slab (the same cells, sources and values as
// fill_face_ghost; a source is never a ghost the fill writes): the persistent grids' face phase. A slab known at
// compile time takes the selects by slab out of each cell's decode. The threads take consecutive cells, each slab
// starting where the previous one left off, U cells per thread and step within a slab. Every slab has fewer than
// 2^31 cells (face_slabs_fit_32_bits). The slab numbering of fill_face_ghost costs ~300 instructions per cell (ncu,
// benchmarks/results/gpu-h200-2026-11-28-pipelined-planes/run6), and the face phase of a persistent grid (2 blocks
// of 256 threads per SM) was bound by instructions; this walk costs 185 (face-boxes run 3), and its largest cost is
// now the wait for slab 0's scattered loads (the x faces: one source sector per row). A walk over the 26 boxes of
// uniform role (low ghost, owned, high ghost per axis) was slower (face-boxes run 2: 3d13pt fp32 0.913 -> 0.859 of
// the per-sweep kernel): a thread's cells of the small boxes are extra dependent round trips to memory.
template <int U, class Real>
__device__ __forceinline__ void fill_face_slabs_in_grid(Real* __restrict__ f, const FieldLayout& l,
                                                        const FaceSet<Real>& fs) {
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned before = 0;
  fill_face_slab_in_grid<0, U>(f, l, fs, me, threads, before);
  fill_face_slab_in_grid<1, U>(f, l, fs, me, threads, before);
  fill_face_slab_in_grid<2, U>(f, l, fs, me, threads, before);
}

// Host side: which kinds of ghost a face fill writes (a kernel that writes the two kinds at different times asks
// which it has).
// Whether every ghost that a face fill writes takes its value from an owned cell or is a constant: true when
// every axis with ghosts has physical faces on both sides. Where an axis has a halo (MPI, or a fill of some
// faces only), the fill also writes the cells beyond the physical face inside that halo, from halo cells.
template <class Real>
bool face_fill_reads_owned_cells_only(const FieldLayout& l, const FaceSet<Real>& fs) {
  for (int b = 0; b < 3; ++b)
    if (l.ghost[b] > 0 && !(fs.has[b][0] && fs.has[b][1])) return false;
  return true;
}
// Whether some ghost of the face fill is a constant (boundary_rule::ghost_is_constant; constant = true) or takes its
// value from a source cell (constant = false).
template <class Real>
bool face_fill_has_ghosts(const FieldLayout& l, const FaceSet<Real>& fs, bool constant) {
  for (int b = 0; b < 3; ++b)
    for (int side = 0; side < 2; ++side)
      if (fs.has[b][side])
        for (int d = 0; d < l.ghost[b]; ++d)
          if (boundary_rule::ghost_is_constant(fs.rule[b][side], d) == constant) return true;
  return false;
}
template <class Real>
bool face_fill_has_constant_ghosts(const FieldLayout& l, const FaceSet<Real>& fs) {
  return face_fill_has_ghosts(l, fs, true);
}
template <class Real>
bool face_fill_has_sourced_ghosts(const FieldLayout& l, const FaceSet<Real>& fs) {
  return face_fill_has_ghosts(l, fs, false);
}

// ---- boundary faces by source box ----------------------------------------------------------------------
// The ghost cells of a FaceSet whose value comes from an owned cell inside the box [lo, hi) (owned
// coordinates). A block that has just written the box fills them itself, so the faces need no phase (and no
// device-wide barrier) of their own; every non-constant ghost has exactly one source cell, so boxes that
// partition the owned cells fill every such ghost exactly once. Constant ghosts are not included
// (fill_constant_face_ghost).
// Per axis the candidates are: the low ghosts (distance d) that mirror into [lo, hi), the box's own range,
// and the high ghosts that mirror into it (a contiguous range each: the mirror index is monotone in d). A
// cell is a candidate on every axis and a ghost on at least one; it is numbered in slab a = the first axis
// on which it is a ghost (own range on the axes before a, ghosts on a, any candidate after a).
struct FaceBoxGhosts {
  int first[3][3];  // [axis][0 low, 1 own, 2 high]: low / high the first distance d, own the first index
  int count[3][3];
  long slab[3];
  __host__ __device__ long total() const { return slab[0] + slab[1] + slab[2]; }
};

// The slab sizes of g from its candidate ranges.
__device__ __forceinline__ void face_box_count_slabs(FaceBoxGhosts& g) {
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    long n = g.count[a][0] + g.count[a][2];
#pragma unroll
    for (int b = 0; b < 3; ++b) {
      if (b < a) n *= g.count[b][1];
      if (b > a) n *= g.count[b][0] + g.count[b][1] + g.count[b][2];
    }
    g.slab[a] = n;
  }
}

// The box's ghosts less every cell outside the owned box along axis B (corners included): the resident PERKS
// kernel's bricks keep the ghosts of the streamed axis's faces on chip between sweeps (brick_face_planes.hpp).
template <int B>
__device__ __forceinline__ void face_box_drop_ghosts_along(FaceBoxGhosts& g) {
  g.count[B][0] = g.count[B][2] = 0;
  face_box_count_slabs(g);
}

template <class Real>
__device__ __forceinline__ FaceBoxGhosts face_box_ghosts(const FieldLayout& l, const FaceSet<Real>& fs,
                                                         const int (&lo)[3], const int (&hi)[3]) {
  FaceBoxGhosts g;
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    g.first[b][1] = lo[b];
    g.count[b][1] = hi[b] - lo[b];
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      int d0 = -1, d1 = -1;
      // Low ghosts mirror into [-1, ghost], high ones into [n - 1 - ghost, n]: a box farther from the face has
      // none of them, which saves the interior items of a sweep the loop below (6 R mirror tests per item).
      const bool near = s ? hi[b] >= l.n[b] - l.ghost[b] - 1 : lo[b] <= l.ghost[b];
      if (near && (s ? fs.has[b][1] : fs.has[b][0])) {
        const boundary_rule::FaceRule<Real>& r = s ? fs.rule[b][1] : fs.rule[b][0];
        for (int d = 0; d < l.ghost[b]; ++d) {
          if (boundary_rule::ghost_is_constant(r, d)) continue;
          const int m = boundary_rule::mirror_index(r, l.n[b], d);
          if (m >= lo[b] && m < hi[b]) {
            if (d0 < 0) d0 = d;
            d1 = d;
          }
        }
      }
      g.first[b][2 * s] = d0 < 0 ? 0 : d0;
      g.count[b][2 * s] = d0 < 0 ? 0 : d1 - d0 + 1;
    }
  }
  face_box_count_slabs(g);
  return g;
}

// Cell k (0 <= k < g.total()) of the box's ghosts: its index, source cell, and per axis distance (-1: not a
// ghost on that axis) and side, as face_ghost_value takes them. Two divisions (the last axis takes the
// quotient), by divmod_small where the box has fewer than 2^20 ghost cells (`small`, the same for the whole box):
// three integer divisions per cell made one block's fill of a wide 2D brick's streamed-axis face (2048 x R
// ghosts) cost as much as its sweep (perks.md). A cursor that walked the cells with no division at all was tried
// first (H200, docs/perf/perks.md): wide 2D stars gained as much, but 3D tiles and R = 1 bricks lost 5-20 %.
template <class Real>
__device__ __forceinline__ void face_box_ghost(const FieldLayout& l, const FaceSet<Real>& fs, const FaceBoxGhosts& g,
                                               long k, bool small, int (&idx)[3], int (&src)[3], int (&dist)[3],
                                               int (&side)[3]) {
  const int a = slab_of(g.slab, k);
  unsigned q = static_cast<unsigned>(k);  // a box has far fewer than 2^32 ghost cells
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    const int cl = b < a ? 0 : g.count[b][0];
    const int co = b == a ? 0 : g.count[b][1];
    const int ch = b < a ? 0 : g.count[b][2];
    int u;
    if (b < 2) {
      const unsigned e = static_cast<unsigned>(cl + co + ch);
      unsigned r;
      const unsigned qn = small ? divmod_small(q, e, r) : q / e;
      if (!small) r = q - qn * e;
      u = static_cast<int>(r);
      q = qn;
    } else {
      u = static_cast<int>(q);
    }
    dist[b] = -1;
    side[b] = 0;
    if (u < cl) {
      const int d = g.first[b][0] + u;
      idx[b] = -1 - d;
      src[b] = boundary_rule::mirror_index(fs.rule[b][0], l.n[b], d);
      dist[b] = d;
    } else if (u < cl + co) {
      idx[b] = src[b] = g.first[b][1] + (u - cl);
    } else {
      const int d = g.first[b][2] + (u - cl - co);
      idx[b] = l.n[b] + d;
      src[b] = boundary_rule::mirror_index(fs.rule[b][1], l.n[b], d);
      dist[b] = d;
      side[b] = 1;
    }
  }
}

// Block-cooperative: fills the ghosts of f whose source cells lie in the box; value_at(src) reads a source cell's
// new value (from f itself, or from where the block keeps the box). The caller makes the box's new values
// visible to the block first (__syncthreads after its stores). U cells per thread and step, all their sources
// read before any store: one memory latency per U cells (sources are owned cells, never ghosts). Between the
// loads and the stores a cell keeps its destination, its value and one word for its distances and sides
// (pack_ghost_code), 4-5 registers per cell instead of 10-11. fill_box_face_ghost_range walks the cells
// [k0, k1) of the box's numbering.
template <int NT, int U, class Real, class ValueAt>
__device__ __forceinline__ void fill_box_face_ghost_range(Real* __restrict__ f, const FieldLayout& l,
                                                          const FaceSet<Real>& fs, const FaceBoxGhosts& g, long k0,
                                                          long k1, bool small, ValueAt&& value_at) {
  for (long base = k0 + threadIdx.x; base < k1; base += static_cast<long>(NT) * U) {
    long at[U];
    unsigned code[U];
    Real v[U];
#pragma unroll
    for (int j = 0; j < U; ++j) {
      const long k = base + static_cast<long>(j) * NT;
      if (k < k1) {
        int idx[3], src[3], dist[3], side[3];
        face_box_ghost(l, fs, g, k, small, idx, src, dist, side);
        v[j] = value_at(src);
        at[j] = l.index(idx[0], idx[1], idx[2]);
        code[j] = pack_ghost_code(dist, side);
      }
    }
#pragma unroll
    for (int j = 0; j < U; ++j)
      if (base + static_cast<long>(j) * NT < k1) {
        int dist[3], side[3];
        unpack_ghost_code(code[j], dist, side);
        f[at[j]] = face_ghost_value(fs, dist, side, -1, v[j]);
      }
  }
}
template <int NT, int U, class Real, class ValueAt>
__device__ __forceinline__ void fill_box_face_ghosts(Real* __restrict__ f, const FieldLayout& l, const FaceSet<Real>& fs,
                                                     const FaceBoxGhosts& g, ValueAt&& value_at) {
  const long total = g.total();
  const bool small = total < (1L << 20);  // divmod_small is exact below 2^20
  fill_box_face_ghost_range<NT, U>(f, l, fs, g, 0, total, small, value_at);
}

// 16 bytes of Real: one vector load or store.
template <class Real>
using Vec16 = std::conditional_t<sizeof(Real) == 8, double2, float4>;
template <class Real>
inline constexpr int kVec16 = 16 / static_cast<int>(sizeof(Real));

// The first n (<= kVec16) of w at p: one 16-byte store where `aligned` and n == kVec16, else element by element.
template <class Real>
__device__ __forceinline__ void store_segment(Real* p, const Real (&w)[kVec16<Real>], int n, bool aligned) {
  if (aligned && n == kVec16<Real>) {
    if constexpr (kVec16<Real> == 2) *reinterpret_cast<Vec16<Real>*>(p) = Vec16<Real>{w[0], w[1]};
    else *reinterpret_cast<Vec16<Real>*>(p) = Vec16<Real>{w[0], w[1], w[2], w[3]};
  } else {
#pragma unroll
    for (int e = 0; e < kVec16<Real>; ++e)
      if (e < n) p[e] = w[e];
  }
}

// Row segments per thread and step of a fill that takes u cells per step: u / kVec16, at least one.
template <class Real>
constexpr int segments_per_step(int u) {
  return u / kVec16<Real> > 0 ? u / kVec16<Real> : 1;
}

// Whether the rows of layout l start on 16-byte boundaries at owned x = 0 (grid_row_align), so that a run of cells
// from an x that is a multiple of kVec16 is one 16-byte vector in every row, ghost rows included (FieldLayout::index:
// lead() + ghost[0] and the row strides are multiples of align); the allocation itself is 16-byte aligned.
template <class Real>
__host__ __device__ __forceinline__ bool rows_hold_vec16(const FieldLayout& l) {
  return l.align % kVec16<Real> == 0;
}

// fill_box_face_ghosts with the ghosts outside along y or z walked by row segments. In slabs 1 and 2 of the box's
// numbering x is owned: their cells are rows of the box's own x range (g.count[0][1] cells from x = g.first[0][1]),
// so a segment of V = kVec16 cells of a row shares one decode (face_box_ghost of its first cell; the cells differ in
// x alone, and the composed rule does not depend on x there). Where `aligned` (rows_hold_vec16 and the box's x range
// starting on a multiple of V) a whole segment is stored as one 16-byte vector, and load_segment(src, n, aligned, v)
// may read it as one (v[e] = the source value at src + e along x, e < n <= V). The cell-by-cell decode cost ~270
// instructions per ghost cell (docs/perf/perks.md), and one source load per cell and step made a 2D brick's
// streamed-axis face (R rows of the tile's width) a chain of dependent round trips to memory. Slab 0 (the x faces'
// ghosts and every corner) stays cell by cell (U per step). US segments per thread and step.
template <int NT, int U, int US, class Real, class ValueAt, class LoadSegment>
__device__ __forceinline__ void fill_box_face_ghosts_by_rows(Real* __restrict__ f, const FieldLayout& l,
                                                             const FaceSet<Real>& fs, const FaceBoxGhosts& g,
                                                             bool aligned, ValueAt&& value_at,
                                                             LoadSegment&& load_segment) {
  constexpr int V = kVec16<Real>;
  const long total = g.total();
  const bool small = total < (1L << 20);  // divmod_small is exact below 2^20
  fill_box_face_ghost_range<NT, U>(f, l, fs, g, 0, g.slab[0], small, value_at);
  const int width = g.count[0][1];
  const long row_cells = g.slab[1] + g.slab[2];
  if (row_cells == 0) return;
  const unsigned per_row = static_cast<unsigned>((width + V - 1) / V);
  const unsigned segments = static_cast<unsigned>(row_cells / width) * per_row;
  for (unsigned base = threadIdx.x; base < segments; base += static_cast<unsigned>(NT) * US) {
    long at[US];
    unsigned code[US];
    int n[US];
    Real v[US][V];
#pragma unroll
    for (int j = 0; j < US; ++j) {
      const unsigned m = base + static_cast<unsigned>(j) * NT;
      n[j] = 0;
      if (m < segments) {
        unsigned c;
        const unsigned row = small ? divmod_small(m, per_row, c) : m / per_row;
        if (!small) c = m - row * per_row;
        const int x = static_cast<int>(c) * V;
        int idx[3], src[3], dist[3], side[3];
        face_box_ghost(l, fs, g, g.slab[0] + static_cast<long>(row) * width + x, small, idx, src, dist, side);
        n[j] = width - x < V ? width - x : V;
        load_segment(src, n[j], aligned, v[j]);
        at[j] = l.index(idx[0], idx[1], idx[2]);
        code[j] = pack_ghost_code(dist, side);
      }
    }
#pragma unroll
    for (int j = 0; j < US; ++j)
      if (n[j] > 0) {
        int dist[3], side[3];
        unpack_ghost_code(code[j], dist, side);
        Real w[V];
#pragma unroll
        for (int e = 0; e < V; ++e) w[e] = face_ghost_value(fs, dist, side, -1, v[j][e]);
        store_segment(f + at[j], w, n[j], aligned);
      }
  }
}

// The first n (<= kVec16) values at p into v (the rest 0): one 16-byte load where `aligned` and n == kVec16.
template <class Real>
__device__ __forceinline__ void load_segment_at(const Real* p, int n, bool aligned, Real (&v)[kVec16<Real>]) {
  if (aligned && n == kVec16<Real>) {
    const Vec16<Real> t = *reinterpret_cast<const Vec16<Real>*>(p);
    if constexpr (kVec16<Real> == 2) v[0] = t.x, v[1] = t.y;
    else v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
  } else {
#pragma unroll
    for (int e = 0; e < kVec16<Real>; ++e) v[e] = e < n ? p[e] : Real(0);
  }
}

// load_segment for fill_box_face_ghosts_by_rows when the sources are in f itself (global memory).
template <class Real>
struct LoadSegmentFromField {
  const Real* f;
  const FieldLayout* l;
  __device__ __forceinline__ void operator()(const int (&src)[3], int n, bool aligned, Real (&v)[kVec16<Real>]) const {
    load_segment_at(f + l->index(src[0], src[1], src[2]), n, aligned, v);
  }
};

// Slab A >= 1 of fill_face_slabs_in_grid by row segments. x is owned there, so the slab's cells are rows of l.n[0]
// cells from x = 0, and a segment of V = kVec16 cells of a row shares one decode (face_slab_ghost of its first cell)
// and, where `aligned` (rows_hold_vec16), one 16-byte load and store. The threads share the segments as
// fill_face_slab_in_grid shares cells (`before` counts segments here). US segments per thread and step.
template <int A, int US, class Real>
__device__ __forceinline__ void fill_face_slab_rows_in_grid(Real* __restrict__ f, const FieldLayout& l,
                                                            const FaceSet<Real>& fs, bool aligned, unsigned me,
                                                            unsigned threads, unsigned& before) {
  static_assert(A >= 1, "slab 0 (the x faces) has no rows of owned x");
  constexpr int V = kVec16<Real>;
  const unsigned width = static_cast<unsigned>(l.n[0]);
  const unsigned count = static_cast<unsigned>(fs.slab[A]);
  if (count == 0) return;
  const unsigned per_row = (width + V - 1) / V;
  const unsigned segments = count / width * per_row;
  const unsigned first = face_slab_first_cell(me, before, threads);
  before = face_slabs_walked(before, segments, threads);
  for (unsigned m0 = first; m0 < segments; m0 += threads * US) {
    long at[US];
    unsigned code[US];
    int n[US];
    Real v[US][V];
#pragma unroll
    for (int j = 0; j < US; ++j) {
      const unsigned m = m0 + j * threads;
      n[j] = 0;
      int idx[3], src[3], dist[3], side[3], restart;
      const unsigned row = m / per_row;
      const unsigned x = (m - row * per_row) * V;
      if (m < segments && face_slab_ghost<A>(l, fs, row * width + x, idx, src, dist, side, restart)) {
        n[j] = width - x < V ? static_cast<int>(width - x) : V;
        if (restart >= 0) {
#pragma unroll
          for (int e = 0; e < V; ++e) v[j][e] = Real(0);
        } else {
          load_segment_at(f + l.index(src[0], src[1], src[2]), n[j], aligned, v[j]);
        }
        at[j] = l.index(idx[0], idx[1], idx[2]);
        code[j] = pack_ghost_code(dist, side, restart);
      }
    }
#pragma unroll
    for (int j = 0; j < US; ++j)
      if (n[j] > 0) {
        int dist[3], side[3], restart;
        unpack_ghost_code(code[j], dist, side, restart);
        Real w[V];
#pragma unroll
        for (int e = 0; e < V; ++e) w[e] = face_ghost_value(fs, dist, side, restart, v[j][e]);
        store_segment(f + at[j], w, n[j], aligned);
      }
  }
}

// fill_face_slabs_in_grid with slabs 1 and 2 (the y and z faces' ghosts, whose rows are whole x rows) by row segments
// (fill_face_slab_rows_in_grid); slab 0 cell by cell, U per thread and step.
template <int U, int US, class Real>
__device__ __forceinline__ void fill_face_slabs_in_grid_by_rows(Real* __restrict__ f, const FieldLayout& l,
                                                                const FaceSet<Real>& fs) {
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
  const bool aligned = rows_hold_vec16<Real>(l);
  unsigned before = 0;
  fill_face_slab_in_grid<0, U>(f, l, fs, me, threads, before);
  fill_face_slab_rows_in_grid<1, US>(f, l, fs, aligned, me, threads, before);
  fill_face_slab_rows_in_grid<2, US>(f, l, fs, aligned, me, threads, before);
}

// The ghosts of f whose value comes from owned cell (i, j, k): what a fill of the faces after the write puts there,
// written by the thread that wrote the cell, so the fill needs no barrier of its own (persistent programs:
// ProgramOp::faces_after). value() reads the cell's new value; it is called only when the cell is the source of a
// ghost (face_box_ghosts decides: within the ghost width of a physical face). Constant ghosts are not included
// (fill_constant_face_ghost).
template <class Real, class Value>
__device__ __forceinline__ void fill_cell_face_ghosts(Real* __restrict__ f, const FieldLayout& l, const FaceSet<Real>& fs,
                                                      int i, int j, int k, const Value& value) {
  const int lo[3] = {i, j, k}, hi[3] = {i + 1, j + 1, k + 1};
  const FaceBoxGhosts g = face_box_ghosts(l, fs, lo, hi);
  const long total = g.total();
  if (total == 0) return;
  const Real v = value();
  for (long q = 0; q < total; ++q) {
    int idx[3], src[3], dist[3], side[3];
    face_box_ghost(l, fs, g, q, true, idx, src, dist, side);
    f[l.index(idx[0], idx[1], idx[2])] = face_ghost_value(fs, dist, side, -1, v);
  }
}

}  // namespace perksolve::cuda_ops
