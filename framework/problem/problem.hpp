// The plug-in interface for problems. A problem turns its deck keys and the grid into the discrete
// operator, right-hand side, initial state and (when known) exact solution. Problems contain no
// device code: they give point functions that the framework samples and uploads.
//
// To add one, write a class deriving from Problem and register it with
//   PERKSOLVE_REGISTER_PROBLEM(my_problem, "one-line help", {keys...}, factory)
// in a .cpp file (built into the framework, or into a plug-in library loaded with --plugin).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/config/schema.hpp"
#include "framework/grid/grid.hpp"
#include "framework/stencil/stencil.hpp"

namespace perksolve {

struct CsrMatrix;  // framework/operators/csr_operator.hpp

using PointFunction = std::function<double(double x, double y, double z)>;
using SpaceTimeFunction = std::function<double(double x, double y, double z, double t)>;

// What a problem hands to the solvers.
struct ProblemSetup {
  // Steady problems: the matrix A of A x = b (positive definite sign convention, e.g. -Laplacian).
  // Time-stepping problems (solver "stencil_iteration"): the update stencil S of x <- S x.
  Stencil op;
  PointFunction rhs;       // b; empty => zero
  PointFunction initial;   // x0; empty => zero (ignored when random_initial)
  bool random_initial = false;  // x0 uniform in [0,1), a function of the global index only
  std::uint64_t seed = 0;
  SpaceTimeFunction exact;  // empty => no exact solution known
  double time_step = 0.0;   // physical time per application of S (0 for steady problems)

  // Multigrid rediscretisation: the operator on another grid of the same box (coarse levels).
  // Empty => the problem cannot be solved or preconditioned with geometric multigrid.
  std::function<Stencil(const GridSpec&)> operator_on;
  // Variable coefficients: when set, `op` (and operator_on) give the stencil *shape* and the
  // coefficient of offset o at the cell with global index (i, j, k) of grid g is coefficient(g, o, i, j, k).
  std::function<double(const GridSpec&, const Offset&, long, long, long)> coefficient;
  // Assembled sparse systems (problem "matrix_market"): A and b replace op / rhs; the grid is unused.
  std::shared_ptr<const CsrMatrix> matrix;
};

class Problem {
 public:
  virtual ~Problem() = default;
  // Called once the grid is known. Throw deck.error_at(...) for invalid combinations
  // (e.g. a problem needing homogeneous Dirichlet boundaries on a periodic grid).
  virtual ProblemSetup setup(const GridSpec& grid, const config::Deck& deck) const = 0;
};

using ProblemFactory = std::function<std::unique_ptr<Problem>(const config::Deck& deck)>;

struct ProblemInfo {
  std::string name;
  std::string help;
  std::vector<config::KeySpec> keys;  // keys of [problem] besides `type`
  ProblemFactory factory;
};

// Adds the problem to the registry and its keys to the [problem] schema as a variant.
void register_problem(ProblemInfo info);
const ProblemInfo* find_problem(const std::string& name);
std::vector<std::string> problem_names();

struct ProblemRegistrar {
  explicit ProblemRegistrar(ProblemInfo info) { register_problem(std::move(info)); }
};

}  // namespace perksolve

#define PERKSOLVE_CONCAT_INNER(a, b) a##b
#define PERKSOLVE_CONCAT(a, b) PERKSOLVE_CONCAT_INNER(a, b)
// PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{...}); at namespace scope in one .cpp file.
#define PERKSOLVE_REGISTER_PROBLEM(...) \
  static const ::perksolve::ProblemRegistrar PERKSOLVE_CONCAT(perksolve_problem_registrar_, __LINE__){__VA_ARGS__}
