// Instantiations of the pair kernel (jacobi_pair.cuh): the 3D 7-point star, from x and from zero, fp32 and fp64
// (4 kernels). Other shapes run their sweeps one by one (CudaBackend::jacobi_pair_supported).
#include "framework/backends/cuda/jacobi_pair.cuh"

namespace perksolve::cuda_detail {

bool jacobi_pair_compiled(const ShapeSpec& s) { return s == ShapeSpec{3, ShapeKind::star, 1}; }

template <class Real>
bool launch_jacobi_pair(const StencilRequest<Real>& r, Real s1, Real s2, bool zero) {
  constexpr ShapeSpec k7{3, ShapeKind::star, 1};
  if (!(r.stencil->shape == k7)) return false;
  return zero ? launch_jacobi_pair_shape<Real, k7, true>(r, s1, s2) : launch_jacobi_pair_shape<Real, k7, false>(r, s1, s2);
}

template bool launch_jacobi_pair<float>(const StencilRequest<float>&, float, float, bool);
template bool launch_jacobi_pair<double>(const StencilRequest<double>&, double, double, bool);

}  // namespace perksolve::cuda_detail
