// What both persistent CSR CG kernels carry (persistent_cg.cu: the merge-path walks; persistent_cg_rows.cu: the
// row-block walk): the matrix, the four vectors, the device scratch of the in-kernel reductions, and the loop's
// bounds and stopping test, filled once on the host. Not installed; include only from .cu files.
#pragma once

#include "framework/backend/backend.hpp"
#include "framework/backends/cuda/cuda_common.cuh"
#include "framework/backends/cuda/cuda_csr.cuh"
#include "framework/backends/cuda/loop_stop.cuh"

namespace perksolve::cuda_ops {

template <class Real>
struct CsrCgArgs {
  const int* rp;
  const int* ci;
  const Real* v;
  Real* x;
  Real* r;
  Real* p;
  Real* q;
  double* part_pq;  // gridDim.x
  double* part_rr;  // gridDim.x
  double* history;  // r.r after each iteration
  double* result;   // iterations, stop (0 budget, 1 threshold, 2 breakdown), r.r, p.q
  long iterations, first;
  double rr;
  cuda_detail::LoopStop stop;
};

// The shared part of a launch: p.q and r.r partials in the two halves of `partials` (kMaxPartials doubles), the
// r.r history at `history` (req.iterations doubles) and the result record right after it.
template <class Real>
void set_csr_cg_args(CsrCgArgs<Real>& a, const CudaCsr<Real>& A, Real* x, Real* r, Real* p, Real* q, double* partials,
                     double* history, const PersistentCgRequest& req) {
  a.rp = A.row_ptr;
  a.ci = A.col;
  a.v = A.val;
  a.x = x;
  a.r = r;
  a.p = p;
  a.q = q;
  a.part_pq = partials;
  a.part_rr = partials + cuda_detail::kMaxPartials / 2;
  a.history = history;
  a.result = history + req.iterations;
  a.iterations = req.iterations;
  a.first = req.first;
  a.rr = req.rr;
  a.stop = cuda_detail::loop_stop_of(req);
}

}  // namespace perksolve::cuda_ops
