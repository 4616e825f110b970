// The solver plug-in interface. A solver works on a System through the Backend seam only (no raw
// loops), so the same code runs on every backend. Solvers register by name with their deck keys.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "framework/backend/backend.hpp"
#include "framework/config/deck.hpp"
#include "framework/config/schema.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/halo/halo_exchange.hpp"
#include "framework/operators/linear_operator.hpp"
#include "framework/problem/problem.hpp"
#include "framework/util/timers.hpp"
#include "solvers/common/monitor.hpp"
#include "solvers/common/stopping.hpp"

namespace perksolve {

// A solver's complete state at an iteration boundary, for checkpoint/restart: its own work fields
// (backend memory; the iterate first) and named scalars (iteration-carried numbers such as rho in
// CG or the initial residual). Restoring it and continuing gives bit-identical results.
template <class Real>
struct SolverState {
  long iteration = 0;
  std::vector<std::pair<std::string, Field<Real>*>> fields;
  std::vector<std::pair<std::string, double>> scalars;
  double* scalar(const std::string& name) {
    for (auto& [n, v] : scalars)
      if (n == name) return &v;
    return nullptr;
  }
};

// Implemented by the output layer (field output, checkpoints, histories); solvers call it.
template <class Real>
class IterationObserver {
 public:
  virtual ~IterationObserver() = default;
  // Before the first iteration: when resuming from a checkpoint, fills `state` (fields, scalars,
  // iteration) and returns true; otherwise returns false and leaves it alone.
  virtual bool restore(SolverState<Real>& state) = 0;
  // After each completed iteration (state.iteration = iterations done). Returns true when the solve
  // must stop now (e.g. SIGTERM: a checkpoint has been written); the solver then reports
  // StopReason::interrupted.
  virtual bool after_iteration(const SolverState<Real>& state, const IterationState& progress) = 0;
  // The next iteration (> it) whose state after_iteration must see. Solvers that run many iterations inside
  // the backend (persistent CG) stop there; default: every iteration.
  virtual long next_wanted_iteration(long it) const { return it + 1; }
};

// Everything a solve needs, owned by the caller.
template <class Real>
struct System {
  Backend<Real>& backend;
  const Decomposition& decomp;
  HaloExchange<Real>& halo;   // for fields of `layout`
  const Stencil& op;          // A (steady) or S (time stepping)
  const ProblemSetup& problem;
  Field<Real>& x;             // initial guess in, solution out
  const Field<Real>& b;       // right-hand side
  const StoppingCriterion& stop;
  Monitor& monitor;
  Timers& timers;
  IterationObserver<Real>* observer = nullptr;  // optional
  // The linear operator of A x = b (grid stencil, variable-coefficient stencil or assembled sparse
  // matrix); null for time stepping. Krylov and multigrid solvers use this, not `op`.
  LinearOperator<Real>* A = nullptr;
  // x holds +0 on the owned cells of every rank (the run's zero initial guess; false when unknown, e.g. restarts):
  // solvers may then skip work that x = 0 makes trivial (CG's initial residual, with zero boundary values).
  bool x_is_zero = false;
};

struct SolveResult {
  long iterations = 0;
  StopReason reason = StopReason::none;
  double initial_residual = 0.0;
  double final_residual = 0.0;
  double seconds = 0.0;
  bool converged() const { return is_converged(reason); }
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual SolveResult solve(System<float>& sys) = 0;
  virtual SolveResult solve(System<double>& sys) = 0;
  // Whether the residual is meaningful (false for fixed-step time stepping).
  virtual bool solves_linear_system() const { return true; }
  // Whether the run starts this solver's grid rows on whole 32-element lines instead of 32-byte sectors
  // (Decomposition::grid_layout): only where that measured faster.
  virtual bool grid_rows_on_lines() const { return false; }
};

// Helper: implement `template <class Real> SolveResult run(System<Real>&)` and derive from this.
template <class Derived>
class SolverBase : public Solver {
 public:
  SolveResult solve(System<float>& s) override { return static_cast<Derived*>(this)->template run<float>(s); }
  SolveResult solve(System<double>& s) override { return static_cast<Derived*>(this)->template run<double>(s); }
};

using SolverFactory = std::function<std::unique_ptr<Solver>(const config::Deck& deck)>;

struct SolverInfo {
  std::string name;
  std::string help;
  std::vector<config::KeySpec> keys;  // keys of [solver] besides `type`
  SolverFactory factory;
};

void register_solver(SolverInfo info);
const SolverInfo* find_solver(const std::string& name);
std::vector<std::string> solver_names();

struct SolverRegistrar {
  explicit SolverRegistrar(SolverInfo info) { register_solver(std::move(info)); }
};

}  // namespace perksolve

#define PERKSOLVE_REGISTER_SOLVER(...) \
  static const ::perksolve::SolverRegistrar PERKSOLVE_CONCAT(perksolve_solver_registrar_, __LINE__){__VA_ARGS__}
