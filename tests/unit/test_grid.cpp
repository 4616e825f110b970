#include <gtest/gtest.h>

#include "framework/grid/decomposition.hpp"
#include "framework/grid/grid.hpp"

#include <array>
#include <vector>

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

namespace perksolve {
namespace {

// Aligned layouts: every owned row starts on an `align` boundary, indices of distinct cells are distinct
// and inside [0, size()), and align = 1 is the packed layout.
TEST(FieldLayout, AlignedRowsStartOnTheBoundaryAndNeverOverlap) {
  for (int align : {1, 4, 32})
    for (int g : {0, 1, 2, 3})
      for (const std::array<int, 3>& n : {std::array<int, 3>{7, 5, 3}, std::array<int, 3>{33, 2, 1},
                                          std::array<int, 3>{1, 1, 1}, std::array<int, 3>{64, 9, 4}}) {
        FieldLayout l;
        l.n = n;
        l.ghost = {g, g, n[2] > 1 ? g : 0};
        l.align = align;
        SCOPED_TRACE(::testing::Message() << "align " << align << " ghost " << g << " n " << n[0] << "x" << n[1]
                                          << "x" << n[2]);
        EXPECT_EQ(l.stride_y() % align, 0);
        EXPECT_GE(l.stride_y(), l.padded(0));
        std::vector<int> hits(static_cast<std::size_t>(l.size()), 0);
        const IndexBox b = l.with_ghosts();
        for (int k = b.begin[2]; k < b.end[2]; ++k)
          for (int j = b.begin[1]; j < b.end[1]; ++j) {
            EXPECT_EQ(l.index(0, j, k) % align, 0) << "row (" << j << ", " << k << ")";
            for (int i = b.begin[0]; i < b.end[0]; ++i) {
              const long p = l.index(i, j, k);
              ASSERT_GE(p, 0);
              ASSERT_LT(p, l.size());
              ++hits[static_cast<std::size_t>(p)];
            }
          }
        for (int h : hits) EXPECT_LE(h, 1);
        if (align == 1) EXPECT_EQ(l.size(), static_cast<long>(l.padded(0)) * l.padded(1) * l.padded(2));
      }
}

// The grid fields' rows (grid_row_align, Decomposition::grid_layout): every owned row starts on a 32-byte sector for
// its precision, so that a stencil's output rows are whole sectors; short rows are
// padded by less than one sector (a row's high ghost and the next row's low ghost share it instead of a line of padding
// that the DRAM fetched with them); long rows, where whole 32-element lines cost at most 2 % of a row, start on those.
void expect_grid_rows(int nx, std::size_t element_bytes, long row_bytes) {
  FieldLayout l;
  l.n = {nx, 37, 9};
  l.ghost = {1, 1, 1};
  l.align = grid_row_align(l.padded(0), element_bytes);
  SCOPED_TRACE(::testing::Message() << "nx " << nx << ", " << element_bytes << "-byte elements");
  EXPECT_EQ(l.align * static_cast<long>(element_bytes), row_bytes);
  for (int k = -1; k <= l.n[2]; ++k)
    for (int j = -1; j <= l.n[1]; ++j)
      ASSERT_EQ(l.index(0, j, k) * static_cast<long>(element_bytes) % row_bytes, 0) << "row (" << j << ", " << k << ")";
  EXPECT_LT((l.stride_y() - l.padded(0)) * static_cast<long>(element_bytes), row_bytes);
  if (row_bytes > 32) EXPECT_LE((l.stride_y() - l.padded(0)) * 50, l.padded(0));  // whole lines: <= 2 % of padding
}

TEST(FieldLayout, GridRowsStartOnSectorsAndLongRowsOnLines) {
  for (int nx : {512, 255, 7, 448}) {
    expect_grid_rows(nx, 4, 32);  // float: 8 elements
    expect_grid_rows(nx, 8, 32);  // double: 4 elements
  }
  for (int nx : {510, 126}) {  // rows of whole lines already (512, 128 elements with the ghosts)
    expect_grid_rows(nx, 4, 128);
    expect_grid_rows(nx, 8, 256);
  }
  expect_grid_rows(16384, 8, 256);  // 2D rows: 0.2 % of padding to whole lines
  expect_grid_rows(16384, 4, 128);
  expect_grid_rows(1514, 8, 256);   // 1516 -> 1536: 1.3 %
  expect_grid_rows(1000, 8, 32);    // 1002 -> 1004 elements; lines (1024) would cost 2.2 %
  expect_grid_rows(30, 8, 256);     // 32 elements: the row is one line already
}

}  // namespace
}  // namespace perksolve
