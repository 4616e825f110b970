// A problem that lives outside the framework tree: -Laplace(u) = f with the polynomial bubble
// u = prod_a x_a (1 - x_a) on the unit box (homogeneous Dirichlet). Central differences are exact
// for quadratics along each axis, so the discrete solution equals u at the grid points.
#include <framework/problem/problem.hpp>

namespace {

class Bubble final : public perksolve::Problem {
 public:
  explicit Bubble(double amplitude) : a_(amplitude) {}
  perksolve::ProblemSetup setup(const perksolve::GridSpec& g, const perksolve::config::Deck&) const override {
    perksolve::ProblemSetup p;
    p.op = g.dim == 2 ? perksolve::laplacian_5pt(g.spacing(0), g.spacing(1))
                      : perksolve::laplacian_7pt(g.spacing(0), g.spacing(1), g.spacing(2));
    const int dim = g.dim;
    const double a = a_;
    auto q = [](double s) { return s * (1.0 - s); };
    p.exact = [=](double x, double y, double z, double) { return a * q(x) * q(y) * (dim == 3 ? q(z) : 1.0); };
    p.rhs = [=](double x, double y, double z) {
      if (dim == 2) return a * 2.0 * (q(y) + q(x));
      return a * 2.0 * (q(y) * q(z) + q(x) * q(z) + q(x) * q(y));
    };
    return p;
  }

 private:
  double a_;
};

PERKSOLVE_REGISTER_PROBLEM(perksolve::ProblemInfo{
    "bubble",
    "out-of-tree plug-in: polynomial bubble u = A prod x(1-x)",
    {perksolve::config::key_real("amplitude", 1.0, "A")},
    [](const perksolve::config::Deck& d) -> std::unique_ptr<perksolve::Problem> {
      return std::make_unique<Bubble>(d.get_real("problem.amplitude"));
    }});

}  // namespace
