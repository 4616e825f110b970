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
#include "framework/problem/problem.hpp"
#include "framework/util/timers.hpp"
#include "solvers/common/monitor.hpp"
#include "solvers/common/stopping.hpp"

namespace perksolve {

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
