// IterationChunks (solvers/common/iteration_chunks.hpp): the chunk sizes of solvers that run iterations
// inside a backend loop. Checked against the rules it promises over many (start, want, limit, check) cases.
#include <gtest/gtest.h>

#include <climits>

#include "solvers/common/iteration_chunks.hpp"

namespace perksolve {
namespace {

TEST(IterationChunks, IterationsRespectObserverAndLimit) {
  const IterationChunks c(1, 100, 64);
  EXPECT_EQ(c.iterations(0, LONG_MAX), 64);
  EXPECT_EQ(c.iterations(0, 10), 10);
  EXPECT_EQ(c.iterations(90, LONG_MAX), 10);
  EXPECT_EQ(c.iterations(100, LONG_MAX), 1);  // at or past the limit: one iteration, the loop's check stops
  const IterationChunks unlimited(1, -1, 8);
  EXPECT_EQ(unlimited.iterations(1000000, LONG_MAX), 8);
}

TEST(IterationChunks, GrowsWhileChunksAreShort) {
  IterationChunks c(1, -1, 64, 0.1);
  c.took(0.01);
  EXPECT_EQ(c.size(), 128);
  c.took(0.2);
  EXPECT_EQ(c.size(), 128);
  const IterationChunks big_check(100, -1, 64);
  EXPECT_EQ(big_check.size(), 100);  // at least one check interval
  EXPECT_THROW(IterationChunks(0, -1), std::invalid_argument);
}

// Every promise of sweeps(), over a grid of cases, and that it is the largest such chunk.
TEST(IterationChunks, SweepsEndAtChecksWithinBounds) {
  long cases = 0;
  for (long ce : {1L, 2L, 3L, 5L, 8L})
    for (long limit : {-1L, 0L, 7L, 20L, 64L})
      for (long first : {1L, 4L, 16L}) {
        const IterationChunks c(ce, limit, first);
        for (long k = 0; k < 40; ++k)
          for (long want : {k + 1, k + 2, k + 5, k + 13, LONG_MAX}) {
            const long n = c.sweeps(k, want);
            SCOPED_TRACE(testing::Message() << "ce " << ce << " limit " << limit << " chunk " << c.size() << " k " << k
                                            << " want " << want << " -> n " << n);
            ASSERT_GE(n, 1);
            ASSERT_LE(n, c.size());
            ASSERT_LE(k + n, want);
            // Upper bound from the limit: the first check at or after max(k, limit) is the last input at most.
            long bound = std::min(c.size(), want - k);
            if (limit >= 0) {
              long stop_check = std::max(k, limit);
              while (stop_check % ce != 0) ++stop_check;
              ASSERT_LE(k + n - 1, stop_check);
              bound = std::min(bound, stop_check - k + 1);
            }
            // Aligned where any aligned length fits, and then the longest one.
            long best_aligned = 0;
            for (long m = 1; m <= bound; ++m)
              if ((k + m - 1) % ce == 0) best_aligned = m;
            if (best_aligned > 0) ASSERT_EQ(n, best_aligned);
            else ASSERT_EQ(n, bound);
            ++cases;
          }
      }
  EXPECT_GT(cases, 10000);
}

}  // namespace
}  // namespace perksolve
