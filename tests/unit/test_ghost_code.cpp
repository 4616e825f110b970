// The word a batched boundary fill keeps per ghost cell (framework/backends/cuda/ghost_code.hpp): every distance from
// -1 to the largest packed ghost width, both sides and every restart axis come back unchanged, and the axes do not
// disturb one another.
#include <gtest/gtest.h>

#include "framework/backends/cuda/ghost_code.hpp"

namespace perksolve::cuda_ops {
namespace {

TEST(GhostCode, EveryDistanceSideAndRestartRoundTrips) {
  for (int axis = 0; axis < 3; ++axis)
    for (int d = -1; d <= kMaxPackedGhostWidth - 1; ++d)
      for (int s = 0; s < 2; ++s)
        for (int restart = -1; restart < 3; ++restart) {
          // The other axes at their extremes, so that a bit leaking across an axis shows.
          int dist[3] = {kMaxPackedGhostWidth - 1, -1, kMaxPackedGhostWidth - 1};
          int side[3] = {1, 0, 1};
          dist[axis] = d;
          side[axis] = s;
          int dist2[3], side2[3], restart2 = -7;
          unpack_ghost_code(pack_ghost_code(dist, side, restart), dist2, side2, restart2);
          for (int b = 0; b < 3; ++b) {
            ASSERT_EQ(dist2[b], dist[b]) << "axis " << axis << " d " << d << " side " << s << " restart " << restart;
            ASSERT_EQ(side2[b], side[b]) << "axis " << axis << " d " << d << " side " << s << " restart " << restart;
          }
          ASSERT_EQ(restart2, restart);
        }
}

TEST(GhostCode, WithoutRestartTheDefaultIsNone) {
  const int dist[3] = {0, 3, -1}, side[3] = {0, 1, 0};
  int dist2[3], side2[3], restart = 5;
  unpack_ghost_code(pack_ghost_code(dist, side), dist2, side2, restart);
  EXPECT_EQ(restart, -1);
  unpack_ghost_code(pack_ghost_code(dist, side), dist2, side2);
  for (int b = 0; b < 3; ++b) {
    EXPECT_EQ(dist2[b], dist[b]);
    EXPECT_EQ(side2[b], side[b]);
  }
}

}  // namespace
}  // namespace perksolve::cuda_ops
