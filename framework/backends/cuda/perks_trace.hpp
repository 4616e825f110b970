// PERKSOLVE_PERKS_TRACE=file: where the sweeps of a persistent PERKS stencil launch (resident, pipelined or streaming
// kernel) spend their time, per block. Thread 0 of every block stamps the device clock (%globaltimer, ns) at the
// start of each sweep, when the whole block has finished the sweep (arrival at the device-wide barrier) and when it
// leaves that barrier (perks_stamp, perks_sweep_common.cuh). For the first kPerksTracedSweeps sweeps this appends
// to the file, per sweep: the blocks' work time (arrival - start: min, mean, max, and the slowest block), the spread
// of the arrivals, the barrier's own latency (first departure - last arrival) and the sweep's span; then the means
// over the sweeps after the first, and the slowest, median and fastest blocks by their mean work time. The resident
// kernel also stamps the ends of its loads (face planes included) and of its plane loop, so that the work of its mean,
// median and slowest blocks splits into loads, plane loop and the rest (ghost fill, stores; then the step between
// sweeps: the flags and the wait for the neighbours, or the device-wide barrier). A traced launch
// has one more block barrier per sweep than an untraced one. The stamps exist only in a diagnostic build
// (-DPERKSOLVE_PERKS_TRACE=ON defines PERKSOLVE_PERKS_TRACE_BUILD): compiled in, they slowed kernels at their register
// bound even with tracing off (docs/perf/perks.md). This header is host code only (the summary and the buffer's size).
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace perksolve::cuda_detail {

inline constexpr int kPerksTracedSweeps = 64;
inline constexpr int kPerksStampsPerSweep = 5;  // start, arrival, departure; resident: loads done, plane loop done

// Slots per traced launch for `blocks` blocks.
inline std::size_t perks_trace_slots(int blocks) {
  return static_cast<std::size_t>(kPerksTracedSweeps) * kPerksStampsPerSweep * static_cast<std::size_t>(blocks);
}

// `stamps` holds stamp k of block b at sweep t at (t * blocks + b) * kPerksStampsPerSweep + k. Returns false where
// the file cannot be opened.
inline bool append_perks_trace(const std::string& path, const char* kernel, const char* shape, int blocks, long sweeps,
                               const std::vector<unsigned long long>& stamps) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (f == nullptr) return false;
  const long traced = std::min<long>(sweeps, kPerksTracedSweeps);
  std::fprintf(f, "perks trace: %s kernel, %s, %d blocks, %ld sweeps (first %ld traced); us\n", kernel, shape, blocks,
               sweeps, traced);
  std::fprintf(f, "  sweep  work_min work_mean  work_max slowest  arrivals_spread  barrier  span\n");
  double sum_mean = 0, sum_max = 0, sum_spread = 0, sum_barrier = 0, sum_span = 0;
  long counted = 0;
  std::vector<double> block_work(static_cast<std::size_t>(blocks), 0.0);  // per block, over the sweeps after the first
  // Stamp k of block b at sweep t (ns).
  auto stamp = [&](long t, int b, int k) {
    return static_cast<double>(stamps[(static_cast<std::size_t>(t) * blocks + b) * kPerksStampsPerSweep + k]);
  };
  for (long t = 0; t < traced; ++t) {
    auto at = [&](int b, int k) { return stamp(t, b, k); };
    double wmin = 1e300, wmax = -1e300, wsum = 0, amin = 1e300, amax = -1e300, lmin = 1e300, lmax = -1e300,
           smin = 1e300;
    int slowest = 0;
    for (int b = 0; b < blocks; ++b) {
      const double w = at(b, 1) - at(b, 0);
      wsum += w;
      if (t > 0) block_work[static_cast<std::size_t>(b)] += w;
      if (w < wmin) wmin = w;
      if (w > wmax) wmax = w, slowest = b;
      amin = std::min(amin, at(b, 1)), amax = std::max(amax, at(b, 1));
      lmin = std::min(lmin, at(b, 2)), lmax = std::max(lmax, at(b, 2));
      smin = std::min(smin, at(b, 0));
    }
    const double us = 1e-3, wmean = wsum / blocks;
    std::fprintf(f, "  %5ld %9.2f %9.2f %9.2f %7d %16.2f %8.2f %6.2f\n", t, wmin * us, wmean * us, wmax * us, slowest,
                 (amax - amin) * us, (lmin - amax) * us, (lmax - smin) * us);
    if (t > 0) {  // the first sweep loads the whole domain (resident) and meets the blocks' launch skew
      sum_mean += wmean * us, sum_max += wmax * us, sum_spread += (amax - amin) * us;
      sum_barrier += (lmin - amax) * us, sum_span += (lmax - smin) * us;
      ++counted;
    }
  }
  if (counted > 0) {
    std::fprintf(f,
                 "  mean of sweeps 1..%ld: work mean %.2f, max %.2f; arrivals spread %.2f; barrier %.2f; span %.2f\n",
                 traced - 1, sum_mean / counted, sum_max / counted, sum_spread / counted, sum_barrier / counted,
                 sum_span / counted);
    // Which blocks pace the sweeps: each block's work time averaged over the same sweeps, the slowest first.
    std::vector<std::pair<double, int>> per_block(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b)
      per_block[static_cast<std::size_t>(b)] = {block_work[static_cast<std::size_t>(b)] * 1e-3 / counted, b};
    std::stable_sort(per_block.begin(), per_block.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    constexpr int kSlowest = 8, kFastest = 4;
    std::fprintf(f, "  blocks by mean work of sweeps 1..%ld (block:us), slowest:", traced - 1);
    for (int k = 0; k < std::min(blocks, kSlowest); ++k)
      std::fprintf(f, " %d:%.2f", per_block[static_cast<std::size_t>(k)].second,
                   per_block[static_cast<std::size_t>(k)].first);
    if (blocks > kSlowest + kFastest) {
      std::fprintf(f, "; median %.2f; fastest:", per_block[static_cast<std::size_t>(blocks / 2)].first);
      for (int k = blocks - kFastest; k < blocks; ++k)
        std::fprintf(f, " %d:%.2f", per_block[static_cast<std::size_t>(k)].second,
                     per_block[static_cast<std::size_t>(k)].first);
    }
    std::fprintf(f, "\n");
    // The phases (resident kernel: stamps 3 and 4 set), per block over the same sweeps.
    auto phases = [&](int b, double (&ph)[4]) {
      for (double& v : ph) v = 0;
      for (long t = 1; t < traced; ++t) {
        auto at = [&](int k) { return stamp(t, b, k); };
        ph[0] += at(3) - at(0), ph[1] += at(4) - at(3), ph[2] += at(1) - at(4), ph[3] += at(2) - at(1);
      }
      for (double& v : ph) v *= 1e-3 / counted;
    };
    bool staged = false;
    for (long t = 1; t < traced && !staged; ++t)
      for (int b = 0; b < blocks && !staged; ++b)
        staged = stamp(t, b, 3) != 0;
    if (staged) {
      double mean[4] = {0, 0, 0, 0};
      for (int b = 0; b < blocks; ++b) {
        double ph[4];
        phases(b, ph);
        for (int k = 0; k < 4; ++k) mean[k] += ph[k] / blocks;
      }
      auto line = [&](const char* who, const double (&ph)[4]) {
        std::fprintf(f, "  phases of sweeps 1..%ld, %s: loads %.2f, plane loop %.2f, fill and stores %.2f, step %.2f\n",
                     traced - 1, who, ph[0], ph[1], ph[2], ph[3]);
      };
      line("block mean", mean);
      double ph[4];
      char who[64];
      const int median = per_block[static_cast<std::size_t>(blocks / 2)].second;
      phases(median, ph);
      std::snprintf(who, sizeof who, "median block %d", median);
      line(who, ph);
      const int slowest = per_block[0].second;
      phases(slowest, ph);
      std::snprintf(who, sizeof who, "slowest block %d", slowest);
      line(who, ph);
    }
  }
  std::fclose(f);
  return true;
}

}  // namespace perksolve::cuda_detail
