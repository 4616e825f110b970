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
  // (rows on 32-byte sectors, or whole 32-element lines for long rows and PCG-MG): output rows are whole sectors
  // (no partial-sector read-modify-write in DRAM) and row loads may be 16-byte vectors or bulk copies. Padding
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

// Row alignment (elements) of the fields of a structured grid whose rows hold `padded_row` elements, ghosts included,
// for fields of `element_bytes` bytes. Owned x = 0 of every row starts on a 32-byte sector, so that a stencil's output
// rows are whole sectors; and rows are padded to whole 32-element lines (kGridRowLine: 256 bytes in fp64, 128 in fp32)
// only where that costs at most 2 % of a row (the long rows of 2D grids). Solvers that measured faster on whole lines
// get them regardless (Solver::grid_rows_on_lines, Decomposition::grid_layout: PCG-MG).
//
// Why the padding is kept short. The DRAM fetches 64-byte halves of a 128-byte line, and a stencil sweep reads a row's
// ghost x = n and the next row's x = -1, which lie at the two ends of the row's padding: with rows padded to 32 elements
// the lines between them are fetched whole, padding included (fp32 3d7pt at 512^3 read 575 MB per sweep of a 543 MB
// field). Padded to one sector, a row's high ghost and the next row's low ghost share it. Measured on the H200 (3d7pt at
// 512^3, ratio to the copy bound per call, DRAM reads per sweep; benchmarks/results/gpu-h200-2026-11-30-sweep-order
// runs 2 and 6, gpu-h200-2026-11-30-fp64-rows runs 1-4, alignments compared in alternation within each run):
//   fp32: align 32 0.882-0.887 (575 MB), 16 0.892 (558 MB), 8 0.902-0.903 (550 MB);
//   fp64: align 32 0.888-0.897 (1.13 GB), 8 (64 bytes) 0.892-0.893 (1.11 GB), 4 (32 bytes) 0.898-0.904 (1.10 GB);
//   the other fp64 3D radius-1 shapes gain as much at 4; at 255^3 the multigrid V-cycle is 0-3 % faster at 4 / 8.
// Long rows keep whole lines: 2d5pt at 16384^2 (0.2 % of padding) ran fp64 0.910-0.915 at align 32 against 0.898-0.902
// at 4 and 8, fp32 0.822-0.824 at 32 against 0.817-0.818 at 8 (the rows' starts, not the padding, decide there).
// A multigrid hierarchy keeps its fine level's alignment on every level.
constexpr int kGridRowLine = 32;  // elements
constexpr int grid_row_align(long padded_row, std::size_t element_bytes) {
  const long lines = (padded_row + kGridRowLine - 1) / kGridRowLine * kGridRowLine;
  if ((lines - padded_row) * 50 <= padded_row) return kGridRowLine;
  const long sector = 32 / static_cast<long>(element_bytes);
  return static_cast<int>(sector > 1 ? sector : 1);
}
// The same for a field of Real on layout l (its extents and ghosts set).
template <class Real>
constexpr int grid_row_align(const FieldLayout& l) {
  return grid_row_align(l.padded(0), sizeof(Real));
}

}  // namespace perksolve
