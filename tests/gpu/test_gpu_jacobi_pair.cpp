// Two Jacobi sweeps in one pass (CudaBackend::jacobi_update_pair, framework/backends/cuda/jacobi_pair.cuh) against
// the two sweeps one by one on the same device (jacobi_update, or scale from zero, into an intermediate whose ghosts
// hold +0): bit for bit on the owned cells, ghosts of the output untouched (NaN poison), on random data with random
// ghosts of x; and against the Kokkos backend's pair to a tolerance. The same for jacobi_pair_residual (the pair from
// zero and the residual of its result) against jacobi_update_pair followed by residual(), and for jacobi_update_pair_dot
// (the pair from x with b . out, also replayed from a recording). Layouts: several tiles along x and y, partial tiles,
// chunks along z, a ghost wider than the radius, padded rows (packed rows have no pair kernel). Without a CUDA device:
// SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "framework/field/field_layout.hpp"
#include "framework/stencil/stencil.hpp"
#include "tests/gpu/gpu_test_support.hpp"

using namespace perksolve;

namespace {

// f(index, owned) for every cell of l, ghosts included.
template <class F>
void for_cells(const FieldLayout& l, F&& f) {
  for (int k = -l.ghost[2]; k < l.n[2] + l.ghost[2]; ++k)
    for (int j = -l.ghost[1]; j < l.n[1] + l.ghost[1]; ++j)
      for (int i = -l.ghost[0]; i < l.n[0] + l.ghost[0]; ++i)
        f(l.index(i, j, k), i >= 0 && i < l.n[0] && j >= 0 && j < l.n[1] && k >= 0 && k < l.n[2]);
}

template <class Real>
long owned_mismatches(const FieldLayout& l, const std::vector<Real>& a, const std::vector<Real>& b, long* ghost_bad) {
  long bad = 0;
  *ghost_bad = 0;
  for_cells(l, [&](long n, bool in) {
    if (std::memcmp(&a[n], &b[n], sizeof(Real)) != 0) ++(in ? bad : *ghost_bad);
  });
  return bad;
}

// A pair test's layout (align kGridRows: the grid fields' rows, grid_row_align), and the 7-point Laplacian on it.
constexpr int kGridRows = 0;
template <class Real>
FieldLayout pair_layout(std::array<int, 3> n, std::array<int, 3> ghost, int align) {
  FieldLayout l;
  l.n = n;
  l.ghost = ghost;
  l.align = align == kGridRows ? grid_row_align<Real>(l) : align;
  return l;
}
Stencil pair_laplacian(const FieldLayout& l) {
  const double h = 1.0 / (l.n[0] + 1.0);
  return laplacian_7pt(h, h, h);
}

template <class Real>
void pair_test(std::array<int, 3> n, std::array<int, 3> ghost, int align) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  KokkosBackend<Real> ref(MPI_COMM_WORLD);
  const FieldLayout l = pair_layout<Real>(n, ghost, align);
  const Stencil s = pair_laplacian(l);
  ASSERT_TRUE(gpu->jacobi_pair_supported(s, l));
  const Real w1 = Real(1.1), w2 = Real(0.65);  // Chebyshev-like weights, different per sweep
  const auto hx = gpu_test::random_values<Real>(l.size(), 21), hb = gpu_test::random_values<Real>(l.size(), 22);
  const auto poison = gpu_test::nan_values<Real>(l.size());
  auto x = gpu->create_field(l), b = gpu->create_field(l), mid = gpu->create_field(l), one = gpu->create_field(l),
       pair = gpu->create_field(l);
  gpu->upload(*x, hx);
  gpu->upload(*b, hb);
  auto kx = ref.create_field(l), kb = ref.create_field(l), kout = ref.create_field(l);
  ref.upload(*kx, hx);
  ref.upload(*kb, hb);
  const Real center = static_cast<Real>(s.center_coeff());
  for (const bool zero : {false, true}) {
    const std::string what = std::string(zero ? "from zero" : "from x") + " " + std::to_string(n[0]) + "x" +
                             std::to_string(n[1]) + "x" + std::to_string(n[2]);
    // One by one: the intermediate's ghosts are +0 (what a homogeneous Dirichlet refresh writes).
    gpu->fill(*mid, Real(0));
    if (zero)
      gpu->scale(w1 / center, *b, *mid);
    else
      gpu->jacobi_update(s, w1, *b, *x, *mid);
    gpu->upload(*one, poison);
    gpu->jacobi_update(s, w2, *b, *mid, *one);
    gpu->upload(*pair, poison);
    gpu->jacobi_update_pair(s, w1, w2, *b, zero ? nullptr : x.get(), *pair);
    const auto h_one = gpu_test::download(*gpu, *one), h_pair = gpu_test::download(*gpu, *pair);
    long ghost_bad = 0;
    EXPECT_EQ(owned_mismatches(l, h_one, h_pair, &ghost_bad), 0) << what << ": owned cells differ from the sweeps one by one";
    EXPECT_EQ(ghost_bad, 0) << what << ": ghost cells of the output were written";
    // Kokkos's pair, to a tolerance.
    ref.upload(*kout, poison);
    ref.jacobi_update_pair(s, w1, w2, *kb, zero ? nullptr : kx.get(), *kout);
    const auto h_ref = gpu_test::download(ref, *kout);
    double maxref = 0, maxerr = 0;
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) {
          const long c = l.index(i, j, k);
          maxref = std::max(maxref, std::abs(static_cast<double>(h_ref[c])));
          maxerr = std::max(maxerr, std::abs(static_cast<double>(h_pair[c]) - static_cast<double>(h_ref[c])));
        }
    EXPECT_GT(maxref, 0.0);
    EXPECT_LE(maxerr, (std::is_same_v<Real, double> ? 1e-12 : 2e-4) * maxref) << what << ": against Kokkos";
  }
}

// Several tiles along x (fp32 128 / fp64 64 wide) with a partial last one, several tiles along y, z in chunks.
TEST(CudaJacobiPair, TilesDouble) { pair_test<double>({300, 37, 71}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, TilesFloat) { pair_test<float>({300, 37, 71}, {1, 1, 1}, kGridRows); }
// The multigrid fine grid's shape (one tile across x in fp32).
TEST(CudaJacobiPair, OddCubeDouble) { pair_test<double>({63, 63, 63}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, OddCubeFloat) { pair_test<float>({255, 17, 29}, {1, 1, 1}, kGridRows); }
// Ghosts wider than the radius (x's second ghost layer must not leak in), thin planes; a row alignment of one sector.
TEST(CudaJacobiPair, WideGhostDouble) { pair_test<double>({130, 9, 5}, {2, 2, 2}, 4); }
TEST(CudaJacobiPair, WideGhostFloat) { pair_test<float>({257, 3, 4}, {2, 1, 3}, kGridRows); }
// The pair from zero with the residual of its result (CudaBackend::jacobi_pair_residual) against jacobi_update_pair from
// zero followed by residual(): bit for bit on the owned cells of both outputs; out's ghosts stay +0 (the contract), r's
// ghosts untouched (NaN poison).
template <class Real>
void pair_residual_test(std::array<int, 3> n, std::array<int, 3> ghost, int align) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  const FieldLayout l = pair_layout<Real>(n, ghost, align);
  const Stencil s = pair_laplacian(l);
  ASSERT_TRUE(gpu->jacobi_pair_supported(s, l));
  const Real w1 = Real(1.1), w2 = Real(0.65);
  const auto hb = gpu_test::random_values<Real>(l.size(), 23);
  const auto poison = gpu_test::nan_values<Real>(l.size());
  auto out_start = poison;  // owned cells poisoned, ghosts +0
  for_cells(l, [&](long c, bool in) {
    if (!in) out_start[c] = Real(0);
  });
  auto b = gpu->create_field(l), out1 = gpu->create_field(l), r1 = gpu->create_field(l), out2 = gpu->create_field(l),
       r2 = gpu->create_field(l);
  gpu->upload(*b, hb);
  gpu->upload(*out1, out_start);
  gpu->upload(*r1, poison);
  gpu->jacobi_update_pair(s, w1, w2, *b, nullptr, *out1);
  gpu->residual(s, *b, *out1, *r1);
  gpu->upload(*out2, out_start);
  gpu->upload(*r2, poison);
  gpu->jacobi_pair_residual(s, w1, w2, *b, *out2, *r2);
  const std::string what = std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
  long ghost_bad = 0;
  EXPECT_EQ(owned_mismatches(l, gpu_test::download(*gpu, *out1), gpu_test::download(*gpu, *out2), &ghost_bad), 0)
      << what << ": out differs from jacobi_update_pair";
  EXPECT_EQ(ghost_bad, 0) << what << ": ghost cells of out were written";
  const auto h_r1 = gpu_test::download(*gpu, *r1), h_r2 = gpu_test::download(*gpu, *r2);
  EXPECT_EQ(owned_mismatches(l, h_r1, h_r2, &ghost_bad), 0) << what << ": r differs from residual()";
  long ghost_written = 0, finite = 0;
  for_cells(l, [&](long c, bool in) {
    if (!in && !std::isnan(h_r2[c])) ++ghost_written;
    if (in && std::isfinite(h_r2[c])) ++finite;
  });
  EXPECT_EQ(ghost_written, 0) << what << ": ghost cells of r were written";
  EXPECT_EQ(finite, l.owned_size()) << what << ": owned cells of r left unwritten";
}

TEST(CudaJacobiPair, ResidualTilesDouble) { pair_residual_test<double>({300, 37, 71}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, ResidualTilesFloat) { pair_residual_test<float>({300, 37, 71}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, ResidualOddCubeFloat) { pair_residual_test<float>({255, 17, 29}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, ResidualWideGhostDouble) { pair_residual_test<double>({130, 9, 5}, {2, 2, 2}, 4); }
TEST(CudaJacobiPair, ResidualWideGhostFloat) { pair_residual_test<float>({257, 3, 4}, {2, 1, 3}, kGridRows); }

// The pair from x with b . out (CudaBackend::jacobi_update_pair_dot) against jacobi_update_pair: out bit for bit on the
// owned cells, out's ghosts untouched (NaN poison), and the sum in the slot against dot(b, out) to 1e-13 relative (the
// same products, summed in another order). Then recorded as a CUDA graph and replayed on new b: the slot holds the new
// sum (the partials, their finish and the copy to the host are in the graph).
template <class Real>
void pair_dot_test(std::array<int, 3> n, std::array<int, 3> ghost, int align) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  const FieldLayout l = pair_layout<Real>(n, ghost, align);
  const Stencil s = pair_laplacian(l);
  ASSERT_TRUE(gpu->jacobi_pair_supported(s, l));
  const Real w1 = Real(0.9), w2 = Real(1.3);
  const auto hx = gpu_test::random_values<Real>(l.size(), 24), hb = gpu_test::random_values<Real>(l.size(), 25);
  const auto poison = gpu_test::nan_values<Real>(l.size());
  auto x = gpu->create_field(l), b = gpu->create_field(l), out1 = gpu->create_field(l), out2 = gpu->create_field(l);
  gpu->upload(*x, hx);
  gpu->upload(*b, hb);
  gpu->upload(*out1, poison);
  gpu->upload(*out2, poison);
  gpu->jacobi_update_pair(s, w1, w2, *b, x.get(), *out1);
  gpu->jacobi_update_pair_dot(s, w1, w2, *b, *x, *out2, 1);
  const double got = gpu->collect_sum(1);
  const std::string what = std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
  long ghost_bad = 0;
  EXPECT_EQ(owned_mismatches(l, gpu_test::download(*gpu, *out1), gpu_test::download(*gpu, *out2), &ghost_bad), 0)
      << what << ": out differs from jacobi_update_pair";
  EXPECT_EQ(ghost_bad, 0) << what << ": ghost cells of out were written";
  // |b| |out| bounds the sums' rounding; the dot itself may be small.
  const double scale = std::sqrt(gpu->dot(*b, *b) * gpu->dot(*out1, *out1));
  const double want = gpu->dot(*b, *out1);
  EXPECT_GT(scale, 0.0);
  EXPECT_NEAR(got, want, 1e-13 * scale) << what << ": b . out";
  // Recorded, then replayed on new b (the same storage).
  std::unique_ptr<RecordedWork> rec = gpu->record([&] { gpu->jacobi_update_pair_dot(s, w1, w2, *b, *x, *out2, 0); });
  ASSERT_NE(rec, nullptr) << what << ": the pair with its dot could not be recorded";
  gpu->upload(*b, gpu_test::random_values<Real>(l.size(), 26));
  rec->replay();
  const double replayed = gpu->collect_sum(0);
  gpu->jacobi_update_pair(s, w1, w2, *b, x.get(), *out1);
  EXPECT_EQ(owned_mismatches(l, gpu_test::download(*gpu, *out1), gpu_test::download(*gpu, *out2), &ghost_bad), 0)
      << what << ": replayed out differs";
  const double want2 = gpu->dot(*b, *out1);
  EXPECT_NE(want2, want) << what << ": the new b changed nothing (the test would not see a stale slot)";
  EXPECT_NEAR(replayed, want2, 1e-13 * std::sqrt(gpu->dot(*b, *b) * gpu->dot(*out1, *out1))) << what << ": replayed b . out";
}

TEST(CudaJacobiPair, DotTilesDouble) { pair_dot_test<double>({300, 37, 71}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, DotTilesFloat) { pair_dot_test<float>({300, 37, 71}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, DotOddCubeFloat) { pair_dot_test<float>({255, 17, 29}, {1, 1, 1}, kGridRows); }
TEST(CudaJacobiPair, DotWideGhostDouble) { pair_dot_test<double>({130, 9, 5}, {2, 2, 2}, 4); }

// Rows that do not start on 16-byte boundaries have no pair kernel (the sweeps run one by one).
TEST(CudaJacobiPair, PackedRowsUnsupported) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  FieldLayout l;
  l.n = {63, 63, 63};
  l.ghost = {1, 1, 1};
  l.align = 1;
  const Stencil s = laplacian_7pt(1.0, 1.0, 1.0);
  EXPECT_FALSE(gpu->jacobi_pair_supported(s, l));
  l.align = grid_row_align<double>(l);
  EXPECT_TRUE(gpu->jacobi_pair_supported(s, l));
  EXPECT_FALSE(gpu->jacobi_pair_supported(perks_stencil("3d27pt"), l));
}

}  // namespace
