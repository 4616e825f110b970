// The boxes of a face fill's box walk (framework/backends/cuda/ghost_boxes.hpp): the 27 boxes tile the padded box;
// the filled ones hold exactly the cells outside along some axis with a physical face (the cells the slab numbering
// fills), each once, with that face per axis; and the walk's rotation gives every cell of a box to exactly one thread.
#include <gtest/gtest.h>

#include <vector>

#include "framework/backends/cuda/ghost_boxes.hpp"

namespace perksolve::cuda_ops {
namespace {

FieldLayout layout_of(int nx, int ny, int nz, int gx, int gy, int gz) {
  FieldLayout l;
  l.n = {nx, ny, nz};
  l.ghost = {gx, gy, gz};
  l.align = 32;
  return l;
}

// The face of axis b that the cell lies outside of (0 low, 1 high), or -1.
int face_of(const FieldLayout& l, const bool (&has)[3][2], const int (&c)[3], int b) {
  if (c[b] < 0 && has[b][0]) return 0;
  if (c[b] >= l.n[b] && has[b][1]) return 1;
  return -1;
}

void check_layout(const FieldLayout& l, const bool (&has)[3][2]) {
  const int px = l.padded(0), py = l.padded(1), pz = l.padded(2);
  std::vector<int> seen(static_cast<std::size_t>(px) * py * pz, 0), filled(seen.size(), 0);
  auto at = [&](const int (&c)[3]) {
    return static_cast<std::size_t>((c[2] + l.ghost[2]) * py + c[1] + l.ghost[1]) * px + c[0] + l.ghost[0];
  };
  for (int box = 0; box < kGhostBoxes; ++box) {
    const GhostBox g = ghost_box(l, has, box);
    for (unsigned z = 0; z < g.ext[2]; ++z)
      for (unsigned y = 0; y < g.ext[1]; ++y)
        for (unsigned x = 0; x < g.ext[0]; ++x) {
          const int c[3] = {g.lo[0] + static_cast<int>(x), g.lo[1] + static_cast<int>(y), g.lo[2] + static_cast<int>(z)};
          ++seen[at(c)];
          if (g.count == 0) continue;
          ++filled[at(c)];
          for (int b = 0; b < 3; ++b) ASSERT_EQ(g.face[b], face_of(l, has, c, b)) << "box " << box << " axis " << b;
        }
    if (g.count > 0) EXPECT_EQ(g.count, g.ext[0] * g.ext[1] * g.ext[2]) << "box " << box;
  }
  for (int z = -l.ghost[2]; z < l.n[2] + l.ghost[2]; ++z)
    for (int y = -l.ghost[1]; y < l.n[1] + l.ghost[1]; ++y)
      for (int x = -l.ghost[0]; x < l.n[0] + l.ghost[0]; ++x) {
        const int c[3] = {x, y, z};
        ASSERT_EQ(seen[at(c)], 1) << x << " " << y << " " << z;
        const bool outside = face_of(l, has, c, 0) >= 0 || face_of(l, has, c, 1) >= 0 || face_of(l, has, c, 2) >= 0;
        ASSERT_EQ(filled[at(c)], outside ? 1 : 0) << x << " " << y << " " << z;
      }
}

TEST(GhostBoxes, TileThePaddedBoxAndFillTheCellsOutsideAPhysicalFace) {
  const bool all[3][2] = {{true, true}, {true, true}, {true, true}};
  const bool none[3][2] = {};
  const bool some[3][2] = {{true, false}, {false, true}, {true, true}};  // halos on x high and y low (MPI)
  const bool x_only[3][2] = {{true, true}, {false, false}, {false, false}};
  for (const FieldLayout& l : {layout_of(7, 5, 4, 1, 1, 1), layout_of(9, 6, 5, 2, 3, 1), layout_of(11, 8, 1, 3, 3, 0),
                               layout_of(13, 7, 1, 6, 6, 0), layout_of(3, 2, 2, 2, 2, 2)}) {
    check_layout(l, all);
    check_layout(l, none);
    check_layout(l, some);
    check_layout(l, x_only);
  }
}

TEST(GhostBoxes, WithoutPhysicalFacesNothingIsFilled) {
  const bool none[3][2] = {};
  const FieldLayout l = layout_of(8, 8, 8, 2, 2, 2);
  for (int box = 0; box < kGhostBoxes; ++box) EXPECT_EQ(ghost_box(l, none, box).count, 0u) << box;
}

TEST(GhostBoxes, TheRotationGivesEveryCellOfABoxToOneThread) {
  for (unsigned threads : {1u, 7u, 32u, 1000u})
    for (unsigned before : {0u, 1u, threads / 2, threads - 1}) {
      if (before >= threads) continue;
      const unsigned count = 3 * threads + 5;
      std::vector<int> taken(count, 0);
      for (unsigned me = 0; me < threads; ++me)
        for (unsigned k = ghost_box_first_cell(me, before, threads); k < count; k += threads) ++taken[k];
      for (unsigned k = 0; k < count; ++k) ASSERT_EQ(taken[k], 1) << threads << " " << before << " " << k;
      // The next box starts with the thread after the one that took this box's last cell.
      const unsigned last_taker = (count - 1 + before) % threads;
      EXPECT_EQ(ghost_boxes_walked(before, count, threads), (last_taker + 1) % threads);
    }
}

TEST(GhostBoxes, ThirtyTwoBitNumbering) {
  EXPECT_TRUE(ghost_boxes_fit_32_bits(layout_of(2048, 2048, 2048, 2, 2, 2)));     // 2048^2 x 2 = 2^23 per face box
  EXPECT_FALSE(ghost_boxes_fit_32_bits(layout_of(32768, 32768, 4, 4, 4, 4)));     // 32768^2 x 4 = 2^32
  EXPECT_TRUE(ghost_boxes_fit_32_bits(layout_of(1 << 20, 1 << 9, 1, 1, 1, 0)));   // 2^20 x 1 at most
}

}  // namespace
}  // namespace perksolve::cuda_ops
