// The stop test of the solver loops that run inside one persistent kernel (PERKS Jacobi, the CSR and the matrix-free
// persistent CG), written once: the backend requests' check_every / stop_rel / stop_abs / stop_div
// (framework/backend/backend.hpp) as the kernels see them, and how the CG kernels report the end of their loop.
// Not installed; include only from .cu / .cuh files.
#pragma once

#include <cuda_runtime.h>

namespace perksolve::cuda_detail {

struct LoopStop {
  int check_every = 0;  // the thresholds are tested after iterations k with k % check_every == 0 (0: never)
  double rel = -1.0, abs = -1.0, div = 1e300;
  // Whether iteration k (counted from the solve's start; k iterations done) is a check.
  __host__ __device__ bool is_check(long k) const { return check_every > 0 && k % check_every == 0; }
  // Persistent Jacobi: whether sweep t of a launch of `sweeps` sweeps from iteration `first` needs its residual: at
  // a check (every block decides whether to stop) and at the launch's last sweep (its last_rr). The resident
  // kernel computes it only there; the host marks the history's other entries undefined (NaN) by the same rule.
  __host__ __device__ bool residual_needed(long first, long t, long sweeps) const {
    return is_check(first + t) || t + 1 == sweeps;
  }
  // At a check: stop when the residual norm is not finite, <= rel or <= abs, or > div.
  __device__ bool met(double res) const { return !isfinite(res) || res <= rel || res <= abs || res > div; }
  // CG: stop after iteration k on a non-finite residual norm at once, on the thresholds at the checks.
  __device__ bool cg_stops(long k, double res) const { return !isfinite(res) || (is_check(k) && met(res)); }
};

// The stop test of a backend request (PersistentSweepsRequest, PersistentCgRequest).
template <class Request>
LoopStop loop_stop_of(const Request& q) {
  return LoopStop{q.check_every, q.stop_rel, q.stop_abs, q.stop_div};
}

// How a persistent CG loop ended (PersistentCg::stop): the iteration budget, a threshold, or a breakdown (p.q not
// positive or not finite).
enum CgLoopEnd : int { kCgBudget = 0, kCgThreshold = 1, kCgBreakdown = 2 };

// The CG kernels' result record (device, written by one thread): iterations done in this launch, how the loop ended,
// r.r and p.q of the last iteration.
__device__ inline void write_cg_loop_result(double* result, long done, int end, double rr, double pq) {
  result[0] = static_cast<double>(done);
  result[1] = end;
  result[2] = rr;
  result[3] = pq;
}

}  // namespace perksolve::cuda_detail
