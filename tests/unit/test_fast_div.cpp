// FastDivU32 (framework/util/fast_div.hpp): the host form of the device division is exact for small and
// large numerators, random numerators, and divisors from 1 to 2^32 - 1 (the device form differs only in
// computing the multiply-high with __umulhi). divmod_small: exact below 2^20 (its host form performs the
// device form's IEEE operations).
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

// divmod_small: exact for every numerator below 2^20 with divisors 1..70 and block-size-like divisors, and for
// random numerators below 2^20 with random divisors up to 2^20.
TEST(DivmodSmall, ExactBelowTwoToTheTwenty) {
  std::uint64_t bad = 0, tests = 0;
  auto check = [&](std::uint32_t n, std::uint32_t d) {
    std::uint32_t r = 0;
    const std::uint32_t q = divmod_small(n, d, r);
    bad += q != n / d || r != n % d;
    ++tests;
  };
  for (std::uint32_t d = 1; d <= 70; ++d)
    for (std::uint32_t n = 0; n < (1u << 20); ++n) check(n, d);
  for (std::uint32_t d : {127u, 128u, 255u, 256u, 511u, 512u, 1023u, 1024u, 2048u, 4095u, 65537u, 1048575u, 1048576u})
    for (std::uint32_t n = 0; n < (1u << 20); ++n) check(n, d);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 20000000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    check(static_cast<std::uint32_t>(x) & ((1u << 20) - 1), 1 + static_cast<std::uint32_t>(x >> 40) % (1u << 20));
  }
  EXPECT_EQ(bad, 0u) << "of " << tests;
  EXPECT_GT(tests, 100000000u);
}

}  // namespace
}  // namespace perksolve
