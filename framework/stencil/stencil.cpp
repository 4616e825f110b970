#include "framework/stencil/stencil.hpp"

#include <cmath>
#include <stdexcept>

namespace perksolve {

int Stencil::center_index() const {
  for (int i = 0; i < size(); ++i)
    if (offsets[i] == Offset{0, 0, 0}) return i;
  throw std::logic_error("stencil '" + name + "' has no centre point");
}

Stencil make_stencil(std::string name, ShapeSpec shape) {
  Stencil s;
  s.name = std::move(name);
  s.shape = shape;
  const int n = shape_point_count(shape);
  s.offsets.reserve(n);
  for (int i = 0; i < n; ++i) s.offsets.push_back(shape_offset(shape, i));
  s.coeffs.assign(n, 0.0);
  return s;
}

void set_benchmark_coefficients(Stencil& s) {
  double sum = 0.0;
  for (int i = 0; i < s.size(); ++i) {
    const Offset o = s.offsets[i];
    const double dist = std::abs(o.dx) + std::abs(o.dy) + std::abs(o.dz);
    // Decays with distance; the small asymmetric term makes transposed offsets differ.
    const double c = 1.0 / (1.0 + dist) + 0.01 * (o.dx + 2 * o.dy + 3 * o.dz + 7);
    s.coeffs[i] = c;
    sum += c;
  }
  for (double& c : s.coeffs) c /= sum;
}

namespace {
struct NamedShape {
  const char* name;
  ShapeSpec shape;
};
constexpr NamedShape kPerksShapes[] = {
    {"2d5pt", {2, ShapeKind::star, 1}},   {"2ds9pt", {2, ShapeKind::star, 2}},
    {"2d13pt", {2, ShapeKind::star, 3}},  {"2d17pt", {2, ShapeKind::star, 4}},
    {"2d21pt", {2, ShapeKind::star, 5}},  {"2ds25pt", {2, ShapeKind::star, 6}},
    {"2d9pt", {2, ShapeKind::box, 1}},    {"2d25pt", {2, ShapeKind::box, 2}},
    {"3d7pt", {3, ShapeKind::star, 1}},   {"3d13pt", {3, ShapeKind::star, 2}},
    {"3d17pt", {3, ShapeKind::plane_and_corners, 1}},
    {"3d27pt", {3, ShapeKind::box, 1}},   {"poisson", {3, ShapeKind::box_no_corners, 1}},
};
// Point counts are part of the names; checked at compile time.
static_assert(shape_point_count(ShapeSpec{2, ShapeKind::star, 6}) == 25);
static_assert(shape_point_count(ShapeSpec{3, ShapeKind::plane_and_corners, 1}) == 17);
static_assert(shape_point_count(ShapeSpec{3, ShapeKind::box_no_corners, 1}) == 19);
static_assert(shape_point_count(ShapeSpec{2, ShapeKind::box, 2}) == 25);
static_assert(shape_point_count(ShapeSpec{3, ShapeKind::star, 2}) == 13);
}  // namespace

bool perks_shape(std::string_view name, ShapeSpec& out) {
  for (const auto& s : kPerksShapes)
    if (name == s.name) {
      out = s.shape;
      return true;
    }
  return false;
}

const std::vector<std::string>& perks_shape_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& s : kPerksShapes) v.emplace_back(s.name);
    return v;
  }();
  return names;
}

Stencil perks_stencil(std::string_view name) {
  ShapeSpec shape;
  if (!perks_shape(name, shape)) throw std::invalid_argument("unknown stencil shape '" + std::string(name) + "'");
  Stencil s = make_stencil(std::string(name), shape);
  set_benchmark_coefficients(s);
  return s;
}

namespace {
void set(Stencil& s, Offset o, double c) {
  for (int i = 0; i < s.size(); ++i)
    if (s.offsets[i] == o) {
      s.coeffs[i] = c;
      return;
    }
  throw std::logic_error("offset not in stencil shape");
}
}  // namespace

Stencil laplacian_5pt(double hx, double hy) {
  Stencil s = make_stencil("laplacian_5pt", {2, ShapeKind::star, 1});
  const double cx = 1.0 / (hx * hx), cy = 1.0 / (hy * hy);
  set(s, {0, 0, 0}, 2 * cx + 2 * cy);
  set(s, {-1, 0, 0}, -cx);
  set(s, {1, 0, 0}, -cx);
  set(s, {0, -1, 0}, -cy);
  set(s, {0, 1, 0}, -cy);
  return s;
}

Stencil laplacian_7pt(double hx, double hy, double hz) {
  Stencil s = make_stencil("laplacian_7pt", {3, ShapeKind::star, 1});
  const double cx = 1.0 / (hx * hx), cy = 1.0 / (hy * hy), cz = 1.0 / (hz * hz);
  set(s, {0, 0, 0}, 2 * (cx + cy + cz));
  set(s, {-1, 0, 0}, -cx);
  set(s, {1, 0, 0}, -cx);
  set(s, {0, -1, 0}, -cy);
  set(s, {0, 1, 0}, -cy);
  set(s, {0, 0, -1}, -cz);
  set(s, {0, 0, 1}, -cz);
  return s;
}

Stencil laplacian_27pt_fe(double h) {
  // Q1 (trilinear) stiffness matrix divided by the mass-lumped cell volume h^3:
  // centre 8/3, faces -0, edges -1/6, corners -1/12 (times h/h^3 = 1/h^2 scaling).
  Stencil s = make_stencil("laplacian_27pt_fe", {3, ShapeKind::box, 1});
  const double scale = 1.0 / (h * h);
  for (int i = 0; i < s.size(); ++i) {
    const Offset o = s.offsets[i];
    const int nz = (o.dx != 0) + (o.dy != 0) + (o.dz != 0);
    const double c = nz == 0 ? 8.0 / 3.0 : nz == 1 ? 0.0 : nz == 2 ? -1.0 / 6.0 : -1.0 / 12.0;
    s.coeffs[i] = c * scale;
  }
  return s;
}

}  // namespace perksolve
