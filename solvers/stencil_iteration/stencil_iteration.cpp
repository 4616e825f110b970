// Repeated application of the problem's update stencil, x <- S x, for a fixed number of steps:
// explicit time stepping (heat_gaussian) and the PERKS-style iterative stencil benchmark.
//
// Persistent (PERKS, solver.persistent = "auto" | "on"; default "off"): where the backend has a backend loop
// for the stencil and the halo is only the physical boundary fill (one rank, no periodic axis), chunks of
// steps run as one persistent kernel that keeps part of the iterate on chip (Backend::persistent_sweeps;
// bit-identical to the loop below). Off by default: on an H100 the per-step kernels, which need no host
// synchronisation here, measured faster (heat 256^3: 0.27 s vs 0.19 s for 2000 steps; docs/perf/perks.md).
#include <climits>
#include <utility>

#include "framework/solver/solver.hpp"
#include "framework/util/log.hpp"
#include "solvers/common/iteration_chunks.hpp"
#include "solvers/common/persistent_options.hpp"

namespace perksolve {
namespace {

class StencilIteration final : public SolverBase<StencilIteration> {
 public:
  StencilIteration(long steps, double walltime_s, bool quiet, PersistentOptions persistent)
      : steps_(steps), walltime_s_(walltime_s), quiet_(quiet), persistent_(std::move(persistent)) {}
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
    bool persistent = persistent_.mode != "off";
    if (persistent && !sys.halo.boundary_only()) {
      if (persistent_.mode == "on")
        throw std::invalid_argument("stencil_iteration: solver.persistent = \"on\" cannot be honoured: the halo "
                                    "exchanges with other ranks or across a periodic axis (one rank, no periodic axis "
                                    "needed)");
      persistent = false;
    }
    IterationChunks chunks(1, steps_);
    Stopwatch clock;
    SolveResult result;
    IterationState st;
    st.iteration = n;
    while (n < steps_) {
      {
        Timers::Scope t(sys.timers, "halo_exchange", 0.0, halo_bytes);
        sys.halo.update(*x);
      }
      long done = 1;
      if (persistent) {
        const long want = sys.observer ? sys.observer->next_wanted_iteration(n) : LONG_MAX;
        PersistentSweepsRequest req;
        req.kind = SweepKind::apply;
        req.sweeps = chunks.iterations(n, want);
        req.first = n;
        req.cache_bytes = persistent_.cache_bytes;
        Stopwatch chunk_clock;
        PersistentSweeps run;
        {
          Timers::Scope t(sys.timers, "persistent_sweeps", cells * static_cast<double>(req.sweeps),
                          2.0 * sizeof(Real) * cells * static_cast<double>(req.sweeps));
          run = be.persistent_sweeps(sys.op, req, nullptr, *x, *x_next, sys.halo.faces(), false);
        }
        if (!run.ran) {
          if (persistent_.mode == "on")
            throw std::invalid_argument("stencil_iteration: solver.persistent = \"on\" but backend '" +
                                        std::string(be.name()) + "' has no persistent sweeps for this stencil");
          persistent = false;
          continue;  // this step again, sweep by sweep
        }
        if (!logged_ && !quiet_) {
          log::info(describe_launch("stencil_iteration", run));
          logged_ = true;
        }
        chunks.took(chunk_clock.seconds());
        done = run.sweeps;
        if (done % 2 == 1) std::swap(x, x_next);
      } else {
        {
          Timers::Scope t(sys.timers, "apply_stencil", cells, 2.0 * sizeof(Real) * cells);
          be.apply_stencil(sys.op, *x, *x_next);
        }
        std::swap(x, x_next);
      }
      n += done;
      st.iteration = n;
      st.elapsed_s = clock.seconds();
      sys.monitor.step(n, steps_, n * sys.problem.time_step, st.elapsed_s);
      if (walltime_s_ > 0 && st.elapsed_s >= walltime_s_) {
        result.reason = StopReason::walltime;
        break;
      }
      if (sys.observer) {
        if (x != &sys.x) be.copy(*x, sys.x);
        x = &sys.x;
        x_next = other.get();
        state.iteration = n;
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
  bool quiet_;
  PersistentOptions persistent_;
  bool logged_ = false;
};

PERKSOLVE_REGISTER_SOLVER(SolverInfo{
    "stencil_iteration",
    "apply the problem's update stencil x <- S x for a fixed number of steps (explicit time stepping, "
    "stencil benchmarks); only [solver.stop] walltime_s applies",
    {config::with_range(config::key_int("steps", 100, "number of stencil applications"), 0, std::nullopt),
     persistent_mode_key("the stencil steps (the cuda backend; one rank, no periodic axis)", "off",
                         "off by default: on an H100 the per-step kernels are faster for explicit steps "
                         "(docs/perf/perks.md)"),
     persistent_cache_key()},
    [](const config::Deck& deck) -> std::unique_ptr<Solver> {
      return std::make_unique<StencilIteration>(deck.get_int("solver.steps"), deck.get_real("solver.stop.walltime_s"),
                                                deck.get_bool("monitor.quiet"), PersistentOptions::from_deck(deck));
    }});

}  // namespace
}  // namespace perksolve
