#include "solvers/multigrid/dense_coarse_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace perksolve {
namespace {

// In-place inverse of the row-major n x n matrix `m` (Gauss-Jordan with partial pivoting).
// Returns false when a pivot vanishes relative to the matrix scale.
bool invert(std::vector<double>& m, long n) {
  std::vector<double> inv(static_cast<std::size_t>(n * n), 0.0);
  for (long i = 0; i < n; ++i) inv[i * n + i] = 1.0;
  double scale = 0.0;
  for (double v : m) scale = std::max(scale, std::abs(v));
  for (long c = 0; c < n; ++c) {
    long p = c;
    for (long r = c + 1; r < n; ++r)
      if (std::abs(m[r * n + c]) > std::abs(m[p * n + c])) p = r;
    if (!(std::abs(m[p * n + c]) > 1e-13 * scale)) return false;
    if (p != c)
      for (long k = 0; k < n; ++k) {
        std::swap(m[c * n + k], m[p * n + k]);
        std::swap(inv[c * n + k], inv[p * n + k]);
      }
    const double d = 1.0 / m[c * n + c];
    for (long k = 0; k < n; ++k) m[c * n + k] *= d, inv[c * n + k] *= d;
    for (long r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = m[r * n + c];
      if (f == 0.0) continue;
      double* mr = &m[r * n];
      double* ir = &inv[r * n];
      const double* mc = &m[c * n];
      const double* ic = &inv[c * n];
      for (long k = 0; k < n; ++k) mr[k] -= f * mc[k], ir[k] -= f * ic[k];
    }
  }
  m.swap(inv);
  return true;
}

}  // namespace

void check_direct_coarse_fits(long ranks, long unknowns, long max_unknowns) {
  if (ranks > 1)
    throw std::invalid_argument(fmt::format("multigrid: coarse type \"direct\" needs the coarsest level on one rank; "
                                            "it is distributed over {} ranks (use coarse type \"cg\", or more levels)",
                                            ranks));
  if (unknowns > max_unknowns)
    throw std::invalid_argument(fmt::format("multigrid: the coarsest level has {} unknowns, more than max_unknowns = {} "
                                            "of the direct coarse solve (raise it, add levels, or use coarse type "
                                            "\"cg\")",
                                            unknowns, max_unknowns));
}

template <class Real>
DenseCoarseSolver<Real>::DenseCoarseSolver(GridOperator<Real>& A, long max_unknowns) : A_(A) {
  const Decomposition& dec = A.decomposition();
  int size = 1;
  MPI_Comm_size(dec.comm(), &size);
  const FieldLayout& lay = A.layout();
  n_ = lay.owned_size();
  check_direct_coarse_fits(size, n_, max_unknowns);
  Backend<Real>& be = A.backend();
  const int dim = dec.grid().dim;
  const int R = A.stencil().radius();
  const int P = 2 * R + 1;
  const int colours = dim == 3 ? P * P * P : dim == 2 ? P * P : P;
  const auto& n = lay.n;
  auto owned_pos = [&](int i, int j, int k) { return i + static_cast<long>(n[0]) * (j + static_cast<long>(n[1]) * k); };

  // Probe: the colour-c cells set to 1; row cell (i,j,k) then sees exactly one colour-c column in
  // its footprint, the cell at offset d per axis with (i + d) mod P == c_axis, |d| <= R.
  std::vector<double> M(static_cast<std::size_t>(n_ * n_), 0.0);
  std::vector<Real> host(static_cast<std::size_t>(lay.size()));
  FieldPtr<Real> p = A.create_vector(), q = A.create_vector();
  auto wrap = [P](int v) { return ((v % P) + P) % P; };
  for (int colour = 0; colour < colours; ++colour) {
    const int c[3] = {colour % P, (colour / P) % P, colour / (P * P)};
    std::fill(host.begin(), host.end(), Real(0));
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i)
          if (wrap(i) == c[0] && (dim < 2 || wrap(j) == c[1]) && (dim < 3 || wrap(k) == c[2]))
            host[lay.index(i, j, k)] = Real(1);
    be.upload(*p, host);
    A.apply(*p, *q);
    be.download(*q, host);
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) {
          const int cell[3] = {i, j, k};
          int col[3] = {0, 0, 0};
          bool inside = true;
          for (int a = 0; a < 3; ++a) {
            if (a >= dim) continue;
            const int d = wrap(c[a] - cell[a]) > R ? wrap(c[a] - cell[a]) - P : wrap(c[a] - cell[a]);
            col[a] = cell[a] + d;
            inside &= col[a] >= 0 && col[a] < n[a];
          }
          if (inside) M[owned_pos(i, j, k) * n_ + owned_pos(col[0], col[1], col[2])] = host[lay.index(i, j, k)];
        }
  }
  if (!invert(M, n_))
    throw std::invalid_argument(fmt::format("multigrid: the coarsest-level operator ({} unknowns) is singular, so the "
                                            "direct coarse solve cannot be used (use coarse type \"cg\")",
                                            n_));
  CsrBlock blk;
  blk.rows = n_;
  blk.row_ptr.resize(static_cast<std::size_t>(n_ + 1));
  blk.col.resize(static_cast<std::size_t>(n_ * n_));
  blk.val = std::move(M);
  for (long r = 0; r <= n_; ++r) blk.row_ptr[r] = r * n_;
  for (long r = 0; r < n_; ++r)
    for (long k = 0; k < n_; ++k) blk.col[r * n_ + k] = static_cast<int>(k);
  inverse_ = be.create_sparse_matrix(blk);
  FieldLayout flat;
  flat.n = {static_cast<int>(n_), 1, 1};
  flat_r_ = be.create_field(flat);
  flat_e_ = be.create_field(flat);
  be.fill(*flat_r_, Real(0));
  be.fill(*flat_e_, Real(0));
}

template <class Real>
void DenseCoarseSolver<Real>::solve(const Field<Real>& b, Field<Real>& x, Field<Real>& r, bool homogeneous) {
  Backend<Real>& be = A_.backend();
  A_.residual_bc(b, x, r, homogeneous);
  be.spmv_cells(*inverse_, r, r, *flat_r_, *flat_e_);  // r = A^{-1} r (in place: through the flat vectors)
  be.axpby(Real(1), r, Real(1), x);
}

template <class Real>
void DenseCoarseSolver<Real>::solve_from_zero(const Field<Real>& b, Field<Real>& x) {
  A_.backend().spmv_cells(*inverse_, b, x, *flat_r_, *flat_e_);
}

template class DenseCoarseSolver<float>;
template class DenseCoarseSolver<double>;

}  // namespace perksolve
