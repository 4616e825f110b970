#include "framework/util/build_info.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include "perksolve_build_config.hpp"

namespace perksolve {

std::string git_revision() { return PERKSOLVE_GIT_REVISION; }

std::string build_info() {
  return fmt::format("perksolve {} (git {}, {} build, {}, Kokkos exec space {}, CUDA backend {}{})", PERKSOLVE_VERSION,
                     PERKSOLVE_GIT_REVISION, PERKSOLVE_BUILD_TYPE, PERKSOLVE_CXX_COMPILER,
                     Kokkos::DefaultExecutionSpace::name(), PERKSOLVE_ENABLE_CUDA ? "compiled" : "not compiled",
                     PERKSOLVE_SANITIZE ? ", ASan+UBSan" : "");
}

}  // namespace perksolve
