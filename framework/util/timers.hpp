// Named wall-clock timers with a traffic model, printed as the final timer table:
// calls, total and per-call time, cells/s, bytes moved per cell and the resulting GB/s.
#pragma once

#include <mpi.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace perksolve {

class Timers {
 public:
  struct Entry {
    long calls = 0;
    double seconds = 0.0;
    double cells = 0.0;  // cells processed (sum over calls)
    double bytes = 0.0;  // bytes moved by the model (sum over calls)
  };

  // Adds one measured interval. `cells` and `bytes` describe the work of this rank.
  void add(const std::string& name, double seconds, double cells = 0.0, double bytes = 0.0);
  // Creates the entry (0 calls) if absent, so that ranks which skip a phase (e.g. idle on an
  // agglomerated multigrid level) still list it in the same order: table() needs equal names.
  void declare(const std::string& name);
  const std::map<std::string, Entry>& entries() const { return entries_; }
  // Reduces over ranks (max time, summed cells/bytes) and prints the table on rank 0.
  std::string table(MPI_Comm comm, const std::string& title) const;

  // Asynchronous backends (CUDA) return before their kernels finish: with a fence set, every Scope
  // waits for outstanding device work at its start and end, so each phase is timed honestly.
  void set_fence(std::function<void()> fence) { fence_ = std::move(fence); }
  // Phase timers off: Scopes neither fence nor record (on an asynchronous backend each fence drains the
  // device queue and costs a host round trip, ~10 us per phase boundary). add() still records.
  void set_phases_enabled(bool on) { phases_enabled_ = on; }
  bool phases_enabled() const { return phases_enabled_; }

  class Scope {
   public:
    Scope(Timers& t, std::string name, double cells = 0.0, double bytes = 0.0)
        : t_(t), name_(std::move(name)), cells_(cells), bytes_(bytes), start_(fenced_now(t)) {}
    ~Scope() {
      if (!t_.phases_enabled_) return;
      if (t_.fence_) t_.fence_();
      t_.add(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(), cells_, bytes_);
    }

   private:
    static std::chrono::steady_clock::time_point fenced_now(Timers& t) {
      if (!t.phases_enabled_) return {};
      if (t.fence_) t.fence_();
      return std::chrono::steady_clock::now();
    }
    Timers& t_;
    std::string name_;
    double cells_, bytes_;
    std::chrono::steady_clock::time_point start_;
  };

 private:
  std::function<void()> fence_;
  bool phases_enabled_ = true;
  std::map<std::string, Entry> entries_;
  std::vector<std::string> order_;
};

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void reset() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace perksolve
