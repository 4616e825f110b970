// The row walk of the point-wise row kernels (framework/backends/cuda/row_walk.hpp), played out for a warp's 32 lanes
// on the CPU: every cell of a segment is taken exactly once and no cell outside it, with as many batches as a walk
// from the segment's first cell would take, and every access of 32 consecutive cells that no lane wraps starts on a
// 32-element line; for runs of G cells, each run starts a multiple of G from the segment's start.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "framework/backends/cuda/row_walk.hpp"

namespace perksolve::cuda_ops {
namespace {

constexpr int kLanes = 32;

// Segment lengths around the batch and line sizes, and a segment start at 0 and at a multiple of 1024 (the row
// kernels cut long rows into segments of whole multiples of kRowSegmentCells = 1024).
const std::vector<int> kLengths = {1, 2, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 300, 1023, 1024, 1025};
const std::vector<int> kStarts = {0, 1024};

// The allocation index of the row's cell 0 such that the segment's first cell lies `phase` cells above a line.
long row_origin(int i_begin, int phase) { return 7 * kGridRowLine + phase - i_begin + 4096; }

// One segment of the cases: cells [i_begin, i_end) of a row whose cell 0 is at allocation index s.
struct Segment {
  int i_begin, i_end;
  long s;
  std::string what;
};

// Calls check(segment) for every segment start, length and line phase of the first cell.
template <class Check>
void for_each_segment(const std::string& walk, Check&& check) {
  for (int i_begin : kStarts)
    for (int n : kLengths)
      for (int phase = 0; phase < kGridRowLine; ++phase)
        check(Segment{i_begin, i_begin + n, row_origin(i_begin, phase),
                      walk + ", cells " + std::to_string(n) + " from " + std::to_string(i_begin) + ", phase " +
                          std::to_string(phase)});
}

// taken[i]: how often the walk took cell i (cells outside the segment counted apart).
void expect_each_cell_once(const Segment& g, const std::vector<int>& taken) {
  for (int i = g.i_begin; i < g.i_end; ++i)
    if (taken[static_cast<std::size_t>(i)] != 1)
      ADD_FAILURE() << g.what << ": cell " << i << " taken " << taken[static_cast<std::size_t>(i)] << " times";
}

template <int U>
void check_batches() {
  for_each_segment("U " + std::to_string(U), [](const Segment& g) {
    const int n = g.i_end - g.i_begin;
    const RowWalk walk = row_walk(g.s, g.i_begin, g.i_end, 32 * U, 1);
    std::vector<int> taken(static_cast<std::size_t>(g.i_end), 0);
    int bad = 0;
    for (int lane = 0; lane < kLanes; ++lane) {
      int batches = 0;
      for (int p = walk.first + lane; p < walk.first + walk.span; p += 32 * U, ++batches) {
        const RowBatch b = walk.batch(p);
        for (int u = 0; u < U; ++u) {
          if (!b.live(u)) continue;
          const int i = p + b.offset(u);
          if (i < g.i_begin || i >= g.i_end) ++bad;
          else ++taken[static_cast<std::size_t>(i)];
        }
      }
      EXPECT_EQ(batches, (n + 32 * U - 1) / (32 * U)) << g.what << ", lane " << lane << ": batches";
    }
    EXPECT_EQ(bad, 0) << g.what << ": cells outside the segment";
    expect_each_cell_once(g, taken);
    // Lane 0's accesses (the first cell of each 32-cell access) start on lines.
    EXPECT_EQ(line_phase(g.s + walk.first), 0) << g.what;
    EXPECT_LE(walk.first, g.i_begin) << g.what;
    EXPECT_GT(walk.first, g.i_begin - kGridRowLine) << g.what;
  });
}

template <int G>
void check_runs() {
  for_each_segment("G " + std::to_string(G), [](const Segment& g) {
    const int n = g.i_end - g.i_begin;
    const RowWalk walk = row_walk(g.s, g.i_begin, g.i_end, 32 * G, G);
    std::vector<int> taken(static_cast<std::size_t>(g.i_end), 0);
    int bad = 0, misplaced = 0;
    for (int lane = 0; lane < kLanes; ++lane)
      for (int p = walk.first + G * lane; p < walk.first + walk.span; p += 32 * G) {
        const int i0 = walk.cell(p);
        if (i0 >= g.i_end) continue;  // past the segment: no run
        if (i0 < g.i_begin) ++bad;
        if ((i0 - g.i_begin) % G != 0) ++misplaced;
        for (int c = 0; c < G && i0 + c < g.i_end; ++c)
          if (i0 + c >= g.i_begin) ++taken[static_cast<std::size_t>(i0 + c)];
      }
    EXPECT_EQ(bad, 0) << g.what << ": runs before the segment";
    EXPECT_EQ(misplaced, 0) << g.what << ": runs off the multiples of G from the start";
    expect_each_cell_once(g, taken);
    EXPECT_EQ(walk.span, (n + 32 * G - 1) / (32 * G) * (32 * G)) << g.what << ": lane steps";
    EXPECT_EQ(line_phase(g.s + walk.first), line_phase(g.s + g.i_begin) % G)
        << g.what << ": the start of lane 0's first run";
    EXPECT_LE(walk.first, g.i_begin) << g.what;
  });
}

TEST(RowWalk, BatchesTakeEveryCellOnceFromTheLineWithoutAnExtraBatch) {
  check_batches<1>();
  check_batches<2>();
  check_batches<4>();
  check_batches<8>();
}

TEST(RowWalk, RunsTakeEveryCellOnceInRunsFromTheStart) {
  check_runs<2>();
  check_runs<4>();
  check_runs<8>();
}

TEST(RowWalk, OnALineTheWalkIsTheWalkFromTheFirstCell) {
  const RowWalk walk = row_walk(row_origin(0, 0), 0, 255, 128, 1);
  EXPECT_EQ(walk.first, 0);
  EXPECT_EQ(walk.span, 256);
  for (int p = 0; p < 32; ++p) EXPECT_EQ(walk.batch(p).wrap, 0);
}

}  // namespace
}  // namespace perksolve::cuda_ops
