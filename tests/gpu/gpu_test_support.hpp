// Helpers of the GPU test files: the process-wide CUDA backend (null without a device), random and
// NaN-poisoned host arrays, and device -> host copies.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "framework/backends/cuda/cuda_backend.hpp"

namespace perksolve::gpu_test {

template <class Real>
CudaBackend<Real>* backend() {
  static std::unique_ptr<CudaBackend<Real>> b;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      b = std::make_unique<CudaBackend<Real>>(MPI_COMM_WORLD);
    } catch (const BackendUnavailable&) {
    }
  }
  return b.get();
}

// Values in [lo, hi), never exactly zero.
template <class Real>
std::vector<Real> random_values(long size, unsigned seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<Real> v(static_cast<std::size_t>(size));
  for (auto& x : v) {
    x = static_cast<Real>(d(rng));
    if (x == Real(0)) x = Real(0.5);
  }
  return v;
}

template <class Real>
std::vector<Real> nan_values(long size) {
  return std::vector<Real>(static_cast<std::size_t>(size), std::numeric_limits<Real>::quiet_NaN());
}

template <class Real>
std::vector<Real> download(Backend<Real>& be, const Field<Real>& f) {
  std::vector<Real> h(static_cast<std::size_t>(f.layout().size()));
  be.download(f, h);
  return h;
}

// Two gathered solutions of the same size agree to `rel` times the largest |ref| (which must be non-zero).
inline void expect_close_solutions(const std::vector<double>& got, const std::vector<double>& ref, double rel) {
  ASSERT_EQ(got.size(), ref.size());
  double diff = 0.0, norm = 0.0;
  for (std::size_t p = 0; p < ref.size(); ++p) {
    diff = std::max(diff, std::abs(got[p] - ref[p]));
    norm = std::max(norm, std::abs(ref[p]));
  }
  EXPECT_GT(norm, 0.0);
  EXPECT_LE(diff, rel * norm) << "solution max difference " << diff << " relative to max " << norm;
}

}  // namespace perksolve::gpu_test

#define PERKSOLVE_REQUIRE_GPU(Real, var)                                       \
  CudaBackend<Real>* var = ::perksolve::gpu_test::backend<Real>();             \
  if (var == nullptr) GTEST_SKIP() << "SKIPPED: no CUDA device"
