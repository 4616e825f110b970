#include "framework/operators/grid_operator.hpp"

#include <fmt/format.h>

#include <vector>

namespace perksolve {

template <class Real>
GridOperator<Real>::GridOperator(Backend<Real>& be, const Decomposition& d, const FieldLayout& layout, Stencil s,
                                 FieldPtr<Real> coeffs)
    : be_(be), decomp_(d), layout_(layout), stencil_(std::move(s)), coeffs_(std::move(coeffs)),
      halo_(d, layout, /*corners=*/true, be) {}

template <class Real>
void GridOperator<Real>::apply(Field<Real>& x, Field<Real>& y) {
  halo_.update(x, /*homogeneous=*/true);
  if (coeffs_) be_.apply_stencil_var(stencil_, *coeffs_, x, y);
  else be_.apply_stencil(stencil_, x, y);
}

template <class Real>
double GridOperator<Real>::apply_dot(Field<Real>& x, Field<Real>& y) {
  return apply_dot_bc(x, y, /*refresh=*/true);
}

template <class Real>
double GridOperator<Real>::apply_dot_bc(Field<Real>& x, Field<Real>& y, bool refresh) {
  if (coeffs_) return LinearOperator<Real>::apply_dot(x, y);
  if (refresh) halo_.update(x, /*homogeneous=*/true);
  return be_.apply_stencil_dot(stencil_, x, y);
}

template <class Real>
void GridOperator<Real>::residual(const Field<Real>& b, Field<Real>& x, Field<Real>& r) {
  residual_bc(b, x, r, false);
}

template <class Real>
void GridOperator<Real>::residual_bc(const Field<Real>& b, Field<Real>& x, Field<Real>& r, bool homogeneous,
                                     bool refresh) {
  if (refresh) halo_.update(x, homogeneous);
  if (coeffs_) be_.residual_var(stencil_, *coeffs_, b, x, r);
  else be_.residual(stencil_, b, x, r);
}

template <class Real>
bool GridOperator<Real>::boundary_values_are_zero() const {
  for (const BoundaryFace& f : halo_.faces())
    if (f.bc.value != 0.0) return false;
  return true;
}

template <class Real>
bool GridOperator<Real>::homogeneous_ghosts_are_zero() const {
  if (!halo_.boundary_only()) return false;
  // Every ghost layer of every axis must belong to a face of the list, and be constant there.
  int covered[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  for (const BoundaryFace& f : halo_.faces()) {
    const boundary_rule::FaceRule<Real> rule = face_rule<Real>(f, /*homogeneous=*/true);
    for (int d = 0; d < layout_.ghost[f.axis]; ++d)
      if (!boundary_rule::ghost_is_constant(rule, d)) return false;
    covered[f.axis][f.side] = 1;
  }
  for (int a = 0; a < 3; ++a)
    if (layout_.ghost[a] > 0 && !(covered[a][0] && covered[a][1])) return false;
  return true;
}

template <class Real>
std::string GridOperator<Real>::persistent_cg_obstacle() const {
  if (coeffs_) return "it needs a constant-coefficient stencil (this operator has variable coefficients)";
  if (!halo_.boundary_only()) return "it runs on one rank without periodic axes";
  return {};
}

template <class Real>
PersistentCg GridOperator<Real>::persistent_cg(Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                                               const PersistentCgRequest& req) {
  if (!persistent_cg_obstacle().empty()) return {};
  halo_.update(p, /*homogeneous=*/true);  // the loop applies A to p with homogeneous boundary ghosts
  return be_.persistent_stencil_cg(stencil_, halo_.faces(), x, r, p, q, req);
}

template <class Real>
void GridOperator<Real>::diagonal(Field<Real>& d) {
  if (coeffs_) be_.stencil_coefficient(*coeffs_, stencil_.center_index(), d);
  else be_.fill(d, static_cast<Real>(stencil_.center_coeff()));
}

template <class Real>
PersistentSweeps GridOperator<Real>::persistent_jacobi(Real omega, const Field<Real>& b, Field<Real>& x,
                                                       Field<Real>& y, PersistentSweepsRequest q) {
  if (coeffs_ || !halo_.boundary_only()) return {};
  halo_.update(x, false);
  q.kind = SweepKind::jacobi;
  q.omega = static_cast<double>(omega);
  return be_.persistent_sweeps(stencil_, q, &b, x, y, halo_.faces(), false);
}

template <class Real>
double GridOperator<Real>::jacobi_sweep(Real omega, const Field<Real>& b, Field<Real>& x, Field<Real>& x_new) {
  if (coeffs_) return LinearOperator<Real>::jacobi_sweep(omega, b, x, x_new);
  halo_.update(x, false);
  return be_.jacobi_sweep(stencil_, omega, b, x, x_new);
}

template <class Real>
void GridOperator<Real>::gs_sweep(const Field<Real>& b, Field<Real>& x, int color, bool homogeneous, bool refresh) {
  if (refresh) halo_.update(x, homogeneous);
  const auto& o = decomp_.offset();
  be_.gs_color_sweep(stencil_, coeffs_.get(), b, x, color, (o[0] + o[1] + o[2]) % 2);
}

template <class Real>
std::string GridOperator<Real>::describe() const {
  const auto& e = decomp_.grid().extents;
  return fmt::format("{}{}-point stencil '{}' on {} x {} x {}", coeffs_ ? "variable-coefficient " : "", stencil_.size(),
                     stencil_.name, e[0], e[1], e[2]);
}

template <class Real>
std::unique_ptr<GridOperator<Real>> make_grid_operator(Backend<Real>& be, const Decomposition& decomp,
                                                       const FieldLayout& layout, const ProblemSetup& setup, bool fine) {
  const GridSpec& g = decomp.grid();
  Stencil s = fine ? setup.op : setup.operator_on(g);
  FieldPtr<Real> coeffs;
  if (setup.coefficient) {
    // Coefficients per cell, evaluated on the host from the problem's function (set-up only).
    const int np = s.size();
    const long L = layout.size();
    FieldLayout cl;
    cl.n = {static_cast<int>(L), np, 1};
    std::vector<Real> host(static_cast<std::size_t>(L) * np, Real(0));
    const auto& off = decomp.offset();
    for (int p = 0; p < np; ++p)
      for (int k = 0; k < layout.n[2]; ++k)
        for (int j = 0; j < layout.n[1]; ++j)
          for (int i = 0; i < layout.n[0]; ++i)
            host[layout.index(i, j, k) + p * L] =
                static_cast<Real>(setup.coefficient(g, s.offsets[p], off[0] + i, off[1] + j, off[2] + k));
    coeffs = be.create_field(cl);
    be.upload(*coeffs, host);
  }
  return std::make_unique<GridOperator<Real>>(be, decomp, layout, std::move(s), std::move(coeffs));
}

template class GridOperator<float>;
template class GridOperator<double>;
template std::unique_ptr<GridOperator<float>> make_grid_operator(Backend<float>&, const Decomposition&,
                                                                 const FieldLayout&, const ProblemSetup&, bool);
template std::unique_ptr<GridOperator<double>> make_grid_operator(Backend<double>&, const Decomposition&,
                                                                  const FieldLayout&, const ProblemSetup&, bool);

}  // namespace perksolve
