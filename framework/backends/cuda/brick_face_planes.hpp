// The resident PERKS kernel's face planes (perks_resident.cuh): a brick that holds a physical face of the streamed axis
// computes the ghost planes of its halo from its own planes in shared memory at every sweep after the first, instead of
// loading them from global memory, where its sibling blocks never read them; the block then writes those ghosts to
// global memory only where the whole iterate must be there (the last sweep, and before a check sweep). The two bricks
// at the domain's faces had paced the 2D kernels of radius >= 3: their box fill decoded R rows of face ghosts one cell
// at a time, on one SM, while the other blocks waited at the device barrier (PERKSOLVE_PERKS_TRACE,
// benchmarks/results/gpu-h200-2026-11-28-rotating-resident/run4: 2d17pt fp32 21 us against 12 us per sweep). Plain C++
// (PERKSOLVE_HD for the device), so the decision is unit-tested on any machine (tests/unit/test_brick_face_planes.cpp).
#pragma once

#include "framework/backend/boundary_rule.hpp"
#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::cuda_detail {

// Distance from the face of the ghost plane at brick plane p (planes z = s0 - rs .. s0 + len + rs - 1 of a brick of
// len owned planes with a halo of rs planes): the low halo planes p < rs are at distance rs - 1 - p, the high ones
// p >= len + rs at p - len - rs.
PERKSOLVE_HD inline int brick_face_plane_distance(bool low, int p, int len, int rs) {
  return low ? rs - 1 - p : p - len - rs;
}

// Whether every ghost of a face at distance 0 .. depth - 1 is a constant or mirrors a cell of the owned range
// [first, first + count) along the face's axis (n owned cells).
template <class Real>
bool face_mirrors_within(const boundary_rule::FaceRule<Real>& r, int n, int depth, int first, int count) {
  for (int d = 0; d < depth; ++d) {
    if (boundary_rule::ghost_is_constant(r, d)) continue;
    const int m = boundary_rule::mirror_index(r, n, d);
    if (m < first || m >= first + count) return false;
  }
  return true;
}

// Whether the bricks at the streamed axis's faces can compute their rs ghost planes on chip: both faces are physical
// (their rules low and high), every other ghost the face rule writes comes from owned cells (faces_from_owned_cells:
// so the in-plane ghosts of the source planes, which the brick loads, already hold the composed rule's first steps),
// and the first brick (planes [0, first_len)) and the last one ([last_s0, ns)) own the cells their ghosts mirror.
template <class Real>
bool brick_face_planes_on_chip(bool faces_from_owned_cells, bool has_low, bool has_high,
                               const boundary_rule::FaceRule<Real>& low, const boundary_rule::FaceRule<Real>& high,
                               int ns, int rs, int first_len, int last_s0) {
  return faces_from_owned_cells && has_low && has_high && rs > 0 && face_mirrors_within(low, ns, rs, 0, first_len) &&
         face_mirrors_within(high, ns, rs, last_s0, ns - last_s0);
}

}  // namespace perksolve::cuda_detail
