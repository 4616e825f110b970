// The solve path of assembled sparse systems (problem "matrix_market"): rows distributed in blocks
// over the ranks, vectors as fields without ghosts, the operator a CsrOperator.
#pragma once

#include <mpi.h>

#include "framework/config/deck.hpp"
#include "framework/operators/linear_operator.hpp"
#include "framework/problem/problem.hpp"
#include "framework/runtime/run.hpp"

namespace perksolve {

template <class Real>
RunOutcome solve_matrix_deck(const config::Deck& deck, MPI_Comm comm, const ProblemSetup& setup, Solver& solver,
                             bool gather_solution);

// ||b - A x|| / ||b|| (||b - A x|| when b = 0), recomputed from scratch.
template <class Real>
double true_relative_residual(LinearOperator<Real>& A, const Field<Real>& b, Field<Real>& x);

}  // namespace perksolve
