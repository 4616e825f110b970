// The resident PERKS kernel's face planes (framework/backends/cuda/brick_face_planes.hpp): which ghost plane of a brick
// lies at which distance from the face, and when the bricks at the streamed axis's faces may compute their ghost
// planes from their own planes (every mirrored cell owned by that brick, both faces physical, every other ghost from
// owned cells).
#include <gtest/gtest.h>

#include "framework/backends/cuda/brick_face_planes.hpp"

namespace perksolve::cuda_detail {
namespace {

using Rule = boundary_rule::FaceRule<double>;

Rule rule(bool low, bool dirichlet, bool vertex) {
  Rule r;
  r.axis = 1;
  r.low = low;
  r.dirichlet = dirichlet;
  r.vertex = vertex;
  r.value = 0.5;
  return r;
}

TEST(BrickFacePlanes, HaloPlaneDistancesMatchTheGhostIndices) {
  const int rs = 3, len = 5, ns = 40;
  // The first brick: s0 = 0, plane p holds z = p - rs.
  for (int p = 0; p < rs; ++p)
    EXPECT_EQ(p - rs, boundary_rule::ghost_index(true, ns, brick_face_plane_distance(true, p, len, rs))) << "p " << p;
  // The last brick: s0 = ns - len, plane p holds z = s0 - rs + p.
  const int s0 = ns - len;
  for (int p = len + rs; p < len + 2 * rs; ++p)
    EXPECT_EQ(s0 - rs + p, boundary_rule::ghost_index(false, ns, brick_face_plane_distance(false, p, len, rs)))
        << "p " << p;
}

TEST(BrickFacePlanes, MirrorsWithinTheOwnedRangeOfEachRule) {
  const int n = 20;
  // Vertex Dirichlet: d = 0 is the constant boundary vertex; d mirrors -1 + d (low) / n - d (high).
  EXPECT_TRUE(face_mirrors_within(rule(true, true, true), n, 3, 0, 2));   // mirrors 0, 1
  EXPECT_FALSE(face_mirrors_within(rule(true, true, true), n, 3, 0, 1));  // 1 is not owned
  EXPECT_TRUE(face_mirrors_within(rule(false, true, true), n, 3, 18, 2)); // mirrors 19, 18
  EXPECT_FALSE(face_mirrors_within(rule(false, true, true), n, 3, 19, 1));
  // Vertex Neumann: 1 + d (low) / n - 2 - d (high).
  EXPECT_TRUE(face_mirrors_within(rule(true, false, true), n, 3, 0, 4));   // mirrors 1, 2, 3
  EXPECT_FALSE(face_mirrors_within(rule(true, false, true), n, 3, 0, 3));
  EXPECT_TRUE(face_mirrors_within(rule(false, false, true), n, 3, 15, 5)); // mirrors 18, 17, 16
  EXPECT_FALSE(face_mirrors_within(rule(false, false, true), n, 3, 17, 3));
  // Cell-centred: d (low) / n - 1 - d (high), Dirichlet and Neumann alike.
  for (bool dirichlet : {true, false}) {
    EXPECT_TRUE(face_mirrors_within(rule(true, dirichlet, false), n, 3, 0, 3));
    EXPECT_FALSE(face_mirrors_within(rule(true, dirichlet, false), n, 3, 0, 2));
    EXPECT_TRUE(face_mirrors_within(rule(false, dirichlet, false), n, 3, 17, 3));
    EXPECT_FALSE(face_mirrors_within(rule(false, dirichlet, false), n, 3, 18, 2));
  }
}

TEST(BrickFacePlanes, OnChipOnlyWhereBothBricksOwnTheirMirrors) {
  const Rule lo = rule(true, false, false), hi = rule(false, false, false);  // cell-centred: mirrors d, n - 1 - d
  const int ns = 700, rs = 4;
  EXPECT_TRUE(brick_face_planes_on_chip(true, true, true, lo, hi, ns, rs, 6, 696));
  EXPECT_FALSE(brick_face_planes_on_chip(true, true, true, lo, hi, ns, rs, 3, 696)) << "first brick too short";
  EXPECT_FALSE(brick_face_planes_on_chip(true, true, true, lo, hi, ns, rs, 6, 697)) << "last brick too short";
  EXPECT_FALSE(brick_face_planes_on_chip(false, true, true, lo, hi, ns, rs, 6, 696)) << "a ghost from a halo cell";
  EXPECT_FALSE(brick_face_planes_on_chip(true, false, true, lo, hi, ns, rs, 6, 696)) << "low face not physical";
  EXPECT_FALSE(brick_face_planes_on_chip(true, true, false, lo, hi, ns, rs, 6, 696)) << "high face not physical";
  // One brick holding both faces.
  EXPECT_TRUE(brick_face_planes_on_chip(true, true, true, lo, hi, 10, rs, 10, 0));
}

}  // namespace
}  // namespace perksolve::cuda_detail
