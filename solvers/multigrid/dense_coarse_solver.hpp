// Direct coarsest-level solve of multigrid: the level operator (boundary conditions included) is
// assembled as a dense matrix by probing (one operator application per colour of a (2R+1)^dim
// colouring), inverted once on the host (Gauss-Jordan, partial pivoting, double precision), and the
// inverse is stored in the level's backend as a sparse matrix. A solve is then residual, one dense
// SpMV and an update, all in the backend's memory: no host round trip and no reduction, unlike an
// iterative coarse solve whose every iteration waits for dot products.
#pragma once

#include <memory>

#include "framework/operators/grid_operator.hpp"

namespace perksolve {

// Throws std::invalid_argument unless a coarsest level of `unknowns` cells on `ranks` ranks can be
// solved directly (one rank, at most `max_unknowns`). Multigrid calls it on every rank from the rank
// grid, so all ranks stop together; the solver's constructor calls it again as a guard.
void check_direct_coarse_fits(long ranks, long unknowns, long max_unknowns);

template <class Real>
class DenseCoarseSolver {
 public:
  // The level must live on one rank. Throws std::invalid_argument when it is distributed, has more
  // than `max_unknowns` unknowns (check_direct_coarse_fits), or its operator is singular.
  DenseCoarseSolver(GridOperator<Real>& A, long max_unknowns);
  // x += A^{-1} (b - A x) with the given boundary values; `r` is scratch of A's layout.
  void solve(const Field<Real>& b, Field<Real>& x, Field<Real>& r, bool homogeneous);
  // x = A^{-1} b with homogeneous boundary values: what solve() gives from x = 0, without the residual,
  // the update and x's initial contents (x's ghosts are left as they were).
  void solve_from_zero(const Field<Real>& b, Field<Real>& x);
  long unknowns() const { return n_; }

 private:
  GridOperator<Real>& A_;
  long n_ = 0;
  std::unique_ptr<SparseMatrix<Real>> inverse_;
  FieldPtr<Real> flat_r_, flat_e_;
};

}  // namespace perksolve
