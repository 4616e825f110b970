// Anisotropic Poisson -(eps u_xx + u_yy [+ u_zz]) = f, manufactured u = prod sin(pi x_d / L_d),
// homogeneous Dirichlet. For eps << 1 point smoothers (Jacobi, Gauss-Seidel) no longer damp the
// oscillatory modes along x, and multigrid with full coarsening degrades (see docs/solvers.md).
#include <cmath>
#include <numbers>

#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

class Anisotropic final : public Problem {
 public:
  explicit Anisotropic(double eps) : eps_(eps) {}

  ProblemSetup setup(const GridSpec& g, const config::Deck& deck) const override {
    for (int a = 0; a < g.dim; ++a)
      for (int s = 0; s < 2; ++s)
        if (g.boundary[a][s].type != BoundaryType::dirichlet || g.boundary[a][s].value != 0.0)
          throw deck.error_at("boundary.type", "problem 'anisotropic_poisson' needs homogeneous Dirichlet boundaries");
    const double eps = eps_;
    // eps / h^2 along x: the Laplacian with spacing h / sqrt(eps) on that axis.
    auto op_for = [eps](const GridSpec& c) {
      const double hx = c.spacing(0) / std::sqrt(eps);
      Stencil s = c.dim == 2 ? laplacian_5pt(hx, c.spacing(1)) : laplacian_7pt(hx, c.spacing(1), c.spacing(2));
      s.name = "anisotropic_laplacian";
      return s;
    };
    ProblemSetup p;
    p.op = op_for(g);
    p.operator_on = op_for;
    const double pi = std::numbers::pi;
    const int dim = g.dim;
    const std::array<double, 3> lo = g.lo;
    double w[3] = {0, 0, 0};
    for (int a = 0; a < dim; ++a) w[a] = pi / (g.hi[a] - g.lo[a]);
    double lam = eps * w[0] * w[0];
    for (int a = 1; a < dim; ++a) lam += w[a] * w[a];
    auto u = [=](double x, double y, double z) {
      double v = std::sin(w[0] * (x - lo[0])) * std::sin(w[1] * (y - lo[1]));
      if (dim == 3) v *= std::sin(w[2] * (z - lo[2]));
      return v;
    };
    p.exact = [u](double x, double y, double z, double) { return u(x, y, z); };
    p.rhs = [u, lam](double x, double y, double z) { return lam * u(x, y, z); };
    return p;
  }

 private:
  double eps_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "anisotropic_poisson",
    "anisotropic Poisson -(eps u_xx + u_yy + u_zz) = f with a manufactured sine solution; homogeneous Dirichlet",
    {exclusive_min(with_range(config::key_real("epsilon", 0.01, "anisotropy eps (coefficient of u_xx)"), 0.0, 1e6))},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<Anisotropic>(d.get_real("problem.epsilon"));
    }});

}  // namespace
}  // namespace perksolve
