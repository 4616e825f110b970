// The request and outcome of a matrix-free persistent CG launch (persistent_stencil_cg.cu), which the CUDA
// backend (cuda_backend.cu) fills from PersistentCgRequest. Include only from .cu files.
#pragma once

#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/grid_point_ops.cuh"
#include "framework/backends/cuda/loop_stop.cuh"
#include "framework/backends/cuda/perks_model.hpp"

namespace perksolve::cuda_detail {

template <class Real>
struct StencilCgRequest {
  // stencil, layout, x = p's allocation base, out = q's, partials (2 halves: p.q and r.r), work counters,
  // sm_count, stream
  StencilRequest<Real> base;
  Real* x = nullptr;  // allocation bases of the CG vectors (same layout)
  Real* r = nullptr;
  cuda_ops::FaceSet<Real> faces{};  // homogeneous rules: p's boundary ghosts
  long iterations = 0, first = 0;
  double rr = 0.0;
  LoopStop stop;
  long cache_bytes = -1;  // shared memory per block for r and x; -1: all that is left
  int max_blocks = 0;     // 0: what the per-sweep decomposition takes within the occupancy
  double* result_dev = nullptr;   // 4 doubles: iterations, stop (0 budget, 1 threshold, 2 breakdown), r.r, p.q
  double* history_dev = nullptr;  // `iterations` doubles: r.r after each iteration
  PerksDeviceModel device{};      // shared memory per SM / per block
};

struct StencilCgLaunch {
  bool launched = false;
  int blocks = 0, threads = 0;
  double cached_r = 0.0, cached_x = 0.0;  // share of the cells whose r / x stay in shared memory
};

// Defined in persistent_stencil_cg.cu for the compiled CG shapes; launched = false for the others.
template <class Real>
StencilCgLaunch launch_templated_stencil_cg(const StencilCgRequest<Real>& q);

}  // namespace perksolve::cuda_detail
