// The portable backend: Kokkos on its default execution space (Serial with Debian's packages,
// OpenMP/CUDA/HIP with an upstream Kokkos). It is the reference every other backend is checked against.
#pragma once

#include <Kokkos_Core.hpp>

#include "framework/backend/backend.hpp"

namespace perksolve {

using KokkosExec = Kokkos::DefaultExecutionSpace;
using KokkosMem = KokkosExec::memory_space;

template <class Real>
class KokkosField final : public Field<Real> {
 public:
  explicit KokkosField(const FieldLayout& layout)
      : Field<Real>(layout), view_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "perksolve_field"), layout.size()) {}
  Real* data() override { return view_.data(); }
  const Real* data() const override { return view_.data(); }
  std::string_view backend_name() const override { return "kokkos"; }
  Kokkos::View<Real*, KokkosMem> view() const { return view_; }

 private:
  Kokkos::View<Real*, KokkosMem> view_;
};

template <class Real>
class KokkosBackend final : public Backend<Real> {
 public:
  explicit KokkosBackend(MPI_Comm comm) : Backend<Real>(comm) {}
  std::string_view name() const override { return "kokkos"; }

  FieldPtr<Real> create_field(const FieldLayout& layout) override;
  HostBuffer<Real> create_host_buffer(long size) override;
  void upload(Field<Real>& f, std::span<const Real> host) override;
  void download(const Field<Real>& f, std::span<Real> host) override;

  void fill(Field<Real>& f, Real value) override;
  void copy(const Field<Real>& src, Field<Real>& dst) override;
  void axpby(Real a, const Field<Real>& x, Real b, Field<Real>& y) override;
  void scale(Real a, const Field<Real>& x, Field<Real>& y) override;
  double dot(const Field<Real>& x, const Field<Real>& y) override;
  double norm2(const Field<Real>& x) override;
  double norm_inf(const Field<Real>& x) override;

  void apply_stencil(const Stencil& s, const Field<Real>& in, Field<Real>& out) override;
  void residual(const Stencil& A, const Field<Real>& b, const Field<Real>& x, Field<Real>& r) override;
  double jacobi_sweep(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                      Field<Real>& x_new) override;
  // Two sweeps through a private intermediate whose ghosts stay +0 (it is only ever written on owned cells).
  bool jacobi_pair_supported(const Stencil& A, const FieldLayout& layout) const override;
  void jacobi_update_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, const Field<Real>* x,
                          Field<Real>& out) override;

  void pack(const Field<Real>& f, std::span<const IndexBox> boxes, Real* host) override;
  void unpack(Field<Real>& f, std::span<const IndexBox> boxes, const Real* host) override;
  void fill_boundary_ghosts(Field<Real>& f, const BoundaryFace& face, bool homogeneous) override;
  void fence() override { Kokkos::fence(); }

  // Solver kernels (issue 3).
  double cg_update(Real alpha, const Field<Real>& p, const Field<Real>& q, Field<Real>& x, Field<Real>& r) override;
  std::array<double, 2> dot2(const Field<Real>& x, const Field<Real>& y, const Field<Real>& u,
                             const Field<Real>& v) override;
  void convert(const Field<OtherReal<Real>>& src, Field<Real>& dst) override;
  void axpby_mixed(Real a, const Field<Real>& x, Real b, Field<Real>& y, Field<OtherReal<Real>>& y_other) override;
  std::array<double, 2> dot2_mixed(const Field<Real>& x, const Field<OtherReal<Real>>& y, const Field<Real>& u,
                                   const Field<Real>& v) override;
  void cg_advance_mixed(Real alpha, Real beta, const Field<OtherReal<Real>>& z, Field<Real>& p,
                        Field<Real>& x) override;
  void diag_scale_add(Real a, const Field<Real>& r, const Field<Real>& d, Real b, Field<Real>& y) override;
  void apply_stencil_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& in,
                         Field<Real>& out) override;
  void residual_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& b, const Field<Real>& x,
                    Field<Real>& r) override;
  void stencil_coefficient(const Field<Real>& coeffs, int point, Field<Real>& d) override;
  void gs_color_sweep(const Stencil& A, const Field<Real>* coeffs, const Field<Real>& b, Field<Real>& x, int color,
                      long parity) override;
  void restrict_to_coarse(const TransferMap& m, const Field<Real>& fine, Field<Real>& coarse) override;
  void prolongate_add(const TransferMap& m, const Field<Real>& coarse, Field<Real>& fine) override;
  // Kokkos Kernels (KokkosSparse::CrsMatrix + spmv), in kokkos_sparse.cpp.
  std::unique_ptr<SparseMatrix<Real>> create_sparse_matrix(const CsrBlock& block) override;
  void sparse_gather(const SparseMatrix<Real>& A, const Field<Real>& x, Real* host) override;
  void spmv(const SparseMatrix<Real>& A, const Field<Real>& x, const Real* ghosts, Field<Real>& y) override;
  void sparse_diagonal(const SparseMatrix<Real>& A, Field<Real>& d) override;

 private:
  FieldPtr<Real> pair_scratch_;  // jacobi_update_pair's x1 (ghosts +0)
};

// KokkosBlas dot / axpby on contiguous views (fields without ghosts), in kokkos_sparse.cpp.
template <class Real>
double kokkos_blas_dot(const Kokkos::View<Real*, KokkosMem>& x, const Kokkos::View<Real*, KokkosMem>& y);
template <class Real>
void kokkos_blas_axpby(Real a, const Kokkos::View<Real*, KokkosMem>& x, Real b, const Kokkos::View<Real*, KokkosMem>& y);

// Registers "kokkos" with the backend factory (called once by the framework).
void register_kokkos_backend();

}  // namespace perksolve
