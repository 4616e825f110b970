// Unsigned 32-bit division by a divisor fixed before a kernel launch (Granlund-Montgomery): a multiply-
// high, a subtraction and two shifts instead of the ~20-instruction (32-bit) or ~70-instruction (64-bit)
// division sequence of a GPU. Used by the index maps of element-wise kernels, where the division is most
// of the arithmetic. Exact for every n and every divisor d >= 1 (tests/unit/test_fast_div.cpp).
#pragma once

#include <cstdint>

#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve {

struct FastDivU32 {
  std::uint32_t m = 0, s1 = 0, s2 = 0;  // d = 1: m = 0 and no shifts, so div(n) = n

  FastDivU32() = default;
  explicit FastDivU32(std::uint32_t d) {
    if (d <= 1) return;
    std::uint32_t l = 0;
    while ((std::uint64_t{1} << l) < d) ++l;  // l = ceil(log2 d)
    m = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * ((std::uint64_t{1} << l) - d)) / d + 1);
    s1 = 1;
    s2 = l - 1;
  }

  PERKSOLVE_HD std::uint32_t div(std::uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const std::uint32_t t = __umulhi(m, n);
#else
    const std::uint32_t t = static_cast<std::uint32_t>((static_cast<std::uint64_t>(m) * n) >> 32);
#endif
    return (t + ((n - t) >> s1)) >> s2;
  }
};

// q = n / d and r = n % d for n < 2^20 and d >= 1, when the divisor is known only where the division happens: a
// float reciprocal's estimate (relative error below 2^-22, so at most one off for such n) and one correction,
// ~8 instructions instead of the ~20 of a GPU's integer division. The host form performs the same IEEE
// operations (round-to-nearest conversion, reciprocal and product, truncation), so the host test covers the
// device form (tests/unit/test_fast_div.cpp).
PERKSOLVE_HD inline std::uint32_t divmod_small(std::uint32_t n, std::uint32_t d, std::uint32_t& r) {
#if defined(__CUDA_ARCH__)
  std::uint32_t q = __float2uint_rz(__uint2float_rn(n) * __frcp_rn(__uint2float_rn(d)));
#else
  std::uint32_t q = static_cast<std::uint32_t>(static_cast<float>(n) * (1.0f / static_cast<float>(d)));
#endif
  int rem = static_cast<int>(n) - static_cast<int>(q * d);
  if (rem < 0) {
    --q;
    rem += static_cast<int>(d);
  } else if (rem >= static_cast<int>(d)) {
    ++q;
    rem -= static_cast<int>(d);
  }
  r = static_cast<std::uint32_t>(rem);
  return q;
}

}  // namespace perksolve
