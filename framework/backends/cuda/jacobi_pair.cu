// Instantiations of the pair kernel (jacobi_pair.cuh): the 3D 7-point star, from x and from zero, fp32 and fp64
// (4 kernels; 8 while the steps-per-barrier experiment runs). Other shapes run their sweeps one by one (CudaBackend::jacobi_pair_supported).
#include "framework/backends/cuda/jacobi_pair.cuh"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace perksolve::cuda_detail {

namespace {
constexpr ShapeSpec k7{3, ShapeKind::star, 1};
}

template <class Real>
bool jacobi_pair_available(const ShapeSpec& s, const FieldLayout& l) {
  return s == k7 && jacobi_pair_layout_fits<Real>(l, k7.radius);
}

template <class Real>
void launch_jacobi_pair(const StencilRequest<Real>& r, Real s1, Real s2, bool zero) {
  if (!jacobi_pair_available<Real>(r.stencil->shape, r.layout))
    throw std::logic_error("jacobi_update_pair: no pair kernel for this shape and layout");
  // Experiment switch: PERKSOLVE_CUDA_PAIR_STEPS=2 runs two steps per block barrier.
  static const bool two = [] {
    const char* t = std::getenv("PERKSOLVE_CUDA_PAIR_STEPS");
    return t != nullptr && std::string(t) == "2";
  }();
  if (zero)
    two ? launch_jacobi_pair_shape<Real, k7, true, 2>(r, s1, s2) : launch_jacobi_pair_shape<Real, k7, true, 1>(r, s1, s2);
  else
    two ? launch_jacobi_pair_shape<Real, k7, false, 2>(r, s1, s2)
        : launch_jacobi_pair_shape<Real, k7, false, 1>(r, s1, s2);
}

template bool jacobi_pair_available<float>(const ShapeSpec&, const FieldLayout&);
template bool jacobi_pair_available<double>(const ShapeSpec&, const FieldLayout&);
template void launch_jacobi_pair<float>(const StencilRequest<float>&, float, float, bool);
template void launch_jacobi_pair<double>(const StencilRequest<double>&, double, double, bool);

}  // namespace perksolve::cuda_detail
