// Memory layout of one rank's part of a field: owned cells plus ghost layers, x fastest.
// Shared by every backend so host and device copies of a field are byte-compatible.
#pragma once

#include <array>
#include <cstddef>

#include "framework/stencil/shape.hpp"

namespace perksolve {

// Half-open index box in local indices (ghost cells have negative or >= n indices).
struct IndexBox {
  std::array<int, 3> begin{0, 0, 0};
  std::array<int, 3> end{0, 0, 0};
  long count() const {
    long c = 1;
    for (int a = 0; a < 3; ++a) c *= (end[a] > begin[a] ? end[a] - begin[a] : 0);
    return c;
  }
};

struct FieldLayout {
  std::array<int, 3> n{1, 1, 1};      // owned cells per axis (n[2] == 1 in 2D)
  std::array<int, 3> ghost{0, 0, 0};  // ghost width per axis (ghost[2] == 0 in 2D)

  PERKSOLVE_HD int padded(int axis) const { return n[axis] + 2 * ghost[axis]; }
  PERKSOLVE_HD long stride_y() const { return padded(0); }
  PERKSOLVE_HD long stride_z() const { return static_cast<long>(padded(0)) * padded(1); }
  PERKSOLVE_HD long size() const { return stride_z() * padded(2); }
  PERKSOLVE_HD long owned_size() const { return static_cast<long>(n[0]) * n[1] * n[2]; }
  // Linear index of local cell (i, j, k); ghosts are valid in [-ghost, n + ghost).
  PERKSOLVE_HD long index(int i, int j, int k) const {
    return (i + ghost[0]) + (j + ghost[1]) * stride_y() + (k + ghost[2]) * stride_z();
  }
  IndexBox owned() const { return IndexBox{{0, 0, 0}, n}; }
  IndexBox with_ghosts() const {
    return IndexBox{{-ghost[0], -ghost[1], -ghost[2]}, {n[0] + ghost[0], n[1] + ghost[1], n[2] + ghost[2]}};
  }
  bool operator==(const FieldLayout&) const = default;
};

}  // namespace perksolve
