// -Laplace(u) = f with f uniform random in [0, 1) (a function of the point only, so independent of
// the decomposition) and homogeneous Dirichlet boundaries: every eigenmode is present, so Krylov
// iteration counts are representative (poisson_sine's f is a single eigenvector: CG converges in
// one step). No exact solution.
#include <bit>
#include <cstdint>

#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class PoissonRandom final : public Problem {
 public:
  explicit PoissonRandom(long seed) : seed_(seed) {}
  ProblemSetup setup(const GridSpec& g, const config::Deck& deck) const override {
    for (int a = 0; a < g.dim; ++a)
      for (int s = 0; s < 2; ++s)
        if (g.boundary[a][s].type != BoundaryType::dirichlet || g.boundary[a][s].value != 0.0)
          throw deck.error_at("boundary.type", "problem 'poisson_random' needs homogeneous Dirichlet boundaries");
    auto op_for = [](const GridSpec& c) {
      return c.dim == 2 ? laplacian_5pt(c.spacing(0), c.spacing(1)) : laplacian_7pt(c.spacing(0), c.spacing(1), c.spacing(2));
    };
    ProblemSetup p;
    p.op = op_for(g);
    p.operator_on = op_for;
    const std::uint64_t seed = static_cast<std::uint64_t>(seed_);
    p.rhs = [seed](double x, double y, double z) {
      std::uint64_t h = mix(seed);
      h = mix(h ^ std::bit_cast<std::uint64_t>(x));
      h = mix(h ^ std::bit_cast<std::uint64_t>(y));
      h = mix(h ^ std::bit_cast<std::uint64_t>(z));
      return static_cast<double>(h >> 11) * 0x1.0p-53;
    };
    return p;
  }

 private:
  long seed_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "poisson_random",
    "Poisson equation -Laplace(u) = f with f uniform random (all modes present); homogeneous Dirichlet",
    {config::with_range(config::key_int("seed", 1, "seed of the random right-hand side"), 0, std::nullopt)},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<PoissonRandom>(d.get_int("problem.seed"));
    }});

}  // namespace
}  // namespace perksolve
