// What a batched boundary fill (grid_point_ops.cuh: fill_box_face_ghosts, fill_face_slabs_in_grid) keeps of a ghost
// cell between the loads of its source and its store: its per-axis distance from the face (-1: not a ghost on that
// axis) and side, and the composed rule's restart axis (-1: none), packed in one word, 8 bits per axis. Plain C++
// (PERKSOLVE_HD for the device), so the packing is unit-tested on any machine (tests/unit/test_ghost_code.cpp).
#pragma once

#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::cuda_ops {

// Largest ghost width whose distances pack (dist + 1 in 7 bits); make_face_set (cuda_backend.cu) declines wider ones.
constexpr int kMaxPackedGhostWidth = 126;

PERKSOLVE_HD inline unsigned pack_ghost_code(const int (&dist)[3], const int (&side)[3], int restart = -1) {
  unsigned c = static_cast<unsigned>(restart + 1) << 24;
  for (int b = 0; b < 3; ++b) c |= (static_cast<unsigned>(dist[b] + 1) | static_cast<unsigned>(side[b]) << 7) << (8 * b);
  return c;
}
PERKSOLVE_HD inline void unpack_ghost_code(unsigned c, int (&dist)[3], int (&side)[3]) {
  for (int b = 0; b < 3; ++b) {
    dist[b] = static_cast<int>((c >> (8 * b)) & 127u) - 1;
    side[b] = static_cast<int>((c >> (8 * b + 7)) & 1u);
  }
}
PERKSOLVE_HD inline void unpack_ghost_code(unsigned c, int (&dist)[3], int (&side)[3], int& restart) {
  unpack_ghost_code(c, dist, side);
  restart = static_cast<int>(c >> 24) - 1;
}

}  // namespace perksolve::cuda_ops
