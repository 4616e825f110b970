// The ghost-cell rule of a physical boundary face, written once for every backend (host and device
// code call the same inline functions): which owned cell a ghost mirrors, and the affine map from the
// mirrored value to the ghost value.
//
//  * vertex-centred Dirichlet: the boundary vertex is the first ghost (value v); farther ghosts are odd
//    reflections about it: g_d = 2 v - u(-1 + d);
//  * vertex-centred Neumann: the boundary vertex is an unknown; g_d = u(1 + d) + 2 (d + 1) h v;
//  * cell-centred: the face lies half a cell outside the first unknown; Dirichlet g_d = 2 v - u(d),
//    Neumann g_d = u(d) + (2 d + 1) h v.
// (d = ghost distance from the owned block, 0 nearest; indices shown for the low side.)
#pragma once

#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::boundary_rule {

// A physical face reduced to what the rule needs (trivially copyable: passed to device kernels).
template <class Real>
struct FaceRule {
  int axis = 0;
  bool low = true;
  bool dirichlet = true;
  bool vertex = true;
  Real value = 0;    // Dirichlet value or outward normal derivative (0 when homogeneous)
  Real spacing = 1;  // grid spacing along the axis
};

// Local index along the face's axis of the ghost at distance d (n = owned cells along the axis).
PERKSOLVE_HD inline int ghost_index(bool low, int n, int d) { return low ? -1 - d : n + d; }

// Local index along the face's axis of the cell the ghost at distance d mirrors.
template <class Real>
PERKSOLVE_HD inline int mirror_index(const FaceRule<Real>& f, int n, int d) {
  if (f.vertex && f.dirichlet) return f.low ? -1 + d : n - d;
  if (f.vertex) return f.low ? 1 + d : n - 2 - d;
  return f.low ? d : n - 1 - d;
}

// True when the ghost value does not depend on the mirrored value (the boundary vertex itself).
template <class Real>
PERKSOLVE_HD inline bool ghost_is_constant(const FaceRule<Real>& f, int d) {
  return f.vertex && f.dirichlet && d == 0;
}

// Ghost value at distance d from the mirrored value m.
template <class Real>
PERKSOLVE_HD inline Real ghost_value(const FaceRule<Real>& f, int d, Real m) {
  if (f.vertex && f.dirichlet) return d == 0 ? f.value : Real(2) * f.value - m;
  if (f.vertex) return m + Real(2 * (d + 1)) * f.spacing * f.value;
  return f.dirichlet ? Real(2) * f.value - m : m + Real(2 * d + 1) * f.spacing * f.value;
}

}  // namespace perksolve::boundary_rule
