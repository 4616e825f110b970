// Every PERKS shape (and the solver Laplacians) applied by the generic Kokkos implementation,
// after halo exchange + boundary fill, equals a naive triple loop on the global array: random data,
// NaN-poisoned outputs, float and double, three boundary configurations, any rank count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "framework/halo/halo_exchange.hpp"
#include "framework/runtime/sampling.hpp"
#include "tests/backend/reference.hpp"

using namespace perksolve;
using perksolve::testing::GlobalArray;

namespace {

GridSpec make_grid(int dim, int config) {
  GridSpec g;
  g.dim = dim;
  g.extents = dim == 2 ? std::array<long, 3>{23, 19, 1} : std::array<long, 3>{13, 11, 9};
  g.lo = {-0.5, 0.0, 1.0};
  g.hi = {0.5, 2.0, 2.5};
  auto set = [&](int a, BoundaryType t0, double v0, BoundaryType t1, double v1) {
    g.boundary[a][0] = {t0, v0};
    g.boundary[a][1] = {t1, v1};
  };
  using B = BoundaryType;
  switch (config) {
    case 0:  // everything periodic
      for (int a = 0; a < 3; ++a) set(a, B::periodic, 0, B::periodic, 0);
      break;
    case 1:  // vertex-centred, mixed Dirichlet / Neumann with non-zero data, one periodic axis
      set(0, B::dirichlet, 0.3, B::neumann, -0.2);
      set(1, B::neumann, 0.1, B::dirichlet, -0.5);
      set(2, B::periodic, 0, B::periodic, 0);
      if (dim == 2) set(1, B::periodic, 0, B::periodic, 0);
      break;
    default:  // cell-centred, no periodic axis
      g.centering = Centering::cell;
      set(0, B::neumann, 0.4, B::dirichlet, 0.7);
      set(1, B::dirichlet, 1.0, B::dirichlet, -1.0);
      set(2, B::neumann, 0.0, B::neumann, 0.25);
      break;
  }
  return g;
}

template <class Real>
double tolerance() {
  return std::is_same_v<Real, double> ? 1e-13 : 2e-5;
}

template <class Real>
void check_shape(const Stencil& s, int config) {
  SCOPED_TRACE(s.name + " config " + std::to_string(config) + (sizeof(Real) == 8 ? " double" : " float"));
  const GridSpec grid = make_grid(s.dim(), config);
  const int ghost = s.radius();
  Decomposition decomp(grid, MPI_COMM_WORLD, {0, 0, 0}, ghost);
  KokkosBackend<Real> be(decomp.comm());
  const FieldLayout layout = decomp.grid_layout(ghost, sizeof(Real));
  auto in = be.create_field(layout);
  auto out = be.create_field(layout);
  be.fill(*in, std::numeric_limits<Real>::quiet_NaN());  // ghosts must all be overwritten
  sample_random(be, decomp, *in, 4242 + config);
  HaloExchange<Real> halo(decomp, layout, s.needs_corners(), be);
  halo.update(*in);
  be.fill(*out, std::numeric_limits<Real>::quiet_NaN());
  be.apply_stencil(s, *in, *out);

  const std::vector<double> input = gather_global(be, decomp, *in);
  const std::vector<double> result = gather_global(be, decomp, *out);
  if (decomp.rank() != 0) return;
  GlobalArray g{grid, input};
  double sum_abs = 0;
  for (double v : input) {
    ASSERT_TRUE(std::isfinite(v));
    sum_abs += std::abs(v);
  }
  ASSERT_GT(sum_abs, 0.1 * static_cast<double>(input.size()));  // random, not zeros
  const std::vector<double> ref = perksolve::testing::apply_reference(s, g);
  double scale = 0.0;
  for (double v : ref) scale = std::max(scale, std::abs(v));
  long bad = 0;
  for (size_t p = 0; p < ref.size(); ++p)
    if (!(std::abs(result[p] - ref[p]) <= tolerance<Real>() * (1.0 + scale))) {
      if (++bad <= 3) ADD_FAILURE() << "cell " << p << ": got " << result[p] << ", expected " << ref[p];
    }
  EXPECT_EQ(bad, 0);
}

}  // namespace

class EveryShape : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryShape, MatchesNaiveReferenceDouble) {
  const Stencil s = perks_stencil(GetParam());
  for (int config = 0; config < 3; ++config) check_shape<double>(s, config);
}

TEST_P(EveryShape, MatchesNaiveReferenceFloat) {
  const Stencil s = perks_stencil(GetParam());
  for (int config = 0; config < 3; ++config) check_shape<float>(s, config);
}

INSTANTIATE_TEST_SUITE_P(Perks, EveryShape, ::testing::ValuesIn(perks_shape_names()));

TEST(SolverOperators, LaplaciansMatchNaiveReference) {
  for (int config = 0; config < 3; ++config) {
    check_shape<double>(laplacian_5pt(0.1, 0.2), config);
    check_shape<double>(laplacian_7pt(0.1, 0.2, 0.3), config);
    check_shape<double>(laplacian_27pt_fe(0.1), config);
  }
}

TEST(Blas1, AxpbyDotNormsResidualAndJacobiMatchReference) {
  const GridSpec grid = make_grid(3, 1);
  Decomposition decomp(grid, MPI_COMM_WORLD, {0, 0, 0}, 1);
  KokkosBackend<double> be(decomp.comm());
  const FieldLayout layout = decomp.grid_layout(1, sizeof(double));
  auto x = be.create_field(layout), y = be.create_field(layout), b = be.create_field(layout);
  auto r = be.create_field(layout), xn = be.create_field(layout);
  sample_random(be, decomp, *x, 1);
  sample_random(be, decomp, *y, 2);
  sample_random(be, decomp, *b, 3);
  const auto gx = gather_global(be, decomp, *x);
  const auto gy = gather_global(be, decomp, *y);
  const auto gb = gather_global(be, decomp, *b);

  const double dot = be.dot(*x, *y);
  const double n2 = be.norm2(*x);
  const double ninf = be.norm_inf(*y);
  be.axpby(2.5, *x, -0.5, *y);
  const auto gaxpby = gather_global(be, decomp, *y);

  const Stencil A = laplacian_7pt(0.1, 0.2, 0.3);
  HaloExchange<double> halo(decomp, layout, false, be);
  halo.update(*x);
  be.fill(*r, std::numeric_limits<double>::quiet_NaN());
  be.residual(A, *b, *x, *r);
  be.fill(*xn, std::numeric_limits<double>::quiet_NaN());
  const double rr = be.jacobi_sweep(A, 0.8, *b, *x, *xn);
  const auto gr = gather_global(be, decomp, *r);
  const auto gxn = gather_global(be, decomp, *xn);
  if (decomp.rank() != 0) return;

  double rdot = 0, rn2 = 0, rinf = 0, rrr = 0;
  for (size_t p = 0; p < gx.size(); ++p) {
    rdot += gx[p] * gy[p];
    rn2 += gx[p] * gx[p];
    rinf = std::max(rinf, std::abs(gy[p]));
    EXPECT_NEAR(gaxpby[p], 2.5 * gx[p] - 0.5 * gy[p], 1e-14);
  }
  EXPECT_NEAR(dot, rdot, 1e-12 * std::abs(rdot));
  EXPECT_NEAR(n2, std::sqrt(rn2), 1e-12 * std::sqrt(rn2));
  EXPECT_EQ(ninf, rinf);
  const auto ax = perksolve::testing::apply_reference(A, GlobalArray{grid, gx});
  const double diag = A.center_coeff();
  for (size_t p = 0; p < gx.size(); ++p) {
    const double res = gb[p] - ax[p];
    rrr += res * res;
    EXPECT_NEAR(gr[p], res, 1e-11 * (1 + std::abs(res)));
    EXPECT_NEAR(gxn[p], gx[p] + 0.8 * res / diag, 1e-13 * (1 + std::abs(gx[p])));
  }
  EXPECT_NEAR(rr, rrr, 1e-11 * rrr);
}

// The bytes of a whole allocation (ghosts and padding included).
template <class R>
std::vector<unsigned char> bits(Backend<R>& be, const Field<R>& f) {
  std::vector<R> h(f.layout().size());
  be.download(f, h);
  std::vector<unsigned char> b(h.size() * sizeof(R));
  std::memcpy(b.data(), h.data(), b.size());
  return b;
}

// The mixed-precision operations (one operand in the other precision, for a double CG with its multigrid cycle in
// float) give exactly the values of convert() followed by the same-precision operation, and leave ghosts alone.
TEST(Blas1, MixedPrecisionOpsEqualConvertThenSamePrecisionOp) {
  KokkosBackend<double> be(MPI_COMM_SELF);
  KokkosBackend<float> bf(MPI_COMM_SELF);
  FieldLayout l;
  l.n = {13, 7, 5};
  l.ghost = {1, 2, 1};
  l.align = kGridRowLine;  // (a mixed pair shares the double's layout, as the float cycle does: PCG-MG rows of lines)
  const long L = l.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto random = [&](unsigned seed) {  // random owned cells, NaN ghosts and padding
    std::vector<double> h(L, nan);
    unsigned s = seed;
    for (int k = 0; k < l.n[2]; ++k)
      for (int j = 0; j < l.n[1]; ++j)
        for (int i = 0; i < l.n[0]; ++i) {
          s = s * 1664525u + 1013904223u;
          h[l.index(i, j, k)] = 0.25 + (s >> 8) * (1.0 / 16777216.0);
        }
    return h;
  };
  auto make = [&](unsigned seed) {
    auto f = be.create_field(l);
    be.upload(*f, random(seed));
    return f;
  };
  auto make_float = [&](unsigned seed) {
    const auto h = random(seed);
    auto f = bf.create_field(l);
    bf.upload(*f, std::vector<float>(h.begin(), h.end()));
    return f;
  };
  const double a = 0.37, beta = -0.61;
  // axpby_mixed
  auto x = make(1), y = make(2), y2 = make(2);
  auto yo = make_float(9), yo2 = make_float(9);
  be.axpby_mixed(a, *x, beta, *y, *yo);
  be.axpby(a, *x, beta, *y2);
  bf.convert(*y2, *yo2);
  EXPECT_EQ(bits(be, *y), bits(be, *y2));
  EXPECT_EQ(bits(bf, *yo), bits(bf, *yo2));
  // dot2_mixed
  auto z = make_float(3);
  auto zc = make(7);
  be.convert(*z, *zc);
  const auto dm = be.dot2_mixed(*x, *z, *y, *x);
  const auto dc = be.dot2(*x, *zc, *y, *x);
  EXPECT_EQ(dm[0], dc[0]);
  EXPECT_EQ(dm[1], dc[1]);
  EXPECT_GT(dm[0], 0.0);
  // cg_advance_mixed
  auto p = make(4), p2 = make(4), xx = make(5), xx2 = make(5);
  be.cg_advance_mixed(a, beta, *z, *p, *xx);
  be.cg_advance(a, beta, *zc, *p2, *xx2);
  EXPECT_EQ(bits(be, *p), bits(be, *p2));
  EXPECT_EQ(bits(be, *xx), bits(be, *xx2));
}

// A layout the index arithmetic cannot serve (row alignment not a power of two, negative ghosts) is
// refused by create_field with a message, on every backend (Backend's require_valid_layout).
TEST(FieldLayoutChecks, CreateFieldRefusesInvalidLayouts) {
  KokkosBackend<double> be(MPI_COMM_WORLD);
  FieldLayout l;
  l.n = {8, 8, 8};
  l.ghost = {1, 1, 1};
  l.align = 32;
  EXPECT_NO_THROW(be.create_field(l));
  l.align = 24;
  try {
    be.create_field(l);
    ADD_FAILURE() << "align 24 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row alignment 24"), std::string::npos) << e.what();
  }
  l.align = 1;
  l.ghost = {1, -1, 1};
  EXPECT_THROW(be.create_field(l), std::invalid_argument);
}
