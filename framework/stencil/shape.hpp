// Compile-time and run-time description of a stencil's *shape* (which offsets it reads).
//
// One description serves every backend: the Kokkos backend enumerates the offsets at run time,
// the CUDA backend takes a ShapeSpec as a template argument and unrolls the same enumeration.
// Offsets are always enumerated in the canonical order dz outer, dy, dx inner, each from -r to r,
// keeping those for which `contains` is true. Coefficients of a Stencil follow that order.
#pragma once

#if defined(__CUDACC__)
#define PERKSOLVE_HD __host__ __device__
#else
#define PERKSOLVE_HD
#endif

namespace perksolve {

enum class ShapeKind : int {
  star,              // |d| nonzero on at most one axis, |d| <= r           (2d5pt, 3d7pt, 2d13pt, ...)
  box,               // max(|dx|,|dy|,|dz|) <= r                             (2d9pt, 2d25pt, 3d27pt)
  box_no_corners,    // box with r=1 minus the 8 cube corners: 19 points     ("poisson" of PERKS)
  plane_and_corners  // r=1: the full 3x3 dz=0 plane plus the 8 cube corners: 17 points (3d17pt)
};

struct ShapeSpec {
  int dim = 3;  // 2 or 3; for dim 2 every offset has dz = 0
  ShapeKind kind = ShapeKind::star;
  int radius = 1;

  constexpr bool operator==(const ShapeSpec&) const = default;
};

PERKSOLVE_HD constexpr int iabs(int v) { return v < 0 ? -v : v; }

PERKSOLVE_HD constexpr bool shape_contains(ShapeSpec s, int dx, int dy, int dz) {
  if (s.dim == 2 && dz != 0) return false;
  const int ax = iabs(dx), ay = iabs(dy), az = iabs(dz);
  if (ax > s.radius || ay > s.radius || az > s.radius) return false;
  const int nonzero = (ax != 0) + (ay != 0) + (az != 0);
  switch (s.kind) {
    case ShapeKind::star: return nonzero <= 1;
    case ShapeKind::box: return true;
    case ShapeKind::box_no_corners: return nonzero <= 2;
    case ShapeKind::plane_and_corners: return dz == 0 || nonzero == 3;
  }
  return false;
}

PERKSOLVE_HD constexpr int shape_point_count(ShapeSpec s) {
  int n = 0;
  const int rz = s.dim == 3 ? s.radius : 0;
  for (int dz = -rz; dz <= rz; ++dz)
    for (int dy = -s.radius; dy <= s.radius; ++dy)
      for (int dx = -s.radius; dx <= s.radius; ++dx)
        if (shape_contains(s, dx, dy, dz)) ++n;
  return n;
}

// True when the shape reads edge/corner neighbours, i.e. halo exchange must include them.
PERKSOLVE_HD constexpr bool shape_needs_corners(ShapeSpec s) { return s.kind != ShapeKind::star; }

struct Offset {
  int dx = 0, dy = 0, dz = 0;
  constexpr bool operator==(const Offset&) const = default;
};

// The i-th offset of the shape in canonical order (constexpr, usable on device).
PERKSOLVE_HD constexpr Offset shape_offset(ShapeSpec s, int index) {
  int n = 0;
  const int rz = s.dim == 3 ? s.radius : 0;
  for (int dz = -rz; dz <= rz; ++dz)
    for (int dy = -s.radius; dy <= s.radius; ++dy)
      for (int dx = -s.radius; dx <= s.radius; ++dx)
        if (shape_contains(s, dx, dy, dz)) {
          if (n == index) return Offset{dx, dy, dz};
          ++n;
        }
  return Offset{0, 0, 0};
}

}  // namespace perksolve
