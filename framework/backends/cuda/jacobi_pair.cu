// Instantiations of the pair kernel (jacobi_pair.cuh): the 3D 7-point star, from x, from x with b . out, from zero,
// and from zero with the residual, fp32 and fp64 (8 kernels). Other shapes run their sweeps one by one
// (CudaBackend::jacobi_pair_supported).
#include "framework/backends/cuda/jacobi_pair.cuh"

#include <stdexcept>

namespace perksolve::cuda_detail {

namespace {
constexpr ShapeSpec k7{3, ShapeKind::star, 1};
}

template <class Real>
bool jacobi_pair_available(const ShapeSpec& s, const FieldLayout& l) {
  return s == k7 && jacobi_pair_layout_fits<Real>(l, k7.radius);
}

template <class Real>
long launch_jacobi_pair(const StencilRequest<Real>& r, Real s1, Real s2, bool zero, Real* residual, double* dot) {
  if (!jacobi_pair_available<Real>(r.stencil->shape, r.layout))
    throw std::logic_error("jacobi_update_pair: no pair kernel for this shape and layout");
  // Steps per block barrier: two from x, one from zero (H200, benchmarks/results/gpu-h200-2026-11-26-pair-columns/run2:
  // from x two steps took 96 / 172 us against 104 / 178 us at 255^3 in fp32 / fp64; from zero 75 / 98 us against
  // 73 / 93 us, the deeper ring costing the fp64 kernel a block per SM).
  if (residual && !zero) throw std::logic_error("jacobi_pair_residual: from zero only");
  if (dot && zero) throw std::logic_error("jacobi_update_pair_dot: from x only");
  if (residual)  // two steps per barrier, as from x (the same x path)
    return launch_jacobi_pair_shape<Real, k7, false, 2, true>(r, s1, s2, residual);
  if (zero) return launch_jacobi_pair_shape<Real, k7, true, 1>(r, s1, s2);
  if (dot) return launch_jacobi_pair_shape<Real, k7, false, 2, false, true>(r, s1, s2, nullptr, dot);
  return launch_jacobi_pair_shape<Real, k7, false, 2>(r, s1, s2);
}

template bool jacobi_pair_available<float>(const ShapeSpec&, const FieldLayout&);
template bool jacobi_pair_available<double>(const ShapeSpec&, const FieldLayout&);
template long launch_jacobi_pair<float>(const StencilRequest<float>&, float, float, bool, float*, double*);
template long launch_jacobi_pair<double>(const StencilRequest<double>&, double, double, bool, double*, double*);

}  // namespace perksolve::cuda_detail
