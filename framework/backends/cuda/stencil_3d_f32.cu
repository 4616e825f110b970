// Templated 3D stencil kernels, float: instantiation and launch (see stencil_kernels.cuh).
#include "framework/backends/cuda/stencil_dispatch.cuh"

namespace perksolve::cuda_detail {

template <>
int launch_templated_stencil_3d<float>(const StencilRequest<float>& r, StencilMode mode, bool* used_symmetric) {
  if (r.symmetric) {
    const int n = dispatch_shapes_sym<float, PERKSOLVE_CUDA_SHAPES_SYM>(r, mode);
    if (n >= 0) {
      if (used_symmetric) *used_symmetric = true;
      return n;
    }
  }
  if (used_symmetric) *used_symmetric = false;
  return dispatch_shapes<float, PERKSOLVE_CUDA_SHAPES_3D>(r, mode);
}

template <>
PerksLaunch launch_templated_perks_3d<float>(const PerksRequest<float>& pr, StencilMode mode) {
  if (pr.base.symmetric) {
    const PerksLaunch n = dispatch_perks_sym<float, PERKSOLVE_CUDA_SHAPES_SYM>(pr, mode);
    if (n.launched) return n;
  }
  return dispatch_perks<float, PERKSOLVE_CUDA_SHAPES_3D>(pr, mode);
}

}  // namespace perksolve::cuda_detail
