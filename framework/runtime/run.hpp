// The perksolve program: command line -> deck -> grid, decomposition, backend, problem, solver ->
// solve -> report. The executable's main() only calls perksolve_main(); an out-of-tree project can
// link libperksolve and do the same with its own problems compiled in.
#pragma once

#include <mpi.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/grid/grid.hpp"
#include "framework/runtime/sampling.hpp"
#include "framework/solver/solver.hpp"

namespace perksolve {

// Exit codes of the perksolve executable.
enum ExitCode : int { exit_converged = 0, exit_error = 1, exit_not_converged = 2 };

// [grid] + [boundary] -> GridSpec, with semantic checks reported at the offending key.
GridSpec grid_from_deck(const config::Deck& deck);
// [decomposition] ranks, padded to 3 entries.
std::array<int, 3> rank_grid_from_deck(const config::Deck& deck);

struct RunOutcome {
  SolveResult result;
  std::optional<ErrorNorms> error;     // when the problem has an exact solution
  std::vector<double> global_solution;  // rank 0 only, when asked for
};

// Sets up grid, decomposition (over `comm`), backend, problem and solver from a validated deck,
// solves, reports (unless monitor.quiet) and returns the outcome. Throws DeckError for bad input.
// `restart_file`: a checkpoint to resume from (see io::prepare_restart), empty for a fresh solve.
template <class Real>
RunOutcome solve_deck(const config::Deck& deck, MPI_Comm comm, bool gather_solution,
                      const std::string& restart_file = std::string());

// Runs the whole program; MPI must be initialised by the caller, Kokkos is initialised here.
int perksolve_main(int argc, char** argv);

}  // namespace perksolve
