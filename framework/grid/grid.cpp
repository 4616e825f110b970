#include "framework/grid/grid.hpp"

#include <stdexcept>

namespace perksolve {

std::string to_string(Centering c) { return c == Centering::vertex ? "vertex" : "cell"; }

std::string to_string(BoundaryType b) {
  switch (b) {
    case BoundaryType::dirichlet: return "dirichlet";
    case BoundaryType::neumann: return "neumann";
    case BoundaryType::periodic: return "periodic";
  }
  return "?";
}

namespace {
// Index shift of the first unknown relative to the low boundary vertex, vertex-centred grids.
int vertex_shift(const FaceBoundary& f) { return f.type == BoundaryType::dirichlet ? 1 : 0; }
}  // namespace

double GridSpec::spacing(int axis) const {
  if (axis >= dim) return 1.0;
  const double length = hi[axis] - lo[axis];
  const double n = static_cast<double>(extents[axis]);
  if (centering == Centering::cell || periodic(axis)) return length / n;
  // Vertex-centred, non-periodic: intervals = unknowns - 1 + one per Dirichlet face.
  const double intervals = n - 1.0 + vertex_shift(boundary[axis][0]) + vertex_shift(boundary[axis][1]);
  return length / intervals;
}

double GridSpec::coordinate(int axis, long i) const {
  if (axis >= dim) return 0.0;
  const double h = spacing(axis);
  if (centering == Centering::cell) return lo[axis] + (static_cast<double>(i) + 0.5) * h;
  const int shift = periodic(axis) ? 0 : vertex_shift(boundary[axis][0]);
  return lo[axis] + static_cast<double>(i + shift) * h;
}

void GridSpec::validate() const {
  if (dim != 2 && dim != 3) throw std::invalid_argument("grid dimension must be 2 or 3");
  for (int a = 0; a < 3; ++a) {
    if (a < dim) {
      if (extents[a] < 1) throw std::invalid_argument("grid extents must be positive");
      if (!(hi[a] > lo[a])) throw std::invalid_argument("grid box must have hi > lo on every axis");
      const bool p0 = boundary[a][0].type == BoundaryType::periodic;
      const bool p1 = boundary[a][1].type == BoundaryType::periodic;
      if (p0 != p1) throw std::invalid_argument("a periodic boundary must be periodic on both faces of its axis");
      if (centering == Centering::vertex && !p0 && extents[a] + vertex_shift(boundary[a][0]) + vertex_shift(boundary[a][1]) < 2)
        throw std::invalid_argument("vertex-centred axis needs at least one interval");
    } else if (extents[a] != 1) {
      throw std::invalid_argument("a 2D grid has extents[2] == 1");
    }
  }
}

}  // namespace perksolve
