// Linear operators A of A x = b, behind one interface so that Krylov solvers, smoothers and
// preconditioners do not care whether A is a constant stencil, a variable-coefficient stencil or an
// assembled, rank-distributed sparse matrix. Everything goes through the Backend seam.
#pragma once

#include <memory>
#include <string>

#include "framework/backend/backend.hpp"

namespace perksolve {

template <class Real>
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual Backend<Real>& backend() const = 0;
  // Layout of the vectors x, b (ghost layers included for grid operators).
  virtual const FieldLayout& layout() const = 0;
  FieldPtr<Real> create_vector() const { return backend().create_field(layout()); }

  // y = A x for corrections and search directions: boundary ghosts of x are refreshed with
  // *homogeneous* boundary values (the linear part of the affine discrete operator).
  virtual void apply(Field<Real>& x, Field<Real>& y) = 0;
  // apply() and the global x . y in one pass where the backend fuses them (CG's q = A p with p.q).
  virtual double apply_dot(Field<Real>& x, Field<Real>& y) {
    apply(x, y);
    return backend().dot(x, y);
  }
  // r = b - A x with the problem's boundary values.
  virtual void residual(const Field<Real>& b, Field<Real>& x, Field<Real>& r) = 0;
  // d = diag(A).
  virtual void diagonal(Field<Real>& d) = 0;
  // Weighted Jacobi sweep x_new = x + omega D^-1 (b - A x); returns the global ||b - A x||^2 of the
  // input iterate. The default uses residual + diag_scale_add; grid operators fuse it.
  virtual double jacobi_sweep(Real omega, const Field<Real>& b, Field<Real>& x, Field<Real>& x_new);
  // Up to q.sweeps Jacobi sweeps inside the backend (Backend::persistent_sweeps, q.kind and q.omega set
  // here) from x, ping-ponging with y; ran = false where the operator or backend has no such loop (the
  // default; grid operators with a constant stencil on one rank without periodic axes have one).
  virtual PersistentSweeps persistent_jacobi(Real omega, const Field<Real>& b, Field<Real>& x, Field<Real>& y,
                                             PersistentSweepsRequest q) {
    (void)omega, (void)b, (void)x, (void)y, (void)q;
    return {};
  }
  // Up to q.iterations unpreconditioned CG iterations inside the backend (Backend::persistent_cg on an
  // assembled matrix, Backend::persistent_stencil_cg on a constant stencil) from the solver's state x, r, p
  // and q.rr; ran = false where the operator or backend has no such loop (the default).
  virtual PersistentCg persistent_cg(Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                                     const PersistentCgRequest& req) {
    (void)x, (void)r, (void)p, (void)q, (void)req;
    return {};
  }
  // Why this operator cannot run the persistent CG loop on any backend (the solver's error for
  // persistent = "on"); empty when it can where the backend has the loop.
  virtual std::string persistent_cg_obstacle() const { return "this operator has no persistent CG loop"; }
  // Bytes per row and iteration the persistent CG loop moves (the timers' bandwidth figure).
  virtual double persistent_cg_bytes_per_row() const { return 0.0; }
  // One-line description for logs ("7-point stencil 'laplacian_7pt' on 32 x 32 x 32").
  virtual std::string describe() const = 0;
  // Multiply-adds per row (for the timer's flop count).
  virtual double nnz_per_row() const = 0;

 protected:
  // Scratch vectors for default implementations, created on first use.
  Field<Real>& scratch(int which);

 private:
  FieldPtr<Real> scratch_[2];
};

}  // namespace perksolve
