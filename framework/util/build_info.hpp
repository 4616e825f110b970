#pragma once
#include <string>
namespace perksolve {
// One line: version, git revision, build type, compiler, Kokkos execution space, CUDA on/off.
std::string build_info();
std::string git_revision();
}  // namespace perksolve
