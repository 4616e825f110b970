#include <gtest/gtest.h>

#include <cmath>

#include "framework/runtime/run.hpp"

using namespace perksolve;

namespace {

config::Deck deck(const std::string& text) { return config::load_deck_from_string(text, "test-deck", {}); }

// Solves on MPI_COMM_WORLD (decomposed) and on MPI_COMM_SELF (rank 0 alone) and compares.
template <class Real>
void expect_same_as_single_rank(const config::Deck& d, double rel_tol) {
  const RunOutcome many = solve_deck<Real>(d, MPI_COMM_WORLD, true);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  const RunOutcome one = solve_deck<Real>(d, MPI_COMM_SELF, true);
  EXPECT_EQ(many.result.iterations, one.result.iterations);
  EXPECT_EQ(many.result.reason, one.result.reason);
  ASSERT_EQ(many.global_solution.size(), one.global_solution.size());
  double diff = 0.0, norm = 0.0;
  for (size_t p = 0; p < one.global_solution.size(); ++p) {
    diff = std::max(diff, std::abs(many.global_solution[p] - one.global_solution[p]));
    norm = std::max(norm, std::abs(one.global_solution[p]));
  }
  EXPECT_GT(norm, 0.0);
  EXPECT_LE(diff, rel_tol * norm) << "max difference " << diff << " relative to max " << norm;
}

const char* kQuiet = R"(
[monitor]
quiet = true
)";

}  // namespace

TEST(RankIndependence, JacobiFixedIterationsUnevenExtents) {
  expect_same_as_single_rank<double>(deck(std::string(R"(
[grid]
dimension = 3
extents = [19, 14, 11]
[problem]
type = "poisson_sine"
[solver]
type = "jacobi"
omega = 0.8
[solver.stop]
max_iterations = 300
rtol = 0.0
)") + kQuiet), 1e-12);
}

TEST(RankIndependence, JacobiToToleranceSameIterationCount) {
  expect_same_as_single_rank<double>(deck(std::string(R"(
[grid]
dimension = 3
extents = [17, 13, 15]
centering = "cell"
[problem]
type = "poisson_sine"
[solver]
type = "jacobi"
omega = 1.0
[solver.stop]
max_iterations = 20000
rtol = 1e-6
)") + kQuiet), 1e-12);
}

TEST(RankIndependence, Jacobi2DFloat) {
  expect_same_as_single_rank<float>(deck(std::string(R"(
[grid]
dimension = 2
extents = [37, 23]
[problem]
type = "poisson_sine"
[solver]
type = "jacobi"
[solver.stop]
max_iterations = 200
rtol = 0.0
)") + kQuiet), 1e-6);
}

TEST(RankIndependence, BoxStencilIterationPeriodicAndMixedBoundaries) {
  // 27-point box stencil: edges and corners of the halo matter.
  expect_same_as_single_rank<double>(deck(std::string(R"(
[grid]
dimension = 3
extents = [13, 10, 9]
[boundary]
type = "periodic"
[problem]
type = "stencil_benchmark"
shape = "3d27pt"
[solver]
type = "stencil_iteration"
steps = 25
)") + kQuiet), 1e-12);
  expect_same_as_single_rank<double>(deck(std::string(R"(
[grid]
dimension = 2
extents = [31, 26]
[boundary]
type = "neumann"
value = 0.5
y_lo = "dirichlet"
y_lo_value = 1.0
[problem]
type = "stencil_benchmark"
shape = "2d25pt"
[solver]
type = "stencil_iteration"
steps = 20
)") + kQuiet), 1e-12);
}

TEST(RankIndependence, HeatEquation) {
  expect_same_as_single_rank<double>(deck(std::string(R"(
[grid]
dimension = 3
extents = [16, 18, 14]
box_lo = [-1.0, -1.0, -1.0]
[problem]
type = "heat_gaussian"
sigma = 0.3
[solver]
type = "stencil_iteration"
steps = 30
)") + kQuiet), 1e-12);
}
