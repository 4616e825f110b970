// Instantiations of the pair kernel (jacobi_pair.cuh): the 3D 7-point star, from x and from zero, fp32 and fp64
// (4 kernels). Other shapes run their sweeps one by one (CudaBackend::jacobi_pair_supported).
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
  // Experiment switch: PERKSOLVE_CUDA_PAIR_KERNEL=planes runs the kernel that reads every offset from shared memory.
  static const bool columns = [] {
    const char* t = std::getenv("PERKSOLVE_CUDA_PAIR_KERNEL");
    return t == nullptr || std::string(t) != "planes";
  }();
  if (zero)
    launch_jacobi_pair_shape<Real, k7, true>(r, s1, s2, columns);
  else
    launch_jacobi_pair_shape<Real, k7, false>(r, s1, s2, columns);
}

template bool jacobi_pair_available<float>(const ShapeSpec&, const FieldLayout&);
template bool jacobi_pair_available<double>(const ShapeSpec&, const FieldLayout&);
template void launch_jacobi_pair<float>(const StencilRequest<float>&, float, float, bool);
template void launch_jacobi_pair<double>(const StencilRequest<double>&, double, double, bool);

}  // namespace perksolve::cuda_detail
