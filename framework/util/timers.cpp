#include "framework/util/timers.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace perksolve {

void Timers::add(const std::string& name, double seconds, double cells, double bytes) {
  auto [it, inserted] = entries_.try_emplace(name);
  if (inserted) order_.push_back(name);
  it->second.calls += 1;
  it->second.seconds += seconds;
  it->second.cells += cells;
  it->second.bytes += bytes;
}

void Timers::declare(const std::string& name) {
  if (entries_.try_emplace(name).second) order_.push_back(name);
}

std::string Timers::table(MPI_Comm comm, const std::string& title) const {
  // Every rank must call this with the same timer names (the solvers time the same phases).
  std::string out = fmt::format("{}\n", title);
  out += fmt::format("  {:<24} {:>8} {:>12} {:>12} {:>12} {:>10} {:>10}\n", "phase", "calls", "total [s]",
                     "per call [s]", "cells/s", "B/cell", "GB/s");
  if (!phases_enabled_) out += "  (phase timers off: monitor.phase_timers; only set-up, output and totals are timed)\n";
  for (const std::string& name : order_) {
    const Entry& e = entries_.at(name);
    long calls_max = 0;
    MPI_Allreduce(&e.calls, &calls_max, 1, MPI_LONG, MPI_MAX, comm);
    if (!phases_enabled_ && calls_max == 0) continue;  // declared phases that were not timed
    double local[3] = {e.seconds, e.cells, e.bytes};
    double tmax = 0.0, sums[2] = {0.0, 0.0};
    MPI_Allreduce(&local[0], &tmax, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(&local[1], sums, 2, MPI_DOUBLE, MPI_SUM, comm);
    const double per_call = e.calls ? tmax / static_cast<double>(e.calls) : 0.0;
    std::string cells_s = "-", bpc = "-", gbs = "-";
    if (sums[0] > 0 && tmax > 0) cells_s = fmt::format("{:.3e}", sums[0] / tmax);
    if (sums[0] > 0 && sums[1] > 0) bpc = fmt::format("{:.1f}", sums[1] / sums[0]);
    if (sums[1] > 0 && tmax > 0) gbs = fmt::format("{:.2f}", sums[1] / tmax * 1e-9);
    out += fmt::format("  {:<24} {:>8} {:>12.4e} {:>12.4e} {:>12} {:>10} {:>10}\n", name, e.calls, tmax, per_call,
                       cells_s, bpc, gbs);
  }
  return out;
}

}  // namespace perksolve
