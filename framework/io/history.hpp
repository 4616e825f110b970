// Residual / timer history per iteration (CSV, rank 0) and helpers for the JSON run summary.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "framework/util/timers.hpp"

namespace perksolve::io {

// PREFIX_history.csv: iteration, residual, relative residual, elapsed time, time of the iteration and
// the seconds each timer accumulated during it (rank 0's timers). On restart the rows up to the
// restart iteration are kept and the new ones appended, so the history reads as one run.
class HistoryCsv {
 public:
  // `restart_iteration` < 0: a fresh run (the file is replaced).
  HistoryCsv(std::string path, long restart_iteration);
  ~HistoryCsv();
  void row(long iteration, double residual, double initial_residual, double elapsed_s, const Timers& timers);
  void flush();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  long restart_iteration_;
  bool started_ = false;
  std::vector<std::string> timer_names_;
  std::vector<double> last_seconds_;
  double last_elapsed_ = 0.0;
  std::string buffer_;
  Stopwatch since_flush_;
};

struct TimerSummary {
  std::string name;
  long calls = 0;
  double seconds = 0.0;  // max over ranks
  double cells = 0.0, bytes = 0.0;  // sums over ranks
};
// Collective: every rank must hold the same timer names (as for Timers::table).
std::vector<TimerSummary> reduce_timers(const Timers& t, MPI_Comm comm);

std::string json_string(const std::string& s);  // quoted and escaped
std::string json_number(double v);              // null for NaN/Inf

}  // namespace perksolve::io
