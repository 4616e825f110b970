#include "framework/operators/linear_operator.hpp"

namespace perksolve {

template <class Real>
Field<Real>& LinearOperator<Real>::scratch(int which) {
  if (!scratch_[which]) scratch_[which] = create_vector();
  return *scratch_[which];
}

template <class Real>
double LinearOperator<Real>::jacobi_sweep(Real omega, const Field<Real>& b, Field<Real>& x, Field<Real>& x_new) {
  Backend<Real>& be = backend();
  Field<Real>& r = scratch(0);
  Field<Real>& d = scratch(1);
  residual(b, x, r);
  diagonal(d);
  const double rr = be.dot(r, r);
  be.copy(x, x_new);
  be.diag_scale_add(omega, r, d, Real(1), x_new);
  return rr;
}

template class LinearOperator<float>;
template class LinearOperator<double>;

}  // namespace perksolve
