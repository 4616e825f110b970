// Native CUDA solver kernels (issue 5): fused CG update, dot2, diagonal scaling, variable-coefficient
// stencils, red-black Gauss-Seidel colours and the multigrid transfers. Semantics (and the order of
// the floating-point operations per cell) follow the reference Kokkos backend
// (framework/backends/kokkos/kokkos_backend.cpp); reductions accumulate in double per thread, then
// per block, then over blocks in a fixed order (CudaBackend::finish_partials), then MPI.
//
// Compile-time budget: every kernel is instantiated for float and double only (~20 small kernels).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "framework/backends/cuda/cuda_ops.cuh"
#include "framework/backends/cuda/grid_point_ops.cuh"
#include "framework/backends/cuda/persistent_program.cuh"

namespace perksolve {

using cuda_detail::kMaxPartials;
using cuda_detail::pdl_enter;
using cuda_detail::pdl_launch;
using namespace cuda_ops;

namespace {

// ---- BLAS-1 style -------------------------------------------------------------------------------------
// Point-wise kernels walk the owned rows (cuda_ops::for_owned_row_batches): per batch, every operand of U cells
// is loaded before anything is stored.
template <class Real>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    cg_update_kernel(Real alpha, const Real* __restrict__ p, const Real* __restrict__ q, Real* __restrict__ x,
                     Real* __restrict__ r, OwnedRows m, double* partials) {
  constexpr int U = row_batch<Real>() / 2;  // four operands: 16 bytes of each per lane (fp64 spilled with 32)
  double acc = 0.0;
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[4][U];  // p, q, x, r
    load_row_cells<U>(n, batch, v, {p, q, x, r});
    for_live_cells<U>(n, batch, [&](int u, long e) {
      x[e] = v[2][u] + alpha * v[0][u];
      const Real rn = v[3][u] - alpha * v[1][u];
      r[e] = rn;
      acc += static_cast<double>(rn) * static_cast<double>(rn);
    });
  });
  const double s = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// x += alpha p, then p = z + beta p: the values of axpby(alpha, p, 1, x) followed by axpby(1, z, beta, p). ZReal: z's
// precision (cg_advance_mixed: the other one, widened or rounded exactly as convert would).
template <class Real, class ZReal>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    cg_advance_kernel(Real alpha, Real beta, const ZReal* __restrict__ z, Real* __restrict__ p,
                      Real* __restrict__ x, OwnedRows m) {
  pdl_enter();
  constexpr int U = row_batch<Real>();
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[2][U];  // p, x
    ZReal w[1][U];  // z
    load_row_cells<U>(n, batch, w, {z});
    load_row_cells<U>(n, batch, v, {p, x});
    for_live_cells<U>(n, batch, [&](int u, long e) {
      x[e] = axpby_value(alpha, v[0][u], Real(1), v[1][u]);
      p[e] = axpby_value(Real(1), static_cast<Real>(w[0][u]), beta, v[0][u]);
    });
  });
}

template <class Dst, class Src>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    convert_kernel(const Src* __restrict__ src, Dst* __restrict__ dst, OwnedRows m) {
  constexpr int U = row_batch<Dst>();
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Src v[1][U];
    load_row_cells<U>(n, batch, v, {src});
    for_live_cells<U>(n, batch, [&](int u, long e) { dst[e] = static_cast<Dst>(v[0][u]); });
  });
}

// YReal: y's precision (dot2_mixed: the other one; the same products, in the same order, as dot2 after convert(y)).
template <class Real, class YReal>
__global__ void __launch_bounds__(kThreads, cuda_ops::kRowBlocksPerSm)
    dot2_kernel(const Real* __restrict__ x, const YReal* __restrict__ y, const Real* __restrict__ u_,
                const Real* __restrict__ v_, OwnedRows m, double* partials) {
  constexpr int U = row_batch<Real>() / 2;  // four operands: 16 bytes of each per lane (fp64 spilled with 32)
  double a0 = 0.0, a1 = 0.0;
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[3][U];  // x, u, v
    YReal w[1][U];  // y
    load_row_cells<U>(n, batch, v, {x, u_, v_});
    load_row_cells<U>(n, batch, w, {y});
    for_live_cells<U>(n, batch, [&](int u, long) {
      a0 += static_cast<double>(v[0][u]) * static_cast<double>(static_cast<Real>(w[0][u]));
      a1 += static_cast<double>(v[1][u]) * static_cast<double>(v[2][u]);
    });
  });
  const double s0 = block_sum(a0);
  const double s1 = block_sum(a1);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s0;
    partials[kMaxPartials / 2 + blockIdx.x] = s1;
  }
}

// y = a r / d + b y; ADD == false: y is not read (it may hold garbage).
template <class Real, bool ADD>
__global__ void __launch_bounds__(kThreads, kRowBlocksPerSm) diag_scale_kernel(Real a, const Real* __restrict__ r, const Real* __restrict__ d,
                                                              Real b, Real* __restrict__ y, OwnedRows m) {
  constexpr int U = row_batch<Real>();
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int, int, int) {
    Real v[ADD ? 3 : 2][U];  // r, d (, y)
    if constexpr (ADD)
      load_row_cells<U>(n, batch, v, {r, d, y});
    else
      load_row_cells<U>(n, batch, v, {r, d});
    for_live_cells<U>(n, batch, [&](int u, long e) {
      if constexpr (ADD)
        y[e] = a * v[0][u] / v[1][u] + b * v[2][u];
      else
        y[e] = a * v[0][u] / v[1][u];
    });
  });
}

template <class Real>
__global__ void gather_coeff_kernel(const Real* __restrict__ c, long base, Real* __restrict__ d, long total, OwnedMap m) {
  for (long e = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<long>(gridDim.x) * blockDim.x) {
    const long n = m(e);
    d[n] = c[base + n];
  }
}

// ---- variable-coefficient stencils and Gauss-Seidel ------------------------------------------------
constexpr int kMaxVarPoints = 128;  // a 3D box of radius 2 has 125 points
template <class Real>
struct VarStencil {
  int np = 0;
  int centre = 0;
  long off[kMaxVarPoints];
  Real cf[8];  // constant coefficients (Gauss-Seidel with a constant stencil: <= 7 points)
};

template <class Real>
VarStencil<Real> make_var_stencil(const Stencil& s, const FieldLayout& l, bool with_coeffs) {
  if (s.size() > kMaxVarPoints)
    throw std::logic_error("cuda backend: stencil '" + s.name + "' has more than " + std::to_string(kMaxVarPoints) +
                           " points (variable-coefficient kernels)");
  VarStencil<Real> v{};
  v.np = s.size();
  for (int p = 0; p < v.np; ++p) {
    const Offset o = s.offsets[p];
    const int d[3] = {o.dx, o.dy, o.dz};
    for (int a = 0; a < 3; ++a)
      if (std::abs(d[a]) > l.ghost[a])
        throw std::logic_error("stencil '" + s.name + "' reaches " + std::to_string(std::abs(d[a])) +
                               " cells along axis " + std::to_string(a) + " but the field has ghost width " +
                               std::to_string(l.ghost[a]));
    v.off[p] = o.dx + o.dy * l.stride_y() + o.dz * l.stride_z();
  }
  if (with_coeffs) {
    if (v.np > 8) throw std::logic_error("cuda backend: constant Gauss-Seidel stencil with more than 8 points");
    for (int p = 0; p < v.np; ++p) v.cf[p] = static_cast<Real>(s.coeffs[p]);
  }
  return v;
}

// out = sum_p c[n + p L] in[n + off_p] (RESIDUAL: out = b - that). Rows of the owned box along grid.y.
template <class Real, bool RESIDUAL>
__global__ void stencil_var_kernel(const VarStencil<Real> st, const Real* __restrict__ c, const Real* __restrict__ b,
                                   const Real* __restrict__ x, Real* __restrict__ out, FieldLayout l, long L) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= l.n[0]) return;
  const long rows = static_cast<long>(l.n[1]) * l.n[2];
  for (long row = blockIdx.y; row < rows; row += gridDim.y) {
    const int j = static_cast<int>(row % l.n[1]);
    const int k = static_cast<int>(row / l.n[1]);
    const long n = l.index(i, j, k);
    Real acc = 0;
    for (int p = 0; p < st.np; ++p) acc += c[n + p * L] * x[n + st.off[p]];
    if constexpr (RESIDUAL)
      out[n] = b[n] - acc;
    else
      out[n] = acc;
  }
}

// One colour of red-black Gauss-Seidel: thread t of a row updates i = i0 + 2 t, the cells of colour `want`.
template <class Real, bool VAR>
__global__ void gs_color_kernel(const VarStencil<Real> st, const Real* __restrict__ c, const Real* __restrict__ b,
                                Real* __restrict__ x, FieldLayout l, long L, int want) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const long rows = static_cast<long>(l.n[1]) * l.n[2];
  for (long row = blockIdx.y; row < rows; row += gridDim.y) {
    const int j = static_cast<int>(row % l.n[1]);
    const int k = static_cast<int>(row / l.n[1]);
    const int i = ((want - ((j + k) & 1)) & 1) + 2 * t;
    if (i >= l.n[0]) continue;
    const long n = l.index(i, j, k);
    Real ax = 0;
    for (int p = 0; p < st.np; ++p) ax += (VAR ? c[n + p * L] : st.cf[p]) * x[n + st.off[p]];
    const Real diag = VAR ? c[n + st.centre * L] : st.cf[st.centre];
    x[n] += (b[n] - ax) / diag;
  }
}

// ---- multigrid transfers (per-cell bodies in grid_point_ops.cuh) -------------------------------------
// Restriction walked by coarse owned rows (cuda_ops::for_owned_row_batches): U coarse cells per lane, all their fine
// loads (27 / 64 per cell in 3D, unrolled at compile time in grid_point_ops.cuh) in flight before the stores.
template <class Real, bool VERTEX>
__global__ void __launch_bounds__(kThreads, kRowBlocksPerSm)
    restrict_kernel(const Real* __restrict__ fv, Real* __restrict__ cv, TransferArgs a, OwnedRows m) {
  pdl_enter();
  constexpr int U = 2;
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int i0, int j, int k) {
    Real v[U];
    for_live_cells<U>(n, batch, [&](int u, long) {
      const int i = i0 + batch.offset(u);
      v[u] = VERTEX ? restrict_fw_point(fv, a, i, j, k) : restrict_cc_point(fv, a, i, j, k);
    });
    for_live_cells<U>(n, batch, [&](int u, long e) { cv[e] = v[u]; });
  });
}

// fine += P coarse, walked by fine owned rows. Along y and z the coarse support is the same for the whole fine row
// (transfer_rule::interpolation_row), so it and its coarse row pointers are found once per batch; each cell only
// finds its x support, in transfer_rule::interpolate_in_row, the arithmetic of the per-cell form (prolongate_point,
// the persistent programs' and the Kokkos backend's), so the bits are the same. A batch gathers the coarse values of
// U fine cells per lane (coarse rows that L1 / L2 keep for the neighbouring fine rows) and loads the fine values
// before any store.
template <class Real>
__global__ void __launch_bounds__(kThreads, kRowBlocksPerSm)
    prolongate_kernel(const Real* __restrict__ cv, Real* __restrict__ fv, TransferArgs a, bool vertex, OwnedRows m) {
  pdl_enter();
  constexpr int U = 4;  // up to 8 coarse gathers per cell: 4 cells per lane fit the 64 registers in both precisions
  for_owned_row_batches<U>(m, [&](long n, RowBatch batch, int i0, int j, int k) {
    const transfer_rule::InterpolationRow<Real> s = transfer_rule::interpolation_row<Real>(vertex, j - a.s1, k - a.s2,
                                                                                         a.rz != 0);
    const Real* rows[2][2];
#pragma unroll
    for (int cz = 0; cz < 2; ++cz)
#pragma unroll
      for (int cy = 0; cy < 2; ++cy) rows[cz][cy] = cv + a.lc.index(0, s.iy[cy], s.iz[cz]);
    const auto row_at = [&](int ix, int cy, int cz) { return rows[cz][cy][ix]; };
    Real pv[U], fvv[U];
    for_live_cells<U>(n, batch, [&](int u, long e) {
      pv[u] = transfer_rule::interpolate_in_row<Real>(row_at, s, vertex, i0 + batch.offset(u) - a.s0);
      fvv[u] = fv[e];
    });
    for_live_cells<U>(n, batch, [&](int u, long e) { fv[e] = fvv[u] + pv[u]; });
  });
}

// fine += P coarse on rows whose owned part starts on a 16-byte boundary (FieldLayout::align): each lane takes runs of
// G contiguous fine cells (32 bytes), loaded and stored as 16-byte vectors, and reads each coarse value of a support
// row once per run (transfer_rule::interpolate_run: in 3D vertex-centred, 3 coarse columns per support row for 4 fp64
// or 5 for 8 fp32 cells, instead of up to 8 gathers per cell). The per-cell sums are interpolate_in_row's, so the bits
// are prolongate_kernel's. At 255^3 on an H200: 47.8 / 76.4 us against 110.7 / 125.4 us in fp32 / fp64
// (benchmarks/results/gpu-h200-2026-11-26-prolongation-runs/run1).
template <class Real, bool VERTEX>
__global__ void __launch_bounds__(kThreads, kRowBlocksPerSm)
    prolongate_run_kernel(const Real* __restrict__ cv, Real* __restrict__ fv, TransferArgs a, OwnedRows m) {
  pdl_enter();
  constexpr int G = row_batch<Real>();
  constexpr int VW = 16 / static_cast<int>(sizeof(Real));  // cells per 16-byte vector
  using Vec = cuda_detail::VecOf<Real, VW>;
  const long csy = a.lc.stride_y(), csz = a.lc.stride_z();
  for_owned_row_runs<G>(m, [&](long n, int live, int i0, int j, int k) {
    const transfer_rule::InterpolationRow<Real> s = transfer_rule::interpolation_row<Real>(VERTEX, j - a.s1, k - a.s2,
                                                                                         a.rz != 0);
    const int t0 = i0 - a.s0;
    const Real* const c0 = cv + a.lc.index((t0 >> 1) - 1, 0, 0);
    const auto row_at = [&](int c, int cy, int cz) { return c0[c + s.iy[cy] * csy + s.iz[cz] * csz]; };
    Real* const f = fv + n;
    Real fvv[G], pv[G];
    if (live == G) {
#pragma unroll
      for (int q = 0; q < G / VW; ++q) cuda_detail::vec_to_array(reinterpret_cast<const Vec*>(f)[q], fvv + q * VW);
    } else {
#pragma unroll
      for (int g = 0; g < G; ++g) fvv[g] = g < live ? f[g] : Real(0);
    }
    if (t0 & 1)
      transfer_rule::interpolate_run<Real, G, 1, VERTEX>(row_at, s, pv);
    else
      transfer_rule::interpolate_run<Real, G, 0, VERTEX>(row_at, s, pv);
#pragma unroll
    for (int g = 0; g < G; ++g) fvv[g] = fvv[g] + pv[g];
    if (live == G) {
#pragma unroll
      for (int q = 0; q < G / VW; ++q) {
        Real w[VW];
#pragma unroll
        for (int e = 0; e < VW; ++e) w[e] = fvv[q * VW + e];
        cuda_detail::store_vec<VW>(f + q * VW, w);
      }
    } else {
#pragma unroll
      for (int g = 0; g < G; ++g)
        if (g < live) f[g] = fvv[g];
    }
  });
}

// Whether prolongate_run_kernel can walk a fine layout: owned rows (x = 0) and row strides on 16-byte boundaries.
template <class Real>
bool prolongate_runs_fit(const FieldLayout& lf) {
  return (lf.align * static_cast<int>(sizeof(Real))) % 16 == 0;
}

// The operations shared by the same-precision members and their mixed-precision partners (Backend::*_mixed), with
// their layout checks (op names the member in the messages).
template <class Real, class ZReal>
void launch_cg_advance(Real alpha, Real beta, const Field<ZReal>& z, Field<Real>& p, Field<Real>& x, int sms,
                       cudaStream_t stream, const char* op) {
  require_same_layout(z.layout(), p.layout(), op);
  require_same_layout(z.layout(), x.layout(), op);
  const FieldLayout& l = z.layout();
  if (l.owned_size() <= 0) return;
  const OwnedRows m = owned_rows(l);
  pdl_launch(cg_advance_kernel<Real, ZReal>, dim3(rows_grid(m, sms)), dim3(kThreads), 0, stream, alpha, beta,
             as_cuda(z).data(), as_cuda(p).data(), as_cuda(x).data(), m);
}
// Returns the number of blocks whose partial sums it wrote (CudaBackend::finish_partials2).
template <class Real, class YReal>
int launch_dot2(const Field<Real>& x, const Field<YReal>& y, const Field<Real>& u, const Field<Real>& v,
                double* partials, int sms, cudaStream_t stream, const char* op) {
  require_same_layout(x.layout(), y.layout(), op);
  require_same_layout(x.layout(), u.layout(), op);
  require_same_layout(x.layout(), v.layout(), op);
  const FieldLayout& l = x.layout();
  if (l.owned_size() <= 0) return 0;
  const OwnedRows m = owned_rows(l);
  const int blocks = std::min(rows_grid(m, sms), kMaxPartials / 2);
  dot2_kernel<Real, YReal><<<blocks, kThreads, 0, stream>>>(as_cuda(x).data(), as_cuda(y).data(), as_cuda(u).data(),
                                                             as_cuda(v).data(), m, partials);
  PERKSOLVE_CUDA_CHECK_LAUNCH("dot2_kernel");
  return blocks;
}

void require_coeffs(const FieldLayout& coeffs, const FieldLayout& l, int points, const char* op) {
  if (coeffs.n[0] != l.size() || coeffs.n[1] != points)
    throw std::logic_error(std::string("cuda backend: coefficient field of the wrong shape passed to ") + op);
}

}  // namespace

// ---- CudaBackend members ------------------------------------------------------------------------------
template <class Real>
double CudaBackend<Real>::cg_update(Real alpha, const Field<Real>& p, const Field<Real>& q, Field<Real>& x,
                                    Field<Real>& r) {
  require_same_layout(p.layout(), q.layout(), "cg_update");
  require_same_layout(p.layout(), x.layout(), "cg_update");
  require_same_layout(p.layout(), r.layout(), "cg_update");
  const FieldLayout& l = p.layout();
  const long total = l.owned_size();
  int blocks = 0;
  if (total > 0) {
    const OwnedRows m = owned_rows(l);
    blocks = std::min(rows_grid(m, sm_count_), kMaxPartials / 2);
    cg_update_kernel<Real><<<blocks, kThreads, 0, stream_>>>(alpha, as_cuda(p).data(), as_cuda(q).data(),
                                                             as_cuda(x).data(), as_cuda(r).data(), m, partials_);
    PERKSOLVE_CUDA_CHECK_LAUNCH("cg_update_kernel");
  }
  return this->allreduce_sum(finish_partials(blocks));
}

template <class Real>
void CudaBackend<Real>::cg_advance(Real alpha, Real beta, const Field<Real>& z, Field<Real>& p, Field<Real>& x) {
  launch_cg_advance(alpha, beta, z, p, x, sm_count_, stream_, "cg_advance");
}

template <class Real>
void CudaBackend<Real>::cg_advance_mixed(Real alpha, Real beta, const Field<OtherReal<Real>>& z, Field<Real>& p,
                                         Field<Real>& x) {
  launch_cg_advance(alpha, beta, z, p, x, sm_count_, stream_, "cg_advance_mixed");
}

template <class Real>
void CudaBackend<Real>::axpby_mixed(Real a, const Field<Real>& x, Real b, Field<Real>& y,
                                    Field<OtherReal<Real>>& y_other) {
  require_same_layout(x.layout(), y.layout(), "axpby_mixed");
  require_same_layout(x.layout(), y_other.layout(), "axpby_mixed");
  launch_axpby_rows<true, false>(a, x, b, y, &y_other, nullptr, sm_count_, stream_);
}

template <class Real>
void CudaBackend<Real>::axpby_mixed_norm_later(Real a, const Field<Real>& x, Real b, Field<Real>& y,
                                               Field<OtherReal<Real>>& y_other, int slot) {
  require_same_layout(x.layout(), y.layout(), "axpby_mixed_norm_later");
  require_same_layout(x.layout(), y_other.layout(), "axpby_mixed_norm_later");
  this->check_sum_slot(slot);
  finish_partials_later(launch_axpby_rows<true, true>(a, x, b, y, &y_other, partials_, sm_count_, stream_), slot);
}

template <class Real>
void CudaBackend<Real>::convert(const Field<OtherReal<Real>>& src, Field<Real>& dst) {
  require_same_layout(src.layout(), dst.layout(), "convert");
  const FieldLayout& l = dst.layout();
  const long total = l.owned_size();
  if (total <= 0) return;
  const OwnedRows m = owned_rows(l);
  convert_kernel<Real, OtherReal<Real>><<<rows_grid(m, sm_count_), kThreads, 0, stream_>>>(as_cuda(src).data(),
                                                                                           as_cuda(dst).data(), m);
  PERKSOLVE_CUDA_CHECK_LAUNCH("convert_kernel");
}

template <class Real>
std::array<double, 2> CudaBackend<Real>::dot2(const Field<Real>& x, const Field<Real>& y, const Field<Real>& u,
                                              const Field<Real>& v) {
  return allreduce_pair(finish_partials2(launch_dot2(x, y, u, v, partials_, sm_count_, stream_, "dot2")));
}

template <class Real>
std::array<double, 2> CudaBackend<Real>::dot2_mixed(const Field<Real>& x, const Field<OtherReal<Real>>& y,
                                                    const Field<Real>& u, const Field<Real>& v) {
  return allreduce_pair(finish_partials2(launch_dot2(x, y, u, v, partials_, sm_count_, stream_, "dot2_mixed")));
}

// One MPI reduction for both sums (as the Kokkos backend).
template <class Real>
std::array<double, 2> CudaBackend<Real>::allreduce_pair(const std::array<double, 2>& local) const {
  double global[2] = {0.0, 0.0};
  MPI_Allreduce(local.data(), global, 2, MPI_DOUBLE, MPI_SUM, this->comm());
  return {global[0], global[1]};
}

template <class Real>
void CudaBackend<Real>::diag_scale_add(Real a, const Field<Real>& r, const Field<Real>& d, Real b, Field<Real>& y) {
  require_same_layout(r.layout(), d.layout(), "diag_scale_add");
  require_same_layout(r.layout(), y.layout(), "diag_scale_add");
  const FieldLayout& l = r.layout();
  const long total = l.owned_size();
  if (total <= 0) return;
  const OwnedRows m = owned_rows(l);
  const int blocks = rows_grid(m, sm_count_);
  if (b == Real(0))
    diag_scale_kernel<Real, false><<<blocks, kThreads, 0, stream_>>>(a, as_cuda(r).data(), as_cuda(d).data(), b,
                                                                     as_cuda(y).data(), m);
  else
    diag_scale_kernel<Real, true><<<blocks, kThreads, 0, stream_>>>(a, as_cuda(r).data(), as_cuda(d).data(), b,
                                                                    as_cuda(y).data(), m);
  PERKSOLVE_CUDA_CHECK_LAUNCH("diag_scale_kernel");
}

template <class Real>
void CudaBackend<Real>::apply_stencil_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& in,
                                          Field<Real>& out) {
  require_same_layout(in.layout(), out.layout(), "apply_stencil_var");
  const FieldLayout& l = in.layout();
  require_coeffs(coeffs.layout(), l, shape.size(), "apply_stencil_var");
  const VarStencil<Real> st = make_var_stencil<Real>(shape, l, false);
  if (l.owned_size() <= 0) return;
  const RowLaunch rl = row_launch(l);
  stencil_var_kernel<Real, false><<<rl.grid, rl.block, 0, stream_>>>(st, as_cuda(coeffs).data(), nullptr,
                                                                     as_cuda(in).data(), as_cuda(out).data(), l, l.size());
  PERKSOLVE_CUDA_CHECK_LAUNCH("stencil_var_kernel");
}

template <class Real>
void CudaBackend<Real>::residual_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& b,
                                     const Field<Real>& x, Field<Real>& r) {
  require_same_layout(b.layout(), x.layout(), "residual_var");
  require_same_layout(x.layout(), r.layout(), "residual_var");
  const FieldLayout& l = x.layout();
  require_coeffs(coeffs.layout(), l, shape.size(), "residual_var");
  const VarStencil<Real> st = make_var_stencil<Real>(shape, l, false);
  if (l.owned_size() <= 0) return;
  const RowLaunch rl = row_launch(l);
  stencil_var_kernel<Real, true><<<rl.grid, rl.block, 0, stream_>>>(st, as_cuda(coeffs).data(), as_cuda(b).data(),
                                                                    as_cuda(x).data(), as_cuda(r).data(), l, l.size());
  PERKSOLVE_CUDA_CHECK_LAUNCH("stencil_var_kernel");
}

template <class Real>
void CudaBackend<Real>::stencil_coefficient(const Field<Real>& coeffs, int point, Field<Real>& d) {
  const FieldLayout& l = d.layout();
  if (coeffs.layout().n[0] != l.size() || point < 0 || point >= coeffs.layout().n[1])
    throw std::logic_error("cuda backend: stencil_coefficient: coefficient field does not match");
  const long total = l.owned_size();
  if (total <= 0) return;
  gather_coeff_kernel<Real><<<grid_for(total, sm_count_), kThreads, 0, stream_>>>(
      as_cuda(coeffs).data(), static_cast<long>(point) * l.size(), as_cuda(d).data(), total, owned_map(l));
  PERKSOLVE_CUDA_CHECK_LAUNCH("gather_coeff_kernel");
}

template <class Real>
void CudaBackend<Real>::gs_color_sweep(const Stencil& A, const Field<Real>* coeffs, const Field<Real>& b,
                                       Field<Real>& x, int color, long parity) {
  if (A.shape.kind != ShapeKind::star || A.radius() != 1)
    throw std::invalid_argument("red-black Gauss-Seidel needs a star stencil of radius 1 (5-/7-point); operator '" +
                                A.name + "' couples cells of the same colour");
  require_same_layout(b.layout(), x.layout(), "gs_color_sweep");
  const FieldLayout& l = x.layout();
  const bool var = coeffs != nullptr;
  if (var) require_coeffs(coeffs->layout(), l, A.size(), "gs_color_sweep");
  VarStencil<Real> st = make_var_stencil<Real>(A, l, !var);
  st.centre = A.center_index();
  const int want = static_cast<int>(((color + parity) % 2 + 2) % 2);
  if (l.owned_size() <= 0) return;
  RowLaunch rl = row_launch(l);
  rl.grid.x = static_cast<unsigned>(((l.n[0] + 1) / 2 + kRowThreads - 1) / kRowThreads);
  if (var)
    gs_color_kernel<Real, true><<<rl.grid, rl.block, 0, stream_>>>(st, as_cuda(*coeffs).data(), as_cuda(b).data(),
                                                                   as_cuda(x).data(), l, l.size(), want);
  else
    gs_color_kernel<Real, false><<<rl.grid, rl.block, 0, stream_>>>(st, nullptr, as_cuda(b).data(), as_cuda(x).data(),
                                                                    l, l.size(), want);
  PERKSOLVE_CUDA_CHECK_LAUNCH("gs_color_kernel");
}

template <class Real>
void CudaBackend<Real>::restrict_to_coarse(const TransferMap& m, const Field<Real>& fine, Field<Real>& coarse) {
  TransferArgs a{fine.layout(), coarse.layout(), m.shift[0], m.shift[1], m.shift[2], m.dim == 3 ? 1 : 0};
  if (a.lc.owned_size() <= 0) return;
  if (builder_) {
    ProgramOp<Real> op;
    op.kind = m.centering == Centering::vertex ? ProgramOpKind::restrict_fw : ProgramOpKind::restrict_cc;
    op.out = as_cuda(coarse).data();
    op.in = as_cuda(fine).data();
    op.t = a;
    op.map = owned_map(a.lc);
    builder_->ops.push_back(op);
    return;
  }
  const OwnedRows rows = owned_rows(a.lc);
  const Real* const f = as_cuda(fine).data();
  Real* const c = as_cuda(coarse).data();
  pdl_launch(m.centering == Centering::vertex ? restrict_kernel<Real, true> : restrict_kernel<Real, false>,
             dim3(rows_grid(rows, sm_count_)), dim3(kThreads), 0, stream_, f, c, a, rows);
}

template <class Real>
void CudaBackend<Real>::prolongate_add(const TransferMap& m, const Field<Real>& coarse, Field<Real>& fine) {
  TransferArgs a{fine.layout(), coarse.layout(), m.shift[0], m.shift[1], m.shift[2], m.dim == 3 ? 1 : 0};
  if (a.lf.owned_size() <= 0) return;
  if (builder_) {
    ProgramOp<Real> op;
    op.kind = ProgramOpKind::prolongate;
    op.out = as_cuda(fine).data();
    op.in = as_cuda(coarse).data();
    op.t = a;
    op.vertex = m.centering == Centering::vertex;
    op.map = owned_map(a.lf);
    builder_->ops.push_back(op);
    return;
  }
  const OwnedRows rows = owned_rows(a.lf);
  const bool vertex = m.centering == Centering::vertex;
  const Real* const c = as_cuda(coarse).data();
  Real* const f = as_cuda(fine).data();
  const dim3 grid(rows_grid(rows, sm_count_)), block(kThreads);
  if (prolongate_runs_fit<Real>(a.lf))  // else rows packed back to back: cell by cell
    pdl_launch(vertex ? prolongate_run_kernel<Real, true> : prolongate_run_kernel<Real, false>, grid, block, 0,
               stream_, c, f, a, rows);
  else
    pdl_launch(prolongate_kernel<Real>, grid, block, 0, stream_, c, f, a, vertex, rows);
}

#define PERKSOLVE_CUDA_SOLVER_OPS(R)                                                                               \
  template double CudaBackend<R>::cg_update(R, const Field<R>&, const Field<R>&, Field<R>&, Field<R>&);            \
  template void CudaBackend<R>::cg_advance(R, R, const Field<R>&, Field<R>&, Field<R>&);                         \
  template void CudaBackend<R>::convert(const Field<OtherReal<R>>&, Field<R>&);                                   \
  template void CudaBackend<R>::cg_advance_mixed(R, R, const Field<OtherReal<R>>&, Field<R>&, Field<R>&);         \
  template void CudaBackend<R>::axpby_mixed(R, const Field<R>&, R, Field<R>&, Field<OtherReal<R>>&);              \
  template void CudaBackend<R>::axpby_mixed_norm_later(R, const Field<R>&, R, Field<R>&, Field<OtherReal<R>>&, int); \
  template std::array<double, 2> CudaBackend<R>::dot2_mixed(const Field<R>&, const Field<OtherReal<R>>&,           \
                                                            const Field<R>&, const Field<R>&);                     \
  template std::array<double, 2> CudaBackend<R>::allreduce_pair(const std::array<double, 2>&) const;              \
  template std::array<double, 2> CudaBackend<R>::dot2(const Field<R>&, const Field<R>&, const Field<R>&,           \
                                                      const Field<R>&);                                            \
  template void CudaBackend<R>::diag_scale_add(R, const Field<R>&, const Field<R>&, R, Field<R>&);                 \
  template void CudaBackend<R>::apply_stencil_var(const Stencil&, const Field<R>&, const Field<R>&, Field<R>&);    \
  template void CudaBackend<R>::residual_var(const Stencil&, const Field<R>&, const Field<R>&, const Field<R>&,    \
                                             Field<R>&);                                                           \
  template void CudaBackend<R>::stencil_coefficient(const Field<R>&, int, Field<R>&);                              \
  template void CudaBackend<R>::gs_color_sweep(const Stencil&, const Field<R>*, const Field<R>&, Field<R>&, int,   \
                                               long);                                                              \
  template void CudaBackend<R>::restrict_to_coarse(const TransferMap&, const Field<R>&, Field<R>&);                \
  template void CudaBackend<R>::prolongate_add(const TransferMap&, const Field<R>&, Field<R>&);

PERKSOLVE_CUDA_SOLVER_OPS(float)
PERKSOLVE_CUDA_SOLVER_OPS(double)

}  // namespace perksolve
