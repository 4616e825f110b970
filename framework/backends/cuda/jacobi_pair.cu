// Instantiations of the pair kernel (jacobi_pair.cuh): the 3D 7-point star, from x and from zero, fp32 and fp64, wide
// and narrow tiles (8 kernels). Other shapes run their sweeps one by one (CudaBackend::jacobi_pair_supported).
#include "framework/backends/cuda/jacobi_pair.cuh"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace perksolve::cuda_detail {

bool jacobi_pair_compiled(const ShapeSpec& s) { return s == ShapeSpec{3, ShapeKind::star, 1}; }

namespace {
// PERKSOLVE_CUDA_PAIR_TILE=wide|narrow (JacobiPairCfg's NARROW); unset: narrow.
bool narrow_pair_tile() {
  static const bool v = [] {
    const char* e = std::getenv("PERKSOLVE_CUDA_PAIR_TILE");
    if (e == nullptr) return true;
    const std::string s(e);
    if (s != "wide" && s != "narrow")
      throw std::invalid_argument("PERKSOLVE_CUDA_PAIR_TILE='" + s + "': expected 'wide' or 'narrow'");
    return s == "narrow";
  }();
  return v;
}
}  // namespace

template <class Real>
bool launch_jacobi_pair(const StencilRequest<Real>& r, Real s1, Real s2, bool zero) {
  constexpr ShapeSpec k7{3, ShapeKind::star, 1};
  if (!(r.stencil->shape == k7)) return false;
  if (narrow_pair_tile())
    return zero ? launch_jacobi_pair_shape<Real, k7, true, true>(r, s1, s2)
                : launch_jacobi_pair_shape<Real, k7, false, true>(r, s1, s2);
  return zero ? launch_jacobi_pair_shape<Real, k7, true, false>(r, s1, s2)
              : launch_jacobi_pair_shape<Real, k7, false, false>(r, s1, s2);
}

template bool launch_jacobi_pair<float>(const StencilRequest<float>&, float, float, bool);
template bool launch_jacobi_pair<double>(const StencilRequest<double>&, double, double, bool);

}  // namespace perksolve::cuda_detail
