// Stopping criteria as composable objects (max iterations, relative / absolute residual, wall time,
// divergence). A solver asks `check(state)` after each residual evaluation.
#pragma once

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "framework/config/deck.hpp"

namespace perksolve {

enum class StopReason {
  none,
  converged_rtol,   // ||r|| <= rtol * ||r0||
  converged_atol,   // ||r|| <= atol
  completed_steps,  // fixed-step iteration finished its steps
  max_iterations,
  walltime,
  diverged_nan,     // residual NaN or Inf
  diverged_dtol,    // residual grew by more than dtol * ||r0||
  breakdown,        // algorithmic breakdown (e.g. p.Ap <= 0 in CG)
  interrupted,      // stopped by a signal or the output layer after writing a checkpoint
};

bool is_converged(StopReason r);
std::string to_string(StopReason r);  // PETSc-like: "CONVERGED_RTOL", "DIVERGED_ITS", ...

struct IterationState {
  long iteration = 0;
  double residual = 0.0;          // current ||r||_2
  double initial_residual = 0.0;  // ||r0||_2
  double elapsed_s = 0.0;
};

// The residual thresholds of a criterion, for solvers that test them inside a backend loop (a persistent
// kernel): stop when ||r|| <= below, ||r|| > above, or ||r|| is not finite. The solver still calls check()
// on the state the backend hands back, so these only decide where a backend loop ends early.
struct ResidualThresholds {
  double below = -1.0;
  double above = 1e300;
};

class StoppingCriterion {
 public:
  virtual ~StoppingCriterion() = default;
  virtual StopReason check(const IterationState& s) const = 0;
  virtual std::string describe() const = 0;
  // Narrows `t` by this criterion's residual tests for the initial residual r0 (default: none).
  virtual void narrow(ResidualThresholds& t, double r0) const {
    (void)t, (void)r0;
  }
};

// The iteration limit of `stop` (a MaxIterations, or the first one inside an AnyOf), or -1 when it has none.
long iteration_limit(const StoppingCriterion& stop);

// The in-kernel stopping test of a persistent backend loop (PersistentCgRequest, PersistentSweepsRequest):
// the loop's first iteration number, the check interval, and the thresholds of `stop` for initial residual r0.
template <class Request>
void set_in_kernel_stop(Request& req, long first, long check_every, const StoppingCriterion& stop, double r0) {
  req.first = first;
  req.check_every = static_cast<int>(std::min<long>(check_every, INT_MAX));
  ResidualThresholds th;
  stop.narrow(th, r0);
  req.stop_abs = th.below;
  req.stop_div = th.above;
}

class MaxIterations final : public StoppingCriterion {
 public:
  explicit MaxIterations(long n) : n_(n) {}
  StopReason check(const IterationState& s) const override;
  std::string describe() const override;
  long limit() const { return n_; }

 private:
  long n_;
};

class RelativeResidual final : public StoppingCriterion {
 public:
  explicit RelativeResidual(double rtol) : rtol_(rtol) {}
  StopReason check(const IterationState& s) const override;
  std::string describe() const override;
  void narrow(ResidualThresholds& t, double r0) const override { t.below = std::max(t.below, rtol_ * r0); }

 private:
  double rtol_;
};

class AbsoluteResidual final : public StoppingCriterion {
 public:
  explicit AbsoluteResidual(double atol) : atol_(atol) {}
  StopReason check(const IterationState& s) const override;
  std::string describe() const override;
  void narrow(ResidualThresholds& t, double) const override { t.below = std::max(t.below, atol_); }

 private:
  double atol_;
};

class WallTime final : public StoppingCriterion {
 public:
  explicit WallTime(double seconds) : seconds_(seconds) {}
  StopReason check(const IterationState& s) const override;
  std::string describe() const override;

 private:
  double seconds_;
};

class Divergence final : public StoppingCriterion {
 public:
  explicit Divergence(double dtol) : dtol_(dtol) {}
  StopReason check(const IterationState& s) const override;
  std::string describe() const override;
  void narrow(ResidualThresholds& t, double r0) const override { if (r0 > 0) t.above = std::min(t.above, dtol_ * r0); }

 private:
  double dtol_;
};

// Stops at the first criterion that fires; order matters (convergence is checked before limits).
class AnyOf final : public StoppingCriterion {
 public:
  AnyOf& add(std::unique_ptr<StoppingCriterion> c) {
    all_.push_back(std::move(c));
    return *this;
  }
  StopReason check(const IterationState& s) const override;
  std::string describe() const override;
  void narrow(ResidualThresholds& t, double r0) const override {
    for (const auto& c : all_) c->narrow(t, r0);
  }
  long max_iterations() const;  // from the first MaxIterations member, or -1

 private:
  std::vector<std::unique_ptr<StoppingCriterion>> all_;
};

// From [solver.stop]: divergence guard, rtol, atol (when > 0), max_iterations, walltime_s (when > 0).
std::unique_ptr<AnyOf> stopping_from_deck(const config::Deck& deck);

}  // namespace perksolve
