// FastDivU32 (framework/util/fast_div.hpp): the host form of the device division is exact for small and
// large numerators, random numerators, and divisors from 1 to 2^32 - 1 (the device form differs only in
// computing the multiply-high with __umulhi).
#include <gtest/gtest.h>

#include <cstdint>

#include "framework/util/fast_div.hpp"

namespace perksolve {
namespace {

TEST(FastDivU32, ExactForEveryNumeratorClass) {
  const std::uint32_t divisors[] = {1u,    2u,     3u,     7u,      9u,         31u,        255u,       257u,
                                    512u,  513u,   1000u,  16385u,  123457u,    1u << 20,   2147483647u, 2147483648u,
                                    3000000019u, 4294967295u};
  std::uint64_t bad = 0, tests = 0;
  for (std::uint32_t d : divisors) {
    const FastDivU32 f(d);
    for (std::uint32_t n = 0; n < 200000; ++n, ++tests) bad += f.div(n) != n / d;
    for (std::uint32_t n = 4294967295u; n > 4294967295u - 200000; --n, ++tests) bad += f.div(n) != n / d;
    std::uint64_t x = 88172645463325252ull + d;
    for (int r = 0; r < 200000; ++r, ++tests) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      const auto n = static_cast<std::uint32_t>(x);
      bad += f.div(n) != n / d;
    }
  }
  EXPECT_EQ(bad, 0u) << "of " << tests;
  EXPECT_GT(tests, 10000000u);
}

}  // namespace
}  // namespace perksolve
