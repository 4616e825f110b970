// The summary that PERKSOLVE_PERKS_TRACE appends per persistent PERKS launch (framework/backends/cuda/perks_trace.hpp),
// from hand-made stamps: per sweep the blocks' work time (min, mean, max, the slowest block), the spread of their
// arrivals at the device-wide barrier, the barrier's own latency and the sweep's span; then the mean over the sweeps
// after the first, and the blocks by their mean work time. A file that cannot be opened is reported, not ignored.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "framework/backends/cuda/perks_trace.hpp"

namespace perksolve::cuda_detail {
namespace {

struct SweepRow {
  long sweep = -1;
  double wmin = 0, wmean = 0, wmax = 0, spread = 0, barrier = 0, span = 0;
  int slowest = -1;
};

std::vector<SweepRow> sweep_rows(const std::string& text) {
  std::vector<SweepRow> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    SweepRow r;
    if (std::sscanf(line.c_str(), " %ld %lf %lf %lf %d %lf %lf %lf", &r.sweep, &r.wmin, &r.wmean, &r.wmax, &r.slowest,
                    &r.spread, &r.barrier, &r.span) == 8)
      rows.push_back(r);
  }
  return rows;
}

TEST(PerksTrace, SummarisesTheBlocksStampsPerSweep) {
  constexpr int blocks = 3;
  std::vector<unsigned long long> stamps(perks_trace_slots(blocks), 0);
  auto set = [&](long t, int b, unsigned long long start, unsigned long long arrive, unsigned long long leave) {
    const std::size_t i = (static_cast<std::size_t>(t) * blocks + b) * kPerksStampsPerSweep;
    stamps[i] = start, stamps[i + 1] = arrive, stamps[i + 2] = leave;
  };
  set(0, 0, 0, 10000, 12000), set(0, 1, 0, 11000, 12000), set(0, 2, 0, 9000, 12500);
  set(1, 0, 12000, 20000, 30000), set(1, 1, 12000, 26000, 30500), set(1, 2, 12500, 22000, 30000);
  set(2, 0, 30000, 40000, 41000), set(2, 1, 30500, 39000, 41000), set(2, 2, 30000, 40000, 41000);
  const std::string path = ::testing::TempDir() + "perks_trace_test.txt";
  std::remove(path.c_str());
  ASSERT_TRUE(append_perks_trace(path, "resident", "2d5pt fp64 apply", blocks, 3, stamps));
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("resident kernel, 2d5pt fp64 apply, 3 blocks, 3 sweeps (first 3 traced)"), std::string::npos)
      << text;
  const std::vector<SweepRow> rows = sweep_rows(text);
  ASSERT_EQ(rows.size(), 3u) << text;
  // Sweep 1: work 8, 14, 9.5 us; arrivals 20-26 us; first departure 30 us; from 12 to 30.5 us.
  EXPECT_EQ(rows[1].sweep, 1);
  EXPECT_DOUBLE_EQ(rows[1].wmin, 8.0);
  EXPECT_DOUBLE_EQ(rows[1].wmean, 10.5);
  EXPECT_DOUBLE_EQ(rows[1].wmax, 14.0);
  EXPECT_EQ(rows[1].slowest, 1);
  EXPECT_DOUBLE_EQ(rows[1].spread, 6.0);
  EXPECT_DOUBLE_EQ(rows[1].barrier, 4.0);
  EXPECT_DOUBLE_EQ(rows[1].span, 18.5);
  // Sweep 2: the first of two equally slow blocks is named.
  EXPECT_EQ(rows[2].slowest, 0);
  EXPECT_DOUBLE_EQ(rows[2].wmin, 8.5);
  // The mean leaves out sweep 0 (whole-domain load, launch skew).
  const std::string mean =
      "mean of sweeps 1..2: work mean 10.00, max 12.00; arrivals spread 3.50; barrier 2.50; span 14.75";
  EXPECT_NE(text.find(mean), std::string::npos) << text;
  // Per block over sweeps 1..2: block 1 (14, 8.5), block 2 (9.5, 10), block 0 (8, 10), the slowest first.
  EXPECT_NE(text.find("blocks by mean work of sweeps 1..2 (block:us), slowest: 1:11.25 2:9.75 0:9.00\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("phases of"), std::string::npos) << "no phase stamps, no phase lines";
  // Appends: a second launch adds its own table.
  ASSERT_TRUE(append_perks_trace(path, "pipelined", "3d7pt fp32 jacobi", blocks, 1, stamps));
  std::ifstream again(path);
  const std::string both((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
  EXPECT_NE(both.find("pipelined kernel, 3d7pt fp32 jacobi, 3 blocks, 1 sweeps (first 1 traced)"), std::string::npos);
  EXPECT_EQ(sweep_rows(both).size(), 4u);
  std::remove(path.c_str());
}

TEST(PerksTrace, ListsTheSlowestMedianAndFastestBlocks) {
  // 13 blocks, 3 sweeps: block b works 10 + b us at every sweep, block 7 40 us at sweep 1 and 10 us at sweep 2 (mean
  // 25); sweep 0 (left out of the means) has every block at 100 us.
  constexpr int blocks = 13;
  std::vector<unsigned long long> stamps(perks_trace_slots(blocks), 0);
  for (long t = 0; t < 3; ++t)
    for (int b = 0; b < blocks; ++b) {
      const unsigned long long start = 1000000ull * static_cast<unsigned long long>(t);
      const unsigned long long work = t == 0 ? 100000ull : b == 7 ? (t == 1 ? 40000ull : 10000ull) : 1000ull * (10 + b);
      const std::size_t i = (static_cast<std::size_t>(t) * blocks + b) * kPerksStampsPerSweep;
      stamps[i] = start, stamps[i + 1] = start + work, stamps[i + 2] = start + 200000;
    }
  const std::string path = ::testing::TempDir() + "perks_trace_blocks.txt";
  std::remove(path.c_str());
  ASSERT_TRUE(append_perks_trace(path, "pipelined", "2d17pt fp32 jacobi", blocks, 3, stamps));
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Slowest first: 7 (25), then 12, 11, ..., 6 (eight in all); the median of the 13 (index 6 of the sorted list:
  // 25, 22, 21, 20, 19, 18, 16, ...) is block 6 at 16; the four fastest are blocks 3, 2, 1, 0.
  EXPECT_NE(text.find("blocks by mean work of sweeps 1..2 (block:us), slowest: 7:25.00 12:22.00 11:21.00 10:20.00 "
                      "9:19.00 8:18.00 6:16.00 5:15.00; median 16.00; fastest: 3:13.00 2:12.00 1:11.00 0:10.00\n"),
            std::string::npos)
      << text;
  std::remove(path.c_str());
}

TEST(PerksTrace, TracesAtMostTheFirstSweepsAndReportsAFileItCannotOpen) {
  std::vector<unsigned long long> stamps(perks_trace_slots(1), 0);
  const std::string path = ::testing::TempDir() + "perks_trace_many.txt";
  std::remove(path.c_str());
  ASSERT_TRUE(append_perks_trace(path, "resident", "3d7pt fp64 apply", 1, 1000, stamps));
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("1000 sweeps (first 64 traced)"), std::string::npos) << text;
  EXPECT_EQ(sweep_rows(text).size(), static_cast<std::size_t>(kPerksTracedSweeps));
  std::remove(path.c_str());
  EXPECT_FALSE(append_perks_trace("/nonexistent-dir/perks_trace.txt", "resident", "x", 1, 1, stamps));
}

TEST(PerksTrace, SplitsTheResidentBlocksWorkIntoPhases) {
  // 3 blocks, 3 sweeps of 10 us each from t * 10 us. Block b: loads 1 + b us, plane loop 5 us, fill 2 us (block 2:
  // 3 us), step to the sweep's end. Sweep 0 is left out of the means. Kernels without the phase stamps (zero) print
  // no phase lines (the test above).
  constexpr int blocks = 3;
  std::vector<unsigned long long> stamps(perks_trace_slots(blocks), 0);
  for (long t = 0; t < 3; ++t)
    for (int b = 0; b < blocks; ++b) {
      const unsigned long long us = 1000, s = 10 * us * static_cast<unsigned long long>(t);
      const unsigned long long loads = s + (1 + b) * us, loop = loads + 5 * us, done = loop + (b == 2 ? 3 : 2) * us;
      const std::size_t i = (static_cast<std::size_t>(t) * blocks + b) * kPerksStampsPerSweep;
      stamps[i] = s, stamps[i + 1] = done, stamps[i + 2] = s + 10 * us, stamps[i + 3] = loads, stamps[i + 4] = loop;
    }
  const std::string path = ::testing::TempDir() + "perks_trace_phases.txt";
  std::remove(path.c_str());
  ASSERT_TRUE(append_perks_trace(path, "resident", "3d13pt fp64 apply", blocks, 3, stamps));
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Work: block 0 8 us, block 1 9, block 2 11: slowest block 2, median block 1.
  EXPECT_NE(text.find("phases of sweeps 1..2, block mean: loads 2.00, plane loop 5.00, fill and stores 2.33, step 0.67\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("phases of sweeps 1..2, median block 1: loads 2.00, plane loop 5.00, fill and stores 2.00, step "
                      "1.00\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("phases of sweeps 1..2, slowest block 2: loads 3.00, plane loop 5.00, fill and stores 3.00, step "
                      "-1.00\n"),
            std::string::npos)
      << text;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace perksolve::cuda_detail
