// Weighted (damped) Jacobi: x <- x + omega D^{-1} (b - A x), D = diag(A). Each sweep fuses the
// residual norm of the current iterate, so the stopping test costs no extra pass over memory.
//
// Persistent (PERKS): where the operator and backend have a backend loop (LinearOperator::persistent_jacobi:
// the cuda backend, a constant stencil, one rank, no periodic axis), chunks of sweeps run as one persistent
// kernel that keeps part of the iterate on chip and stops by itself when the residual thresholds are met.
// The sweeps are bit-identical to the loop below; the first sweep runs here (it measures ||r0||).
#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <utility>

#include "framework/solver/solver.hpp"
#include "framework/util/log.hpp"
#include "solvers/common/iteration_chunks.hpp"
#include "solvers/common/persistent_options.hpp"

namespace perksolve {
namespace {

class Jacobi final : public SolverBase<Jacobi> {
 public:
  Jacobi(double omega, long check_every, bool quiet, PersistentOptions persistent)
      : omega_(omega), check_every_(check_every), quiet_(quiet), persistent_(std::move(persistent)) {}

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
    bool have_r0 = false;
    if (sys.observer && sys.observer->restore(state)) {
      k = state.iteration;
      st.initial_residual = *state.scalar("initial_residual");
      have_r0 = true;
    }
    bool persistent = persistent_.mode != "off" && sys.A != nullptr;
    if (persistent_.mode == "on" && !sys.A)
      throw std::invalid_argument("jacobi: solver.persistent = \"on\" cannot be honoured: the run set-up gave no linear "
                                  "operator");
    IterationChunks chunks = IterationChunks::for_criterion(sys.stop, check_every_);
    double last_check_elapsed = 0.0;

    // After iteration k's sweep (x_next = x_{k+1}): hands x_{k+1} to the observer; true when the solve must stop.
    auto observer_stops = [&](long next) {
      if (x != &sys.x) be.copy(*x, sys.x);  // the state's iterate lives in sys.x
      x = &sys.x;
      x_next = other.get();
      state.iteration = next;
      *state.scalar("initial_residual") = st.initial_residual;
      return sys.observer->after_iteration(state, st);
    };

    Stopwatch clock;
    SolveResult result;
    for (;; ++k) {
      if (persistent && have_r0) {
        const long want = sys.observer ? sys.observer->next_wanted_iteration(k) : LONG_MAX;
        PersistentSweepsRequest req;
        req.sweeps = chunks.sweeps(k, want);
        set_in_kernel_stop(req, k, check_every_, sys.stop, st.initial_residual);
        req.cache_bytes = persistent_.cache_bytes;
        Stopwatch chunk_clock;
        PersistentSweeps run;
        {
          Timers::Scope t(sys.timers, "persistent_jacobi", cells * static_cast<double>(req.sweeps),
                          sweep_bytes * static_cast<double>(req.sweeps));
          run = sys.A->persistent_jacobi(static_cast<Real>(omega_), sys.b, *x, *x_next, req);
        }
        if (!run.ran) {
          if (persistent_.mode == "on")
            throw std::invalid_argument("jacobi: solver.persistent = \"on\" but backend '" + std::string(be.name()) +
                                        "' has no persistent Jacobi for this operator (it needs the cuda backend, a "
                                        "constant-coefficient stencil, one rank and no periodic axis)");
          persistent = false;  // sweep by sweep from here
        } else {
          if (!logged_ && !quiet_) {
            log::info(describe_launch("jacobi", run));
            logged_ = true;
          }
          chunks.took(chunk_clock.seconds());
          const long done = run.sweeps;
          const long last = k + done - 1;  // the last sweep's input: its residual is the last one measured
          // The monitor sees the checks inside the chunk. Their stopping tests cannot fire: the kernel tests the
          // residual thresholds itself, the chunk never passes the iteration limit's check, and the wall clock
          // is the one of the last check (a wall-time limit is tested at the chunk's end).
          for (long j = k; j < last; ++j) {
            if (j % check_every_ != 0) continue;
            IterationState mid = st;
            mid.iteration = j;
            mid.residual = std::sqrt(run.rr_history[static_cast<std::size_t>(j - k)]);
            mid.elapsed_s = last_check_elapsed;
            sys.monitor.iteration(mid);
          }
          st.iteration = last;
          st.residual = std::sqrt(run.last_rr);
          st.elapsed_s = clock.seconds();
          if (last % check_every_ == 0) {
            last_check_elapsed = st.elapsed_s;
            sys.monitor.iteration(st);
            result.reason = sys.stop.check(st);
          }
          if (result.reason != StopReason::none || run.stopped) {
            if (result.reason == StopReason::none)
              throw std::logic_error(fmt::format("jacobi: the persistent kernel stopped at iteration {} (||r|| = {:.6e}) "
                                                 "but the stopping criteria do not",
                                                 last, st.residual));
            if ((done - 1) % 2 == 1) std::swap(x, x_next);  // keep x_last, the last sweep's input
            break;
          }
          if (done % 2 == 1) std::swap(x, x_next);  // x_{k + done}
          k += done;
          if (sys.observer && observer_stops(k)) {
            st.iteration = k;
            result.reason = StopReason::interrupted;
            break;
          }
          --k;  // the loop's ++k
          continue;
        }
      }
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
      if (k == 0 && !have_r0) st.initial_residual = st.residual;
      have_r0 = true;
      st.elapsed_s = clock.seconds();
      if (k % check_every_ == 0) {
        last_check_elapsed = st.elapsed_s;
        sys.monitor.iteration(st);
        result.reason = sys.stop.check(st);
        if (result.reason != StopReason::none) break;  // keep x_k, whose residual was just measured
      }
      std::swap(x, x_next);
      if (sys.observer && observer_stops(k + 1)) {
        st.iteration = k + 1;
        result.reason = StopReason::interrupted;
        break;
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
  bool quiet_;
  PersistentOptions persistent_;
  bool logged_ = false;
};

PERKSOLVE_REGISTER_SOLVER(SolverInfo{
    "jacobi",
    "weighted Jacobi iteration x <- x + omega D^-1 (b - A x) with a fused residual norm",
    {config::exclusive_min(config::with_range(
         config::key_real("omega", 0.8, "damping factor omega, 0 < omega <= 2 (1 = plain Jacobi)"), 0.0, 2.0)),
     persistent_mode_key("the Jacobi sweeps (the cuda backend; a constant-coefficient stencil on one rank, no "
                         "periodic axis)"),
     persistent_cache_key()},
    [](const config::Deck& deck) -> std::unique_ptr<Solver> {
      return std::make_unique<Jacobi>(deck.get_real("solver.omega"), deck.get_int("solver.stop.check_every"),
                                      deck.get_bool("monitor.quiet"), PersistentOptions::from_deck(deck));
    }});

}  // namespace
}  // namespace perksolve
