// Matrix-free operators on a structured grid: a Stencil (constant coefficients) or a stencil shape
// with coefficients per cell (variable coefficients, e.g. -div(k grad u)). The operator owns a halo
// exchange (edges and corners included, as multigrid restriction needs them).
#pragma once

#include <array>
#include <functional>

#include "framework/grid/decomposition.hpp"
#include "framework/halo/halo_exchange.hpp"
#include "framework/operators/linear_operator.hpp"
#include "framework/problem/problem.hpp"

namespace perksolve {

template <class Real>
class GridOperator final : public LinearOperator<Real> {
 public:
  // `coeffs` null => constant stencil `s`.
  GridOperator(Backend<Real>& be, const Decomposition& d, const FieldLayout& layout, Stencil s, FieldPtr<Real> coeffs);

  Backend<Real>& backend() const override { return be_; }
  const FieldLayout& layout() const override { return layout_; }
  void apply(Field<Real>& x, Field<Real>& y) override;
  double apply_dot(Field<Real>& x, Field<Real>& y) override;
  void residual(const Field<Real>& b, Field<Real>& x, Field<Real>& r) override;
  void diagonal(Field<Real>& d) override;
  double jacobi_sweep(Real omega, const Field<Real>& b, Field<Real>& x, Field<Real>& x_new) override;
  PersistentSweeps persistent_jacobi(Real omega, const Field<Real>& b, Field<Real>& x, Field<Real>& y,
                                     PersistentSweepsRequest q) override;
  // Matrix-free CG loop: a constant stencil on one rank without periodic axes (the backend's compiled shapes).
  PersistentCg persistent_cg(Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                             const PersistentCgRequest& req) override;
  std::string persistent_cg_obstacle() const override;
  // q = A p reads p and writes q, r -= alpha q reads q, x += alpha p and p = r + beta p read p and x and
  // write x and p (r on chip): 7 values per cell.
  double persistent_cg_bytes_per_row() const override { return 7.0 * sizeof(Real); }
  std::string describe() const override;
  double nnz_per_row() const override { return stencil_.size(); }

  // r = b - A x with the problem's (false) or homogeneous (true) boundary values. With refresh = false the
  // caller vouches that x's ghosts already hold what update_ghosts(x, homogeneous) would write.
  void residual_bc(const Field<Real>& b, Field<Real>& x, Field<Real>& r, bool homogeneous, bool refresh = true);
  // apply_dot (homogeneous ghosts of x, as apply); with refresh = false the caller vouches as above (constant stencils;
  // a variable-coefficient operator refreshes anyway).
  double apply_dot_bc(Field<Real>& x, Field<Real>& y, bool refresh);
  // Red-black Gauss-Seidel half sweep on `color` (refreshes x's ghosts first unless refresh = false, as above).
  void gs_sweep(const Field<Real>& b, Field<Real>& x, int color, bool homogeneous = false, bool refresh = true);
  void update_ghosts(Field<Real>& f, bool homogeneous) { halo_.update(f, homogeneous); }
  // True when update_ghosts(f, true) writes +0 into every ghost cell whatever f holds: one rank, nothing
  // periodic, and every ghost layer of every face a constant of the boundary rule (vertex-centred Dirichlet
  // with one ghost layer). Then a field whose ghosts were zeroed keeps them through every backend operation
  // that writes owned cells only (the Backend contract), and a refresh can be skipped (multigrid does).
  bool homogeneous_ghosts_are_zero() const;
  // True when every physical face's boundary value is 0. A field that is +0 on the owned cells of every rank then
  // gets +0 in every ghost a refresh writes (each rule is linear in the cells and the value), so its residual is b
  // bit for bit (CG's zero initial guess).
  bool boundary_values_are_zero() const;
  // True when a ghost update sends MPI messages (then the host takes part in every application).
  bool exchanges_with_other_ranks() const { return halo_.neighbour_count() > 0; }
  const Stencil& stencil() const { return stencil_; }
  bool variable() const { return coeffs_ != nullptr; }
  const Decomposition& decomposition() const { return decomp_; }

 private:
  Backend<Real>& be_;
  const Decomposition& decomp_;
  FieldLayout layout_;
  Stencil stencil_;
  FieldPtr<Real> coeffs_;
  HaloExchange<Real> halo_;
};

// The operator of a problem on `decomp`'s grid (which may be a multigrid level: the stencil then
// comes from setup.operator_on and variable coefficients from setup.coefficient on that grid).
// `fine` says whether the grid is the problem's own grid (setup.op is then used as it is).
template <class Real>
std::unique_ptr<GridOperator<Real>> make_grid_operator(Backend<Real>& be, const Decomposition& decomp,
                                                       const FieldLayout& layout, const ProblemSetup& setup, bool fine);

}  // namespace perksolve
