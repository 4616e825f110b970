// Uniform Cartesian grid (2D or 3D), its physical box, centring and boundary conditions per face.
#pragma once

#include <array>
#include <string>

namespace perksolve {

enum class Centering { vertex, cell };
enum class BoundaryType { dirichlet, neumann, periodic };

std::string to_string(Centering c);
std::string to_string(BoundaryType b);

// Boundary condition on one face. `value` is the Dirichlet value or the outward normal derivative.
struct FaceBoundary {
  BoundaryType type = BoundaryType::dirichlet;
  double value = 0.0;
};

// Global description of the discrete domain.
//
// `extents` counts the *unknowns* per axis. Vertex-centred: a Dirichlet face's boundary vertex is
// not an unknown (it lives in the first ghost layer); a Neumann face's vertex is; periodic axes have
// `extents` vertices per period. Cell-centred: h = L / extents and the boundary lies half a cell
// outside the first/last unknown.
struct GridSpec {
  int dim = 3;
  std::array<long, 3> extents{1, 1, 1};  // extents[2] == 1 for dim 2
  std::array<double, 3> lo{0.0, 0.0, 0.0};
  std::array<double, 3> hi{1.0, 1.0, 1.0};
  Centering centering = Centering::vertex;
  std::array<std::array<FaceBoundary, 2>, 3> boundary{};  // [axis][0 = low, 1 = high]

  bool periodic(int axis) const { return boundary[axis][0].type == BoundaryType::periodic; }
  // Grid spacing along an axis (1 for an inactive axis of a 2D grid).
  double spacing(int axis) const;
  // Physical coordinate of the unknown with this global index (may be a ghost index).
  double coordinate(int axis, long global_index) const;
  long total_unknowns() const { return extents[0] * extents[1] * extents[2]; }
  // Throws std::invalid_argument describing the first inconsistency found.
  void validate() const;
};

}  // namespace perksolve
