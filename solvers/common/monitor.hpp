// PETSc-style monitor lines ("  120 jacobi residual norm 3.1e-05 rel 2.4e-07"), a progress line for
// long runs, printed on rank 0.
#pragma once

#include <string>

#include "framework/util/timers.hpp"
#include "solvers/common/stopping.hpp"

namespace perksolve {

class Monitor {
 public:
  // every: monitor line every N iterations (0 = none); progress_s: progress line interval (0 = off).
  Monitor(std::string solver_name, long every, double progress_s, bool quiet, long max_iterations);
  // Called by the solver after each residual evaluation.
  void iteration(const IterationState& s);
  // Time-stepping progress (no residual): monitor line every N steps, progress line as above.
  void step(long step, long total_steps, double time, double elapsed_s);
  // Final line: converged reason, iterations, residuals.
  void finish(const IterationState& s, StopReason reason);

 private:
  std::string name_;
  long every_;
  double progress_s_;
  bool quiet_;
  long max_iterations_;
  double next_progress_ = 0.0;
};

}  // namespace perksolve
