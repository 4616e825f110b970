// Conjugate gradients with a pluggable preconditioner (none, Jacobi / diagonal, geometric multigrid).
// Per iteration: q = A p with p.q (one pass where the backend fuses them), and one fused reduction for
// the residual norm (unpreconditioned: fused into the x / r update; preconditioned: r.z and r.r in one
// dot2, with x += alpha p fused into the direction update p = z + beta p). With the multigrid cycle in float
// (a double run), r goes to the cycle rounded by the r update itself and z is used in float by the direction update,
// so neither takes a conversion pass (PERKSOLVE_PCG_CONVERT_PASSES=1: the passes, for comparison). With a multigrid
// preconditioner no pass of CG's own reads r and z for the dot products: r.r rides on the r update and r.z on the
// cycle's last pass (of the rounded r, as the cycle saw it, with the cycle in float), both left in backend sum slots
// that are collected after the cycle (PERKSOLVE_PCG_DOTS_IN_PASSES=0: dot2 / dot2_mixed, for comparison). Breakdown
// (p.Ap <= 0, non-finite) stops the solve with DIVERGED_BREAKDOWN.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "framework/operators/grid_operator.hpp"
#include "framework/util/timers.hpp"
#include "framework/solver/solver.hpp"
#include "framework/util/env.hpp"
#include "framework/util/log.hpp"
#include "solvers/common/iteration_chunks.hpp"
#include "solvers/common/persistent_options.hpp"
#include "solvers/multigrid/mg_config.hpp"
#include "solvers/multigrid/mg_preconditioner.hpp"

namespace perksolve {
namespace {

class ConjugateGradient final : public SolverBase<ConjugateGradient> {
 public:
  ConjugateGradient(std::string pc, MultigridConfig mg, long check_every, bool quiet, std::string persistent)
      : pc_(std::move(pc)), mg_(std::move(mg)), check_every_(check_every), quiet_(quiet),
        persistent_(std::move(persistent)) {}

  // PCG-MG runs 3-5 % faster on rows of whole 32-element lines than on rows of one sector (255^3, H200, fp64 and fp32;
  // benchmarks/results/gpu-h200-2026-11-30-fp64-rows, runs 3-5), though its V-cycles alone and plain CG do not. The
  // kernels that lose are PCG's point-wise row kernels (the r update, cg_advance, the prolongation: 11-19 % in fp32,
  // ncu, gpu-h200-2026-12-01-pcg-rows run 1), whose warp accesses straddle lines on sector rows. Row walks that start
  // on lines (cuda_ops::for_owned_row_batches) won back a part (fp64, direct coarse solve: 10.20 -> 9.96-10.00 ms;
  // lines 9.70; runs 4-5 there), not all. A float cycle under a double CG shares CG's layout, whose lines are whole
  // sectors in float too.
  bool grid_rows_on_lines() const override { return pc_ == "multigrid"; }

  template <class Real>
  SolveResult run(System<Real>& sys) {
    if (!sys.A) throw std::invalid_argument("cg: the run set-up gave no linear operator");
    // Comparison switches (README.md, "Runtime switches"), read up front so that a bad value is an error in every run.
    const bool convert_passes = env_flag("PERKSOLVE_PCG_CONVERT_PASSES", false);
    const bool dots_in_passes_on = env_flag("PERKSOLVE_PCG_DOTS_IN_PASSES", true);
    const bool zero_start_on = env_flag("PERKSOLVE_CG_ZERO_START", true);
    const bool refresh_p = env_flag("PERKSOLVE_CG_REFRESH_P", false);
    const bool early_stop_on = env_flag("PERKSOLVE_CG_EARLY_STOP", true);
    LinearOperator<Real>& A = *sys.A;
    auto* grid_op = dynamic_cast<GridOperator<Real>*>(&A);  // (null for an assembled matrix)
    Backend<Real>& be = sys.backend;
    FieldPtr<Real> r = A.create_vector(), p = A.create_vector(), q = A.create_vector(), z, d;
    be.fill(*r, Real(0));
    be.fill(*p, Real(0));
    be.fill(*q, Real(0));
    std::unique_ptr<MultigridPreconditioner<Real>> mg;
    if (pc_ == "jacobi") {
      d = A.create_vector();
      A.diagonal(*d);
    } else if (pc_ == "multigrid") {
      if (!grid_op)
        throw std::invalid_argument("cg: the multigrid preconditioner needs a structured-grid problem (not an assembled "
                                    "matrix); use [solver.preconditioner] type = \"jacobi\"");
      mg = std::make_unique<MultigridPreconditioner<Real>>(mg_, *grid_op, sys.problem, sys.timers);
      if (!quiet_) log::info(mg->describe());
    }
    // The cycle in the other precision: r is handed over rounded and z used as the cycle leaves it (no z in Real).
    const bool mixed = mg && mg->mixed() && !convert_passes;
    if (mixed && !quiet_) log::info("cg: r and z cross to and from the float cycle inside CG's own passes");
    // (Not with the conversion passes: they compare against the plain double path.)
    const bool dots_in_passes = (mixed || (mg && !mg->mixed())) && dots_in_passes_on;
    if (dots_in_passes && !quiet_) log::info("cg: r.r from the r update, r.z from the cycle's last pass");
    constexpr int kRrSlot = 0, kRzSlot = 1;  // sum slots: r.r on CG's backend, r.z on the cycle's
    if (pc_ != "none" && !mixed) {
      z = A.create_vector();
      be.fill(*z, Real(0));
    }
    // z = M r (z in Real); the mixed cycle runs from the rounded r that the caller has written.
    auto precondition = [&](const Field<Real>& res) {
      Timers::Scope t(sys.timers, "preconditioner");
      if (mixed) mg->apply_rounded(dots_in_passes ? kRzSlot : -1);
      else if (pc_ == "jacobi") be.diag_scale_add(Real(1), res, *d, Real(0), *z);
      else mg->apply(res, *z, dots_in_passes ? kRzSlot : -1);
    };
    // {r.z, r.r} after precondition() (dots_in_passes: the sums its passes and the r update left).
    auto dots_rz_rr = [&]() -> std::array<double, 2> {
      if (dots_in_passes) {
        const double rz_sum = mg->collect_sum(kRzSlot);
        return {rz_sum, be.collect_sum(kRrSlot)};
      }
      return mixed ? be.dot2_mixed(*r, mg->rounded_output(), *r, *r) : be.dot2(*r, *z, *r, *r);
    };
    // The solve's clock covers everything after the set-up (the preconditioner's hierarchy): the initial
    // residual and preconditioner application included.
    Stopwatch clock;
    const double cells = static_cast<double>(A.layout().owned_size());
    const double apply_bytes = (A.nnz_per_row() > 0 ? 2.0 : 2.0) * sizeof(Real) * cells;

    // Checkpoint state: iterate, residual, search direction, and the carried scalars.
    SolverState<Real> state;
    state.fields = {{"x", &sys.x}, {"r", r.get()}, {"p", p.get()}};
    state.scalars = {{"rz", 0.0}, {"rr", 0.0}, {"initial_residual", 0.0}};
    IterationState st;
    long k = 0;
    double rz = 0.0, rr = 0.0;
    if (sys.observer && sys.observer->restore(state)) {
      k = state.iteration;
      rz = *state.scalar("rz");
      rr = *state.scalar("rr");
      st.initial_residual = *state.scalar("initial_residual");
    } else {
      // r = b - A x0. With x0 = +0 on every rank, zero boundary values and r.r wanted in a slot (dots in passes), r is
      // b bit for bit (every ghost a refresh writes is +0, the stencil's sum +0): one pass copies b into r, rounds it
      // for a float cycle and leaves r.r in its slot, instead of the residual's stencil pass, the rounding and a dot
      // pass (PERKSOLVE_CG_ZERO_START=0: those passes, for comparison).
      const bool r_is_b = sys.x_is_zero && grid_op && grid_op->boundary_values_are_zero() && dots_in_passes &&
                          zero_start_on;
      if (r_is_b && !quiet_) log::info("cg: x0 = 0 and zero boundary values, so r = b: no residual pass");
      if (r_is_b) {
        if (mixed) be.axpby_mixed_norm_later(Real(1), sys.b, Real(0), *r, mg->rounded_input(), kRrSlot);
        else be.axpby_norm_later(Real(1), sys.b, Real(0), *r, kRrSlot);
      } else {
        A.residual(sys.b, sys.x, *r);
      }
      if (pc_ == "none") {
        rr = be.dot(*r, *r);
        rz = rr;
        be.copy(*r, *p);
      } else {
        if (!r_is_b) {
          if (mixed) mg->round_input(*r);
          if (dots_in_passes) be.dot_later(*r, *r, kRrSlot);
        }
        precondition(*r);
        const auto dots = dots_rz_rr();
        rz = dots[0], rr = dots[1];
        if (mixed) be.convert(mg->rounded_output(), *p);
        else be.copy(*z, *p);
      }
    }

    // p's ghosts: where a homogeneous refresh writes +0 into every ghost (GridOperator::homogeneous_ghosts_are_zero),
    // they keep it after the first application, since p is then only written on owned cells (the Backend contract).
    // Later applications skip the refresh (PERKSOLVE_CG_REFRESH_P=1: refresh every time; the same values).
    const bool p_ghosts_stay_zero =
        grid_op && grid_op->homogeneous_ghosts_are_zero() && !refresh_p;
    bool p_ghosts_zero = false;  // p's ghosts hold +0 now
    if (p_ghosts_stay_zero && !quiet_)
      log::info("cg: p's ghosts stay +0 after the first application of A (its refresh is skipped)");

    // Persistent CG (backend loop, one launch per chunk of iterations): an assembled matrix on one rank or a
    // constant stencil on one rank without periodic axes, no preconditioner, a backend that has it. Chunks
    // end where the observer wants a state, and grow while a chunk takes less than a tenth of a second
    // (progress and signals stay responsive).
    bool persistent = false;
    if (persistent_ != "off") {
      std::string why;
      if (pc_ != "none") why = "it runs unpreconditioned CG only ([solver.preconditioner] type = \"none\")";
      else why = A.persistent_cg_obstacle();
      persistent = why.empty();
      if (!persistent && persistent_ == "on")
        throw std::invalid_argument("cg: solver.persistent = \"on\" cannot be honoured: " + why);
    }
    IterationChunks chunks = IterationChunks::for_criterion(sys.stop, check_every_);

    // Convergence checked before the preconditioner: with a preconditioner and r.r from the r update (dots in
    // passes), the residual of iteration k + 1 is known before its cycle runs. Where the check after iteration k + 1
    // could stop the solve, CG waits for r.r and checks then; a stop needs only this iteration's x update, not the
    // cycle nor the new direction. The iterate, residual, count and reason are those of the check after them.
    // PERKSOLVE_CG_EARLY_STOP=0: always check after them (for comparison).
    const bool early_stop = pc_ != "none" && dots_in_passes && early_stop_on;
    const long iteration_cap = iteration_limit(sys.stop);
    StopReason early_reason = StopReason::none;  // the check before the cycle stopped the solve
    double previous_residual = -1.0;             // ||r|| at the previous iteration's check (-1: none yet)
    // Whether the check after iteration k + 1 may stop: the last iteration allowed, or the residual predicted from
    // the last ratio within a factor kEarlyMargin of a residual threshold. A false "may" costs one wait (~10 us), a
    // missed stop one cycle (~40 times as much), hence the wide margin.
    constexpr double kEarlyMargin = 20.0;
    auto next_check_may_stop = [&](long k_now, double residual_now) {
      if ((k_now + 1) % check_every_ != 0) return false;
      if (iteration_cap >= 0 && k_now + 1 >= iteration_cap) return true;
      ResidualThresholds th;
      sys.stop.narrow(th, st.initial_residual);
      if (th.below < 0.0) return false;
      const double ratio =
          previous_residual > 0.0 ? std::min(1.0, residual_now / previous_residual) : 1.0;
      return residual_now * ratio <= kEarlyMargin * th.below;
    };

    // Hands the state after `done` iterations to the observer; true when the solve must stop.
    auto observer_stops = [&](long done) {
      state.iteration = done;
      *state.scalar("rz") = rz;
      *state.scalar("rr") = rr;
      *state.scalar("initial_residual") = st.initial_residual;
      return sys.observer->after_iteration(state, st);
    };

    SolveResult result;
    for (;; ++k) {
      st.iteration = k;
      st.residual = std::sqrt(rr);
      if (k == 0) st.initial_residual = st.residual;
      st.elapsed_s = clock.seconds();
      if (k % check_every_ == 0 || !std::isfinite(rr)) {
        sys.monitor.iteration(st);
        result.reason = sys.stop.check(st);
        // (The same state the check before the cycle saw, but later: only a wall-time limit could differ, and it
        // can only have become more true.)
        if (result.reason == StopReason::none) result.reason = early_reason;
        if (result.reason != StopReason::none) break;
      }
      const double residual_now = st.residual;
      if (persistent) {
        const long want = sys.observer ? sys.observer->next_wanted_iteration(k) : LONG_MAX;
        PersistentCgRequest req;
        req.iterations = chunks.iterations(k, want);
        req.rr = rr;
        req.only_where_faster = persistent_ == "auto";
        set_in_kernel_stop(req, k, check_every_, sys.stop, st.initial_residual);
        Stopwatch chunk_clock;
        PersistentCg run;
        {
          Timers::Scope t(sys.timers, "persistent_cg", cells * static_cast<double>(req.iterations),
                          A.persistent_cg_bytes_per_row() * cells * static_cast<double>(req.iterations));
          run = A.persistent_cg(sys.x, *r, *p, *q, req);
        }
        p_ghosts_zero = false;
        if (!run.ran) {
          if (persistent_ == "on")
            throw std::invalid_argument("cg: solver.persistent = \"on\" but backend '" + std::string(be.name()) +
                                        "' has no persistent CG for this operator (" + A.describe() + ")");
          if (!run.declined.empty() && !quiet_)
            log::info("cg: persistent = \"auto\" iterates operation by operation: " + run.declined);
          persistent = false;  // iterate operation by operation from here
        } else {
          if (k == 0 && !quiet_)
            log::info(fmt::format("cg: persistent kernel, {} blocks x {} threads; on chip: r {:.0f} %, A p {:.0f} %, x {:.0f} %",
                                  run.blocks, run.threads, 100.0 * run.cached_r, 100.0 * run.cached_q,
                                  100.0 * run.cached_x));
          chunks.took(chunk_clock.seconds());
          // The monitor sees the checks inside the chunk; the loop's own check sees its end.
          for (long i = 1; i < run.iterations; ++i) {
            if ((k + i) % check_every_ != 0) continue;
            IterationState mid = st;
            mid.iteration = k + i;
            mid.residual = std::sqrt(run.rr_history[static_cast<std::size_t>(i - 1)]);
            mid.elapsed_s = clock.seconds();
            sys.monitor.iteration(mid);
          }
          k += run.iterations;
          rr = run.rr;
          rz = rr;
          if (run.stop == PersistentCgStop::breakdown) {
            if (!quiet_)
              log::info(fmt::format("cg: warning: breakdown at iteration {}: p.Ap = {:.6e} (the operator or preconditioner "
                                    "is not symmetric positive definite)", k, run.pq));
            st.iteration = k;
            st.residual = std::sqrt(rr);
            result.reason = StopReason::breakdown;
            break;
          }
          if (sys.observer) {
            st.iteration = k;
            st.residual = std::sqrt(rr);
            st.elapsed_s = clock.seconds();
            if (observer_stops(k)) {
              result.reason = StopReason::interrupted;
              break;
            }
          }
          --k;  // the loop's ++k
          continue;
        }
      }
      double pq = 0.0;
      {
        // q = A p with p.q in the same pass where the backend fuses them.
        Timers::Scope t(sys.timers, "operator_apply", cells, apply_bytes);
        pq = p_ghosts_zero ? grid_op->apply_dot_bc(*p, *q, /*refresh=*/false) : A.apply_dot(*p, *q);
        p_ghosts_zero = p_ghosts_stay_zero;
      }
      if (!(pq > 0.0) || !std::isfinite(pq)) {
        if (!quiet_)
          log::info(fmt::format("cg: warning: breakdown at iteration {}: p.Ap = {:.6e} (the operator or preconditioner is not "
                                "symmetric positive definite)", k, pq));
        result.reason = StopReason::breakdown;
        break;
      }
      const double alpha = rz / pq;
      {
        // Unpreconditioned: x and r in one pass with r.r. Preconditioned: only r here (r.r comes with r.z from
        // dot2 below, or is left in a sum slot, so nothing waits for it); x += alpha p is fused with the direction
        // update at the end.
        Timers::Scope t(sys.timers, "cg_update", cells,
                        ((pc_ == "none" ? 6.0 : 3.0) * sizeof(Real) + (mixed ? sizeof(OtherReal<Real>) : 0)) * cells);
        if (pc_ == "none") rr = be.cg_update(static_cast<Real>(alpha), *p, *q, sys.x, *r);
        else if (dots_in_passes && mixed)
          be.axpby_mixed_norm_later(static_cast<Real>(-alpha), *q, Real(1), *r, mg->rounded_input(), kRrSlot);
        else if (dots_in_passes) be.axpby_norm_later(static_cast<Real>(-alpha), *q, Real(1), *r, kRrSlot);
        else if (mixed) be.axpby_mixed(static_cast<Real>(-alpha), *q, Real(1), *r, mg->rounded_input());
        else be.axpby(static_cast<Real>(-alpha), *q, Real(1), *r);
      }
      if (early_stop && next_check_may_stop(k, residual_now)) {
        const double rr_next = be.collect_sum(kRrSlot);
        IterationState next = st;
        next.iteration = k + 1;
        next.residual = std::sqrt(rr_next);
        next.elapsed_s = clock.seconds();
        early_reason = sys.stop.check(next);
        if (early_reason != StopReason::none) {
          {
            Timers::Scope t(sys.timers, "cg_update", cells, 3.0 * sizeof(Real) * cells);
            be.axpby(static_cast<Real>(alpha), *p, Real(1), sys.x);  // this iteration's x update
          }
          rr = rr_next;
          if (sys.observer && observer_stops(k + 1)) {  // (p and rz are still this iteration's)
            st.iteration = k + 1;
            st.residual = std::sqrt(rr);
            result.reason = StopReason::interrupted;
            break;
          }
          continue;  // the check after iteration k + 1 stops with early_reason
        }
      }
      previous_residual = residual_now;
      double rz_new = rr;
      if (pc_ != "none") {
        precondition(*r);
        const auto dots = dots_rz_rr();
        rz_new = dots[0];
        rr = dots[1];
        if (!(rz_new > 0.0) && rr > 0.0) {
          be.axpby(static_cast<Real>(alpha), *p, Real(1), sys.x);  // this iteration's x update
          if (!quiet_)
            log::info(fmt::format("cg: warning: breakdown at iteration {}: r.z = {:.6e} (the preconditioner is not positive "
                                  "definite)", k + 1, rz_new));
          st.iteration = k + 1;
          st.residual = std::sqrt(rr);
          result.reason = StopReason::breakdown;
          break;
        }
      }
      const double beta = rz_new / rz;
      if (pc_ == "none") {
        be.axpby(Real(1), *r, static_cast<Real>(beta), *p);
      } else {
        Timers::Scope t(sys.timers, "cg_update", cells,
                        ((mixed ? 4.0 : 5.0) * sizeof(Real) + (mixed ? sizeof(OtherReal<Real>) : 0)) * cells);
        // x += alpha p; p = z + beta p
        if (mixed)
          be.cg_advance_mixed(static_cast<Real>(alpha), static_cast<Real>(beta), mg->rounded_output(), *p, sys.x);
        else
          be.cg_advance(static_cast<Real>(alpha), static_cast<Real>(beta), *z, *p, sys.x);
      }
      rz = rz_new;
      if (sys.observer) {
        if (observer_stops(k + 1)) {
          st.iteration = k + 1;
          st.residual = std::sqrt(rr);
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
  std::string pc_;
  MultigridConfig mg_;
  long check_every_;
  bool quiet_;
  std::string persistent_;  // auto | on | off
};

PERKSOLVE_REGISTER_SOLVER(SolverInfo{
    "cg",
    "conjugate gradients; preconditioner from [solver.preconditioner] (none, jacobi, multigrid)",
    {persistent_mode_key("the CG loop (the cuda backend; an assembled matrix, or a constant 5/9/7/27-point stencil without periodic axes; one rank, no preconditioner)",
                         "auto", "auto takes an assembled matrix's loop only where the matrix and its vectors fit in L2, where it measured faster (docs/perf/persistent-cg.md)")},
    [](const config::Deck& deck) -> std::unique_ptr<Solver> {
      const std::string pc =
          deck.has("solver.preconditioner.type") ? deck.get_string("solver.preconditioner.type") : std::string("none");
      MultigridConfig mg;
      if (pc == "multigrid") {
        mg = multigrid_config_from_deck(deck, "solver.preconditioner");
        const auto [key, why] = multigrid_symmetry_problem(mg);
        if (!why.empty()) {
          const std::string full = "solver.preconditioner." + key;
          throw deck.error_at(deck.has(full) ? full : "solver.preconditioner.type",
                              "this multigrid set-up is not a valid CG preconditioner: " + why);
        }
      }
      const std::string persistent = deck.get_string("solver.persistent");
      if (persistent == "on" && pc != "none")
        throw deck.error_at("solver.persistent", "persistent = \"on\" runs unpreconditioned CG only; set "
                                                 "[solver.preconditioner] type = \"none\" or persistent = \"auto\"");
      return std::make_unique<ConjugateGradient>(pc, mg, deck.get_int("solver.stop.check_every"),
                                                 deck.get_bool("monitor.quiet"), persistent);
    }});

}  // namespace
}  // namespace perksolve
