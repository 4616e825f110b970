// Compiled shape lists and the run-time ShapeSpec -> template dispatch. Each per-(dim, precision)
// translation unit includes this and instantiates + launches its kernels itself (nvcc 13 makes
// kernel-template host stubs static, so instantiation and launch must share a TU).
#pragma once

#include "framework/backends/cuda/perks_stencil.cuh"
#include "framework/backends/cuda/stencil_kernels.cuh"

namespace perksolve::cuda_detail {

// The PERKS shapes (framework/stencil/stencil.cpp); the Laplacian stencils use the same ShapeSpecs
// (laplacian_5pt = 2d5pt, laplacian_7pt = 3d7pt, laplacian_27pt_fe = 3d27pt).
#define PERKSOLVE_CUDA_SHAPES_3D                                                                       \
  ShapeSpec{3, ShapeKind::star, 1}, ShapeSpec{3, ShapeKind::star, 2},                                  \
      ShapeSpec{3, ShapeKind::plane_and_corners, 1}, ShapeSpec{3, ShapeKind::box, 1},                  \
      ShapeSpec { 3, ShapeKind::box_no_corners, 1 }
#define PERKSOLVE_CUDA_SHAPES_2D                                                                       \
  ShapeSpec{2, ShapeKind::star, 1}, ShapeSpec{2, ShapeKind::star, 2}, ShapeSpec{2, ShapeKind::star, 3}, \
      ShapeSpec{2, ShapeKind::star, 4}, ShapeSpec{2, ShapeKind::star, 5}, ShapeSpec{2, ShapeKind::star, 6}, \
      ShapeSpec{2, ShapeKind::box, 1}, ShapeSpec { 2, ShapeKind::box, 2 }

// Shapes that also get the mirror-symmetric CSE variant.
#define PERKSOLVE_CUDA_SHAPES_SYM ShapeSpec{3, ShapeKind::box, 1}

template <class Real, ShapeSpec... Ss>
int dispatch_shapes(const StencilRequest<Real>& r, StencilMode m) {
  int result = -1;
  (void)((r.stencil->shape == Ss ? (result = launch_stream_mode<Real, Ss, false>(r, m), true) : false) || ...);
  return result;
}

template <class Real, ShapeSpec... Ss>
int dispatch_shapes_sym(const StencilRequest<Real>& r, StencilMode m) {
  int result = -1;
  (void)((r.stencil->shape == Ss ? (result = launch_stream_mode<Real, Ss, true>(r, m), true) : false) || ...);
  return result;
}

// PERKS: the shape's persistent kernel, the symmetric (CSE) one when the request says the coefficients
// are mirror-symmetric and the shape has it. Not launched (launched = false) for shapes not compiled.
template <class Real, ShapeSpec... Ss>
PerksLaunch dispatch_perks(const PerksRequest<Real>& pr, StencilMode m) {
  PerksLaunch result;
  (void)((pr.base.stencil->shape == Ss ? (result = launch_perks_mode<Real, Ss, false>(pr, m), true) : false) || ...);
  return result;
}
template <class Real, ShapeSpec... Ss>
PerksLaunch dispatch_perks_sym(const PerksRequest<Real>& pr, StencilMode m) {
  PerksLaunch result;
  (void)((pr.base.stencil->shape == Ss ? (result = launch_perks_mode<Real, Ss, true>(pr, m), true) : false) || ...);
  return result;
}

}  // namespace perksolve::cuda_detail
