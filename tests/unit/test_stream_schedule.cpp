// The streamed-axis chunks of the streaming stencil kernels (framework/backends/cuda/stream_schedule.hpp): with or
// without a tail, the chunks cover every plane exactly once and in order; a tail is planned only where the schedule
// has enough rounds, its chunks are shorter than the head's and make up about one round of items. The 2D rows take the
// narrower row tile where it pads the x extent less (narrow_rows_pay). Static items get the block count that spreads their
// face work (balance_static_blocks).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "framework/backends/cuda/stream_schedule.hpp"

namespace perksolve::cuda_detail {
namespace {

// Planes of the chunks in order; fails the test where they do not tile [0, ns). LED: with the lead.
template <bool LED = false>
void expect_cover(const StreamChunks& c, const std::string& what) {
  const long n = stream_chunk_count(c);
  int next = 0;
  for (long q = 0; q < n; ++q) {
    int s0 = -1, len = -1;
    stream_chunk_planes<LED>(c, q, s0, len);
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

TEST(StreamSchedule, NoTailOnShortSchedules) {
  // 255^3 fp64 on the medium tile: 32 tiles, 16 chunks of 16 planes on 132 blocks = 3.9 rounds.
  const StreamChunks c = plan_stream_tail(equal_chunks(255, 16), 32, 132, 8, 4);
  EXPECT_EQ(c.tail_chunk, 0);
  EXPECT_EQ(c.chunk, 16);
}

TEST(StreamSchedule, LeadOfThe2d17ptJacobiRows) {
  // 2d17pt fp64 Jacobi at 4096^2 on an H200: 4 row tiles, 33 chunks of 125 rows on 132 blocks; 29 rows of slack.
  const StreamChunks e = equal_chunks(4096, 125);
  EXPECT_EQ(stream_chunk_slack(e), 29);
  const StreamChunks c = plan_stream_lead(e);
  EXPECT_EQ(c.lead, 14);
  EXPECT_EQ(stream_chunk_count(c), 33);
  int s0 = -1, len = -1;
  stream_chunk_planes<true>(c, 0, s0, len);
  EXPECT_EQ(s0, 0);
  EXPECT_EQ(len, 111);  // the first chunk: 125 - 14
  stream_chunk_planes<true>(c, 1, s0, len);
  EXPECT_EQ(s0, 111);
  EXPECT_EQ(len, 125);
  stream_chunk_planes<true>(c, 32, s0, len);
  EXPECT_EQ(len, 110);  // the last: 125 - 29 + 14 (96 without the lead)
  expect_cover<true>(c, "4096/125 lead");
  // The plain form ignores the lead (the kernels without face work).
  stream_chunk_planes(c, 0, s0, len);
  EXPECT_EQ(len, 125);
}

TEST(StreamSchedule, LeadKeepsTheChunksAndBalancesTheFaceChunks) {
  long led = 0;
  for (int ns : {1, 7, 64, 100, 255, 384, 4096, 6144})
    for (int chunk : {1, 8, 13, 21, 32, 125, 140, 600})
      for (int div : {0, 4}) {
        const StreamChunks e = plan_stream_tail(equal_chunks(ns, chunk), 17, 132, 8, div);
        const StreamChunks c = plan_stream_lead(e);
        const std::string what = std::to_string(ns) + "/" + std::to_string(chunk) + " div " + std::to_string(div);
        expect_cover<true>(c, what);
        expect_cover<false>(c, what + " plain");
        EXPECT_EQ(stream_chunk_count(c), stream_chunk_count(e)) << what;
        EXPECT_EQ(c.lead, stream_chunk_slack(e) / 2) << what;
        const long n = stream_chunk_count(c);
        if (n < 2) continue;
        int s0 = 0, first = 0, last = 0;
        stream_chunk_planes<true>(c, 0, s0, first);
        stream_chunk_planes<true>(c, n - 1, s0, last);
        const int full = c.tail_chunk == 0 ? c.chunk : c.tail_chunk;
        if (c.tail_chunk == 0) EXPECT_LE(std::abs(first - last), 1) << what;  // the face chunks within a plane
        EXPECT_LE(last, full) << what;
        led += c.lead > 0;
      }
  EXPECT_GT(led, 20);
}

TEST(StreamSchedule, BrickFaceLeadOfThe2dResidentBricks) {
  // 2d13pt fp64 at 1423^2 on an H200: 2 tiles, at most 66 chunks; chunks of 22 rows make 65 (block 0 is the slowest).
  // A lead of 3 (R_s) leaves both face bricks at a middle brick's work: 19 + 3 and 18 + 3 against 22.
  StreamChunks c = plan_brick_face_lead(equal_chunks(1423, 22), 66, 3, 4);
  EXPECT_EQ(c.lead, 3);
  EXPECT_EQ(stream_chunk_count(c), 65);
  int s0 = -1, first = -1, last = -1;
  stream_chunk_planes<true>(c, 0, s0, first);
  stream_chunk_planes<true>(c, 64, s0, last);
  EXPECT_EQ(first, 19);
  EXPECT_EQ(last, 18);
  expect_cover<true>(c, "1423/22");
  // 2d17pt fp64 Jacobi at 1013^2: one tile, 127 chunks of 8 rows (last 5); face work 4. Lead 1: 7 + 4 and 6 + 4
  // against 8 + 4 without; a lead of 4 would add a chunk of one row, below the floor of 5.
  c = plan_brick_face_lead(equal_chunks(1013, 8), 132, 4, 5);
  EXPECT_EQ(c.lead, 1);
  EXPECT_EQ(stream_chunk_count(c), 127);
  // One more chunk where the blocks allow it and it pays: 100 planes in 10 chunks of 10, 12 chunks allowed.
  c = plan_brick_face_lead(equal_chunks(100, 10), 12, 2, 3);
  EXPECT_EQ(stream_chunk_count(c), 11);
  stream_chunk_planes<true>(c, 0, s0, first);
  stream_chunk_planes<true>(c, 10, s0, last);
  EXPECT_EQ(first, 5);  // work 10 from lead 3 on; the most even split of the spare planes
  EXPECT_EQ(last, 5);
  EXPECT_EQ(plan_brick_face_lead(equal_chunks(100, 10), 10, 2, 3).lead, 0) << "no chunk to spare, no slack: no lead";
  EXPECT_EQ(plan_brick_face_lead(equal_chunks(10, 16), 132, 2, 3).lead, 0) << "one chunk";
}

TEST(StreamSchedule, BrickFaceLeadNeverRaisesTheWorkOrShortensBelowTheFloor) {
  long led = 0;
  for (int ns : {2, 7, 64, 95, 100, 126, 255, 1013, 1423})
    for (int chunk : {1, 2, 5, 7, 8, 16, 22, 64})
      for (long max_chunks : {8L, 14L, 66L, 132L})
        for (int face : {1, 2, 4}) {
          const StreamChunks e = equal_chunks(ns, chunk);
          const long n0 = stream_chunk_count(e);
          if (n0 > max_chunks) continue;  // the plan never asks for more chunks than blocks
          const StreamChunks c = plan_brick_face_lead(e, max_chunks, face, face + 1);
          const std::string what = std::to_string(ns) + "/" + std::to_string(chunk) + " max " +
                                   std::to_string(max_chunks) + " face " + std::to_string(face);
          expect_cover<true>(c, what);
          const long n = stream_chunk_count(c);
          EXPECT_LE(n, std::max(n0, max_chunks)) << what;
          if (n < 2) {
            EXPECT_EQ(c.lead, 0) << what;
            continue;
          }
          auto face_work = [&](const StreamChunks& x, long count) {
            int s = 0, f = 0, l = 0;
            stream_chunk_planes<true>(x, 0, s, f);
            stream_chunk_planes<true>(x, count - 1, s, l);
            return std::pair<int, int>{f, l};
          };
          const auto [f0, l0] = face_work(e, n0);
          const auto [f1, l1] = face_work(c, n);
          EXPECT_LE(std::max(f1, l1) + face, std::max(std::max(f0, l0) + face, n0 >= 3 ? chunk : 0)) << what;
          EXPECT_GE(std::min(f1, l1), std::min(face + 1, std::min(f0, l0))) << what;
          led += c.lead > 0;
        }
  EXPECT_GT(led, 50);
}

TEST(StreamSchedule, StaticItemsOf3d13ptJacobiSpreadTheirFaceItems) {
  // 3d13pt fp64 Jacobi at 384^3 on an H200 (the pipelined kernel's static small tile): 6 x 48 tiles, 15 chunks of 26
  // planes (the last 20), halo 4 planes, 6 planes per face item; planned on 255 of 264 block slots.
  const StreamChunks c = equal_chunks(384, 26);
  const StaticItemWork w{6, 288, true, 4, 6};
  const long items = 288 * stream_chunk_count(c);
  EXPECT_EQ(items, 4320);
  EXPECT_EQ(static_item_work(c, w, 0), 26 + 4 + 3 * 6);     // the corner tile of chunk 0: x, y and z faces
  EXPECT_EQ(static_item_work(c, w, 288 + 7), 26 + 4);       // tile column 1, row 1 of chunk 1: inside
  EXPECT_EQ(static_item_work(c, w, items - 1), 20 + 4 + 3 * 6);  // the last tile of the last (short) chunk
  // 255 blocks: a stride of 255 = -33 (mod 288) puts every item of block b on tile columns b % 6 and (b + 3) % 6, so
  // the blocks b % 3 == 1 never meet an x face and the others in every second item.
  EXPECT_EQ(static_deal_max_work(c, w, items, 255), 588);
  EXPECT_EQ(static_deal_max_work(c, w, items, 256), 570);
  const long b = balance_static_blocks(c, w, items, 255, 264);
  EXPECT_EQ(b, 256);
  EXPECT_EQ((items + b - 1) / b, 17);  // the rounds of the planned count
  // Nothing to choose: the planned count.
  EXPECT_EQ(balance_static_blocks(c, w, items, 255, 255), 255);
  EXPECT_EQ(balance_static_blocks(c, w, items, 255, 200), 255);
}

TEST(StreamSchedule, StaticBalanceKeepsTheRoundsAndNeverRaisesTheCost) {
  long moved = 0;
  for (int ns : {64, 255, 384, 512})
    for (int chunk : {8, 21, 26, 40})
      for (long tiles_x : {1, 4, 6, 7})
        for (int face : {0, 6}) {
          const StreamChunks c = equal_chunks(ns, chunk);
          const StaticItemWork w{tiles_x, tiles_x * 9, true, 4, face};
          const long items = w.tiles * stream_chunk_count(c);
          const long resident = 264;
          const long rounds = (items + resident - 1) / resident;
          const long lo = (items + rounds - 1) / rounds;
          const long b = balance_static_blocks(c, w, items, lo, std::min(resident, items));
          const std::string what = std::to_string(ns) + "/" + std::to_string(chunk) + " x " +
                                   std::to_string(tiles_x) + " face " + std::to_string(face);
          EXPECT_GE(b, lo) << what;
          EXPECT_LE(b, std::min(resident, items)) << what;
          EXPECT_EQ((items + b - 1) / b, rounds) << what;
          EXPECT_LE(b * static_deal_max_work(c, w, items, b), lo * static_deal_max_work(c, w, items, lo)) << what;
          moved += b != lo;
        }
  EXPECT_GT(moved, 0);
}

TEST(StreamSchedule, NarrowRowTilesWhereTheyPadLess) {
  EXPECT_FALSE(narrow_rows_pay(16384, 2048, 1024));  // both exact: the wide tile
  EXPECT_FALSE(narrow_rows_pay(6144, 2048, 1024));
  EXPECT_FALSE(narrow_rows_pay(2000, 2048, 1024));   // one wide column, two narrow ones: the same padding
  EXPECT_TRUE(narrow_rows_pay(6898, 2048, 1024));    // 8192 against 7168 columns
  EXPECT_TRUE(narrow_rows_pay(4651, 2048, 1024));    // 6144 against 5120
  EXPECT_TRUE(narrow_rows_pay(5000, 2048, 1024));    // 6144 against 5120 (the GPU tests' width)
  EXPECT_FALSE(narrow_rows_pay(16000, 2048, 1024));  // 16384 against 16384
  EXPECT_FALSE(narrow_rows_pay(3100, 2048, 1024));   // 4096 against 4096
  EXPECT_FALSE(narrow_rows_pay(16000, 2048, 2000));  // 16384 against 16000: 2.3 % less, not enough
}

}  // namespace
}  // namespace perksolve::cuda_detail
