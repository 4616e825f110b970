#include "solvers/common/monitor.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "framework/util/log.hpp"

namespace perksolve {

Monitor::Monitor(std::string solver_name, long every, double progress_s, bool quiet, long max_iterations)
    : name_(std::move(solver_name)), every_(every), progress_s_(progress_s), quiet_(quiet),
      max_iterations_(max_iterations), next_progress_(progress_s) {}

void Monitor::iteration(const IterationState& s) {
  if (quiet_) return;
  const double rel = s.initial_residual > 0 ? s.residual / s.initial_residual : 0.0;
  if (every_ > 0 && s.iteration % every_ == 0)
    log::info(fmt::format("{:6d} {} residual norm {:.12e} rel {:.3e}", s.iteration, name_, s.residual, rel));
  if (progress_s_ > 0 && s.elapsed_s >= next_progress_) {
    next_progress_ = s.elapsed_s + progress_s_;
    std::string of = max_iterations_ > 0 ? fmt::format("/{}", max_iterations_) : "";
    log::info(fmt::format("progress: {} iteration {}{}, rel residual {:.3e}, {:.1f} s elapsed, {:.3g} it/s", name_,
                          s.iteration, of, rel, s.elapsed_s, s.elapsed_s > 0 ? s.iteration / s.elapsed_s : 0.0));
  }
}

void Monitor::step(long step, long total_steps, double time, double elapsed_s) {
  if (quiet_) return;
  if (every_ > 0 && step % every_ == 0) log::info(fmt::format("{:6d} {} t = {:.6e}", step, name_, time));
  if (progress_s_ > 0 && elapsed_s >= next_progress_) {
    next_progress_ = elapsed_s + progress_s_;
    log::info(fmt::format("progress: {} step {}/{} ({:.1f} %), t = {:.4e}, {:.1f} s elapsed, ETA {:.1f} s", name_, step,
                          total_steps, 100.0 * step / std::max(total_steps, 1L), time, elapsed_s,
                          step > 0 ? elapsed_s * (total_steps - step) / step : 0.0));
  }
}

void Monitor::finish(const IterationState& s, StopReason reason) {
  const double rel = s.initial_residual > 0 ? s.residual / s.initial_residual : 0.0;
  log::info(fmt::format("{} {} due to {} iterations {}; residual norm {:.6e} (initial {:.6e}, rel {:.3e}); {:.3f} s",
                        name_, is_converged(reason) ? "converged" : "did not converge", to_string(reason), s.iteration,
                        s.residual, s.initial_residual, rel, s.elapsed_s));
}

}  // namespace perksolve
