// perksolve DECK [dotted.key=value ...] [--dry-run] [--describe TABLE] [--list WHAT] [--plugin LIB] [-- kokkos-args]
#include <mpi.h>

#include "framework/runtime/run.hpp"
#include "perksolve_build_config.hpp"
#if PERKSOLVE_ENABLE_CUDA
#include "framework/backends/cuda/register_cuda.hpp"
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
#if PERKSOLVE_ENABLE_CUDA
  perksolve::register_cuda_backend();  // the Kokkos backend is always registered by perksolve_main
#endif
  const int code = perksolve::perksolve_main(argc, argv);
  MPI_Finalize();
  return code;
}
