// The streamed-axis chunks of the streaming stencil kernels (framework/backends/cuda/stream_schedule.hpp): with or
// without a tail, the chunks cover every plane exactly once and in order; a tail is planned only where the schedule
// has enough rounds, its chunks are shorter than the head's and make up about one round of items. With interleaved
// slabs, the chunks still cover every plane exactly once, and consecutive chunks of one slab follow each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "framework/backends/cuda/stream_schedule.hpp"

namespace perksolve::cuda_detail {
namespace {

// Planes of the chunks in order; fails the test where they do not tile [0, ns).
void expect_cover(const StreamChunks& c, const std::string& what) {
  const long n = stream_chunk_count(c);
  int next = 0;
  for (long q = 0; q < n; ++q) {
    int s0 = -1, len = -1;
    stream_chunk_planes(c, q, s0, len);
    ASSERT_EQ(s0, next) << what << " chunk " << q;
    ASSERT_GT(len, 0) << what << " chunk " << q;
    ASSERT_LE(len, q < c.head_chunks || c.tail_chunk == 0 ? c.chunk : c.tail_chunk) << what << " chunk " << q;
    next = s0 + len;
  }
  EXPECT_EQ(next, c.ns) << what;
}

StreamChunks equal_chunks(int ns, int chunk) {
  StreamChunks c;
  c.ns = ns;
  c.chunk = chunk;
  return c;
}

TEST(StreamSchedule, EqualChunksCoverThePlanes) {
  for (int ns : {1, 7, 8, 31, 255, 512})
    for (int chunk : {1, 8, 13, 32, 600}) expect_cover(equal_chunks(ns, chunk), std::to_string(ns) + "/" + std::to_string(chunk));
}

TEST(StreamSchedule, TailOfTheFp64SweepAt512) {
  // 3d7pt fp64 at 512^3 on an H200: 128 tiles of 512 x 4, 132 blocks, chunks of 32 planes (15.5 rounds).
  const StreamChunks c = plan_stream_tail(equal_chunks(512, 32), 128, 132, 8, 4);
  EXPECT_EQ(c.tail_chunk, 8);
  EXPECT_EQ(c.head_chunks, 16);
  EXPECT_EQ(c.chunk, 31);
  EXPECT_EQ(stream_chunk_count(c), 18);  // 16 x 31 planes, then 8 + 8
  expect_cover(c, "512/32 tail 4");
}

TEST(StreamSchedule, TailChunksAreShortAndMakeAboutOneRound) {
  long planned = 0;
  for (int ns : {64, 100, 255, 511, 512, 1024})
    for (int chunk : {8, 16, 21, 32, 57, 100})
      for (long tiles : {1L, 17L, 86L, 128L, 512L})
        for (long resident : {132L, 264L})
          for (int div : {0, 1, 2, 4, 8}) {
            const StreamChunks e = equal_chunks(ns, chunk);
            const StreamChunks c = plan_stream_tail(e, tiles, resident, 8, div);
            const std::string what = std::to_string(ns) + "/" + std::to_string(chunk) + " tiles " +
                                     std::to_string(tiles) + " resident " + std::to_string(resident) + " div " +
                                     std::to_string(div);
            expect_cover(c, what);
            if (c.tail_chunk == 0) {
              EXPECT_EQ(c.chunk, e.chunk) << what;  // unchanged
              continue;
            }
            ++planned;
            EXPECT_GE(div, 2) << what;
            EXPECT_GE(tiles * stream_chunk_count(e), kStreamTailMinRounds * resident) << what;
            EXPECT_LE(c.chunk, e.chunk) << what;
            EXPECT_LE(2 * c.tail_chunk, e.chunk) << what;  // at most half the planned chunk
            EXPECT_GE(c.tail_chunk, 8) << what;
            const long tail_chunks = stream_chunk_count(c) - c.head_chunks;
            EXPECT_GE(tail_chunks, 1) << what;
            EXPECT_LE(tail_chunks * tiles, resident + tiles) << what;  // about one round of items, at most
          }
  EXPECT_GT(planned, 20);
}

// Chunks in dealing order with slabs: every plane exactly once, no empty chunk, chunk q in slab q % slabs, a slab's
// chunks contiguous and in order, the slabs in order along the axis and balanced (+-1 plane).
void expect_slab_cover(const StreamChunks& c, const std::string& what) {
  const long n = stream_chunk_count(c);
  ASSERT_EQ(n % c.slabs, 0) << what;
  std::vector<int> seen(static_cast<std::size_t>(c.ns), 0);
  std::vector<int> slab_begin(static_cast<std::size_t>(c.slabs), -1), slab_next(static_cast<std::size_t>(c.slabs), -1);
  for (long q = 0; q < n; ++q) {
    int s0 = -1, len = -1;
    stream_chunk_planes(c, q, s0, len);
    ASSERT_GT(len, 0) << what << " chunk " << q;
    ASSERT_GE(s0, 0) << what << " chunk " << q;
    ASSERT_LE(s0 + len, c.ns) << what << " chunk " << q;
    const auto slab = static_cast<std::size_t>(q % c.slabs);
    if (slab_next[slab] < 0) slab_begin[slab] = s0;
    else ASSERT_EQ(s0, slab_next[slab]) << what << " chunk " << q;
    slab_next[slab] = s0 + len;
    for (int p = s0; p < s0 + len; ++p) ++seen[static_cast<std::size_t>(p)];
  }
  for (int p = 0; p < c.ns; ++p) ASSERT_EQ(seen[static_cast<std::size_t>(p)], 1) << what << " plane " << p;
  for (std::size_t k = 0; k + 1 < slab_begin.size(); ++k) {
    EXPECT_EQ(slab_next[k], slab_begin[k + 1]) << what << " slab " << k;
    const int len_k = slab_next[k] - slab_begin[k], len_n = slab_next[k + 1] - slab_begin[k + 1];
    EXPECT_LE(std::abs(len_k - len_n), 1) << what << " slab " << k;
  }
}

TEST(StreamSchedule, SlabsOfTheFp32SweepAt512) {
  // 3d7pt fp32 at 512^3 on an H200: 86 tiles of 256 x 12, 264 blocks (three rows of items at once), chunks of 21.
  const StreamChunks c = plan_stream_slabs(equal_chunks(512, 21), 86, 264, 0);
  EXPECT_EQ(c.slabs, 3);
  EXPECT_EQ(c.chunk, 22);                    // 171, 171 and 170 planes: 8 chunks each, 7 x 22 and 17 / 16
  EXPECT_EQ(stream_chunk_count(c), 3 * 8);
  expect_slab_cover(c, "512/21 slabs");
  // Dealing order: the first three chunks start the three slabs; the fourth follows the first.
  int s0 = -1, len = -1;
  stream_chunk_planes(c, 0, s0, len);
  EXPECT_EQ(s0, 0);
  stream_chunk_planes(c, 1, s0, len);
  EXPECT_EQ(s0, 171);
  stream_chunk_planes(c, 2, s0, len);
  EXPECT_EQ(s0, 342);
  stream_chunk_planes(c, 3, s0, len);
  EXPECT_EQ(s0, 22);
  // With the tail: each slab ends in short chunks.
  const StreamChunks t = plan_stream_tail(c, 86, 264, 8, 4);
  EXPECT_EQ(t.slabs, 3);
  EXPECT_EQ(t.tail_chunk, 8);
  expect_slab_cover(t, "512/21 slabs + tail");
  const long n = stream_chunk_count(t);
  for (long q = n - 3; q < n; ++q) {
    stream_chunk_planes(t, q, s0, len);
    EXPECT_LE(len, 9) << "chunk " << q;  // the last chunk of the longer slab takes its extra plane
  }
}

TEST(StreamSchedule, SlabsCoverThePlanes) {
  long planned = 0;
  for (int ns : {16, 64, 100, 255, 511, 512, 1024})
    for (int chunk : {8, 16, 21, 32})
      for (long tiles : {1L, 17L, 86L, 128L})
        for (long resident : {132L, 264L})
          for (int slabs : {0, 1, 2, 3, 7}) {
            const std::string what = std::to_string(ns) + "/" + std::to_string(chunk) + " tiles " +
                                     std::to_string(tiles) + " resident " + std::to_string(resident) + " slabs " +
                                     std::to_string(slabs);
            const StreamChunks c = plan_stream_slabs(equal_chunks(ns, chunk), tiles, resident, slabs);
            if (c.slabs == 1) {
              EXPECT_EQ(c.chunk, chunk) << what;  // unchanged
              expect_cover(c, what);
            } else {
              ++planned;
              EXPECT_EQ(c.slabs, slabs > 0 ? slabs : resident / tiles) << what;
              EXPECT_GE(stream_chunk_count(c) / c.slabs, 2) << what;
              EXPECT_LE(std::abs(c.chunk - chunk), chunk / 2 + 1) << what;  // about the planned length
              expect_slab_cover(c, what);
            }
            for (int div : {2, 4}) {
              const StreamChunks t = plan_stream_tail(c, tiles, resident, 8, div);
              if (t.slabs == 1) expect_cover(t, what + " tail");
              else expect_slab_cover(t, what + " tail");
            }
          }
  EXPECT_GT(planned, 50);
}

TEST(StreamSchedule, NoAutomaticSlabsWhenOneRowRunsAtOnce) {
  // 3d7pt fp64 at 512^3: 128 tiles on 132 blocks, about one row of items at once.
  EXPECT_EQ(plan_stream_slabs(equal_chunks(512, 31), 128, 132, 0).slabs, 1);
  // Slabs of one chunk each would only reorder equal chunks: not planned.
  EXPECT_EQ(plan_stream_slabs(equal_chunks(64, 32), 10, 264, 0).slabs, 1);
}

TEST(StreamSchedule, NoTailOnShortSchedules) {
  // 255^3 fp64 on the medium tile: 32 tiles, 16 chunks of 16 planes on 132 blocks = 3.9 rounds.
  const StreamChunks c = plan_stream_tail(equal_chunks(255, 16), 32, 132, 8, 4);
  EXPECT_EQ(c.tail_chunk, 0);
  EXPECT_EQ(c.chunk, 16);
}

}  // namespace
}  // namespace perksolve::cuda_detail
