// The output layer of one solve: the IterationObserver that solvers call (field output on a cadence,
// checkpoints on a cadence / at the wall-time limit / on SIGTERM or SIGUSR1, restore from a
// checkpoint, residual history), plus the end-of-run work (final fields, JSON summary).
//
// Used by solve_deck:
//   auto io = io::create_run_output<Real>({deck, backend, decomp, halo, setup, x, b, timers, ...});
//   sys.observer = io->observer();          // nullptr when nothing per-iteration is configured
//   result = solver->solve(sys);
//   io->finish(result, error_norms);
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "framework/backend/backend.hpp"
#include "framework/config/deck.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/halo/halo_exchange.hpp"
#include "framework/io/h5file.hpp"
#include "framework/operators/linear_operator.hpp"
#include "framework/problem/problem.hpp"
#include "framework/runtime/sampling.hpp"
#include "framework/solver/solver.hpp"
#include "framework/util/timers.hpp"

namespace perksolve::io {

template <class Real>
struct OutputContext {
  const config::Deck& deck;
  Backend<Real>& backend;
  const Decomposition& decomp;
  HaloExchange<Real>& halo;
  const ProblemSetup& setup;
  const Field<Real>& x;  // the solution (final state after the solve)
  const Field<Real>& b;
  Timers& timers;
  std::string solver_name;
  std::string problem_name;
  bool linear_system = true;  // Solver::solves_linear_system()
  std::string restart_file;   // resolved checkpoint path (io::prepare_restart); empty for a fresh run
  LinearOperator<Real>* A = nullptr;  // for the residual field; null: the problem's stencil
};

template <class Real>
class RunOutput : public IterationObserver<Real> {
 public:
  // For System::observer: this object when any per-iteration work is configured (or a restart),
  // else nullptr so the solver runs without the observer protocol's cost.
  virtual IterationObserver<Real>* observer() = 0;
  // After the solve (x final): at-end field output, history flush, JSON summary. Collective.
  virtual void finish(const SolveResult& result, const std::optional<ErrorNorms>& error) = 0;
};

// Reads and verifies the restart checkpoint (if any), validates [output]/[checkpoint] against the
// problem and solver (DeckError at the key), creates directories, installs the signal handlers.
// Collective; I/O failures raise IoError on every rank.
template <class Real>
std::unique_ptr<RunOutput<Real>> create_run_output(const OutputContext<Real>& ctx);

}  // namespace perksolve::io
