// -Laplace(u) = f on the grid's box with homogeneous Dirichlet boundaries and the manufactured
// solution u = prod_a sin(k pi (x_a - lo_a) / L_a), so f = (sum_a (k pi / L_a)^2) u.
#include <cmath>
#include <numbers>

#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

class PoissonSine final : public Problem {
 public:
  PoissonSine(long wavenumber, std::string op) : k_(wavenumber), op_(std::move(op)) {}

  ProblemSetup setup(const GridSpec& g, const config::Deck& deck) const override {
    for (int a = 0; a < g.dim; ++a)
      for (int s = 0; s < 2; ++s)
        if (g.boundary[a][s].type != BoundaryType::dirichlet || g.boundary[a][s].value != 0.0)
          throw deck.error_at("boundary.type",
                              "problem 'poisson_sine' needs homogeneous Dirichlet boundaries (type = \"dirichlet\", "
                              "value = 0) on every face");
    ProblemSetup p;
    if (op_ == "fe27") {
      if (g.dim != 3) throw deck.error_at("problem.operator", "operator \"fe27\" needs a 3D grid");
      const double h = g.spacing(0);
      if (std::abs(g.spacing(1) - h) > 1e-12 * h || std::abs(g.spacing(2) - h) > 1e-12 * h)
        throw deck.error_at("problem.operator", "operator \"fe27\" needs equal grid spacing on all axes");
      p.op = laplacian_27pt_fe(h);
    } else {
      p.op = g.dim == 2 ? laplacian_5pt(g.spacing(0), g.spacing(1))
                        : laplacian_7pt(g.spacing(0), g.spacing(1), g.spacing(2));
    }
    // Rediscretisation on multigrid levels: the same operator with the level's spacing.
    const bool fe = op_ == "fe27";
    p.operator_on = [fe](const GridSpec& c) {
      if (fe) return laplacian_27pt_fe(c.spacing(0));
      return c.dim == 2 ? laplacian_5pt(c.spacing(0), c.spacing(1)) : laplacian_7pt(c.spacing(0), c.spacing(1), c.spacing(2));
    };
    const double pi = std::numbers::pi;
    double w[3] = {0, 0, 0};
    double sum_w2 = 0.0;
    for (int a = 0; a < g.dim; ++a) {
      w[a] = static_cast<double>(k_) * pi / (g.hi[a] - g.lo[a]);
      sum_w2 += w[a] * w[a];
    }
    const std::array<double, 3> lo = g.lo;
    const int dim = g.dim;
    auto u = [w, lo, dim](double x, double y, double z) {
      double v = std::sin(w[0] * (x - lo[0])) * std::sin(w[1] * (y - lo[1]));
      if (dim == 3) v *= std::sin(w[2] * (z - lo[2]));
      return v;
    };
    p.exact = [u](double x, double y, double z, double) { return u(x, y, z); };
    // Point values of f; with "fe27" this is the mass-lumped load, still second-order accurate.
    p.rhs = [u, sum_w2](double x, double y, double z) { return sum_w2 * u(x, y, z); };
    return p;
  }

 private:
  long k_;
  std::string op_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "poisson_sine",
    "Poisson equation -Laplace(u) = f with manufactured solution prod sin(k pi x); homogeneous Dirichlet",
    {config::with_range(config::key_int("wavenumber", 1, "k in u = prod_a sin(k pi (x_a - lo_a) / L_a)"), 1, 1024),
     config::key_string("operator", "fd", {"fd", "fe27"},
                        "discretisation: \"fd\" = 5-point (2D) / 7-point (3D) finite differences, "
                        "\"fe27\" = 27-point trilinear finite elements (3D)")},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<PoissonSine>(d.get_int("problem.wavenumber"), d.get_string("problem.operator"));
    }});

}  // namespace
}  // namespace perksolve
