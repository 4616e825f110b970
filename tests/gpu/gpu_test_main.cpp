// GoogleTest main for the GPU tests: MPI + Kokkos (the reference backend) + the CUDA backend.
// Prints "SKIPPED: no CUDA device" once when no device is usable (every test then GTEST_SKIPs and
// ctest reports the test as skipped through SKIP_REGULAR_EXPRESSION).
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/register_cuda.hpp"
#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "framework/config/schema.hpp"
#include "framework/io/io_options.hpp"
#include "solvers/multigrid/mg_config.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    perksolve::register_kokkos_backend();
    perksolve::register_cuda_backend();
    perksolve::config::register_core_schema();  // decks built from strings (whole-solve tests), any test order
    perksolve::register_multigrid_tables();
    perksolve::io::register_io_schema();
    try {
      perksolve::CudaBackend<double> probe(MPI_COMM_WORLD);
      if (rank == 0) std::printf("CUDA device: %s\n", probe.device_name().c_str());
    } catch (const perksolve::BackendUnavailable& e) {
      if (rank == 0) std::printf("SKIPPED: no CUDA device (%s)\n", e.what());
    }
    failed = RUN_ALL_TESTS();
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
