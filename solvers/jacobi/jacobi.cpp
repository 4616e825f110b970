// Weighted (damped) Jacobi: x <- x + omega D^{-1} (b - A x), D = diag(A). Each sweep fuses the
// residual norm of the current iterate, so the stopping test costs no extra pass over memory.
#include <cmath>
#include <utility>

#include "framework/solver/solver.hpp"

namespace perksolve {
namespace {

class Jacobi final : public SolverBase<Jacobi> {
 public:
  Jacobi(double omega, long check_every) : omega_(omega), check_every_(check_every) {}

  template <class Real>
  SolveResult run(System<Real>& sys) {
    Backend<Real>& be = sys.backend;
    const FieldLayout& layout = sys.x.layout();
    FieldPtr<Real> other = be.create_field(layout);
    be.copy(sys.x, *other);
    Field<Real>* x = &sys.x;
    Field<Real>* x_next = other.get();

    const double cells = static_cast<double>(layout.owned_size());
    const double sweep_bytes = 3.0 * sizeof(Real) * cells;  // read x and b, write x_next
    const double halo_bytes = 2.0 * static_cast<double>(sys.halo.bytes_per_exchange());

    // State for checkpoint/restart: the iterate and the initial residual norm.
    SolverState<Real> state;
    state.fields = {{"x", &sys.x}};
    state.scalars = {{"initial_residual", 0.0}};
    long k = 0;
    IterationState st;
    if (sys.observer && sys.observer->restore(state)) {
      k = state.iteration;
      st.initial_residual = *state.scalar("initial_residual");
    }

    Stopwatch clock;
    SolveResult result;
    for (;; ++k) {
      double rr;
      if (sys.A) {  // any linear operator (stencil, variable-coefficient stencil, sparse matrix)
        Timers::Scope t(sys.timers, "jacobi_sweep", cells, sweep_bytes);
        rr = sys.A->jacobi_sweep(static_cast<Real>(omega_), sys.b, *x, *x_next);
      } else {
        {
          Timers::Scope t(sys.timers, "halo_exchange", 0.0, halo_bytes);
          sys.halo.update(*x);
        }
        Timers::Scope t(sys.timers, "jacobi_sweep", cells, sweep_bytes);
        rr = be.jacobi_sweep(sys.op, static_cast<Real>(omega_), sys.b, *x, *x_next);
      }
      st.iteration = k;
      st.residual = std::sqrt(rr);
      if (k == 0) st.initial_residual = st.residual;
      st.elapsed_s = clock.seconds();
      if (k % check_every_ == 0) {
        sys.monitor.iteration(st);
        result.reason = sys.stop.check(st);
        if (result.reason != StopReason::none) break;  // keep x_k, whose residual was just measured
      }
      std::swap(x, x_next);
      if (sys.observer) {
        if (x != &sys.x) be.copy(*x, sys.x);  // the state's iterate lives in sys.x
        x = &sys.x;
        x_next = other.get();
        state.iteration = k + 1;
        *state.scalar("initial_residual") = st.initial_residual;
        if (sys.observer->after_iteration(state, st)) {
          st.iteration = k + 1;
          result.reason = StopReason::interrupted;
          break;
        }
      }
    }
    if (x != &sys.x) be.copy(*x, sys.x);
    result.iterations = st.iteration;
    result.initial_residual = st.initial_residual;
    result.final_residual = st.residual;
    result.seconds = clock.seconds();
    sys.monitor.finish(st, result.reason);
    return result;
  }

 private:
  double omega_;
  long check_every_;
};

PERKSOLVE_REGISTER_SOLVER(SolverInfo{
    "jacobi",
    "weighted Jacobi iteration x <- x + omega D^-1 (b - A x) with a fused residual norm",
    {config::exclusive_min(config::with_range(
        config::key_real("omega", 0.8, "damping factor omega, 0 < omega <= 2 (1 = plain Jacobi)"), 0.0, 2.0))},
    [](const config::Deck& deck) -> std::unique_ptr<Solver> {
      return std::make_unique<Jacobi>(deck.get_real("solver.omega"), deck.get_int("solver.stop.check_every"));
    }});

}  // namespace
}  // namespace perksolve
