#include "framework/io/history.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace perksolve::io {

HistoryCsv::HistoryCsv(std::string path, long restart_iteration)
    : path_(std::move(path)), restart_iteration_(restart_iteration) {}

HistoryCsv::~HistoryCsv() {
  try {
    flush();
  } catch (...) {
  }
}

void HistoryCsv::row(long iteration, double residual, double initial_residual, double elapsed_s, const Timers& timers) {
  if (!started_) {
    started_ = true;
    for (const auto& [name, e] : timers.entries())
      if (name != "setup" && name != "output" && name != "checkpoint") timer_names_.push_back(name);
    timer_names_.push_back("output");
    timer_names_.push_back("checkpoint");
    std::string header = "iteration,residual,relative_residual,elapsed_s,iteration_s";
    for (const auto& n : timer_names_) header += "," + n + "_s";
    std::string kept;
    if (restart_iteration_ >= 0) {
      // Keep the earlier run's rows up to the restart point when the columns match.
      std::ifstream in(path_);
      std::string line;
      if (in && std::getline(in, line) && line == header)
        while (std::getline(in, line)) {
          const long it = std::atol(line.c_str());
          if (it <= restart_iteration_) kept += line + "\n";
        }
    }
    std::ofstream out(path_, std::ios::trunc);
    out << header << "\n" << kept;
    if (!out) throw std::runtime_error("cannot write " + path_);
    last_elapsed_ = 0.0;
  }
  if (last_seconds_.empty()) last_seconds_.assign(timer_names_.size(), 0.0);
  const double rel = initial_residual > 0 ? residual / initial_residual : 0.0;
  buffer_ += fmt::format("{},{:.17g},{:.17g},{:.9g},{:.9g}", iteration, residual, rel, elapsed_s,
                         elapsed_s - last_elapsed_);
  last_elapsed_ = elapsed_s;
  const auto& entries = timers.entries();
  for (size_t i = 0; i < timer_names_.size(); ++i) {
    const auto it = entries.find(timer_names_[i]);
    const double s = it == entries.end() ? 0.0 : it->second.seconds;
    buffer_ += fmt::format(",{:.6g}", s - last_seconds_[i]);
    last_seconds_[i] = s;
  }
  buffer_ += "\n";
  if (since_flush_.seconds() > 1.0 || buffer_.size() > (1u << 20)) flush();
}

void HistoryCsv::flush() {
  if (buffer_.empty()) return;
  std::ofstream out(path_, std::ios::app);
  out << buffer_;
  buffer_.clear();
  since_flush_.reset();
}

std::vector<TimerSummary> reduce_timers(const Timers& t, MPI_Comm comm) {
  std::vector<TimerSummary> out;
  for (const auto& [name, e] : t.entries()) {
    double secs = 0.0, sums[2] = {0.0, 0.0};
    double local[2] = {e.cells, e.bytes};
    MPI_Allreduce(&e.seconds, &secs, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(local, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
    out.push_back(TimerSummary{name, e.calls, secs, sums[0], sums[1]});
  }
  return out;
}

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) o += fmt::format("\\u{:04x}", static_cast<int>(c));
        else o += c;
    }
  }
  return o + "\"";
}

std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{:.17g}", v) : "null"; }

}  // namespace perksolve::io
