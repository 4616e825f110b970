// MPI Cartesian domain decomposition of a GridSpec. Extents need not divide evenly: the first
// (n % p) ranks along an axis own one extra cell.
#pragma once

#include <mpi.h>

#include <array>

#include "framework/field/field_layout.hpp"
#include "framework/grid/grid.hpp"

namespace perksolve {

// The row alignment (elements) of a grid's fields of element_bytes whose padded rows hold padded_row elements:
// grid_row_align, or whole 32-element lines where the solver asks for them (Solver::grid_rows_on_lines), or the
// alignment that PERKSOLVE_GRID_ROW_ALIGN forces (README.md, "Runtime switches"; for comparisons).
int grid_fields_row_align(long padded_row, std::size_t element_bytes, bool on_lines = false);

class Decomposition {
 public:
  // `requested_dims[a] == 0` lets MPI_Dims_create choose that axis. Throws std::invalid_argument
  // when the requested rank grid does not multiply to the communicator size, or when a rank
  // would own fewer cells along an axis than `min_cells_per_rank` (the ghost width).
  Decomposition(const GridSpec& grid, MPI_Comm comm, std::array<int, 3> requested_dims, int min_cells_per_rank);
  ~Decomposition();
  Decomposition(const Decomposition&) = delete;
  Decomposition& operator=(const Decomposition&) = delete;

  const GridSpec& grid() const { return grid_; }
  MPI_Comm comm() const { return cart_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::array<int, 3>& dims() const { return dims_; }
  const std::array<int, 3>& coords() const { return coords_; }
  // Global index of this rank's first owned cell and its owned extents.
  const std::array<long, 3>& offset() const { return offset_; }
  const std::array<int, 3>& local_extents() const { return local_; }
  // Rank of the neighbour at (dx, dy, dz) in {-1, 0, 1}^3, or MPI_PROC_NULL beyond a non-periodic face.
  int neighbor(int dx, int dy, int dz) const;
  // True when this rank's face (axis, side) lies on the physical, non-periodic boundary.
  bool on_physical_boundary(int axis, int side) const;
  // Layout of a field on this rank with the given ghost width (no ghosts on inactive axes) and row alignment
  // (FieldLayout::align).
  FieldLayout layout(int ghost_width, int align) const;
  // The layout of the grid's fields of element_bytes (sizeof(Real)): rows aligned by grid_fields_row_align.
  FieldLayout grid_layout(int ghost_width, std::size_t element_bytes, bool on_lines = false) const;
  // Start and size of the block that rank coordinate c owns along axis a.
  static void split(long n, int parts, int c, long& start, int& count);

 private:
  GridSpec grid_;
  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::array<int, 3> dims_{1, 1, 1}, coords_{0, 0, 0};
  std::array<long, 3> offset_{0, 0, 0};
  std::array<int, 3> local_{1, 1, 1};
};

}  // namespace perksolve
