#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <set>
#include <tuple>

#include "framework/stencil/stencil.hpp"

using namespace perksolve;

namespace {
int expected_points(const std::string& name) {
  // The point count is in the name: 2d5pt -> 5, 2ds25pt -> 25, poisson -> 19.
  if (name == "poisson") return 19;
  size_t i = 2;
  while (i < name.size() && !std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return std::stoi(name.substr(i));
}
}  // namespace

TEST(StencilShapes, AllThirteenPerksShapesExistWithTheirPointCounts) {
  const auto& names = perks_shape_names();
  ASSERT_EQ(names.size(), 13u);
  for (const auto& n : names) {
    const Stencil s = perks_stencil(n);
    EXPECT_EQ(s.size(), expected_points(n)) << n;
    EXPECT_EQ(s.dim(), n[0] == '2' ? 2 : 3) << n;
    std::set<std::tuple<int, int, int>> unique;
    for (const Offset& o : s.offsets) unique.insert({o.dx, o.dy, o.dz});
    EXPECT_EQ(static_cast<int>(unique.size()), s.size()) << n << ": offsets must be distinct";
    EXPECT_NO_THROW(s.center_index()) << n;
  }
}

TEST(StencilShapes, RadiiMatchThePerksTable) {
  const std::pair<const char*, int> radii[] = {{"2d5pt", 1},  {"2ds9pt", 2}, {"2d13pt", 3}, {"2d17pt", 4}, {"2d21pt", 5},
                                               {"2ds25pt", 6}, {"2d9pt", 1}, {"2d25pt", 2},  {"3d7pt", 1},  {"3d13pt", 2},
                                               {"3d17pt", 1}, {"3d27pt", 1}, {"poisson", 1}};
  for (auto [name, r] : radii) EXPECT_EQ(perks_stencil(name).radius(), r) << name;
}

TEST(StencilShapes, BenchmarkCoefficientsSumToOneAndAreNotSymmetric) {
  for (const auto& n : perks_shape_names()) {
    const Stencil s = perks_stencil(n);
    EXPECT_NEAR(std::accumulate(s.coeffs.begin(), s.coeffs.end(), 0.0), 1.0, 1e-14) << n;
    for (double c : s.coeffs) EXPECT_GT(c, 0.0) << n;
    // +x and -x neighbours must differ, so a transposed stencil is caught by the backend tests.
    double plus = 0, minus = 0;
    for (int i = 0; i < s.size(); ++i) {
      if (s.offsets[i] == Offset{1, 0, 0}) plus = s.coeffs[i];
      if (s.offsets[i] == Offset{-1, 0, 0}) minus = s.coeffs[i];
    }
    EXPECT_NE(plus, minus) << n;
  }
}

TEST(StencilShapes, CanonicalOrderIsZThenYThenX) {
  const Stencil s = perks_stencil("3d7pt");
  ASSERT_EQ(s.size(), 7);
  EXPECT_EQ(s.offsets[0], (Offset{0, 0, -1}));
  EXPECT_EQ(s.offsets[1], (Offset{0, -1, 0}));
  EXPECT_EQ(s.offsets[2], (Offset{-1, 0, 0}));
  EXPECT_EQ(s.offsets[3], (Offset{0, 0, 0}));
  EXPECT_EQ(s.offsets[6], (Offset{0, 0, 1}));
}

TEST(StencilShapes, ThreeD17ptIsPlanePlusCubeCorners) {
  const Stencil s = perks_stencil("3d17pt");
  for (const Offset& o : s.offsets) {
    const int nz = (o.dx != 0) + (o.dy != 0) + (o.dz != 0);
    EXPECT_TRUE(o.dz == 0 || nz == 3);
  }
}

TEST(StencilShapes, LaplaciansAnnihilateConstantsAndAreExactOnQuadratics) {
  const double h = 0.1;
  for (const Stencil& s : {laplacian_5pt(h, h), laplacian_7pt(h, h, h), laplacian_27pt_fe(h)}) {
    double sum = 0.0, quad = 0.0;
    for (int i = 0; i < s.size(); ++i) {
      sum += s.coeffs[i];
      const double x = s.offsets[i].dx * h;
      quad += s.coeffs[i] * x * x;  // -d2/dx2 (x^2) = -2
    }
    EXPECT_NEAR(sum, 0.0, 1e-10) << s.name;
    EXPECT_NEAR(quad, -2.0, 1e-10) << s.name;
  }
}

TEST(StencilShapes, UnknownShapeIsRejected) {
  ShapeSpec spec;
  EXPECT_FALSE(perks_shape("3d8pt", spec));
  EXPECT_THROW(perks_stencil("3d8pt"), std::invalid_argument);
}
