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

template <int U>
void check_batches() {
  for (int i_begin : kStarts)
    for (int n : kLengths)
      for (int phase = 0; phase < kGridRowLine; ++phase) {
        const int i_end = i_begin + n;
        const long s = row_origin(i_begin, phase);
        const std::string what = "U " + std::to_string(U) + ", cells " + std::to_string(n) + " from " +
                                 std::to_string(i_begin) + ", phase " + std::to_string(phase);
        const RowWalk walk = row_walk(s, i_begin, i_end, 32 * U, 1);
        std::vector<int> taken(static_cast<std::size_t>(i_end + walk.span + 64), 0);
        int bad = 0;
        for (int lane = 0; lane < kLanes; ++lane) {
          int batches = 0;
          for (int p = walk.first + lane; p < walk.first + walk.span; p += 32 * U, ++batches) {
            const RowBatch b = walk.batch(p);
            for (int u = 0; u < U; ++u) {
              if (!b.live(u)) continue;
              const int i = p + b.offset(u);
              if (i < i_begin || i >= i_end) ++bad;
              else ++taken[static_cast<std::size_t>(i)];
            }
          }
          EXPECT_EQ(batches, (n + 32 * U - 1) / (32 * U)) << what << ", lane " << lane << ": batches";
        }
        EXPECT_EQ(bad, 0) << what << ": cells outside the segment";
        for (int i = i_begin; i < i_end; ++i)
          if (taken[static_cast<std::size_t>(i)] != 1)
            ADD_FAILURE() << what << ": cell " << i << " taken " << taken[static_cast<std::size_t>(i)] << " times";
        // Lane 0's accesses (the first cell of each 32-cell access) start on lines.
        EXPECT_EQ(line_phase(s + walk.first), 0) << what;
        EXPECT_LE(walk.first, i_begin) << what;
        EXPECT_GT(walk.first, i_begin - kGridRowLine) << what;
      }
}

template <int G>
void check_runs() {
  for (int i_begin : kStarts)
    for (int n : kLengths)
      for (int phase = 0; phase < kGridRowLine; ++phase) {
        const int i_end = i_begin + n;
        const long s = row_origin(i_begin, phase);
        const std::string what = "G " + std::to_string(G) + ", cells " + std::to_string(n) + " from " +
                                 std::to_string(i_begin) + ", phase " + std::to_string(phase);
        const RowWalk walk = row_walk(s, i_begin, i_end, 32 * G, G);
        std::vector<int> taken(static_cast<std::size_t>(i_end), 0);
        int bad = 0, misplaced = 0;
        for (int lane = 0; lane < kLanes; ++lane)
          for (int p = walk.first + G * lane; p < walk.first + walk.span; p += 32 * G) {
            const int i0 = walk.cell(p);
            if (i0 >= i_end) continue;  // past the segment: no run
            if (i0 < i_begin) ++bad;
            if ((i0 - i_begin) % G != 0) ++misplaced;
            for (int g = 0; g < G && i0 + g < i_end; ++g)
              if (i0 + g >= i_begin) ++taken[static_cast<std::size_t>(i0 + g)];
          }
        EXPECT_EQ(bad, 0) << what << ": runs before the segment";
        EXPECT_EQ(misplaced, 0) << what << ": runs off the multiples of G from the start";
        for (int i = i_begin; i < i_end; ++i)
          if (taken[static_cast<std::size_t>(i)] != 1)
            ADD_FAILURE() << what << ": cell " << i << " taken " << taken[static_cast<std::size_t>(i)] << " times";
        EXPECT_EQ(walk.span, (n + 32 * G - 1) / (32 * G) * (32 * G)) << what << ": lane steps";
        EXPECT_EQ(line_phase(s + walk.first), phase % G) << what << ": the start of lane 0's first run";
        EXPECT_LE(walk.first, i_begin) << what;
      }
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
