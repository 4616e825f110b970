#include "solvers/common/stopping.hpp"

#include <fmt/format.h>

#include <cmath>

namespace perksolve {

bool is_converged(StopReason r) {
  return r == StopReason::converged_rtol || r == StopReason::converged_atol || r == StopReason::completed_steps;
}

std::string to_string(StopReason r) {
  switch (r) {
    case StopReason::none: return "ITERATING";
    case StopReason::converged_rtol: return "CONVERGED_RTOL";
    case StopReason::converged_atol: return "CONVERGED_ATOL";
    case StopReason::completed_steps: return "COMPLETED_STEPS";
    case StopReason::max_iterations: return "DIVERGED_ITS (max_iterations reached)";
    case StopReason::walltime: return "DIVERGED_WALLTIME (walltime_s reached)";
    case StopReason::diverged_nan: return "DIVERGED_NANORINF";
    case StopReason::diverged_dtol: return "DIVERGED_DTOL";
    case StopReason::breakdown: return "DIVERGED_BREAKDOWN";
    case StopReason::interrupted: return "INTERRUPTED (checkpoint written)";
  }
  return "?";
}

StopReason MaxIterations::check(const IterationState& s) const {
  return s.iteration >= n_ ? StopReason::max_iterations : StopReason::none;
}
std::string MaxIterations::describe() const { return fmt::format("iterations >= {}", n_); }

StopReason RelativeResidual::check(const IterationState& s) const {
  return s.residual <= rtol_ * s.initial_residual ? StopReason::converged_rtol : StopReason::none;
}
std::string RelativeResidual::describe() const { return fmt::format("||r|| <= {:g} ||r0||", rtol_); }

StopReason AbsoluteResidual::check(const IterationState& s) const {
  return s.residual <= atol_ ? StopReason::converged_atol : StopReason::none;
}
std::string AbsoluteResidual::describe() const { return fmt::format("||r|| <= {:g}", atol_); }

StopReason WallTime::check(const IterationState& s) const {
  return s.elapsed_s >= seconds_ ? StopReason::walltime : StopReason::none;
}
std::string WallTime::describe() const { return fmt::format("elapsed >= {:g} s", seconds_); }

StopReason Divergence::check(const IterationState& s) const {
  if (!std::isfinite(s.residual)) return StopReason::diverged_nan;
  if (s.initial_residual > 0 && s.residual > dtol_ * s.initial_residual) return StopReason::diverged_dtol;
  return StopReason::none;
}
std::string Divergence::describe() const { return fmt::format("||r|| > {:g} ||r0|| or not finite", dtol_); }

StopReason AnyOf::check(const IterationState& s) const {
  for (const auto& c : all_) {
    const StopReason r = c->check(s);
    if (r != StopReason::none) return r;
  }
  return StopReason::none;
}

std::string AnyOf::describe() const {
  std::string d;
  for (const auto& c : all_) d += (d.empty() ? "" : " or ") + c->describe();
  return d;
}

long AnyOf::max_iterations() const {
  for (const auto& c : all_)
    if (auto* m = dynamic_cast<const MaxIterations*>(c.get())) return m->limit();
  return -1;
}

long iteration_limit(const StoppingCriterion& stop) {
  if (const auto* any = dynamic_cast<const AnyOf*>(&stop)) return any->max_iterations();
  if (const auto* max = dynamic_cast<const MaxIterations*>(&stop)) return max->limit();
  return -1;
}

std::unique_ptr<AnyOf> stopping_from_deck(const config::Deck& deck) {
  auto any = std::make_unique<AnyOf>();
  any->add(std::make_unique<Divergence>(1e10));
  const double rtol = deck.get_real("solver.stop.rtol");
  const double atol = deck.get_real("solver.stop.atol");
  if (rtol > 0) any->add(std::make_unique<RelativeResidual>(rtol));
  if (atol > 0) any->add(std::make_unique<AbsoluteResidual>(atol));
  any->add(std::make_unique<MaxIterations>(deck.get_int("solver.stop.max_iterations")));
  const double wall = deck.get_real("solver.stop.walltime_s");
  if (wall > 0) any->add(std::make_unique<WallTime>(wall));
  return any;
}

}  // namespace perksolve
