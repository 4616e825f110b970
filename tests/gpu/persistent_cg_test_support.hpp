// Checks shared by the GPU tests of the two persistent CG kernels (test_gpu_persistent_cg.cpp: CSR,
// test_gpu_persistent_stencil_cg.cpp: matrix-free). Each takes the kernel's launch as a callable
// `PersistentCg launch(const PersistentCgRequest&)` on the test's vectors.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace perksolve::gpu_test {

// In-kernel stopping: launched in chunks of 7 iterations (which do not line up with the checks), the kernel stops
// at the first check iteration whose ||r|| is below `threshold` in the operation loop's r.r history `h` (from r.r
// = rr0), with that iteration's r.r; every chunk continues where the previous one stopped.
template <class Launch>
void expect_stop_at_threshold_in_chunks(const std::vector<double>& h, double rr0, double threshold, int check_every,
                                        Launch&& launch) {
  long expect = -1;
  for (long k = 1; k <= static_cast<long>(h.size()) && expect < 0; ++k)
    if (k % check_every == 0 && std::sqrt(h[k - 1]) <= threshold) expect = k;
  ASSERT_GT(expect, 10) << "the history must reach the threshold after a few chunks";
  long k = 0;
  double rr = rr0;
  PersistentCg run;
  for (int chunk = 0; chunk < 100; ++chunk) {
    PersistentCgRequest req;
    req.iterations = 7;
    req.first = k;
    req.rr = rr;
    req.check_every = check_every;
    req.stop_abs = threshold;
    run = launch(req);
    ASSERT_TRUE(run.ran);
    k += run.iterations;
    rr = run.rr;
    if (run.stop != PersistentCgStop::budget) break;
  }
  EXPECT_EQ(run.stop, PersistentCgStop::threshold);
  EXPECT_EQ(k, expect);
  EXPECT_NEAR(rr, h[expect - 1], 1e-9 * h[expect - 1]);
}

// Continues a run that has done `done` iterations (its last r.r: rr) for `longer` more in a second launch (the
// state hands over), then checks CG's invariants: the reported r.r is r.r, it converged below converged * rr0,
// and the recursive residual stays b - A x. apply(x, ax) computes ax = A x on the test's operator; ax is a field
// of r's layout.
template <class Real, class Launch, class Apply>
void expect_cg_invariants_after_more(CudaBackend<Real>& gpu, PersistentCgRequest req, long done, double rr, long longer,
                                     double rr0, double converged, Field<Real>& x, const Field<Real>& r,
                                     const Field<Real>& b, Launch&& launch, Apply&& apply) {
  req.iterations = longer;
  req.first = done;
  req.rr = rr;
  const PersistentCg more = launch(req);
  ASSERT_TRUE(more.ran);
  ASSERT_EQ(more.iterations, longer);
  EXPECT_NEAR(more.rr, gpu.dot(r, r), (sizeof(Real) == 8 ? 1e-12 : 1e-5) * more.rr);
  EXPECT_LT(more.rr, converged * rr0);
  auto ax = gpu.create_field(r.layout());
  apply(x, *ax);
  gpu.axpby(Real(1), b, Real(-1), *ax);  // ax = b - A x
  gpu.axpby(Real(-1), r, Real(1), *ax);  // - r
  const double drift = std::sqrt(gpu.dot(*ax, *ax) / rr0);
  EXPECT_LE(drift, sizeof(Real) == 8 ? 1e-11 : 1e-4) << "||b - A x - r|| / ||r0||";
}

// Breakdown: on an operator with p.Ap <= 0 (from r.r = rr0) the kernel stops before any update of its first
// iteration: no iteration counted, p.q reported negative, x unchanged.
template <class Real, class Launch>
void expect_breakdown_before_any_update(CudaBackend<Real>& gpu, double rr0, const Field<Real>& x, Launch&& launch) {
  const auto x0 = download(gpu, x);
  PersistentCgRequest req;
  req.iterations = 10;
  req.rr = rr0;
  const PersistentCg run = launch(req);
  ASSERT_TRUE(run.ran);
  EXPECT_EQ(run.stop, PersistentCgStop::breakdown);
  EXPECT_EQ(run.iterations, 0);
  EXPECT_LT(run.pq, 0.0);
  EXPECT_EQ(download(gpu, x), x0);
}

}  // namespace perksolve::gpu_test
