// Templated 2D stencil kernels, float: instantiation and launch (see stencil_kernels.cuh).
#include "framework/backends/cuda/stencil_dispatch.cuh"

namespace perksolve::cuda_detail {

template <>
int launch_templated_stencil_2d<float>(const StencilRequest<float>& r, StencilMode mode) {
  return dispatch_shapes<float, PERKSOLVE_CUDA_SHAPES_2D>(r, mode);
}

template <>
PerksLaunch launch_templated_perks_2d<float>(const PerksRequest<float>& pr, StencilMode mode) {
  return dispatch_perks<float, PERKSOLVE_CUDA_SHAPES_2D>(pr, mode);
}

}  // namespace perksolve::cuda_detail
