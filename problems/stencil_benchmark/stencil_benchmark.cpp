// Any PERKS stencil shape (Table III of the PERKS paper) applied repeatedly to random data: the
// raw iterative-stencil workload, for throughput measurements and backend cross-checks.
#include "framework/problem/problem.hpp"

namespace perksolve {
namespace {

class StencilBenchmark final : public Problem {
 public:
  StencilBenchmark(std::string shape, long seed) : shape_(std::move(shape)), seed_(seed) {}

  ProblemSetup setup(const GridSpec& g, const config::Deck& deck) const override {
    ProblemSetup p;
    p.op = perks_stencil(shape_);
    if (p.op.dim() != g.dim)
      throw deck.error_at("problem.shape", "shape '" + shape_ + "' is " + std::to_string(p.op.dim()) +
                                               "D but grid.dimension = " + std::to_string(g.dim));
    p.random_initial = true;
    p.seed = static_cast<std::uint64_t>(seed_);
    return p;
  }

 private:
  std::string shape_;
  long seed_;
};

PERKSOLVE_REGISTER_PROBLEM(ProblemInfo{
    "stencil_benchmark",
    "a PERKS benchmark stencil (averaging coefficients) iterated on random data",
    {config::key_string("shape", "3d7pt", perks_shape_names(), "stencil shape (PERKS Table III)"),
     config::with_range(config::key_int("seed", 12345, "random seed of the initial data"), 0, std::nullopt)},
    [](const config::Deck& d) -> std::unique_ptr<Problem> {
      return std::make_unique<StencilBenchmark>(d.get_string("problem.shape"), d.get_int("problem.seed"));
    }});

}  // namespace
}  // namespace perksolve
