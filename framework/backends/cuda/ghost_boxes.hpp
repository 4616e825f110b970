// The ghost cells that a fill of the physical faces writes, as boxes (grid_point_ops.cuh: the box walk,
// fill_face_ghost_boxes_in_grid). A cell of the padded box has a role on each axis: low ghost, owned or high ghost.
// The 27 role combinations less the owned box give 26 boxes; a box is filled when some axis on which it lies outside
// has a physical face there (outside only along other axes: a halo, left to the exchange). In a box the extents and
// the faces whose rules apply are the same for every cell. Plain C++ (PERKSOLVE_HD for the device), so the
// enumeration is unit-tested on any machine (tests/unit/test_ghost_boxes.cpp).
#pragma once

#include "framework/field/field_layout.hpp"
#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::cuda_ops {

constexpr int kGhostBoxes = 27;  // role combinations, the owned box (13) included

struct GhostBox {
  int lo[3];        // first cell (layout coordinates)
  unsigned ext[3];  // cells per axis
  int face[3];      // per axis: the physical face whose rule applies (0 low, 1 high), or -1 (owned, or a halo)
  int role[3];      // per axis: 0 low ghosts, 1 owned, 2 high ghosts
  unsigned count;   // cells; 0 when the box is not filled
};

// Box `box` (0 <= box < kGhostBoxes) of layout l with physical faces has[axis][side].
PERKSOLVE_HD inline GhostBox ghost_box(const FieldLayout& l, const bool (&has)[3][2], int box) {
  GhostBox g;
  bool physical = false;
  int rest = box;
  for (int b = 0; b < 3; ++b) {
    const int role = rest % 3;
    rest /= 3;
    g.role[b] = role;
    g.lo[b] = role == 0 ? -l.ghost[b] : role == 1 ? 0 : l.n[b];
    g.ext[b] = static_cast<unsigned>(role == 1 ? l.n[b] : l.ghost[b]);
    g.face[b] = role == 0 && has[b][0] ? 0 : role == 2 && has[b][1] ? 1 : -1;
    physical |= g.face[b] >= 0;
  }
  g.count = physical ? g.ext[0] * g.ext[1] * g.ext[2] : 0u;
  return g;
}

// The threads of a grid walk the boxes one after the other; box cells k = first, first + threads, ... go to thread
// `me`, where `before` is the number of cells of the boxes walked so far modulo threads: each box starts with the
// thread after the one that took the previous box's last cell, so that small boxes do not all fall on thread 0.
PERKSOLVE_HD inline unsigned ghost_box_first_cell(unsigned me, unsigned before, unsigned threads) {
  return me >= before ? me - before : me + threads - before;
}
PERKSOLVE_HD inline unsigned ghost_boxes_walked(unsigned before, unsigned count, unsigned threads) {
  return static_cast<unsigned>((static_cast<unsigned long long>(before) + count) % threads);
}

// Whether every box has fewer than 2^31 cells (the walk numbers them with 32 bits). Host side.
inline bool ghost_boxes_fit_32_bits(const FieldLayout& l) {
  for (int a = 0; a < 3; ++a) {  // the boxes outside along axis a: the ghost width there, at most n or ghost elsewhere
    long most = l.ghost[a];
    for (int b = 0; b < 3; ++b)
      if (b != a) most *= l.n[b] > l.ghost[b] ? l.n[b] : l.ghost[b];
    if (most >= (1L << 31)) return false;
  }
  return true;
}

}  // namespace perksolve::cuda_ops
