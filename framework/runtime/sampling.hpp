// Host-side sampling of point functions onto fields and comparison with exact solutions.
// Problems give functions of physical coordinates; these helpers evaluate them on a rank's owned
// cells (by global index, so the result does not depend on the decomposition) and upload.
#pragma once

#include <cstdint>
#include <vector>

#include "framework/backend/backend.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/problem/problem.hpp"

namespace perksolve {

// Owned cells <- f(x, y, z); ghosts <- 0.
template <class Real>
void sample(Backend<Real>& be, const Decomposition& d, Field<Real>& field, const PointFunction& f);

// Owned cells <- uniform [0, 1) from a counter-based hash of (seed, global index); ghosts <- 0.
template <class Real>
void sample_random(Backend<Real>& be, const Decomposition& d, Field<Real>& field, std::uint64_t seed);

struct ErrorNorms {
  double max_abs = 0.0;  // max over cells |u - u_exact|
  double rms = 0.0;      // sqrt(mean((u - u_exact)^2))
  double max_exact = 0.0;
};

// Global error norms of the owned cells against exact(x, y, z, t).
template <class Real>
ErrorNorms error_norms(Backend<Real>& be, const Decomposition& d, const Field<Real>& field,
                       const SpaceTimeFunction& exact, double t);

// The owned cells of a field gathered in global x-fastest order on rank 0 (empty elsewhere).
template <class Real>
std::vector<double> gather_global(Backend<Real>& be, const Decomposition& d, const Field<Real>& field);

}  // namespace perksolve
