#include "framework/backends/kokkos/kokkos_backend.hpp"

#include "framework/backend/transfer_rule.hpp"

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
  require_valid_layout(layout);
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
  if (l.size() == l.owned_size()) {  // no ghosts: a contiguous vector (sparse-matrix systems)
    kokkos_blas_axpby<Real>(a, xv, b, yv);
    return;
  }
  Kokkos::parallel_for(
      "perksolve::axpby", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        yv(n) = a * xv(n) + b * yv(n);
      });
}

template <class Real>
void KokkosBackend<Real>::scale(Real a, const Field<Real>& x, Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "scale");
  const FieldLayout l = x.layout();
  auto xv = as_kokkos(x).view();
  auto yv = as_kokkos(y).view();
  Kokkos::parallel_for(
      "perksolve::scale", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        yv(n) = a * xv(n);
      });
}

template <class Real>
double KokkosBackend<Real>::dot(const Field<Real>& x, const Field<Real>& y) {
  require_same_layout(x.layout(), y.layout(), "dot");
  const FieldLayout l = x.layout();
  auto xv = as_kokkos(x).view();
  auto yv = as_kokkos(y).view();
  if (l.size() == l.owned_size()) return this->allreduce_sum(kokkos_blas_dot<Real>(xv, yv));
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
bool KokkosBackend<Real>::jacobi_pair_supported(const Stencil& A, const FieldLayout& layout) const {
  for (int a = 0; a < A.shape.dim; ++a)
    if (layout.ghost[a] < A.radius()) return false;
  return true;
}

template <class Real>
void KokkosBackend<Real>::jacobi_update_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b,
                                             const Field<Real>* x, Field<Real>& out) {
  this->check_jacobi_pair_call(A, b, x, out);
  const FieldLayout& l = b.layout();
  if (!pair_scratch_ || !(pair_scratch_->layout() == l)) {
    pair_scratch_ = create_field(l);
    fill(*pair_scratch_, Real(0));
  }
  if (x)
    this->jacobi_update(A, omega1, b, *x, *pair_scratch_);
  else
    scale(omega1 / static_cast<Real>(A.center_coeff()), b, *pair_scratch_);
  this->jacobi_update(A, omega2, b, *pair_scratch_, out);
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
  const boundary_rule::FaceRule<Real> rule = face_rule<Real>(face, homogeneous);
  // Iterate over d = ghost distance (0 nearest) along axis a and the padded extents of the others.
  IndexBox slab{{-l.ghost[0], -l.ghost[1], -l.ghost[2]}, {l.n[0] + l.ghost[0], l.n[1] + l.ghost[1], l.n[2] + l.ghost[2]}};
  slab.begin[a] = 0;
  slab.end[a] = g;
  const IndexBox b = slab;
  Kokkos::parallel_for(
      "perksolve::fill_boundary_ghosts", box_policy(b), KOKKOS_LAMBDA(int i, int j, int k) {
        int idx[3] = {i + b.begin[0], j + b.begin[1], k + b.begin[2]};
        const int d = idx[a];
        idx[a] = boundary_rule::mirror_index(rule, n, d);
        const Real m = boundary_rule::ghost_is_constant(rule, d) ? Real(0) : fv(l.index(idx[0], idx[1], idx[2]));
        idx[a] = boundary_rule::ghost_index(rule.low, n, d);
        fv(l.index(idx[0], idx[1], idx[2])) = boundary_rule::ghost_value(rule, d, m);
      });
}

// ---- solver kernels (issue 3) ----------------------------------------------------------------

namespace {

// Owned cell (i, j, k) of a flattened owned index, x fastest.
KOKKOS_INLINE_FUNCTION void decode(const FieldLayout& l, long idx, int& i, int& j, int& k) {
  i = static_cast<int>(idx % l.n[0]);
  const long rest = idx / l.n[0];
  j = static_cast<int>(rest % l.n[1]);
  k = static_cast<int>(rest / l.n[1]);
}

// YReal: y's precision (dot2_mixed: the other one; its products are those of dot2 after convert(y)).
template <class Real, class YReal = Real>
struct Dot2Functor {
  using value_type = double[];
  using size_type = long;
  size_type value_count = 2;
  FieldLayout l;
  Kokkos::View<Real*, KokkosMem> x, u, v;
  Kokkos::View<YReal*, KokkosMem> y;
  KOKKOS_INLINE_FUNCTION void operator()(long idx, double* acc) const {
    int i, j, k;
    decode(l, idx, i, j, k);
    const long n = l.index(i, j, k);
    acc[0] += static_cast<double>(x(n)) * static_cast<double>(y(n));
    acc[1] += static_cast<double>(u(n)) * static_cast<double>(v(n));
  }
  KOKKOS_INLINE_FUNCTION void init(double* a) const { a[0] = a[1] = 0.0; }
  KOKKOS_INLINE_FUNCTION void join(volatile double* a, const volatile double* b) const {
    a[0] = a[0] + b[0];
    a[1] = a[1] + b[1];
  }
};

void require_coeffs(const FieldLayout& coeffs, const FieldLayout& l, int points, const char* op) {
  if (coeffs.n[0] != l.size() || coeffs.n[1] != points)
    throw std::logic_error(std::string("kokkos backend: coefficient field of the wrong shape passed to ") + op);
}

void require_gs_shape(const Stencil& A) {
  if (A.shape.kind != ShapeKind::star || A.radius() != 1)
    throw std::invalid_argument("red-black Gauss-Seidel needs a star stencil of radius 1 (5-/7-point); operator '" +
                                A.name + "' couples cells of the same colour");
}

}  // namespace

template <class Real>
double KokkosBackend<Real>::cg_update(Real alpha, const Field<Real>& p, const Field<Real>& q, Field<Real>& x,
                                      Field<Real>& r) {
  require_same_layout(p.layout(), q.layout(), "cg_update");
  require_same_layout(p.layout(), x.layout(), "cg_update");
  require_same_layout(p.layout(), r.layout(), "cg_update");
  const FieldLayout l = p.layout();
  auto pv = as_kokkos(p).view();
  auto qv = as_kokkos(q).view();
  auto xv = as_kokkos(x).view();
  auto rv = as_kokkos(r).view();
  double local = 0.0;
  Kokkos::parallel_reduce(
      "perksolve::cg_update", owned_policy(l),
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        const long n = l.index(i, j, k);
        xv(n) += alpha * pv(n);
        const Real rn = rv(n) - alpha * qv(n);
        rv(n) = rn;
        acc += static_cast<double>(rn) * static_cast<double>(rn);
      },
      local);
  return this->allreduce_sum(local);
}

// {x.y, u.v} over owned cells, one MPI reduction for both; y in YReal (dot2: Real, dot2_mixed: the other precision).
template <class Real, class YReal>
std::array<double, 2> dot2_on_owned(const Field<Real>& x, const Field<YReal>& y, const Field<Real>& u,
                                    const Field<Real>& v, MPI_Comm comm, const char* op) {
  require_same_layout(x.layout(), y.layout(), op);
  require_same_layout(x.layout(), u.layout(), op);
  require_same_layout(x.layout(), v.layout(), op);
  Dot2Functor<Real, YReal> f;
  f.l = x.layout();
  f.x = as_kokkos(x).view();
  f.y = as_kokkos(y).view();
  f.u = as_kokkos(u).view();
  f.v = as_kokkos(v).view();
  double local[2] = {0.0, 0.0};
  Kokkos::parallel_reduce(std::string("perksolve::") + op, Kokkos::RangePolicy<KokkosExec>(0, f.l.owned_size()), f,
                          local);
  double global[2] = {0.0, 0.0};
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, comm);
  return {global[0], global[1]};
}

template <class Real>
std::array<double, 2> KokkosBackend<Real>::dot2(const Field<Real>& x, const Field<Real>& y, const Field<Real>& u,
                                                const Field<Real>& v) {
  return dot2_on_owned(x, y, u, v, this->comm(), "dot2");
}

template <class Real>
std::array<double, 2> KokkosBackend<Real>::dot2_mixed(const Field<Real>& x, const Field<OtherReal<Real>>& y,
                                                      const Field<Real>& u, const Field<Real>& v) {
  return dot2_on_owned(x, y, u, v, this->comm(), "dot2_mixed");
}

// The expressions of axpby (a * x + b * y), so that the values are those of axpby followed by convert.
template <class Real>
void KokkosBackend<Real>::axpby_mixed(Real a, const Field<Real>& x, Real b, Field<Real>& y,
                                      Field<OtherReal<Real>>& y_other) {
  require_same_layout(x.layout(), y.layout(), "axpby_mixed");
  require_same_layout(x.layout(), y_other.layout(), "axpby_mixed");
  const FieldLayout l = x.layout();
  auto xv = as_kokkos(x).view();
  auto yv = as_kokkos(y).view();
  auto ov = as_kokkos(y_other).view();
  Kokkos::parallel_for(
      "perksolve::axpby_mixed", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        const Real yn = a * xv(n) + b * yv(n);
        yv(n) = yn;
        ov(n) = static_cast<OtherReal<Real>>(yn);
      });
}

// The values of the default cg_advance (two axpbys) after convert(z).
template <class Real>
void KokkosBackend<Real>::cg_advance_mixed(Real alpha, Real beta, const Field<OtherReal<Real>>& z, Field<Real>& p,
                                           Field<Real>& x) {
  require_same_layout(z.layout(), p.layout(), "cg_advance_mixed");
  require_same_layout(z.layout(), x.layout(), "cg_advance_mixed");
  const FieldLayout l = p.layout();
  auto zv = as_kokkos(z).view();
  auto pv = as_kokkos(p).view();
  auto xv = as_kokkos(x).view();
  Kokkos::parallel_for(
      "perksolve::cg_advance_mixed", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        const Real pn = pv(n);
        xv(n) = alpha * pn + Real(1) * xv(n);
        pv(n) = Real(1) * static_cast<Real>(zv(n)) + beta * pn;
      });
}

template <class Real>
void KokkosBackend<Real>::convert(const Field<OtherReal<Real>>& src, Field<Real>& dst) {
  require_same_layout(src.layout(), dst.layout(), "convert");
  const FieldLayout l = dst.layout();
  auto sv = as_kokkos(src).view();
  auto dv = as_kokkos(dst).view();
  Kokkos::parallel_for(
      "perksolve::convert", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        dv(n) = static_cast<Real>(sv(n));
      });
}

template <class Real>
void KokkosBackend<Real>::diag_scale_add(Real a, const Field<Real>& r, const Field<Real>& d, Real b, Field<Real>& y) {
  require_same_layout(r.layout(), d.layout(), "diag_scale_add");
  require_same_layout(r.layout(), y.layout(), "diag_scale_add");
  const FieldLayout l = r.layout();
  auto rv = as_kokkos(r).view();
  auto dv = as_kokkos(d).view();
  auto yv = as_kokkos(y).view();
  if (b == Real(0)) {  // y is not read (it may hold garbage)
    Kokkos::parallel_for(
        "perksolve::diag_scale", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
          const long n = l.index(i, j, k);
          yv(n) = a * rv(n) / dv(n);
        });
    return;
  }
  Kokkos::parallel_for(
      "perksolve::diag_scale_add", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        yv(n) = a * rv(n) / dv(n) + b * yv(n);
      });
}

template <class Real>
void KokkosBackend<Real>::apply_stencil_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& in,
                                            Field<Real>& out) {
  require_same_layout(in.layout(), out.layout(), "apply_stencil_var");
  const FieldLayout l = in.layout();
  require_coeffs(coeffs.layout(), l, shape.size(), "apply_stencil_var");
  const DeviceStencil<Real> st = to_device<Real>(shape, l);
  auto iv = as_kokkos(in).view();
  auto ov = as_kokkos(out).view();
  auto cv = as_kokkos(coeffs).view();
  const int np = st.points;
  const long L = l.size();
  auto off = st.offset;
  Kokkos::parallel_for(
      "perksolve::apply_stencil_var", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        Real acc = 0;
        for (int p = 0; p < np; ++p) acc += cv(n + p * L) * iv(n + off(p));
        ov(n) = acc;
      });
}

template <class Real>
void KokkosBackend<Real>::residual_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& b,
                                       const Field<Real>& x, Field<Real>& r) {
  require_same_layout(b.layout(), x.layout(), "residual_var");
  require_same_layout(x.layout(), r.layout(), "residual_var");
  const FieldLayout l = x.layout();
  require_coeffs(coeffs.layout(), l, shape.size(), "residual_var");
  const DeviceStencil<Real> st = to_device<Real>(shape, l);
  auto bv = as_kokkos(b).view();
  auto xv = as_kokkos(x).view();
  auto rv = as_kokkos(r).view();
  auto cv = as_kokkos(coeffs).view();
  const int np = st.points;
  const long L = l.size();
  auto off = st.offset;
  Kokkos::parallel_for(
      "perksolve::residual_var", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        Real ax = 0;
        for (int p = 0; p < np; ++p) ax += cv(n + p * L) * xv(n + off(p));
        rv(n) = bv(n) - ax;
      });
}

template <class Real>
void KokkosBackend<Real>::stencil_coefficient(const Field<Real>& coeffs, int point, Field<Real>& d) {
  const FieldLayout l = d.layout();
  if (coeffs.layout().n[0] != l.size() || point < 0 || point >= coeffs.layout().n[1])
    throw std::logic_error("kokkos backend: stencil_coefficient: coefficient field does not match");
  auto cv = as_kokkos(coeffs).view();
  auto dv = as_kokkos(d).view();
  const long base = static_cast<long>(point) * l.size();
  Kokkos::parallel_for(
      "perksolve::stencil_coefficient", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        const long n = l.index(i, j, k);
        dv(n) = cv(base + n);
      });
}

template <class Real>
void KokkosBackend<Real>::gs_color_sweep(const Stencil& A, const Field<Real>* coeffs, const Field<Real>& b,
                                         Field<Real>& x, int color, long parity) {
  require_gs_shape(A);
  require_same_layout(b.layout(), x.layout(), "gs_color_sweep");
  const FieldLayout l = x.layout();
  const DeviceStencil<Real> st = to_device<Real>(A, l);
  auto bv = as_kokkos(b).view();
  auto xv = as_kokkos(x).view();
  const int np = st.points;
  const int centre = A.center_index();
  const long L = l.size();
  auto off = st.offset;
  auto cf = st.coeff;
  const int want = static_cast<int>(((color + parity) % 2 + 2) % 2);
  const bool var = coeffs != nullptr;
  if (var) require_coeffs(coeffs->layout(), l, A.size(), "gs_color_sweep");
  Kokkos::View<Real*, KokkosMem> cv = var ? as_kokkos(*coeffs).view() : Kokkos::View<Real*, KokkosMem>();
  Kokkos::parallel_for(
      "perksolve::gs_color_sweep", owned_policy(l), KOKKOS_LAMBDA(int i, int j, int k) {
        if (((i + j + k) & 1) != want) return;
        const long n = l.index(i, j, k);
        Real ax = 0;
        for (int p = 0; p < np; ++p) ax += (var ? cv(n + p * L) : cf(p)) * xv(n + off(p));
        const Real diag = var ? cv(n + centre * L) : cf(centre);
        xv(n) += (bv(n) - ax) / diag;
      });
}

template <class Real>
void KokkosBackend<Real>::restrict_to_coarse(const TransferMap& m, const Field<Real>& fine, Field<Real>& coarse) {
  const FieldLayout lf = fine.layout(), lc = coarse.layout();
  auto fv = as_kokkos(fine).view();
  auto cv = as_kokkos(coarse).view();
  const int s0 = m.shift[0], s1 = m.shift[1], s2 = m.shift[2];
  const bool three = m.dim == 3;
  const bool vertex = m.centering == Centering::vertex;
  Kokkos::parallel_for(
      "perksolve::restrict_to_coarse", owned_policy(lc), KOKKOS_LAMBDA(int i, int j, int k) {
        auto at = [&](int a, int b, int c) { return fv(lf.index(a, b, c)); };
        const int fi = 2 * i + s0, fj = 2 * j + s1, fk = three ? 2 * k + s2 : 0;
        cv(lc.index(i, j, k)) = vertex ? transfer_rule::full_weighting<Real>(at, fi, fj, fk, three)
                                       : transfer_rule::cell_restriction<Real>(at, fi, fj, fk, three);
      });
}

template <class Real>
void KokkosBackend<Real>::prolongate_add(const TransferMap& m, const Field<Real>& coarse, Field<Real>& fine) {
  const FieldLayout lf = fine.layout(), lc = coarse.layout();
  auto fv = as_kokkos(fine).view();
  auto cv = as_kokkos(coarse).view();
  const int s0 = m.shift[0], s1 = m.shift[1], s2 = m.shift[2];
  const bool three = m.dim == 3;
  const bool vertex = m.centering == Centering::vertex;
  Kokkos::parallel_for(
      "perksolve::prolongate_add", owned_policy(lf), KOKKOS_LAMBDA(int i, int j, int k) {
        auto at = [&](int a, int b, int c) { return cv(lc.index(a, b, c)); };
        fv(lf.index(i, j, k)) += transfer_rule::interpolation<Real>(at, vertex, i - s0, j - s1, k - s2, three);
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
