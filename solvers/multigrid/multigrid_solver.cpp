// Geometric multigrid as a stand-alone solver: one cycle per iteration (optionally starting with a
// full-multigrid pass), the residual norm measured after each.
#include <fmt/format.h>

#include <cmath>

#include "framework/operators/grid_operator.hpp"
#include "framework/solver/solver.hpp"
#include "framework/util/log.hpp"
#include "solvers/multigrid/mg_config.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace perksolve {
namespace {

class MultigridSolver final : public SolverBase<MultigridSolver> {
 public:
  MultigridSolver(MultigridConfig cfg, bool quiet) : cfg_(std::move(cfg)), quiet_(quiet) {}

  template <class Real>
  SolveResult run(System<Real>& sys) {
    auto* g = dynamic_cast<GridOperator<Real>*>(sys.A);
    if (!g)
      throw std::invalid_argument("multigrid needs a structured-grid problem (not an assembled matrix); use solver "
                                  "type \"cg\"");
    Backend<Real>& be = sys.backend;
    Multigrid<Real> mg(cfg_, *g, sys.problem, sys.timers);
    if (!quiet_) log::info(mg.describe());
    FieldPtr<Real> r = g->create_vector();

    SolverState<Real> state;
    state.fields = {{"x", &sys.x}};
    state.scalars = {{"initial_residual", 0.0}};
    IterationState st;
    long k = 0;
    if (sys.observer && sys.observer->restore(state)) {
      k = state.iteration;
      st.initial_residual = *state.scalar("initial_residual");
    }
    Stopwatch clock;
    SolveResult result;
    for (;; ++k) {
      g->residual(sys.b, sys.x, *r);
      st.iteration = k;
      st.residual = be.norm2(*r);
      if (k == 0) st.initial_residual = st.residual;
      st.elapsed_s = clock.seconds();
      sys.monitor.iteration(st);
      result.reason = sys.stop.check(st);
      if (result.reason != StopReason::none) break;
      {
        Timers::Scope t(sys.timers, k == 0 && cfg_.fmg ? "mg_fmg" : "mg_cycle");
        if (k == 0 && cfg_.fmg) mg.fmg(sys.b, sys.x);
        else mg.cycle(sys.b, sys.x);
      }
      if (sys.observer) {
        state.iteration = k + 1;
        *state.scalar("initial_residual") = st.initial_residual;
        if (sys.observer->after_iteration(state, st)) {
          st.iteration = k + 1;
          result.reason = StopReason::interrupted;
          break;
        }
      }
    }
    result.iterations = st.iteration;
    result.initial_residual = st.initial_residual;
    result.final_residual = st.residual;
    result.seconds = clock.seconds();
    sys.monitor.finish(st, result.reason);
    return result;
  }

 private:
  MultigridConfig cfg_;
  bool quiet_;
};

PERKSOLVE_REGISTER_SOLVER(SolverInfo{
    "multigrid",
    "geometric multigrid cycles (V, W, F; optional FMG start); smoother in [solver.smoother], coarse solve in "
    "[solver.coarse]",
    multigrid_keys(true),
    [](const config::Deck& deck) -> std::unique_ptr<Solver> {
      return std::make_unique<MultigridSolver>(multigrid_config_from_deck(deck, "solver"), deck.get_bool("monitor.quiet"));
    }});

}  // namespace
}  // namespace perksolve
