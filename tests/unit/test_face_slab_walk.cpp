// The slab walk of the persistent grids' face phase (framework/backends/cuda/face_slab_walk.hpp): the cells of the
// three slabs are every cell of the padded box outside the owned box, each once, slab a holding those outside along
// axis a and owned along the axes before it; the walk's rotation gives every cell of a slab to exactly one thread and
// starts the next slab with the next thread.
#include <gtest/gtest.h>

#include <vector>

#include "framework/backends/cuda/face_slab_walk.hpp"

namespace perksolve::cuda_ops {
namespace {

FieldLayout layout_of(int nx, int ny, int nz, int gx, int gy, int gz) {
  FieldLayout l;
  l.n = {nx, ny, nz};
  l.ghost = {gx, gy, gz};
  l.align = 32;
  return l;
}

template <int A>
void walk_slab(const FieldLayout& l, std::vector<int>& seen) {
  unsigned ext[3];
  FastDivU32 by[3];
  unsigned count = 1;
  for (int b = 0; b < 3; ++b) {  // as face_set_slabs (grid_point_ops.cuh) sets FaceSet::ext and by_ext
    ext[b] = static_cast<unsigned>(b < A ? l.n[b] : b == A ? 2 * l.ghost[b] : l.padded(b));
    by[b] = FastDivU32(ext[b]);
    count *= ext[b];
  }
  for (unsigned q = 0; q < count; ++q) {
    int c[3];
    face_slab_cell<A>(l, ext, by, q, c);
    for (int b = 0; b < 3; ++b) {
      ASSERT_GE(c[b], -l.ghost[b]) << "slab " << A << " cell " << q;
      ASSERT_LT(c[b], l.n[b] + l.ghost[b]) << "slab " << A << " cell " << q;
      if (b < A) ASSERT_TRUE(c[b] >= 0 && c[b] < l.n[b]) << "slab " << A << " cell " << q << " axis " << b;
    }
    ASSERT_TRUE(c[A] < 0 || c[A] >= l.n[A]) << "slab " << A << " cell " << q;
    if (q > 0 && ext[0] > 1 && q % ext[0] != 0) {  // x fastest: the next cell of a row is the next x
      int p[3];
      face_slab_cell<A>(l, ext, by, q - 1, p);
      if (A != 0 || (p[0] + 1 != 0 && p[0] + 1 != l.n[0] + l.ghost[0])) ASSERT_EQ(c[0], p[0] + 1) << q;
    }
    ++seen[static_cast<std::size_t>(((c[2] + l.ghost[2]) * l.padded(1) + c[1] + l.ghost[1]) * l.padded(0) + c[0] +
                                    l.ghost[0])];
  }
}

TEST(FaceSlabWalk, TheSlabsHoldEveryCellOutsideTheOwnedBoxOnce) {
  for (const FieldLayout& l : {layout_of(7, 5, 4, 1, 1, 1), layout_of(9, 6, 5, 2, 3, 1), layout_of(11, 8, 1, 3, 3, 0),
                               layout_of(13, 7, 1, 6, 6, 0), layout_of(3, 2, 2, 2, 2, 2)}) {
    std::vector<int> seen(static_cast<std::size_t>(l.padded(0)) * l.padded(1) * l.padded(2), 0);
    walk_slab<0>(l, seen);
    walk_slab<1>(l, seen);
    walk_slab<2>(l, seen);
    for (int z = -l.ghost[2]; z < l.n[2] + l.ghost[2]; ++z)
      for (int y = -l.ghost[1]; y < l.n[1] + l.ghost[1]; ++y)
        for (int x = -l.ghost[0]; x < l.n[0] + l.ghost[0]; ++x) {
          const bool owned = x >= 0 && x < l.n[0] && y >= 0 && y < l.n[1] && z >= 0 && z < l.n[2];
          ASSERT_EQ(seen[static_cast<std::size_t>(((z + l.ghost[2]) * l.padded(1) + y + l.ghost[1]) * l.padded(0) + x +
                                                  l.ghost[0])],
                    owned ? 0 : 1)
              << x << " " << y << " " << z;
        }
  }
}

TEST(FaceSlabWalk, TheRotationGivesEveryCellOfASlabToOneThread) {
  for (unsigned threads : {1u, 7u, 32u, 1000u})
    for (unsigned before : {0u, 1u, threads / 2, threads - 1}) {
      if (before >= threads) continue;
      for (unsigned count : {0u, 1u, threads - 1, 3 * threads + 5}) {
        std::vector<int> taken(count, 0);
        for (unsigned me = 0; me < threads; ++me)
          for (unsigned k = face_slab_first_cell(me, before, threads); k < count; k += threads) ++taken[k];
        for (unsigned k = 0; k < count; ++k) ASSERT_EQ(taken[k], 1) << threads << " " << before << " " << k;
        // As one numbering: cell k of this slab is cell before + k of the threads' round robin.
        for (unsigned me = 0; me < threads; ++me) {
          const unsigned k = face_slab_first_cell(me, before, threads);
          if (k < count) EXPECT_EQ((before + k) % threads, me);
        }
        EXPECT_EQ(face_slabs_walked(before, count, threads), (before + count) % threads);
      }
    }
}

TEST(FaceSlabWalk, ThirtyTwoBitNumbering) {
  const long fits[3] = {(1L << 31) - 1, 5, 0}, too_many[3] = {5, 1L << 31, 0};
  EXPECT_TRUE(face_slabs_fit_32_bits(fits));
  EXPECT_FALSE(face_slabs_fit_32_bits(too_many));
}

}  // namespace
}  // namespace perksolve::cuda_ops
