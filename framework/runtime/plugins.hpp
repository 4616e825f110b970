#pragma once
#include <string>
namespace perksolve {
// dlopen()s a plug-in library (its static registrars add problems/solvers). Throws
// std::runtime_error with dlerror()'s text when it cannot be loaded.
void load_plugin(const std::string& path);
}  // namespace perksolve
