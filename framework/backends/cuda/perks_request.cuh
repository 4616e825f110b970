// The request and outcome of a PERKS stencil iteration (perks_stencil.cuh), and the per-(dimension,
// precision) dispatchers the stencil translation units define. Include only from .cu files.
#pragma once

#include "framework/backend/perks_kernel.hpp"
#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/grid_point_ops.cuh"
#include "framework/backends/cuda/loop_stop.cuh"
#include "framework/backends/cuda/perks_model.hpp"

namespace perksolve::cuda_detail {

// The resident kernel's sync between sweeps without a device-wide barrier (perks_wait_neighbours). A block
// announces each sweep it has completed in its flag, epoch << 32 | sweeps completed; `epoch` counts the launches
// that used the flags (the last block of a launch to finish advances it, perks_sweep_flags_done), so a launch never
// needs the flags cleared. One backend's launches are ordered on its stream, so they never share the flags at once.
inline constexpr int kPerksFlagStride = 16;  // unsigned long longs from one block's flag to the next's
struct PerksSweepFlags {
  unsigned long long* flag = nullptr;  // block b's at flag[b kPerksFlagStride]; null: a device-wide barrier per sweep
  unsigned* epoch = nullptr;           // [0] launches completed, [1] blocks of this launch that finished
  int reach_s = 1;                     // chunks whose bricks a brick's halo (or its ghosts' sources) may reach
};

// A PERKS launch. `x` holds the first iterate (ghosts up to date), `y` is the second buffer; the result is
// in x when `sweeps done` (PerksOutcome::sweeps) is even, else in y.
template <class Real>
struct PerksRequest {
  StencilRequest<Real> base;  // stencil, layout, x (first iterate), b (Jacobi), scale, symmetric, partials, sm_count, stream
  Real* y = nullptr;
  cuda_ops::FaceSet<Real> faces{};
  long sweeps = 0, first = 0;
  LoopStop stop;  // Jacobi: the solver's thresholds
  double* result_dev = nullptr;  // 3 doubles
  double* history_dev = nullptr; // Jacobi: `sweeps` doubles, the rr of each sweep's input (null: not kept)
  long cache_bytes = -1;         // shared memory for the cache per block; -1: all that is left
  int max_blocks = 0;            // 0: as many as the concurrency model's blocks per SM allow
  PerksDeviceModel device{};     // the concurrency model's device (CudaBackend queries it once)
  PerksKernel kernel = PerksKernel::automatic;
  bool rhs_on_chip = true;       // Jacobi, resident kernel: b on chip where it fits beside the iterate
  // The face chunks shorter: pipelined kernel, per-item ghost fill: they share the slack (plan_stream_lead); resident
  // kernel: by their face work (plan_brick_face_lead).
  bool chunk_lead = true;
  bool static_balance = true;    // pipelined kernel, static items with the per-item fill: balance_static_blocks
  bool resident_two_blocks = true;  // resident kernel: two blocks per SM where resident_two_blocks_per_sm says so
  unsigned long long* timing_dev = nullptr;  // PERKSOLVE_PERKS_TRACE (perks_trace.hpp): the stamps; null: not traced
  PerksSweepFlags sweep_flags{};  // resident kernel: flags for sync with the neighbouring bricks (flag null: not)
  long sweep_flag_count = 0;      // ... for at most this many blocks
};
struct PerksLaunch {
  bool launched = false;
  PerksKernel kernel = PerksKernel::automatic;  // the kernel that ran: resident, pipelined or streaming
  int blocks = 0, threads = 0, cache_planes = 0;
  double cached_fraction = 0;  // cells kept on chip / cells of the domain
  bool rhs_on_chip = false;    // Jacobi: b kept on chip for the launch (resident kernel)
  bool face_planes_on_chip = false;  // resident: the ghost planes of the streamed axis's faces computed on chip
  bool neighbour_sync = false;       // resident: sweeps synchronised with the neighbouring bricks only
  int tile_x = 0;                    // resident: the columns of a brick's tile
  int plane_sync_steps = 0;          // resident: the most plane steps from one block barrier of the plane loop to the next
  int chunk_lead = 0;                // resident: planes the first chunk gave to the last (plan_brick_face_lead)
  double inflight_bytes_per_sm = 0, needed_bytes_per_sm = 0, model_speedup = 0;  // the concurrency model
};

// Defined in stencil_{2d,3d}_{f32,f64}.cu (instantiation and launch in one translation unit).
template <class Real>
PerksLaunch launch_templated_perks_3d(const PerksRequest<Real>& pr, StencilMode mode);
template <class Real>
PerksLaunch launch_templated_perks_2d(const PerksRequest<Real>& pr, StencilMode mode);

}  // namespace perksolve::cuda_detail
