// Templated 2D stencil kernels, double: instantiation and launch (see stencil_kernels.cuh).
#include "framework/backends/cuda/stencil_dispatch.cuh"

namespace perksolve::cuda_detail {

template <>
int launch_templated_stencil_2d<double>(const StencilRequest<double>& r, StencilMode mode) {
  return dispatch_shapes<double, PERKSOLVE_CUDA_SHAPES_2D>(r, mode);
}

template <>
PerksLaunch launch_templated_perks_2d<double>(const PerksRequest<double>& pr, StencilMode mode) {
  return dispatch_perks<double, PERKSOLVE_CUDA_SHAPES_2D>(pr, mode);
}

}  // namespace perksolve::cuda_detail
