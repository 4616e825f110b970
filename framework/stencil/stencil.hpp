// A stencil as data: a shape (ShapeSpec) plus one coefficient per offset, in canonical order.
// Backends apply any Stencil with one generic implementation; nothing is written per shape.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "framework/stencil/shape.hpp"

namespace perksolve {

struct Stencil {
  std::string name;            // e.g. "3d7pt", "laplacian_7pt"
  ShapeSpec shape;
  std::vector<Offset> offsets;  // canonical order, size == shape_point_count(shape)
  std::vector<double> coeffs;   // one per offset

  int dim() const { return shape.dim; }
  int radius() const { return shape.radius; }
  int size() const { return static_cast<int>(offsets.size()); }
  bool needs_corners() const { return shape_needs_corners(shape); }
  // Index of the (0,0,0) offset; every shape contains it.
  int center_index() const;
  double center_coeff() const { return coeffs[center_index()]; }
  // Flops per output point of a plain application (one multiply and one add per point, minus one add).
  int flops_per_point() const { return 2 * size() - 1; }
};

// A stencil of the given shape with all offsets enumerated and coefficients zero.
Stencil make_stencil(std::string name, ShapeSpec shape);

// Coefficients chosen as a smooth, positive, *non-symmetric* function of the offset that sums to
// one, so repeated application is stable (an averaging operator) yet every offset is distinguishable.
void set_benchmark_coefficients(Stencil& s);

// The shapes of the PERKS paper (Table III): 2d5pt 2ds9pt 2d13pt 2d17pt 2d21pt 2ds25pt 2d9pt 2d25pt
// 3d7pt 3d13pt 3d17pt 3d27pt poisson. Returns false when the name is unknown.
bool perks_shape(std::string_view name, ShapeSpec& out);
const std::vector<std::string>& perks_shape_names();
// The PERKS shape with benchmark coefficients (throws std::invalid_argument for unknown names).
Stencil perks_stencil(std::string_view name);

// Discrete operators A ≈ -Laplacian (positive definite sign convention), spacing h per axis.
Stencil laplacian_5pt(double hx, double hy);
Stencil laplacian_7pt(double hx, double hy, double hz);
// Trilinear finite-element Laplacian on a uniform grid (27-point, scaled by 1/h^2 like the FD ones).
Stencil laplacian_27pt_fe(double h);

}  // namespace perksolve
