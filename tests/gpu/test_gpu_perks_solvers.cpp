// The PERKS solvers end to end (solvers/jacobi, solvers/stencil_iteration with solver.persistent): whole
// solves through the deck on the cuda backend with the persistent kernel ("on") against the same solve
// sweep by sweep ("off") and against the Kokkos backend. The persistent sweeps are bit-identical to the
// per-sweep kernels, so "on" and "off" must give the same iterate bit for bit and the same iteration count
// and stop reason; only the residual norms are summed in another order. Chunk ends come from the stopping
// test, the iteration limit and the output layer (field output every N, a history row per iteration).
// Without a CUDA device every test calls GTEST_SKIP().
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "framework/config/deck.hpp"
#include "framework/runtime/run.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace perksolve {
namespace {

RunOutcome solve(const std::string& body, const std::string& backend, const std::string& persistent,
                 const std::string& tag) {
  const std::string text = body + "\n[backend]\ntype = \"" + backend + "\"\n[monitor]\nquiet = true\n";
  return solve_deck<double>(config::load_deck_from_string(text, "gpu-perks-solver-" + tag,
                                                          {"solver.persistent=\"" + persistent + "\""}),
                            MPI_COMM_WORLD, true);
}

void compare(const std::string& name, const std::string& body, bool linear) {
  if (gpu_test::backend<double>() == nullptr) GTEST_SKIP() << "SKIPPED: no CUDA device";
  SCOPED_TRACE(name);
  const RunOutcome on = solve(body, "cuda", "on", name + "-on");
  const RunOutcome off = solve(body, "cuda", "off", name + "-off");
  const RunOutcome ref = solve(body, "kokkos", "off", name + "-kokkos");
  std::printf("[e2e] %-34s persistent: %ld it %s |r| %.6e (%.3f s)  per-sweep: %ld it |r| %.6e (%.3f s)  "
              "kokkos: %ld it |r| %.6e\n",
              name.c_str(), on.result.iterations, to_string(on.result.reason).c_str(), on.result.final_residual,
              on.result.seconds, off.result.iterations, off.result.final_residual, off.result.seconds,
              ref.result.iterations, ref.result.final_residual);
  EXPECT_EQ(on.result.reason, off.result.reason);
  EXPECT_EQ(on.result.iterations, off.result.iterations);
  EXPECT_EQ(on.result.reason, ref.result.reason);
  EXPECT_EQ(on.result.iterations, ref.result.iterations);
  if (linear) {
    EXPECT_NEAR(on.result.initial_residual, off.result.initial_residual, 1e-15 * off.result.initial_residual);
    EXPECT_NEAR(on.result.final_residual, off.result.final_residual, 1e-12 * off.result.final_residual);
  }
  ASSERT_EQ(on.global_solution.size(), off.global_solution.size());
  ASSERT_FALSE(on.global_solution.empty());
  EXPECT_EQ(std::memcmp(on.global_solution.data(), off.global_solution.data(),
                        on.global_solution.size() * sizeof(double)),
            0)
      << "persistent and per-sweep iterates differ";
  gpu_test::expect_close_solutions(on.global_solution, ref.global_solution, 1e-9);
}

const char* kJacobi2d = R"(
[grid]
dimension = 2
extents = [96, 80]
centering = "cell"
[problem]
type = "poisson_sine"
[solver]
type = "jacobi"
omega = 0.9
[solver.stop]
rtol = 1e-5
)";

TEST(CudaPerksSolvers, JacobiConvergesInKernel) {
  compare("jacobi 2D 96x80 rtol", std::string(kJacobi2d) + "max_iterations = 100000\n", true);
}

TEST(CudaPerksSolvers, JacobiCheckEverySeven) {
  compare("jacobi 2D check_every 7", std::string(kJacobi2d) + "max_iterations = 100000\ncheck_every = 7\n", true);
}

TEST(CudaPerksSolvers, JacobiIterationLimit3d) {
  compare("jacobi 3D 40^3 max_iterations", R"(
[grid]
dimension = 3
extents = [40, 40, 40]
[problem]
type = "poisson_random"
[solver]
type = "jacobi"
[solver.stop]
max_iterations = 301
rtol = 1e-12
check_every = 4
)",
          true);
}

TEST(CudaPerksSolvers, JacobiWithOutputEveryN) {
  const std::string dir = (std::filesystem::temp_directory_path() / "perksolve_gpu_perks_output").string();
  compare("jacobi 3D output every 37", std::string(R"(
[grid]
dimension = 3
extents = [33, 33, 33]
[problem]
type = "poisson_random"
[solver]
type = "jacobi"
[solver.stop]
max_iterations = 200
rtol = 1e-12
[output]
every = 37
history = false
directory = ")") + dir + "\"\n",
          true);
  std::filesystem::remove_all(dir);
}

TEST(CudaPerksSolvers, JacobiWithHistoryRows) {
  const std::string dir = (std::filesystem::temp_directory_path() / "perksolve_gpu_perks_history").string();
  compare("jacobi 2D history every iteration", std::string(kJacobi2d) + "max_iterations = 60\n[output]\nhistory = true\n"
                                                                        "directory = \"" + dir + "\"\n",
          true);
  std::filesystem::remove_all(dir);
}

TEST(CudaPerksSolvers, StencilIterationHeat) {
  compare("stencil_iteration heat 48^3", R"(
[grid]
dimension = 3
extents = [48, 48, 48]
box_lo = [-1.0, -1.0, -1.0]
box_hi = [1.0, 1.0, 1.0]
[problem]
type = "heat_gaussian"
kappa = 1.0
sigma = 0.15
cfl = 0.9
[solver]
type = "stencil_iteration"
steps = 301
)",
          false);
}

}  // namespace
}  // namespace perksolve
