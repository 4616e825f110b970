// How the persistent grids' face phase (grid_point_ops.cuh: fill_face_slabs_in_grid) walks the ghost cells of the slab
// numbering: slab a holds the cells outside along axis a (its 2 ghost layers, low then high), owned along the axes
// before a and anywhere in the padded box along the axes after a, numbered with x fastest. Plain C++ (PERKSOLVE_HD for
// the device), so the walk is unit-tested on any machine (tests/unit/test_face_slab_walk.cpp).
#pragma once

#include "framework/field/field_layout.hpp"
#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD
#include "framework/util/fast_div.hpp"

namespace perksolve::cuda_ops {

// Layout coordinate along axis b of a cell of slab a whose index along that axis within the slab is u: owned before
// a, the low then the high ghost layers on a, the padded range after a.
PERKSOLVE_HD inline int face_slab_coordinate(const FieldLayout& l, int a, int b, int u) {
  return b < a ? u : b == a ? (u < l.ghost[b] ? u - l.ghost[b] : l.n[b] + u - l.ghost[b]) : u - l.ghost[b];
}

// Cell q of slab A (layout coordinates): ext[b] cells along axis b (b < A: owned, b == A: 2 ghost layers, b > A:
// padded) and by_ext[b] dividing by them. Two divisions: the last axis takes the quotient.
template <int A>
PERKSOLVE_HD inline void face_slab_cell(const FieldLayout& l, const unsigned (&ext)[3], const FastDivU32 (&by_ext)[3],
                                        unsigned q, int (&idx)[3]) {
  for (int b = 0; b < 3; ++b) {
    unsigned u = q;
    if (b < 2) {
      const unsigned qn = by_ext[b].div(q);
      u = q - qn * ext[b];
      q = qn;
    }
    idx[b] = face_slab_coordinate(l, A, b, static_cast<int>(u));
  }
}

// The threads of a grid walk the slabs one after the other, thread `me` taking cells first, first + threads, ... of
// each; `before` is the number of cells of the slabs walked so far modulo threads, so that each slab starts with the
// thread after the one that took the previous slab's last cell (the threads share the cells as in one numbering).
PERKSOLVE_HD inline unsigned face_slab_first_cell(unsigned me, unsigned before, unsigned threads) {
  return me >= before ? me - before : me + threads - before;
}
PERKSOLVE_HD inline unsigned face_slabs_walked(unsigned before, unsigned count, unsigned threads) {
  return static_cast<unsigned>((before + count % threads) % threads);
}

// Whether the walk can number each slab's cells with 32 bits (fewer than 2^31 cells each). Host side.
inline bool face_slabs_fit_32_bits(const long (&slab)[3]) {
  return slab[0] < (1L << 31) && slab[1] < (1L << 31) && slab[2] < (1L << 31);
}

}  // namespace perksolve::cuda_ops
