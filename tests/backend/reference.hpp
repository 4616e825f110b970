// Naive reference implementations on a global array, written independently of the backends:
// triple loops, boundary conditions resolved by recursion over the axes (z, then y, then x).
#pragma once

#include <cmath>
#include <vector>

#include "framework/grid/grid.hpp"
#include "framework/stencil/stencil.hpp"

namespace perksolve::testing {

struct GlobalArray {
  GridSpec grid;
  std::vector<double> v;  // x fastest, grid.extents
  long n(int a) const { return grid.extents[a]; }
  double at(long i, long j, long k) const { return v[i + n(0) * (j + n(1) * k)]; }

  // Value at any index, ghosts resolved from the boundary conditions.
  double value(long i, long j, long k) const {
    long idx[3] = {i, j, k};
    for (int a = 2; a >= 0; --a) {
      const long m = idx[a];
      const long N = n(a);
      if (m >= 0 && m < N) continue;
      const bool low = m < 0;
      const FaceBoundary& f = grid.boundary[a][low ? 0 : 1];
      const long d = low ? -1 - m : m - N;  // ghost distance, 0 = nearest
      const double h = grid.spacing(a);
      long mirror;
      auto at_mirror = [&](long mm) {
        long j3[3] = {idx[0], idx[1], idx[2]};
        j3[a] = mm;
        return value(j3[0], j3[1], j3[2]);
      };
      if (f.type == BoundaryType::periodic) {
        long j3[3] = {idx[0], idx[1], idx[2]};
        j3[a] = ((m % N) + N) % N;
        return value(j3[0], j3[1], j3[2]);
      }
      if (grid.centering == Centering::vertex && f.type == BoundaryType::dirichlet) {
        if (d == 0) return f.value;
        mirror = low ? -1 + d : N - d;
        return 2.0 * f.value - at_mirror(mirror);
      }
      if (grid.centering == Centering::vertex) {
        mirror = low ? 1 + d : N - 2 - d;
        return at_mirror(mirror) + 2.0 * (d + 1) * h * f.value;
      }
      mirror = low ? d : N - 1 - d;
      if (f.type == BoundaryType::dirichlet) return 2.0 * f.value - at_mirror(mirror);
      return at_mirror(mirror) + (2.0 * d + 1.0) * h * f.value;
    }
    return at(i, j, k);
  }
};

inline std::vector<double> apply_reference(const Stencil& s, const GlobalArray& in) {
  std::vector<double> out(in.v.size());
  for (long k = 0; k < in.n(2); ++k)
    for (long j = 0; j < in.n(1); ++j)
      for (long i = 0; i < in.n(0); ++i) {
        double acc = 0.0;
        for (int p = 0; p < s.size(); ++p)
          acc += s.coeffs[p] * in.value(i + s.offsets[p].dx, j + s.offsets[p].dy, k + s.offsets[p].dz);
        out[i + in.n(0) * (j + in.n(1) * k)] = acc;
      }
  return out;
}

}  // namespace perksolve::testing
