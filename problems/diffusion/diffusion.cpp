// Variable-coefficient diffusion -div(k grad u) = f with a smooth positive coefficient
//   k(x) = 1 + a prod_d sin(2 pi (x_d - lo_d) / L_d)^2       (1 <= k <= 1 + a)
// and the manufactured solution u = prod_d sin(pi (x_d - lo_d) / L_d), homogeneous Dirichlet.
// Discretised with the conservative 5-/7-point scheme, k at the face midpoints:
//   (A u)_i = sum_d [k_{i-1/2} (u_i - u_{i-1}) + k_{i+1/2} (u_i - u_{i+1})] / h_d^2.
#include <cmath>
#include <numbers>

#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

class Diffusion final : public Problem {
 public:
  explicit Diffusion(double amplitude) : a_(amplitude) {}

  ProblemSetup setup(const GridSpec& g, const config::Deck& deck) const override {
    for (int ax = 0; ax < g.dim; ++ax)
      for (int s = 0; s < 2; ++s)
        if (g.boundary[ax][s].type != BoundaryType::dirichlet || g.boundary[ax][s].value != 0.0)
          throw deck.error_at("boundary.type", "problem 'diffusion' needs homogeneous Dirichlet boundaries on every face");
    const double pi = std::numbers::pi;
    const int dim = g.dim;
    const std::array<double, 3> lo = g.lo;
    std::array<double, 3> L{1, 1, 1};
    for (int ax = 0; ax < dim; ++ax) L[ax] = g.hi[ax] - g.lo[ax];
    const double a = a_;
    // k and its gradient; u, its gradient and Laplacian.
    auto k = [=](const std::array<double, 3>& x) {
      double p = 1.0;
      for (int d = 0; d < dim; ++d) {
        const double s = std::sin(2 * pi * (x[d] - lo[d]) / L[d]);
        p *= s * s;
      }
      return 1.0 + a * p;
    };
    auto shape_for = [](const GridSpec& c) {
      return c.dim == 2 ? laplacian_5pt(c.spacing(0), c.spacing(1)) : laplacian_7pt(c.spacing(0), c.spacing(1), c.spacing(2));
    };
    ProblemSetup p;
    p.op = shape_for(g);
    p.op.name = "diffusion_var";
    p.operator_on = [shape_for](const GridSpec& c) {
      Stencil s = shape_for(c);
      s.name = "diffusion_var";
      return s;
    };
    p.coefficient = [k](const GridSpec& c, const Offset& o, long i, long j, long kk) {
      const long idx[3] = {i, j, kk};
      const int off[3] = {o.dx, o.dy, o.dz};
      std::array<double, 3> x{0, 0, 0};
      for (int d = 0; d < c.dim; ++d) x[d] = c.coordinate(d, idx[d]);
      if (off[0] == 0 && off[1] == 0 && off[2] == 0) {
        double diag = 0.0;
        for (int d = 0; d < c.dim; ++d) {
          const double h = c.spacing(d);
          std::array<double, 3> xm = x, xp = x;
          xm[d] -= 0.5 * h;
          xp[d] += 0.5 * h;
          diag += (k(xm) + k(xp)) / (h * h);
        }
        return diag;
      }
      for (int d = 0; d < 3; ++d)
        if (off[d] != 0) {
          const double h = c.spacing(d);
          x[d] += 0.5 * off[d] * h;
          return -k(x) / (h * h);
        }
      return 0.0;
    };
    auto u = [=](double x, double y, double z) {
      const double c[3] = {x, y, z};
      double v = 1.0;
      for (int d = 0; d < dim; ++d) v *= std::sin(pi * (c[d] - lo[d]) / L[d]);
      return v;
    };
    p.exact = [u](double x, double y, double z, double) { return u(x, y, z); };
    // f = -div(k grad u) = -grad k . grad u - k lap u, analytically.
    p.rhs = [=](double x, double y, double z) {
      const std::array<double, 3> c{x, y, z};
      double su[3], cu[3], sk[3], ck[3];
      for (int d = 0; d < 3; ++d) su[d] = cu[d] = sk[d] = ck[d] = 0.0;
      for (int d = 0; d < dim; ++d) {
        const double t = (c[d] - lo[d]) / L[d];
        su[d] = std::sin(pi * t), cu[d] = std::cos(pi * t);
        sk[d] = std::sin(2 * pi * t), ck[d] = std::cos(2 * pi * t);
      }
      double lap = 0.0, gkgu = 0.0;
      double uval = 1.0, kprod = 1.0;
      for (int d = 0; d < dim; ++d) uval *= su[d], kprod *= sk[d] * sk[d];
      const double kval = 1.0 + a * kprod;
      for (int d = 0; d < dim; ++d) {
        double du = pi / L[d] * cu[d], dk = a * 2.0 * sk[d] * ck[d] * 2 * pi / L[d];
        for (int e = 0; e < dim; ++e)
          if (e != d) du *= su[e], dk *= sk[e] * sk[e];
        gkgu += dk * du;
        lap -= (pi / L[d]) * (pi / L[d]) * uval;
      }
      return -gkgu - kval * lap;
    };
    return p;
  }

 private:
  double a_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "diffusion",
    "variable-coefficient diffusion -div(k grad u) = f, k = 1 + a prod sin^2(2 pi x), manufactured sine solution",
    {with_range(config::key_real("amplitude", 3.0, "a in k = 1 + a prod_d sin^2(2 pi x_d): k varies in [1, 1 + a]"), 0.0,
                1e6)},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<Diffusion>(d.get_real("problem.amplitude"));
    }});

}  // namespace
}  // namespace perksolve
