// Environment switches of the comparison kind (PERKSOLVE_CG_EARLY_STOP=0 and the like): whether a variable is set
// to exactly a given value. Host code only.
#pragma once

#include <cstdlib>
#include <cstring>

namespace perksolve {

// True when environment variable `name` is set to exactly `value`.
inline bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, value) == 0;
}

}  // namespace perksolve
