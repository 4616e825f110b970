#include "framework/backends/kokkos/kokkos_backend.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace perksolve {
namespace {

using Policy3 = Kokkos::MDRangePolicy<KokkosExec, Kokkos::Rank<3>>;

template <class Real>
const KokkosField<Real>& as_kokkos(const Field<Real>& f) {
  if (f.backend_name() != "kokkos")
    throw std::logic_error("kokkos backend was handed a field of backend '" + std::string(f.backend_name()) + "'");
  return static_cast<const KokkosField<Real>&>(f);
}
template <class Real>
KokkosField<Real>& as_kokkos(Field<Real>& f) {
  return const_cast<KokkosField<Real>&>(as_kokkos(static_cast<const Field<Real>&>(f)));
}

void require_same_layout(const FieldLayout& a, const FieldLayout& b, const char* op) {
  if (!(a == b)) throw std::logic_error(std::string("kokkos backend: fields of different layouts passed to ") + op);
}

// Kokkos 3.4 rejects negative MDRange bounds, so every policy starts at 0 and kernels add the
// box origin themselves.
Policy3 owned_policy(const FieldLayout& l) { return Policy3({0, 0, 0}, {l.n[0], l.n[1], l.n[2]}); }
Policy3 box_policy(const IndexBox& b) {
  return Policy3({0, 0, 0}, {b.end[0] - b.begin[0], b.end[1] - b.begin[1], b.end[2] - b.begin[2]});
}

// Linearised offsets and coefficients of a stencil for a given layout, in device memory.
template <class Real>
struct DeviceStencil {
  Kokkos::View<long*, KokkosMem> offset;
  Kokkos::View<Real*, KokkosMem> coeff;
  int points = 0;
  Real center = 0;
};

template <class Real>
DeviceStencil<Real> to_device(const Stencil& s, const FieldLayout& l) {
  for (const Offset& o : s.offsets) {
    const int d[3] = {o.dx, o.dy, o.dz};
    for (int a = 0; a < 3; ++a)
      if (std::abs(d[a]) > l.ghost[a])
        throw std::logic_error("stencil '" + s.name + "' reaches " + std::to_string(std::abs(d[a])) +
                               " cells along axis " + std::to_string(a) + " but the field has ghost width " +
                               std::to_string(l.ghost[a]));
  }
  DeviceStencil<Real> d;
  d.points = s.size();
  d.offset = Kokkos::View<long*, KokkosMem>("stencil_offsets", d.points);
  d.coeff = Kokkos::View<Real*, KokkosMem>("stencil_coeffs", d.points);
  auto ho = Kokkos::create_mirror_view(d.offset);
  auto hc = Kokkos::create_mirror_view(d.coeff);
  for (int p = 0; p < d.points; ++p) {
    const Offset o = s.offsets[p];
    ho(p) = o.dx + o.dy * l.stride_y() + o.dz * l.stride_z();
    hc(p) = static_cast<Real>(s.coeffs[p]);
  }
  Kokkos::deep_copy(d.offset, ho);
  Kokkos::deep_copy(d.coeff, hc);
  d.center = static_cast<Real>(s.center_coeff());
  return d;
}

// Walks a list of boxes, calling f(box_index, i, j, k, running linear position) on the host side of
// the schedule: every box becomes one parallel_for with its base position in the packed buffer.
template <class F>
void for_each_box(std::span<const IndexBox> boxes, F&& f) {
  long base = 0;
  for (const IndexBox& b : boxes) {
    if (b.count() > 0) f(b, base);
    base += b.count();
  }
}

}  // namespace

template <class Real>
FieldPtr<Real> KokkosBackend<Real>::create_field(const FieldLayout& layout) {
  return std::make_unique<KokkosField<Real>>(layout);
}

template <class Real>
HostBuffer<Real> KokkosBackend<Real>::create_host_buffer(long size) {
  return HostBuffer<Real>{std::shared_ptr<Real[]>(new Real[size > 0 ? size : 1]), size};
}

template <class Real>
void KokkosBackend<Real>::upload(Field<Real>& f, std::span<const Real> host) {
  auto v = as_kokkos(f).view();
  if (static_cast<long>(host.size()) != f.layout().size()) throw std::logic_error("upload: host size mismatch");
  Kokkos::View<const Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host.data(), host.size());
  Kokkos::deep_copy(v, h);
}

template <class Real>
void KokkosBackend<Real>::download(const Field<Real>& f, std::span<Real> host) {
  auto v = as_kokkos(f).view();
  if (static_cast<long>(host.size()) != f.layout().size()) throw std::logic_error("download: host size mismatch");
  Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host.data(), host.size());
  Kokkos::deep_copy(h, v);
}

template <class Real>
void KokkosBackend<Real>::fill(Field<Real>& f, Real value) {
  Kokkos::deep_copy(as_kokkos(f).view(), value);
}

template <class Real>
void KokkosBackend<Real>::copy(const Field<Real>& src, Field<Real>& dst) {
  require_same_layout(src.layout(), dst.layout(), "copy");
  Kokkos::deep_copy(as_kokkos(dst).view(), as_kokkos(src).view());
}

template <class Real>
void KokkosBackend<Real>::axpby(Real a, const Field<Real>& x, Real b, Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "axpby");
  const FieldLayout l = x.layout();
  auto xv = as_kokkos(x).view();
  auto yv = as_kokkos(y).view();
  Kokkos::parallel_for(
      "perksolve::axpby", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        yv(n) = a * xv(n) + b * yv(n);
      });
}

template <class Real>
double KokkosBackend<Real>::dot(const Field<Real>& x, const Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "dot");
  const FieldLayout l = x.layout();
  auto xv = as_kokkos(x).view();
  auto yv = as_kokkos(y).view();
  double local = 0.0;
  Kokkos::parallel_reduce(
      "perksolve::dot", owned_policy(l),
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        const long n = l.index(i, j, k);
        acc += static_cast<double>(xv(n)) * static_cast<double>(yv(n));
      },
      local);
  return this->allreduce_sum(local);
}

template <class Real>
double KokkosBackend<Real>::norm2(const Field<Real>& x) {
  return std::sqrt(dot(x, x));
}

template <class Real>
double KokkosBackend<Real>::norm_inf(const Field<Real>& x) {
  const FieldLayout l = x.layout();
  auto xv = as_kokkos(x).view();
  double local = 0.0;
  Kokkos::parallel_reduce(
      "perksolve::norm_inf", owned_policy(l),
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        const double v = Kokkos::Experimental::fabs(static_cast<double>(xv(l.index(i, j, k))));
        if (v > acc || v != v) acc = v;  // NaN propagates
      },
      Kokkos::Max<double>(local));
  return this->allreduce_max(local);
}

template <class Real>
void KokkosBackend<Real>::apply_stencil(const Stencil& s, const Field<Real>& in, Field<Real>& out) {
  require_same_layout(in.layout(), out.layout(), "apply_stencil");
  const FieldLayout l = in.layout();
  const DeviceStencil<Real> st = to_device<Real>(s, l);
  auto iv = as_kokkos(in).view();
  auto ov = as_kokkos(out).view();
  const int np = st.points;
  auto off = st.offset;
  auto cf = st.coeff;
  Kokkos::parallel_for(
      "perksolve::apply_stencil", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        Real acc = 0;
        for (int p = 0; p < np; ++p) acc += cf(p) * iv(n + off(p));
        ov(n) = acc;
      });
}

template <class Real>
void KokkosBackend<Real>::residual(const Stencil& A, const Field<Real>& b, const Field<Real>& x, Field<Real>& r) {
  require_same_layout(b.layout(), x.layout(), "residual");
  require_same_layout(x.layout(), r.layout(), "residual");
  const FieldLayout l = x.layout();
  const DeviceStencil<Real> st = to_device<Real>(A, l);
  auto bv = as_kokkos(b).view();
  auto xv = as_kokkos(x).view();
  auto rv = as_kokkos(r).view();
  const int np = st.points;
  auto off = st.offset;
  auto cf = st.coeff;
  Kokkos::parallel_for(
      "perksolve::residual", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        Real ax = 0;
        for (int p = 0; p < np; ++p) ax += cf(p) * xv(n + off(p));
        rv(n) = bv(n) - ax;
      });
}

template <class Real>
double KokkosBackend<Real>::jacobi_sweep(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                                         Field<Real>& x_new) {
  require_same_layout(b.layout(), x.layout(), "jacobi_sweep");
  require_same_layout(x.layout(), x_new.layout(), "jacobi_sweep");
  const FieldLayout l = x.layout();
  const DeviceStencil<Real> st = to_device<Real>(A, l);
  auto bv = as_kokkos(b).view();
  auto xv = as_kokkos(x).view();
  auto nv = as_kokkos(x_new).view();
  const int np = st.points;
  auto off = st.offset;
  auto cf = st.coeff;
  const Real scale = omega / st.center;
  double local = 0.0;
  Kokkos::parallel_reduce(
      "perksolve::jacobi_sweep", owned_policy(l),
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        const long n = l.index(i, j, k);
        Real ax = 0;
        for (int p = 0; p < np; ++p) ax += cf(p) * xv(n + off(p));
        const Real r = bv(n) - ax;
        nv(n) = xv(n) + scale * r;
        acc += static_cast<double>(r) * static_cast<double>(r);
      },
      local);
  return this->allreduce_sum(local);
}

template <class Real>
void KokkosBackend<Real>::pack(const Field<Real>& f, std::span<const IndexBox> boxes, Real* host) {
  const FieldLayout l = f.layout();
  long total = 0;
  for (const IndexBox& b : boxes) total += b.count();
  if (total == 0) return;
  auto fv = as_kokkos(f).view();
  Kokkos::View<Real*, KokkosMem> buf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pack"), total);
  for_each_box(boxes, [&](const IndexBox& b, long base) {
    const int nx = b.end[0] - b.begin[0], ny = b.end[1] - b.begin[1];
    Kokkos::parallel_for(
        "perksolve::pack", box_policy(b), KOKKOS_LAMBDA(int i, int j, int k) {
          const long p = base + i + static_cast<long>(nx) * (j + static_cast<long>(ny) * k);
          buf(p) = fv(l.index(i + b.begin[0], j + b.begin[1], k + b.begin[2]));
        });
  });
  Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host, total);
  Kokkos::deep_copy(h, buf);
}

template <class Real>
void KokkosBackend<Real>::unpack(Field<Real>& f, std::span<const IndexBox> boxes, const Real* host) {
  const FieldLayout l = f.layout();
  long total = 0;
  for (const IndexBox& b : boxes) total += b.count();
  if (total == 0) return;
  auto fv = as_kokkos(f).view();
  Kokkos::View<Real*, KokkosMem> buf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "unpack"), total);
  Kokkos::View<const Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host, total);
  Kokkos::deep_copy(buf, h);
  for_each_box(boxes, [&](const IndexBox& b, long base) {
    const int nx = b.end[0] - b.begin[0], ny = b.end[1] - b.begin[1];
    Kokkos::parallel_for(
        "perksolve::unpack", box_policy(b), KOKKOS_LAMBDA(int i, int j, int k) {
          const long p = base + i + static_cast<long>(nx) * (j + static_cast<long>(ny) * k);
          fv(l.index(i + b.begin[0], j + b.begin[1], k + b.begin[2])) = buf(p);
        });
  });
}

template <class Real>
void KokkosBackend<Real>::fill_boundary_ghosts(Field<Real>& f, const BoundaryFace& face, bool homogeneous) {
  const FieldLayout l = f.layout();
  const int a = face.axis;
  const int g = l.ghost[a];
  if (g == 0 || face.bc.type == BoundaryType::periodic) return;
  auto fv = as_kokkos(f).view();
  const int n = l.n[a];
  const bool low = face.side == 0;
  const bool dirichlet = face.bc.type == BoundaryType::dirichlet;
  const bool vertex = face.centering == Centering::vertex;
  const Real v = homogeneous ? Real(0) : static_cast<Real>(face.bc.value);
  const Real h = static_cast<Real>(face.spacing);
  // Iterate over k = ghost distance (0 nearest) along axis a and the padded extents of the others.
  IndexBox slab{{-l.ghost[0], -l.ghost[1], -l.ghost[2]}, {l.n[0] + l.ghost[0], l.n[1] + l.ghost[1], l.n[2] + l.ghost[2]}};
  slab.begin[a] = 0;
  slab.end[a] = g;
  const IndexBox b = slab;
  Kokkos::parallel_for(
      "perksolve::fill_boundary_ghosts", box_policy(b), KOKKOS_LAMBDA(int i, int j, int k) {
        int idx[3] = {i + b.begin[0], j + b.begin[1], k + b.begin[2]};
        const int d = idx[a];  // ghost distance 0..g-1
        int ghost_i, mirror_i;
        Real value;
        if (vertex && dirichlet) {
          // Boundary vertex is the first ghost; farther ghosts are odd reflections about it.
          ghost_i = low ? -1 - d : n + d;
          mirror_i = low ? -1 + d : n - d;
          idx[a] = mirror_i;
          value = d == 0 ? v : Real(2) * v - fv(l.index(idx[0], idx[1], idx[2]));
        } else if (vertex) {
          // Neumann, boundary vertex is an unknown: mirror about it.
          ghost_i = low ? -1 - d : n + d;
          mirror_i = low ? 1 + d : n - 2 - d;
          idx[a] = mirror_i;
          value = fv(l.index(idx[0], idx[1], idx[2])) + Real(2 * (d + 1)) * h * v;
        } else {
          // Cell-centred: the face lies half a cell outside; mirror about it.
          ghost_i = low ? -1 - d : n + d;
          mirror_i = low ? d : n - 1 - d;
          idx[a] = mirror_i;
          const Real m = fv(l.index(idx[0], idx[1], idx[2]));
          value = dirichlet ? Real(2) * v - m : m + Real(2 * d + 1) * h * v;
        }
        idx[a] = ghost_i;
        fv(l.index(idx[0], idx[1], idx[2])) = value;
      });
}

template class KokkosBackend<float>;
template class KokkosBackend<double>;

namespace {
template <class Real>
std::unique_ptr<Backend<Real>> make_kokkos(MPI_Comm comm) {
  return std::make_unique<KokkosBackend<Real>>(comm);
}
}  // namespace

void register_kokkos_backend() { register_backend("kokkos", &make_kokkos<float>, &make_kokkos<double>); }

}  // namespace perksolve
