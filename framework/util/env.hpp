// Environment switches (PERKSOLVE_CG_EARLY_STOP=0, PERKSOLVE_CUDA_SPMV=cusparse and the like; README.md, "Runtime
// switches"). An unset variable takes the switch's default; any other value than the ones it accepts is an error
// (std::invalid_argument naming the variable, the value and what was expected), never a silent default. Host code only.
#pragma once

#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace perksolve {

// The value of environment variable `name` as one of `choices`; `fallback` when it is unset.
inline std::string env_choice(const char* name, std::initializer_list<const char*> choices, const char* fallback) {
  const char* t = std::getenv(name);
  if (t == nullptr) return fallback;
  const std::string v(t);
  std::string expected;  // 'a' or 'b' or ...
  for (const char* c : choices) {
    if (v == c) return v;
    if (!expected.empty()) expected.append(" or ");
    expected.append(1, '\'').append(c).append(1, '\'');
  }
  throw std::invalid_argument(std::string(name) + "='" + v + "': expected " + expected);
}

// A switch of "0" (off) or "1" (on); `fallback` when it is unset.
inline bool env_flag(const char* name, bool fallback) {
  return env_choice(name, {"0", "1"}, fallback ? "1" : "0") == "1";
}

// The integer in environment variable `name`, in [lo, hi]; `fallback` when it is unset. `expected` says what the
// switch accepts, for the error.
inline int env_int(const char* name, long lo, long hi, int fallback, const char* expected) {
  const char* t = std::getenv(name);
  if (t == nullptr) return fallback;
  const std::string v(t);
  char* end = nullptr;
  const long c = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || c < lo || c > hi)
    throw std::invalid_argument(std::string(name) + "='" + v + "': expected " + expected);
  return static_cast<int>(c);
}

}  // namespace perksolve
