// Multigrid configuration from the deck tree. Multigrid appears in two places with the same keys:
//   as the solver:          [solver] type = "multigrid"  + [solver.smoother]  + [solver.coarse]
//   as CG's preconditioner: [solver.preconditioner] type = "multigrid"
//                           + [solver.preconditioner.smoother] + [solver.preconditioner.coarse]
// Absent smoother / coarse tables mean their defaults (weighted Jacobi; CG to rtol 1e-10).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/config/schema.hpp"

namespace perksolve {

struct SmootherConfig {
  std::string type = "jacobi";  // jacobi | chebyshev | rbgs
  double omega = 0.0;           // jacobi; 0 = 4/5 (2D), 6/7 (3D)
  long eig_iterations = 30;     // chebyshev: power iterations for lambda_max(D^-1 A)
  double lower = 0.16, upper = 1.08;  // chebyshev interval [lower, upper] * lambda_max estimate
  bool symmetric = true;        // rbgs: post-smoothing in reverse colour order
};

struct CoarseConfig {
  std::string type = "cg";  // cg | smoother | direct
  double rtol = 1e-10;
  long max_iterations = 1000;
  long sweeps = 20;
  long max_unknowns = 4096;  // direct: largest coarsest level it accepts
};

struct MultigridConfig {
  std::string cycle = "V";  // V | W | F
  long levels = 0;          // 0 = automatic
  long pre = 2, post = 2;
  bool fmg = false;         // solver only: first iteration is a full-multigrid pass
  std::string replay = "auto";  // auto | on | off: record the cycle once, replay it (Backend::record)
  long persistent_cells = 0;  // levels with at most this many cells run as one persistent program (0: never)
  std::string precision = "run";  // preconditioner only: run | float (the cycle in single precision for a double CG)
  SmootherConfig smoother;
  CoarseConfig coarse;
};

// Keys of the "multigrid" variant of [solver] (with_fmg) or [solver.preconditioner].
std::vector<config::KeySpec> multigrid_keys(bool with_fmg);
// Reads the multigrid keys of table `table` ("solver" or "solver.preconditioner") and its
// `.smoother` / `.coarse` sub-tables.
MultigridConfig multigrid_config_from_deck(const config::Deck& deck, const std::string& table);
// Why the multigrid cycle is not a symmetric operator (so not a valid CG preconditioner): the key
// (relative to the multigrid table) to blame and the message; empty message if it is symmetric.
std::pair<std::string, std::string> multigrid_symmetry_problem(const MultigridConfig& c);
// Registers [solver.preconditioner], [solver.preconditioner.smoother], [solver.preconditioner.coarse],
// [solver.smoother] and [solver.coarse] (idempotent). Called by perksolve_main (and test mains)
// right after config::register_core_schema(), so that these tables follow the core ones in the
// registry's order (--dry-run output, "did you mean" hints prefer [solver] / [solver.stop]).
void register_multigrid_tables();

}  // namespace perksolve
