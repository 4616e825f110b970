#include <gtest/gtest.h>

#include "framework/grid/decomposition.hpp"
#include "framework/grid/grid.hpp"

using namespace perksolve;

namespace {
GridSpec grid3(long n, Centering c, BoundaryType bt) {
  GridSpec g;
  g.dim = 3;
  g.extents = {n, n, n};
  g.centering = c;
  for (auto& axis : g.boundary)
    for (auto& f : axis) f.type = bt;
  return g;
}
}  // namespace

TEST(Grid, VertexCentredDirichletExcludesBoundaryVertices) {
  const GridSpec g = grid3(15, Centering::vertex, BoundaryType::dirichlet);
  EXPECT_DOUBLE_EQ(g.spacing(0), 1.0 / 16.0);
  EXPECT_DOUBLE_EQ(g.coordinate(0, 0), 1.0 / 16.0);
  EXPECT_DOUBLE_EQ(g.coordinate(0, 14), 15.0 / 16.0);
  EXPECT_DOUBLE_EQ(g.coordinate(0, -1), 0.0);  // first ghost is the boundary vertex
}

TEST(Grid, VertexCentredNeumannIncludesBoundaryVertices) {
  const GridSpec g = grid3(17, Centering::vertex, BoundaryType::neumann);
  EXPECT_DOUBLE_EQ(g.spacing(1), 1.0 / 16.0);
  EXPECT_DOUBLE_EQ(g.coordinate(1, 0), 0.0);
  EXPECT_DOUBLE_EQ(g.coordinate(1, 16), 1.0);
}

TEST(Grid, CellCentredAndPeriodicSpacing) {
  const GridSpec c = grid3(10, Centering::cell, BoundaryType::dirichlet);
  EXPECT_DOUBLE_EQ(c.spacing(2), 0.1);
  EXPECT_DOUBLE_EQ(c.coordinate(2, 0), 0.05);
  const GridSpec p = grid3(10, Centering::vertex, BoundaryType::periodic);
  EXPECT_DOUBLE_EQ(p.spacing(0), 0.1);
  EXPECT_DOUBLE_EQ(p.coordinate(0, 0), 0.0);
}

TEST(Grid, MixedFacesAndPhysicalBox) {
  GridSpec g = grid3(8, Centering::vertex, BoundaryType::dirichlet);
  g.lo = {-1.0, 0.0, 2.0};
  g.hi = {1.0, 3.0, 4.0};
  g.boundary[0][1].type = BoundaryType::neumann;  // x: Dirichlet low, Neumann high -> 8 intervals
  EXPECT_DOUBLE_EQ(g.spacing(0), 2.0 / 8.0);
  EXPECT_DOUBLE_EQ(g.coordinate(0, 7), 1.0);
  EXPECT_DOUBLE_EQ(g.spacing(1), 3.0 / 9.0);
}

TEST(Grid, ValidateRejectsInconsistentGrids) {
  GridSpec g = grid3(8, Centering::vertex, BoundaryType::dirichlet);
  g.boundary[1][0].type = BoundaryType::periodic;
  EXPECT_THROW(g.validate(), std::invalid_argument);
  GridSpec h = grid3(8, Centering::vertex, BoundaryType::dirichlet);
  h.extents[2] = 0;
  EXPECT_THROW(h.validate(), std::invalid_argument);
  GridSpec two = grid3(8, Centering::cell, BoundaryType::dirichlet);
  two.dim = 2;
  EXPECT_THROW(two.validate(), std::invalid_argument);  // extents[2] must be 1
  two.extents[2] = 1;
  EXPECT_NO_THROW(two.validate());
}

TEST(Decomposition, UnevenSplitCoversEveryCellOnce) {
  for (long n : {7L, 10L, 31L})
    for (int parts = 1; parts <= 5; ++parts) {
      long next = 0;
      for (int c = 0; c < parts; ++c) {
        long start;
        int count;
        Decomposition::split(n, parts, c, start, count);
        EXPECT_EQ(start, next);
        EXPECT_GE(count, n / parts);
        EXPECT_LE(count, n / parts + 1);
        next = start + count;
      }
      EXPECT_EQ(next, n);
    }
}
