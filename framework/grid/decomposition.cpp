#include "framework/grid/decomposition.hpp"

#include <stdexcept>
#include <string>

#include "framework/util/env.hpp"

namespace perksolve {

void Decomposition::split(long n, int parts, int c, long& start, int& count) {
  const long base = n / parts, extra = n % parts;
  start = c * base + (c < extra ? c : extra);
  count = static_cast<int>(base + (c < extra ? 1 : 0));
}

Decomposition::Decomposition(const GridSpec& grid, MPI_Comm comm, std::array<int, 3> requested, int min_cells)
    : grid_(grid) {
  int world_size = 1;
  MPI_Comm_size(comm, &world_size);
  const int nd = grid.dim;
  std::array<int, 3> dims{requested[0], requested[1], nd == 3 ? requested[2] : 1};
  for (int a = 0; a < 3; ++a)
    if (dims[a] < 0) throw std::invalid_argument("decomposition.ranks entries must be >= 0 (0 = automatic)");
  if (nd == 2 && requested[2] > 1) throw std::invalid_argument("decomposition.ranks[2] must be 0 or 1 for a 2D grid");
  long fixed = 1;
  for (int a = 0; a < nd; ++a)
    if (dims[a] > 0) fixed *= dims[a];
  if (world_size % fixed != 0)
    throw std::invalid_argument("decomposition.ranks = [" + std::to_string(requested[0]) + ", " +
                                std::to_string(requested[1]) + ", " + std::to_string(requested[2]) +
                                "] does not match the " + std::to_string(world_size) + " MPI ranks of this run");
  bool any_auto = false;
  for (int a = 0; a < nd; ++a) any_auto |= dims[a] == 0;
  if (!any_auto && fixed != world_size)
    throw std::invalid_argument("decomposition.ranks multiplies to " + std::to_string(fixed) + " but the run has " +
                                std::to_string(world_size) + " MPI ranks");
  MPI_Dims_create(world_size, nd, dims.data());
  for (int a = nd; a < 3; ++a) dims[a] = 1;
  dims_ = dims;

  int periods[3] = {grid.periodic(0), grid.periodic(1), nd == 3 ? grid.periodic(2) : 0};
  MPI_Cart_create(comm, nd, dims_.data(), periods, /*reorder=*/0, &cart_);
  MPI_Comm_rank(cart_, &rank_);
  MPI_Comm_size(cart_, &size_);
  int c[3] = {0, 0, 0};
  MPI_Cart_coords(cart_, rank_, nd, c);
  for (int a = 0; a < 3; ++a) coords_[a] = c[a];

  for (int a = 0; a < 3; ++a) {
    if (a >= nd) {
      offset_[a] = 0;
      local_[a] = 1;
      continue;
    }
    if (grid.extents[a] < static_cast<long>(dims_[a]) * min_cells)
      throw std::invalid_argument("grid.extents[" + std::to_string(a) + "] = " + std::to_string(grid.extents[a]) +
                                  " is too small for " + std::to_string(dims_[a]) + " ranks along that axis (each rank needs at least " +
                                  std::to_string(min_cells) + " cells, the stencil's ghost width)");
    split(grid.extents[a], dims_[a], coords_[a], offset_[a], local_[a]);
  }
}

Decomposition::~Decomposition() {
  if (cart_ != MPI_COMM_NULL) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&cart_);
  }
}

int Decomposition::neighbor(int dx, int dy, int dz) const {
  const int d[3] = {dx, dy, dz};
  int c[3] = {0, 0, 0};
  for (int a = 0; a < 3; ++a) {
    c[a] = coords_[a] + d[a];
    if (a >= grid_.dim) {
      if (d[a] != 0) return MPI_PROC_NULL;
      continue;
    }
    if (c[a] < 0 || c[a] >= dims_[a]) {
      if (!grid_.periodic(a)) return MPI_PROC_NULL;
      c[a] = (c[a] + dims_[a]) % dims_[a];
    }
  }
  int r = MPI_PROC_NULL;
  MPI_Cart_rank(cart_, c, &r);
  return r;
}

bool Decomposition::on_physical_boundary(int axis, int side) const {
  if (axis >= grid_.dim || grid_.periodic(axis)) return false;
  return side == 0 ? coords_[axis] == 0 : coords_[axis] == dims_[axis] - 1;
}

FieldLayout Decomposition::layout(int ghost_width, int align) const {
  FieldLayout l;
  l.n = local_;
  for (int a = 0; a < 3; ++a) l.ghost[a] = a < grid_.dim ? ghost_width : 0;
  l.align = align;
  return l;
}

int grid_fields_row_align(long padded_row, std::size_t element_bytes, bool on_lines) {
  static const std::string forced =
      env_choice("PERKSOLVE_GRID_ROW_ALIGN", {"auto", "4", "8", "16", "32", "64"}, "auto");
  if (forced != "auto") return std::stoi(forced);
  return on_lines ? kGridRowLine : grid_row_align(padded_row, element_bytes);
}

FieldLayout Decomposition::grid_layout(int ghost_width, std::size_t element_bytes, bool on_lines) const {
  FieldLayout l = layout(ghost_width, 1);
  l.align = grid_fields_row_align(l.padded(0), element_bytes, on_lines);
  return l;
}

}  // namespace perksolve
