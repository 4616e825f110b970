// The one seam between algorithms and hardware. Solvers, problems and the halo exchanger call only
// these operations; each backend (Kokkos, CUDA, ...) implements them. Operations act on the owned
// cells of a field unless said otherwise; reductions return *global* values (MPI-reduced over the
// backend's communicator).
#pragma once

#include <mpi.h>

#include <memory>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "framework/backend/field.hpp"
#include "framework/grid/grid.hpp"
#include "framework/stencil/stencil.hpp"

namespace perksolve {

// What the boundary-ghost fill needs to know about one physical face.
struct BoundaryFace {
  int axis = 0;
  int side = 0;  // 0 = low, 1 = high
  FaceBoundary bc;
  Centering centering = Centering::vertex;
  double spacing = 1.0;
};

// Pinned (page-locked where the backend can) host memory for halo messages.
template <class Real>
struct HostBuffer {
  std::shared_ptr<Real[]> data;
  long size = 0;
};

template <class Real>
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  MPI_Comm comm() const { return comm_; }

  // ---- storage -------------------------------------------------------------------------------
  virtual FieldPtr<Real> create_field(const FieldLayout& layout) = 0;
  virtual HostBuffer<Real> create_host_buffer(long size) = 0;
  // Whole allocation (ghosts included) from/to a host array of layout.size() elements.
  virtual void upload(Field<Real>& f, std::span<const Real> host) = 0;
  virtual void download(const Field<Real>& f, std::span<Real> host) = 0;

  // ---- pointwise / BLAS-1 (owned cells) --------------------------------------------------------
  virtual void fill(Field<Real>& f, Real value) = 0;  // ghosts included
  virtual void copy(const Field<Real>& src, Field<Real>& dst) = 0;  // ghosts included
  // y = a*x + b*y
  virtual void axpby(Real a, const Field<Real>& x, Real b, Field<Real>& y) = 0;
  virtual double dot(const Field<Real>& x, const Field<Real>& y) = 0;
  virtual double norm2(const Field<Real>& x) = 0;
  virtual double norm_inf(const Field<Real>& x) = 0;

  // ---- stencils (inputs must have up-to-date ghosts) ---------------------------------------------
  // out = S * in
  virtual void apply_stencil(const Stencil& s, const Field<Real>& in, Field<Real>& out) = 0;
  // r = b - A x
  virtual void residual(const Stencil& A, const Field<Real>& b, const Field<Real>& x, Field<Real>& r) = 0;
  // x_new = x + omega * D^{-1} (b - A x), D = centre coefficient of A. Returns the global
  // ||b - A x||_2^2 of the *input* iterate (fused into the sweep).
  virtual double jacobi_sweep(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                              Field<Real>& x_new) = 0;

  // ---- halos and boundaries ------------------------------------------------------------------
  // Pack the listed boxes one after another (x fastest within a box) into host memory.
  virtual void pack(const Field<Real>& f, std::span<const IndexBox> boxes, Real* host) = 0;
  virtual void unpack(Field<Real>& f, std::span<const IndexBox> boxes, const Real* host) = 0;
  // Fill the ghost slab of one physical face from the boundary condition. The slab spans the full
  // padded extents of the other axes. `homogeneous` uses value 0 (for Krylov search directions).
  virtual void fill_boundary_ghosts(Field<Real>& f, const BoundaryFace& face, bool homogeneous) = 0;

  // Wait for outstanding device work (no-op on synchronous host backends).
  virtual void fence() {}

 protected:
  explicit Backend(MPI_Comm comm) : comm_(comm) {}
  double allreduce_sum(double local) const;
  double allreduce_max(double local) const;

 private:
  MPI_Comm comm_;
};

// Backend factory by name ("kokkos", "cuda"). Throws BackendUnavailable with a clear message when
// the backend is not compiled in or not implemented.
struct BackendUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Precision { float32, float64 };

template <class Real>
std::unique_ptr<Backend<Real>> create_backend(std::string_view name, MPI_Comm comm);

// Registration used by backend libraries (self-registering at load time).
template <class Real>
using BackendFactory = std::unique_ptr<Backend<Real>> (*)(MPI_Comm);
void register_backend(std::string name, BackendFactory<float> f32, BackendFactory<double> f64);
std::vector<std::string> registered_backends();

}  // namespace perksolve
