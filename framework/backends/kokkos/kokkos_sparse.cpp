// The Kokkos backend's Kokkos Kernels paths: assembled sparse matrices (KokkosSparse::CrsMatrix +
// KokkosSparse::spmv) and KokkosBlas dot / axpby for contiguous vectors. Kept in this one
// translation unit because the Kokkos Kernels headers are heavy to compile.
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <stdexcept>
#include <string>

#include "framework/backends/kokkos/kokkos_backend.hpp"

namespace perksolve {
namespace {

using Device = Kokkos::Device<KokkosExec, KokkosMem>;
// Rank-1 LayoutLeft views: the layout Kokkos Kernels pre-instantiates (ETI) for its kernels.
template <class Real>
using Vec = Kokkos::View<Real*, Kokkos::LayoutLeft, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class Real>
using ConstVec = Kokkos::View<const Real*, Kokkos::LayoutLeft, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class Real>
const KokkosField<Real>& as_kokkos(const Field<Real>& f) {
  if (f.backend_name() != "kokkos")
    throw std::logic_error("kokkos backend was handed a field of backend '" + std::string(f.backend_name()) + "'");
  return static_cast<const KokkosField<Real>&>(f);
}

template <class Real>
class KokkosCsr final : public SparseMatrix<Real> {
 public:
  using Matrix = KokkosSparse::CrsMatrix<Real, int, Device, void, std::size_t>;
  KokkosCsr(const CsrBlock& b, Matrix m)
      : SparseMatrix<Real>(b.rows, b.ghost_cols, static_cast<long>(b.send_index.size()), static_cast<long>(b.val.size())),
        A(std::move(m)),
        send(Kokkos::view_alloc(Kokkos::WithoutInitializing, "csr_send_index"), b.send_index.size()),
        xext("csr_x_extended", b.rows + b.ghost_cols),
        sendbuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "csr_send_buffer"), b.send_index.size()) {}
  std::string_view backend_name() const override { return "kokkos"; }
  Matrix A;
  Kokkos::View<long*, KokkosMem> send;
  Kokkos::View<Real*, Kokkos::LayoutLeft, Device> xext;
  Kokkos::View<Real*, KokkosMem> sendbuf;
};

template <class Real>
const KokkosCsr<Real>& as_csr(const SparseMatrix<Real>& m) {
  if (m.backend_name() != "kokkos") throw std::logic_error("kokkos backend was handed a sparse matrix of another backend");
  return static_cast<const KokkosCsr<Real>&>(m);
}

void require_vector(const FieldLayout& l, long rows, const char* op) {
  if (l.size() != l.owned_size() || l.owned_size() != rows)
    throw std::logic_error(std::string("kokkos backend: ") + op + ": vector layout does not match the matrix rows");
}

}  // namespace

template <class Real>
double kokkos_blas_dot(const Kokkos::View<Real*, KokkosMem>& x, const Kokkos::View<Real*, KokkosMem>& y) {
  ConstVec<Real> xv(x.data(), x.extent(0)), yv(y.data(), y.extent(0));
  return static_cast<double>(KokkosBlas::dot(xv, yv));
}

template <class Real>
void kokkos_blas_axpby(Real a, const Kokkos::View<Real*, KokkosMem>& x, Real b, const Kokkos::View<Real*, KokkosMem>& y) {
  ConstVec<Real> xv(x.data(), x.extent(0));
  Vec<Real> yv(y.data(), y.extent(0));
  if (b == Real(0)) Kokkos::deep_copy(yv, Real(0));  // y may hold garbage: 0 * NaN must not leak
  KokkosBlas::axpby(a, xv, b, yv);
}

template double kokkos_blas_dot<float>(const Kokkos::View<float*, KokkosMem>&, const Kokkos::View<float*, KokkosMem>&);
template double kokkos_blas_dot<double>(const Kokkos::View<double*, KokkosMem>&, const Kokkos::View<double*, KokkosMem>&);
template void kokkos_blas_axpby<float>(float, const Kokkos::View<float*, KokkosMem>&, float,
                                       const Kokkos::View<float*, KokkosMem>&);
template void kokkos_blas_axpby<double>(double, const Kokkos::View<double*, KokkosMem>&, double,
                                        const Kokkos::View<double*, KokkosMem>&);

template <class Real>
std::unique_ptr<SparseMatrix<Real>> KokkosBackend<Real>::create_sparse_matrix(const CsrBlock& b) {
  using Matrix = typename KokkosCsr<Real>::Matrix;
  const long nnz = static_cast<long>(b.val.size());
  if (static_cast<long>(b.row_ptr.size()) != b.rows + 1 || static_cast<long>(b.col.size()) != nnz)
    throw std::logic_error("create_sparse_matrix: inconsistent CSR block");
  typename Matrix::row_map_type::non_const_type rp("csr_row_ptr", b.rows + 1);
  typename Matrix::index_type::non_const_type ci("csr_col", nnz);
  typename Matrix::values_type::non_const_type vv("csr_val", nnz);
  auto hrp = Kokkos::create_mirror_view(rp);
  auto hci = Kokkos::create_mirror_view(ci);
  auto hvv = Kokkos::create_mirror_view(vv);
  for (long r = 0; r <= b.rows; ++r) hrp(r) = static_cast<std::size_t>(b.row_ptr[r]);
  for (long e = 0; e < nnz; ++e) {
    hci(e) = b.col[e];
    hvv(e) = static_cast<Real>(b.val[e]);
  }
  Kokkos::deep_copy(rp, hrp);
  Kokkos::deep_copy(ci, hci);
  Kokkos::deep_copy(vv, hvv);
  Matrix A("perksolve_csr", static_cast<int>(b.rows), static_cast<int>(b.rows + b.ghost_cols), nnz, vv, rp, ci);
  auto m = std::make_unique<KokkosCsr<Real>>(b, A);
  auto hs = Kokkos::create_mirror_view(m->send);
  for (std::size_t s = 0; s < b.send_index.size(); ++s) hs(s) = b.send_index[s];
  Kokkos::deep_copy(m->send, hs);
  return m;
}

template <class Real>
void KokkosBackend<Real>::sparse_gather(const SparseMatrix<Real>& Am, const Field<Real>& x, Real* host) {
  const KokkosCsr<Real>& A = as_csr(Am);
  require_vector(x.layout(), A.rows(), "sparse_gather");
  const long n = A.send_count();
  if (n == 0) return;
  auto xv = as_kokkos(x).view();
  auto idx = A.send;
  auto buf = A.sendbuf;
  Kokkos::parallel_for(
      "perksolve::sparse_gather", Kokkos::RangePolicy<KokkosExec>(0, n), KOKKOS_LAMBDA(long s) { buf(s) = xv(idx(s)); });
  Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host, n);
  Kokkos::deep_copy(h, buf);
}

template <class Real>
void KokkosBackend<Real>::spmv(const SparseMatrix<Real>& Am, const Field<Real>& x, const Real* ghosts, Field<Real>& y) {
  const KokkosCsr<Real>& A = as_csr(Am);
  require_vector(x.layout(), A.rows(), "spmv");
  require_vector(y.layout(), A.rows(), "spmv");
  const long n = A.rows(), g = A.ghost_cols();
  auto xe = A.xext;
  Kokkos::deep_copy(Kokkos::subview(xe, Kokkos::make_pair(0L, n)), ConstVec<Real>(x.data(), n));
  if (g > 0) {
    Kokkos::View<const Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(ghosts, g);
    Kokkos::deep_copy(Kokkos::subview(xe, Kokkos::make_pair(n, n + g)), h);
  }
  ConstVec<Real> xin(xe.data(), n + g);
  Vec<Real> yv(y.data(), n);
  KokkosSparse::spmv("N", Real(1), A.A, xin, Real(0), yv);
}

template <class Real>
void KokkosBackend<Real>::sparse_diagonal(const SparseMatrix<Real>& Am, Field<Real>& d) {
  const KokkosCsr<Real>& A = as_csr(Am);
  require_vector(d.layout(), A.rows(), "sparse_diagonal");
  auto rp = A.A.graph.row_map;
  auto ci = A.A.graph.entries;
  auto vv = A.A.values;
  auto dv = as_kokkos(d).view();
  Kokkos::parallel_for(
      "perksolve::sparse_diagonal", Kokkos::RangePolicy<KokkosExec>(0, A.rows()), KOKKOS_LAMBDA(long r) {
        Real diag = 0;
        for (std::size_t e = rp(r); e < rp(r + 1); ++e)
          if (ci(e) == r) diag += vv(e);
        dv(r) = diag;
      });
}

template std::unique_ptr<SparseMatrix<float>> KokkosBackend<float>::create_sparse_matrix(const CsrBlock&);
template std::unique_ptr<SparseMatrix<double>> KokkosBackend<double>::create_sparse_matrix(const CsrBlock&);
template void KokkosBackend<float>::sparse_gather(const SparseMatrix<float>&, const Field<float>&, float*);
template void KokkosBackend<double>::sparse_gather(const SparseMatrix<double>&, const Field<double>&, double*);
template void KokkosBackend<float>::spmv(const SparseMatrix<float>&, const Field<float>&, const float*, Field<float>&);
template void KokkosBackend<double>::spmv(const SparseMatrix<double>&, const Field<double>&, const double*,
                                          Field<double>&);
template void KokkosBackend<float>::sparse_diagonal(const SparseMatrix<float>&, Field<float>&);
template void KokkosBackend<double>::sparse_diagonal(const SparseMatrix<double>&, Field<double>&);

}  // namespace perksolve
