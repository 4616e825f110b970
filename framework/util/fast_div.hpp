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

}  // namespace perksolve
