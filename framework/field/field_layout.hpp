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
  // Row alignment in elements, a power of two. 1: rows packed back to back. align > 1: each x-row (ghosts included)
  // is padded to a multiple of `align` elements and the allocation starts with lead() unused elements,
  // so that every owned row (x = 0) starts on an align-element boundary. Grid fields use grid_row_align
  // (32-byte rows in fp32, 256-byte in fp64): a stencil's output rows are whole 32-byte sectors (no
  // partial-sector read-modify-write in DRAM) and row loads may be 16-byte vectors or bulk copies. Padding
  // cells are never written by the operations on owned cells or ghosts (the DRAM may fetch them with the
  // ghosts next to them: grid_row_align).
  int align = 1;

  PERKSOLVE_HD int padded(int axis) const { return n[axis] + 2 * ghost[axis]; }
  // (Bit operations, not divisions: kernels evaluate these per access.)
  PERKSOLVE_HD long stride_y() const { return (static_cast<long>(padded(0)) + align - 1) & ~static_cast<long>(align - 1); }
  PERKSOLVE_HD long stride_z() const { return stride_y() * padded(1); }
  // Unused elements before cell (-ghost, -ghost, -ghost).
  PERKSOLVE_HD long lead() const { return static_cast<long>(-ghost[0]) & (align - 1); }
  PERKSOLVE_HD long size() const { return lead() + stride_z() * padded(2); }
  PERKSOLVE_HD long owned_size() const { return static_cast<long>(n[0]) * n[1] * n[2]; }
  // Linear index of local cell (i, j, k); ghosts are valid in [-ghost, n + ghost).
  PERKSOLVE_HD long index(int i, int j, int k) const {
    return lead() + (i + ghost[0]) + (j + ghost[1]) * stride_y() + (k + ghost[2]) * stride_z();
  }
  IndexBox owned() const { return IndexBox{{0, 0, 0}, n}; }
  IndexBox with_ghosts() const {
    return IndexBox{{-ghost[0], -ghost[1], -ghost[2]}, {n[0] + ghost[0], n[1] + ghost[1], n[2] + ghost[2]}};
  }
  bool operator==(const FieldLayout&) const = default;
};

// A plain vector of n values (no ghosts, no padding): the layout of an assembled matrix's rows.
inline FieldLayout vector_layout(long n) {
  FieldLayout l;
  l.n = {static_cast<int>(n), 1, 1};
  return l;
}

// Row alignment (elements) of the fields of a structured grid (Decomposition::layout, whose callers pass it): owned
// x = 0 of every row on a 256-byte boundary in fp64 (32 elements), a 32-byte one in fp32 (8 elements). The DRAM fetches
// 64-byte halves of a 128-byte line, and a stencil sweep reads a row's ghost x = n and the next row's x = -1: with rows
// padded to 32 fp32 elements those two share the row's 17th line at 512^3 (sectors 0 and 3), so every byte of the
// allocation is read, padding included (575 MB per sweep for a 543 MB field); padded to 8, a row's high ghost and the
// next row's low ghost share one sector (550 MB). Measured on the H200 (benchmarks/results/
// gpu-h200-2026-11-30-sweep-order, run 2; 3d7pt at 512^3, ratio to the copy bound per call, DRAM reads per sweep):
//   fp32: align 32 0.882-0.887 (575 MB), 16 0.892 (558 MB), 8 0.902-0.903 (550 MB);
//   fp64: align 32 0.900-0.905 (1.12 GB), 16 0.885-0.887, 8 0.894-0.895 (1.11 GB): fp64 keeps 256-byte rows.
// With this rule (run 3): fp32 3d7pt 0.897 per call, 0.904-0.905 in sequence (549.6 MB read), its CSE 27-point form
// 0.855-0.857 (0.829-0.841 before); fp64 and the float-cycle PCG-MG (79.6 WU) unchanged.
// (Before the 512 x 4 fp32 tile, align 8 had measured fp32 0.834 -> 0.839 and fp64 0.898 -> 0.890, gpu-h200-2026-11-25-
// sweep-tail run 4, when one alignment served both precisions.) A multigrid hierarchy keeps its fine level's alignment
// on every level, so a float cycle under a double CG runs on the double's rows.
constexpr int grid_row_align(std::size_t element_bytes) { return element_bytes >= 8 ? 32 : 8; }
template <class Real>
constexpr int grid_row_align() {
  return grid_row_align(sizeof(Real));
}

}  // namespace perksolve
