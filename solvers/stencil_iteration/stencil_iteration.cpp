// Repeated application of the problem's update stencil, x <- S x, for a fixed number of steps:
// explicit time stepping (heat_gaussian) and the PERKS-style iterative stencil benchmark.
#include <utility>

#include "framework/solver/solver.hpp"
#include "framework/util/log.hpp"

namespace perksolve {
namespace {

class StencilIteration final : public SolverBase<StencilIteration> {
 public:
  StencilIteration(long steps, double walltime_s) : steps_(steps), walltime_s_(walltime_s) {}
  bool solves_linear_system() const override { return false; }

  template <class Real>
  SolveResult run(System<Real>& sys) {
    Backend<Real>& be = sys.backend;
    const FieldLayout& layout = sys.x.layout();
    FieldPtr<Real> other = be.create_field(layout);
    be.copy(sys.x, *other);
    Field<Real>* x = &sys.x;
    Field<Real>* x_next = other.get();
    const double cells = static_cast<double>(layout.owned_size());
    const double halo_bytes = 2.0 * static_cast<double>(sys.halo.bytes_per_exchange());
    SolverState<Real> state;
    state.fields = {{"x", &sys.x}};
    long n = 0;
    if (sys.observer && sys.observer->restore(state)) n = state.iteration;
    Stopwatch clock;
    SolveResult result;
    IterationState st;
    st.iteration = n;
    for (; n < steps_; ++n) {
      {
        Timers::Scope t(sys.timers, "halo_exchange", 0.0, halo_bytes);
        sys.halo.update(*x);
      }
      {
        Timers::Scope t(sys.timers, "apply_stencil", cells, 2.0 * sizeof(Real) * cells);
        be.apply_stencil(sys.op, *x, *x_next);
      }
      std::swap(x, x_next);
      st.iteration = n + 1;
      st.elapsed_s = clock.seconds();
      sys.monitor.step(n + 1, steps_, (n + 1) * sys.problem.time_step, st.elapsed_s);
      if (walltime_s_ > 0 && st.elapsed_s >= walltime_s_) {
        result.reason = StopReason::walltime;
        break;
      }
      if (sys.observer) {
        if (x != &sys.x) be.copy(*x, sys.x);
        x = &sys.x;
        x_next = other.get();
        state.iteration = n + 1;
        if (sys.observer->after_iteration(state, st)) {
          result.reason = StopReason::interrupted;
          break;
        }
      }
    }
    if (result.reason == StopReason::none) result.reason = StopReason::completed_steps;
    if (x != &sys.x) be.copy(*x, sys.x);
    result.iterations = st.iteration;
    result.seconds = clock.seconds();
    log::info(fmt::format("stencil_iteration {} after {} steps ({}), t = {:.6e}; {:.3f} s",
                          result.converged() ? "completed" : "stopped", result.iterations, to_string(result.reason),
                          result.iterations * sys.problem.time_step, result.seconds));
    return result;
  }

 private:
  long steps_;
  double walltime_s_;  // 0 = unlimited; residual-based criteria do not apply to fixed-step iteration
};

PERKSOLVE_REGISTER_SOLVER(SolverInfo{
    "stencil_iteration",
    "apply the problem's update stencil x <- S x for a fixed number of steps (explicit time stepping, "
    "stencil benchmarks); only [solver.stop] walltime_s applies",
    {config::with_range(config::key_int("steps", 100, "number of stencil applications"), 0, std::nullopt)},
    [](const config::Deck& deck) -> std::unique_ptr<Solver> {
      return std::make_unique<StencilIteration>(deck.get_int("solver.steps"), deck.get_real("solver.stop.walltime_s"));
    }});

}  // namespace
}  // namespace perksolve
