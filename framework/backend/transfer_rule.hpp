// The per-cell arithmetic of the multigrid transfers, written once for every backend (host and device code
// call the same inline functions, so every backend gives the same bits). The field is read through `at(i,
// j, k)` (local indices of the fine field for restriction, of the coarse field for interpolation).
//  * Vertex-centred restriction: full weighting (1/4, 1/2, 1/4 per axis) around fine (fi, fj, fk).
//  * Cell-centred restriction: the transpose of linear interpolation (1/8, 3/8, 3/8, 1/8 per axis).
//  * Interpolation: (bi/tri)linear from the coarse neighbours of fine (ti, tj, tk), indices relative to the
//    transfer map's shift.
#pragma once

#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::transfer_rule {

template <class Real, class At>
PERKSOLVE_HD inline Real full_weighting(const At& at, int fi, int fj, int fk, bool three) {
  const int rz = three ? 1 : 0;
  Real acc = 0;
  for (int dz = -rz; dz <= rz; ++dz) {
    const Real wz = rz ? (dz == 0 ? Real(0.5) : Real(0.25)) : Real(1);
    for (int dy = -1; dy <= 1; ++dy) {
      const Real wy = dy == 0 ? Real(0.5) : Real(0.25);
      for (int dx = -1; dx <= 1; ++dx) {
        const Real wx = dx == 0 ? Real(0.5) : Real(0.25);
        acc += wx * wy * wz * at(fi + dx, fj + dy, fk + dz);
      }
    }
  }
  return acc;
}

template <class Real, class At>
PERKSOLVE_HD inline Real cell_restriction(const At& at, int fi, int fj, int fk, bool three) {
  const Real w[4] = {Real(0.125), Real(0.375), Real(0.375), Real(0.125)};
  Real acc = 0;
  for (int dz = three ? -1 : 0; dz <= (three ? 2 : 0); ++dz) {
    const Real wz = three ? w[dz + 1] : Real(1);
    for (int dy = -1; dy <= 2; ++dy)
      for (int dx = -1; dx <= 2; ++dx) acc += w[dx + 1] * w[dy + 1] * wz * at(fi + dx, fj + dy, fk + dz);
  }
  return acc;
}

// The (up to two) coarse neighbours of fine local index t (relative to the shift) along one axis.
PERKSOLVE_HD inline int coarse_support(bool vertex, int t, int* idx, double* w) {
  const int m = t >> 1;  // floor(t / 2) (arithmetic shift, C++20)
  if (vertex) {
    if ((t & 1) == 0) {
      idx[0] = m;
      w[0] = 1.0;
      return 1;
    }
    idx[0] = m;
    idx[1] = m + 1;
    w[0] = w[1] = 0.5;
    return 2;
  }
  idx[0] = m;
  w[0] = 0.75;
  idx[1] = (t & 1) == 0 ? m - 1 : m + 1;
  w[1] = 0.25;
  return 2;
}

// The y / z part of the interpolation support of a fine cell, the same for every cell of a fine row: up to 2 x 2
// coarse rows (iy[cy], iz[cz]) and their weights wy[cy] wz[cz] rounded to Real. Every weight is dyadic with at most
// 6 significant bits (1, 1/2, 3/4, 1/4 per axis), so every product of weights is exact in either precision, and the
// weight of a point, wx (wy wz) in Real, equals the exact product whatever the order.
template <class Real>
struct InterpolationRow {
  int ny = 1, nz = 1;
  int iy[2] = {0, 0}, iz[2] = {0, 0};
  Real wyz[2][2] = {{Real(1), Real(0)}, {Real(0), Real(0)}};
};

template <class Real>
PERKSOLVE_HD inline InterpolationRow<Real> interpolation_row(bool vertex, int tj, int tk, bool three) {
  InterpolationRow<Real> s;
  double wy[2] = {0.0, 0.0}, wz[2] = {1.0, 0.0};
  s.ny = coarse_support(vertex, tj, s.iy, wy);
  s.nz = three ? coarse_support(vertex, tk, s.iz, wz) : 1;
  for (int cz = 0; cz < 2; ++cz)
    for (int cy = 0; cy < 2; ++cy) s.wyz[cz][cy] = static_cast<Real>(wy[cy] * wz[cz]);
  return s;
}

// The x part of the interpolation support of fine x index ti (relative to the shift): up to two coarse x indices and
// their weights, rounded to Real (exact: 1, 1/2, 3/4 or 1/4).
template <class Real>
struct XSupport {
  int n = 1;
  int ix[2] = {0, 0};
  Real wx[2] = {Real(0), Real(0)};
};

template <class Real>
PERKSOLVE_HD inline XSupport<Real> x_support(bool vertex, int ti) {
  XSupport<Real> x;
  double w[2] = {0.0, 0.0};
  x.n = coarse_support(vertex, ti, x.ix, w);
  x.wx[0] = static_cast<Real>(w[0]);
  x.wx[1] = static_cast<Real>(w[1]);
  return x;
}

// acc += the part of one support row (weight wyz) at x support x: wx wyz at(ix) for each x point in order. The one
// place of the summation order within a row; the rows are added in (z, y) order (interpolate_in_row).
// Constant trip counts (the supports have at most two points), so that device code keeps ix, wx and the caller's
// row table in registers: run-time bounds put them in local memory (an 80-96 byte stack frame per thread).
template <class Real, class AtX>
PERKSOLVE_HD inline void add_row_part(Real& acc, const XSupport<Real>& x, Real wyz, const AtX& at_x) {
  for (int cx = 0; cx < 2; ++cx)
    if (cx < x.n) acc += x.wx[cx] * wyz * at_x(x.ix[cx]);
}

// The interpolated value at fine x index ti (relative to the shift) of a row with support s; row_at(ix, cy, cz)
// reads coarse x index ix of support row (iy[cy], iz[cz]). Summation order: z, y, x.
template <class Real, class RowAt>
PERKSOLVE_HD inline Real interpolate_in_row(const RowAt& row_at, const InterpolationRow<Real>& s, bool vertex, int ti) {
  const XSupport<Real> x = x_support<Real>(vertex, ti);
  Real acc = 0;
  for (int cz = 0; cz < 2; ++cz)
    for (int cy = 0; cy < 2; ++cy)
      if (cz < s.nz && cy < s.ny) add_row_part(acc, x, s.wyz[cz][cy], [&](int ix) { return row_at(ix, cy, cz); });
  return acc;
}

// interpolate_in_row for N consecutive fine x indices t0 .. t0 + N - 1 at once, each with the same sum order (the same
// bits), reading every coarse value of a support row once: out[n] = the value at t0 + n. P = t0 & 1 and VERTEX are
// template arguments so that the x supports, and with them the register indices, are compile-time constants;
// row_at(c, cy, cz) reads coarse x index (t0 >> 1) - 1 + c (c < N / 2 + 3) of support row (iy[cy], iz[cz]), and only
// the columns some cell uses are read.
template <class Real, int N, int P, bool VERTEX, class RowAt>
PERKSOLVE_HD inline void interpolate_run(const RowAt& row_at, const InterpolationRow<Real>& s, Real (&out)[N]) {
  constexpr int NC = N / 2 + 3;
  bool used[NC] = {};
  XSupport<Real> xs[N];
  for (int n = 0; n < N; ++n) {  // supports relative to coarse index t0 >> 1, shifted by one
    xs[n] = x_support<Real>(VERTEX, P + n);
    for (int cx = 0; cx < 2; ++cx) {
      xs[n].ix[cx] += 1;
      if (cx < xs[n].n) used[xs[n].ix[cx]] = true;
    }
    out[n] = Real(0);
  }
  for (int cz = 0; cz < 2; ++cz)
    for (int cy = 0; cy < 2; ++cy)
      if (cz < s.nz && cy < s.ny) {
        Real col[NC];
        for (int c = 0; c < NC; ++c) col[c] = used[c] ? row_at(c, cy, cz) : Real(0);
        for (int n = 0; n < N; ++n) add_row_part(out[n], xs[n], s.wyz[cz][cy], [&](int c) { return col[c]; });
      }
}

template <class Real, class At>
PERKSOLVE_HD inline Real interpolation(const At& at, bool vertex, int ti, int tj, int tk, bool three) {
  const InterpolationRow<Real> s = interpolation_row<Real>(vertex, tj, tk, three);
  return interpolate_in_row<Real>([&](int ix, int cy, int cz) { return at(ix, s.iy[cy], s.iz[cz]); }, s, vertex, ti);
}

}  // namespace perksolve::transfer_rule
