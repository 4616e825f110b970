// Heat equation u_t = kappa Laplace(u) by explicit Euler, u <- (I + dt kappa Laplace_h) u: one
// stencil application per step, the iterative-stencil workload of PERKS. The exact solution of a
// Gaussian pulse on an unbounded domain, u = (s0^2/s(t)^2)^(d/2) exp(-|x-c|^2 / (2 s(t)^2)),
// s(t)^2 = s0^2 + 2 kappa t, is compared with the result while the pulse stays far from the walls.
#include <cmath>

#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

class HeatGaussian final : public Problem {
 public:
  HeatGaussian(double kappa, double sigma, double cfl, std::vector<double> center)
      : kappa_(kappa), sigma_(sigma), cfl_(cfl), center_(std::move(center)) {}

  ProblemSetup setup(const GridSpec& g, const config::Deck& deck) const override {
    double inv_h2_sum = 0.0;
    for (int a = 0; a < g.dim; ++a) inv_h2_sum += 1.0 / (g.spacing(a) * g.spacing(a));
    // Explicit Euler is stable for dt * kappa * sum(2/h^2) <= 1.
    const double dt = cfl_ / (2.0 * kappa_ * inv_h2_sum);
    Stencil lap = g.dim == 2 ? laplacian_5pt(g.spacing(0), g.spacing(1))
                             : laplacian_7pt(g.spacing(0), g.spacing(1), g.spacing(2));
    // S = I - dt kappa A with A = -Laplace_h.
    Stencil s = lap;
    s.name = "heat_update";
    for (double& c : s.coeffs) c *= -dt * kappa_;
    s.coeffs[s.center_index()] += 1.0;

    std::array<double, 3> c{0, 0, 0};
    if (center_.empty()) {
      for (int a = 0; a < g.dim; ++a) c[a] = 0.5 * (g.lo[a] + g.hi[a]);
    } else {
      if (static_cast<int>(center_.size()) < g.dim)
        throw deck.error_at("problem.center", "needs one coordinate per grid dimension");
      for (int a = 0; a < g.dim; ++a) c[a] = center_[a];
    }
    const double s0 = sigma_, kappa = kappa_;
    const int dim = g.dim;
    ProblemSetup p;
    p.op = s;
    p.time_step = dt;
    p.exact = [=](double x, double y, double z, double t) {
      const double s2 = s0 * s0 + 2.0 * kappa * t;
      const double r2 = (x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]) + (dim == 3 ? (z - c[2]) * (z - c[2]) : 0.0);
      return std::pow(s0 * s0 / s2, 0.5 * dim) * std::exp(-r2 / (2.0 * s2));
    };
    auto exact = p.exact;
    p.initial = [exact](double x, double y, double z) { return exact(x, y, z, 0.0); };
    return p;
  }

 private:
  double kappa_, sigma_, cfl_;
  std::vector<double> center_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "heat_gaussian",
    "heat equation by explicit Euler (iterated stencil); Gaussian pulse with exact free-space solution",
    {config::with_unit(config::with_range(config::key_real("kappa", 1.0, "diffusivity"), 1e-300, std::nullopt), "L^2/T"),
     config::with_unit(config::with_range(config::key_real("sigma", 0.05, "initial pulse width"), 1e-300, std::nullopt), "L"),
     config::with_range(config::key_real("cfl", 0.9, "dt as a fraction of the explicit stability limit"), 1e-6, 1.0),
     config::optional_key(config::key_real_array("center", std::nullopt, "pulse centre (default: box centre)"))},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<HeatGaussian>(
          d.get_real("problem.kappa"), d.get_real("problem.sigma"), d.get_real("problem.cfl"),
          d.has("problem.center") ? d.get_real_array("problem.center") : std::vector<double>{});
    }});

}  // namespace
}  // namespace perksolve
