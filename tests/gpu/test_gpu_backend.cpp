// The native CUDA backend against the reference Kokkos backend: every op, every compiled stencil
// shape (13 PERKS shapes + the Laplacians, incl. the symmetric-CSE 27-point path) and a shape that
// only the generic kernel runs, in float and double, on random data (never all-zero) with
// NaN-poisoned outputs; ghosts that an op must not touch are checked to still hold the poison.
// Without a CUDA device every test calls GTEST_SKIP() ("SKIPPED: no CUDA device").
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/backends/cuda/register_cuda.hpp"
#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "tests/gpu/gpu_test_support.hpp"

using namespace perksolve;

namespace {

// One CudaBackend per precision for the whole run (creating one costs a context lookup + allocations).
#define REQUIRE_CUDA(Real)                                                 \
  CudaBackend<Real>* gpu = gpu_test::backend<Real>();                           \
  if (gpu == nullptr) GTEST_SKIP() << "SKIPPED: no CUDA device";           \
  KokkosBackend<Real> ref(MPI_COMM_WORLD)

template <class Real>
double tol() {
  return std::is_same_v<Real, double> ? 1e-13 : 1e-5;
}

template <class Real>
std::vector<Real> random_host(const FieldLayout& l, unsigned seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<Real> v(l.size());
  for (auto& x : v) {
    x = static_cast<Real>(d(rng));
    if (x == Real(0)) x = Real(0.5);
  }
  return v;
}

template <class Real>
std::vector<Real> poison(const FieldLayout& l) {
  return std::vector<Real>(l.size(), std::numeric_limits<Real>::quiet_NaN());
}

template <class Real>
std::vector<Real> down(Backend<Real>& be, const Field<Real>& f) {
  std::vector<Real> h(f.layout().size());
  be.download(f, h);
  return h;
}

bool owned(const FieldLayout& l, int i, int j, int k) {
  return i >= 0 && i < l.n[0] && j >= 0 && j < l.n[1] && k >= 0 && k < l.n[2];
}

template <class F>
void for_all(const FieldLayout& l, F&& f) {
  for (int k = -l.ghost[2]; k < l.n[2] + l.ghost[2]; ++k)
    for (int j = -l.ghost[1]; j < l.n[1] + l.ghost[1]; ++j)
      for (int i = -l.ghost[0]; i < l.n[0] + l.ghost[0]; ++i) f(i, j, k, l.index(i, j, k));
}

// Owned cells agree to tol relative to max|ref|; non-owned cells: either equal to `ghost_expect`
// bit for bit (NaN poison counts as equal) or, when ghost_expect is null, compared like owned cells.
template <class Real>
void expect_close(const FieldLayout& l, const std::vector<Real>& ref, const std::vector<Real>& got,
                  const std::vector<Real>* ghost_expect, double rtol, const std::string& what) {
  double maxref = 0.0, maxerr = 0.0;
  long bad_nan = 0, bad_ghost = 0;
  for_all(l, [&](int i, int j, int k, long n) {
    const bool in = owned(l, i, j, k);
    if (in || ghost_expect == nullptr) {
      if (std::isnan(static_cast<double>(got[n])) != std::isnan(static_cast<double>(ref[n]))) ++bad_nan;
      if (!std::isnan(static_cast<double>(ref[n]))) {
        maxref = std::max(maxref, std::abs(static_cast<double>(ref[n])));
        maxerr = std::max(maxerr, std::abs(static_cast<double>(got[n]) - static_cast<double>(ref[n])));
      }
    } else {
      if (std::memcmp(&got[n], &(*ghost_expect)[n], sizeof(Real)) != 0) ++bad_ghost;
    }
  });
  EXPECT_EQ(bad_nan, 0) << what << ": NaN pattern differs (unwritten or overwritten cells)";
  EXPECT_EQ(bad_ghost, 0) << what << ": ghost cells were modified";
  EXPECT_GT(maxref, 0.0) << what << ": reference is all zero";
  EXPECT_LE(maxerr, rtol * maxref) << what << ": max error " << maxerr << " vs max |ref| " << maxref;
}

// align: row alignment of the layout (1 = packed rows, grid_row_align = the grid fields' padded rows).
FieldLayout layout_for(const Stencil& s, bool stacked2d = false, int align = 1) {
  FieldLayout l;
  l.align = align;
  const int r = s.radius();
  if (s.dim() == 3) {
    l.n = {37, 19, 23};
    l.ghost = {r, r + 1, r};  // a wider ghost than needed on one axis
  } else {
    l.n = {301, 45, stacked2d ? 3 : 1};
    l.ghost = {r, r, 0};
  }
  return l;
}

std::vector<Stencil> all_stencils() {
  std::vector<Stencil> v;
  for (const auto& name : perks_shape_names()) v.push_back(perks_stencil(name));
  v.push_back(laplacian_5pt(0.1, 0.2));
  v.push_back(laplacian_7pt(0.1, 0.2, 0.3));
  v.push_back(laplacian_27pt_fe(0.1));
  // Not compiled as a template: 3D box of radius 2 (125 points) -> generic constant-memory kernel.
  Stencil g = make_stencil("3d125pt_generic", ShapeSpec{3, ShapeKind::box, 2});
  set_benchmark_coefficients(g);
  v.push_back(g);
  return v;
}

enum class Op { apply, residual, jacobi, apply_dot };

// One operation of stencil s on layout l against the Kokkos backend (`where` names the layout in the messages).
template <class Real>
void check_stencil_on(CudaBackend<Real>& gpu, KokkosBackend<Real>& ref, const Stencil& s, Op op, const FieldLayout& l,
                      bool force_generic, const std::string& where) {
  const std::string what = s.name +
                           (op == Op::apply      ? " apply"
                            : op == Op::residual ? " residual"
                            : op == Op::jacobi   ? " jacobi"
                                                 : " apply_dot") +
                           (sizeof(Real) == 8 ? " f64" : " f32") + where;
  SCOPED_TRACE(what);
  const auto hx = random_host<Real>(l, 11 + s.size());
  const auto hb = random_host<Real>(l, 97 + s.size());
  const auto hp = poison<Real>(l);
  auto gx = gpu.create_field(l), gb = gpu.create_field(l), go = gpu.create_field(l);
  auto rx = ref.create_field(l), rb = ref.create_field(l), ro = ref.create_field(l);
  gpu.upload(*gx, hx);
  gpu.upload(*gb, hb);
  gpu.upload(*go, hp);
  ref.upload(*rx, hx);
  ref.upload(*rb, hb);
  ref.upload(*ro, hp);
  gpu.set_force_generic_stencil(force_generic);
  double gres = 0, rres = 0;
  const Real omega = Real(0.8);
  switch (op) {
    case Op::apply:
      gpu.apply_stencil(s, *gx, *go);
      ref.apply_stencil(s, *rx, *ro);
      break;
    case Op::residual:
      gpu.residual(s, *gb, *gx, *go);
      ref.residual(s, *rb, *rx, *ro);
      break;
    case Op::jacobi:
      gres = gpu.jacobi_sweep(s, omega, *gb, *gx, *go);
      rres = ref.jacobi_sweep(s, omega, *rb, *rx, *ro);
      break;
    case Op::apply_dot:
      gres = gpu.apply_stencil_dot(s, *gx, *go);
      rres = ref.apply_stencil_dot(s, *rx, *ro);
      break;
  }
  gpu.set_force_generic_stencil(false);
  const CudaStencilPath path = gpu.last_stencil_path();
  if (force_generic || s.name == "3d125pt_generic") {
    EXPECT_EQ(path, CudaStencilPath::generic);
  } else if (s.name == "laplacian_27pt_fe") {
    EXPECT_EQ(path, CudaStencilPath::templated_symmetric);
  } else {
    EXPECT_EQ(path, CudaStencilPath::templated);
  }
  expect_close(l, down(ref, *ro), down(gpu, *go), &hp, tol<Real>(), what);
  // Inputs untouched.
  const auto gx_after = down(gpu, *gx);
  EXPECT_EQ(std::memcmp(gx_after.data(), hx.data(), hx.size() * sizeof(Real)), 0) << what << ": input modified";
  if (op == Op::jacobi) {
    EXPECT_GT(rres, 0.0);
    EXPECT_NEAR(gres, rres, (std::is_same_v<Real, double> ? 1e-12 : 1e-5) * rres) << what << ": residual norm";
  }
  if (op == Op::apply_dot) {
    // x . (S x) on the scale |x| |S x|: against the reference to the outputs' tolerance (S x itself differs
    // by rounding), and against this backend's own dot of its plain apply to double-sum accuracy.
    const double scale = std::sqrt(ref.dot(*rx, *rx) * ref.dot(*ro, *ro));
    EXPECT_GT(scale, 0.0);
    EXPECT_NEAR(gres, rres, tol<Real>() * scale) << what << ": x . S x vs the reference";
    // The fused output is the plain apply's, bit for bit.
    auto ga = gpu.create_field(l);
    gpu.upload(*ga, hp);
    gpu.apply_stencil(s, *gx, *ga);
    const auto fused = down(gpu, *go), plain = down(gpu, *ga);
    EXPECT_EQ(std::memcmp(fused.data(), plain.data(), fused.size() * sizeof(Real)), 0) << what << ": out != apply's out";
    EXPECT_NEAR(gres, gpu.dot(*gx, *ga), 1e-13 * scale) << what << ": x . S x vs dot(x, apply(x))";
  }
}

// check_stencil_on on the small layouts of layout_for.
template <class Real>
void check_stencil(CudaBackend<Real>& gpu, KokkosBackend<Real>& ref, const Stencil& s, Op op, bool stacked2d,
                   bool force_generic, int align = 1) {
  check_stencil_on(gpu, ref, s, op, layout_for(s, stacked2d, align), force_generic,
                   std::string(stacked2d ? " stacked" : "") + (force_generic ? " generic" : "") +
                       (align > 1 ? " aligned rows" : ""));
}

template <class Real>
void all_shapes_test() {
  REQUIRE_CUDA(Real);
  const bool wide_default = gpu->wide_tiles();
  for (bool wide : {true, false}) {  // both tile variants of the templated kernels
    SCOPED_TRACE(wide ? "wide tiles" : "two-load tiles");
    gpu->set_wide_tiles(wide);
    for (const Stencil& s : all_stencils()) {
      for (Op op : {Op::apply, Op::residual, Op::jacobi, Op::apply_dot})
        for (int align : {1, 4, 8, 32}) {  // 4 / 8: one 32-byte sector in fp64 / fp32 (grid_row_align's rule;
                                           // PERKSOLVE_GRID_ROW_ALIGN=4 in fp32); 32: whole lines (long rows, PCG-MG)
          check_stencil(*gpu, ref, s, op, false, false, align);
          if (s.dim() == 2 && op == Op::apply) check_stencil(*gpu, ref, s, op, true, false, align);
        }
    }
  }
  gpu->set_wide_tiles(wide_default);
}

TEST(CudaBackendStencil, AllShapesDouble) { all_shapes_test<double>(); }
TEST(CudaBackendStencil, AllShapesFloat) { all_shapes_test<float>(); }

template <class Real>
void generic_path_test() {
  REQUIRE_CUDA(Real);
  for (const char* name : {"3d7pt", "3d27pt", "2d5pt", "2ds25pt"})
    for (Op op : {Op::apply, Op::jacobi}) check_stencil(*gpu, ref, perks_stencil(name), op, false, true);
}
TEST(CudaBackendStencil, GenericKernelDouble) { generic_path_test<double>(); }
TEST(CudaBackendStencil, GenericKernelFloat) { generic_path_test<float>(); }

// Larger grid: many tiles per block segment and segments that cross tile boundaries. x = 600 gives the wide tiles
// several tile columns with a partial last one (256-wide: 3, 512-wide: 2; the runner forces those tiers), so the
// per-item tile offsets of the bulk row copies and of the output mask are exercised away from x = 0.
template <class Real>
void large_grid_test() {
  REQUIRE_CUDA(Real);
  for (const char* name : {"3d7pt", "3d27pt", "3d13pt", "2d5pt", "2d9pt"}) {
    const Stencil s = perks_stencil(name);
    FieldLayout l;
    const int r = s.radius();
    if (s.dim() == 3) {
      l.n = {600, 67, 71};
      l.ghost = {r, r, r};
    } else {
      l.n = {1100, 513, 1};
      l.ghost = {r, r, 0};
    }
    l.align = std::string(name) == "3d7pt" || std::string(name) == "2d5pt" ? grid_row_align<Real>(l) : 1;
    SCOPED_TRACE(std::string(name) + " large");
    const auto hx = random_host<Real>(l, 5);
    const auto hp = poison<Real>(l);
    auto gx = gpu->create_field(l), go = gpu->create_field(l);
    auto rx = ref.create_field(l), ro = ref.create_field(l);
    gpu->upload(*gx, hx);
    gpu->upload(*go, hp);
    ref.upload(*rx, hx);
    ref.upload(*ro, hp);
    ref.apply_stencil(s, *rx, *ro);
    const auto expect = down(ref, *ro);
    const bool wide_default = gpu->wide_tiles();
    for (bool wide : {true, false}) {
      gpu->set_wide_tiles(wide);
      gpu->upload(*go, hp);
      gpu->apply_stencil(s, *gx, *go);
      expect_close(l, expect, down(*gpu, *go), &hp, tol<Real>(), std::string(name) + (wide ? " large wide" : " large two-load"));
    }
    gpu->set_wide_tiles(wide_default);
  }
}
TEST(CudaBackendStencil, LargeGridDouble) { large_grid_test<double>(); }

// The short tail of the dynamic schedule (stream_schedule.hpp) only exists on grids with >= 4 rounds of items of
// >= 16 planes. fp64: 512 x 256 x 530 is such a grid for every 3D 7-point tile with dynamic items (16-17 rounds of
// 17-33 planes). fp32: 256 x 512 x 800 (the H200's 256 x 12 tile, two blocks per SM: 43 tiles in chunks of 17
// planes on 264 blocks, then 8-plane tail chunks; the H100's 256 x 16 tile: 32 tiles, chunks of 25). Apply and Jacobi with the tail: the
// Kokkos values, and the bits of equal chunks.
template <class Real>
void schedule_tail_test() {
  REQUIRE_CUDA(Real);
  const Stencil s = perks_stencil("3d7pt");
  FieldLayout l;
  l.n = std::is_same_v<Real, double> ? std::array<int, 3>{512, 256, 530} : std::array<int, 3>{256, 512, 800};
  l.ghost = {1, 1, 1};
  l.align = grid_row_align<Real>(l);
  const auto hx = random_host<Real>(l, 11), hb = random_host<Real>(l, 12);
  const auto hp = poison<Real>(l);
  auto gx = gpu->create_field(l), gb = gpu->create_field(l), go = gpu->create_field(l);
  gpu->upload(*gx, hx);
  gpu->upload(*gb, hb);
  std::vector<Real> expect_apply, expect_jacobi;
  double expect_norm = 0;
  {
    auto rx = ref.create_field(l), rb = ref.create_field(l), ro = ref.create_field(l);
    ref.upload(*rx, hx);
    ref.upload(*rb, hb);
    ref.upload(*ro, hp);
    ref.apply_stencil(s, *rx, *ro);
    expect_apply = down(ref, *ro);
    expect_norm = ref.jacobi_sweep(s, Real(0.8), *rb, *rx, *ro);
    expect_jacobi = down(ref, *ro);
  }
  const int tail_default = gpu->schedule_tail();
  ASSERT_GE(tail_default, 2);
  std::vector<Real> apply_out[2], jacobi_out[2];
  double norm[2] = {0, 0};
  for (int t = 0; t < 2; ++t) {
    gpu->set_schedule_tail(t == 0 ? tail_default : 0);
    gpu->upload(*go, hp);
    gpu->apply_stencil(s, *gx, *go);
    apply_out[t] = down(*gpu, *go);
    gpu->upload(*go, hp);
    norm[t] = gpu->jacobi_sweep(s, Real(0.8), *gb, *gx, *go);
    jacobi_out[t] = down(*gpu, *go);
  }
  gpu->set_schedule_tail(tail_default);
  expect_close(l, expect_apply, apply_out[0], &hp, tol<Real>(), "3d7pt apply, tail");
  expect_close(l, expect_jacobi, jacobi_out[0], &hp, tol<Real>(), "3d7pt jacobi, tail");
  const double norm_tol = std::is_same_v<Real, double> ? 1e-12 : 1e-5;  // partial sums in schedule order
  EXPECT_NEAR(norm[0], expect_norm, norm_tol * expect_norm);
  EXPECT_NEAR(norm[1], expect_norm, norm_tol * expect_norm);
  EXPECT_EQ(std::memcmp(apply_out[0].data(), apply_out[1].data(), apply_out[0].size() * sizeof(Real)), 0)
      << "apply: the tail changed bits";
  EXPECT_EQ(std::memcmp(jacobi_out[0].data(), jacobi_out[1].data(), jacobi_out[0].size() * sizeof(Real)), 0)
      << "jacobi: the tail changed bits";
}
// The narrower 2D row tile (NarrowRowFastMemTuneSel, fp32 radius <= 4 with >= 13 points on fast memory): 5000 columns
// pad to 5120 with 1024-wide tiles and to 6144 with 2048-wide ones, so the automatic choice takes the narrow tile there
// for 2d13pt and 2d25pt (a partial last column of 904); 2d5pt keeps the wide tile, 2ds25pt always has the narrow one.
// Apply (and x . S x for the 5-point star) and Jacobi against the Kokkos values, outputs poisoned (check_stencil_on).
template <class Real>
void row_tile_width_test() {
  REQUIRE_CUDA(Real);
  for (const char* name : {"2d5pt", "2d13pt", "2d25pt", "2ds25pt"}) {
    const Stencil s = perks_stencil(name);
    FieldLayout l;
    l.n = {5000, 400, 1};
    l.ghost = {s.radius(), s.radius(), 0};
    l.align = grid_row_align<Real>(l);
    for (Op op : {Op::apply, Op::apply_dot, Op::jacobi}) {
      if (op == Op::apply_dot && std::string(name) != "2d5pt") continue;
      check_stencil_on(*gpu, ref, s, op, l, false, " at 5000 columns");
    }
  }
}
TEST(CudaBackendStencil, RowTileByWidthDouble) { row_tile_width_test<double>(); }
TEST(CudaBackendStencil, RowTileByWidthFloat) { row_tile_width_test<float>(); }

TEST(CudaBackendStencil, ScheduleTailDouble) { schedule_tail_test<double>(); }
TEST(CudaBackendStencil, ScheduleTailFloat) { schedule_tail_test<float>(); }
TEST(CudaBackendStencil, LargeGridFloat) { large_grid_test<float>(); }

template <class Real>
void stencil_errors_test() {
  REQUIRE_CUDA(Real);
  const Stencil s = perks_stencil("3d13pt");  // radius 2
  FieldLayout l;
  l.n = {8, 8, 8};
  l.ghost = {1, 1, 1};
  auto a = gpu->create_field(l), b = gpu->create_field(l);
  EXPECT_THROW(gpu->apply_stencil(s, *a, *b), std::logic_error);
  FieldLayout l2 = l;
  l2.n[0] = 9;
  auto c = gpu->create_field(l2);
  EXPECT_THROW(gpu->apply_stencil(perks_stencil("3d7pt"), *a, *c), std::logic_error);
  auto k = ref.create_field(l);
  EXPECT_THROW(gpu->fill(*k, Real(1)), std::logic_error);
}
TEST(CudaBackendStencil, ErrorsDouble) { stencil_errors_test<double>(); }

// ---- BLAS-1 and reductions -------------------------------------------------------------------------
FieldLayout blas_layout() {
  FieldLayout l;
  l.n = {45, 17, 9};
  l.ghost = {2, 1, 1};
  return l;
}

template <class Real>
void blas_test() {
  REQUIRE_CUDA(Real);
  const FieldLayout l = blas_layout();
  const auto hx = random_host<Real>(l, 1), hy = random_host<Real>(l, 2), hp = poison<Real>(l);
  auto gx = gpu->create_field(l), gy = gpu->create_field(l);
  auto rx = ref.create_field(l), ry = ref.create_field(l);

  // fill: every cell, ghosts included.
  gpu->upload(*gx, hp);
  ref.upload(*rx, hp);
  gpu->fill(*gx, Real(1.25));
  ref.fill(*rx, Real(1.25));
  expect_close<Real>(l, down(ref, *rx), down(*gpu, *gx), nullptr, 0.0, "fill");

  // copy: every cell.
  gpu->upload(*gx, hx);
  gpu->upload(*gy, hp);
  gpu->copy(*gx, *gy);
  EXPECT_EQ(std::memcmp(down(*gpu, *gy).data(), hx.data(), hx.size() * sizeof(Real)), 0) << "copy";

  // axpby: owned only; y's ghosts untouched.
  gpu->upload(*gx, hx);
  gpu->upload(*gy, hy);
  ref.upload(*rx, hx);
  ref.upload(*ry, hy);
  gpu->axpby(Real(0.7), *gx, Real(-1.3), *gy);
  ref.axpby(Real(0.7), *rx, Real(-1.3), *ry);
  expect_close(l, down(ref, *ry), down(*gpu, *gy), &hy, tol<Real>(), "axpby");

  // cg_advance: x += alpha p, p = z + beta p on owned cells; against the reference, and bit for bit against this
  // backend's own two axpbys (the values the fused kernel promises).
  {
    const auto hz = random_host<Real>(l, 5);
    auto gz = gpu->create_field(l), gp2 = gpu->create_field(l), gx2 = gpu->create_field(l);
    auto rz = ref.create_field(l);
    gpu->upload(*gz, hz);
    ref.upload(*rz, hz);
    gpu->upload(*gx, hx);
    gpu->upload(*gy, hy);
    ref.upload(*rx, hx);
    ref.upload(*ry, hy);
    gpu->upload(*gx2, hx);
    gpu->upload(*gp2, hy);
    const Real alpha = Real(0.37), beta = Real(-0.61);
    gpu->cg_advance(alpha, beta, *gz, *gy, *gx);  // p = y, x = x
    ref.cg_advance(alpha, beta, *rz, *ry, *rx);
    expect_close(l, down(ref, *rx), down(*gpu, *gx), &hx, tol<Real>(), "cg_advance x");
    expect_close(l, down(ref, *ry), down(*gpu, *gy), &hy, tol<Real>(), "cg_advance p");
    gpu->axpby(alpha, *gp2, Real(1), *gx2);
    gpu->axpby(Real(1), *gz, beta, *gp2);
    EXPECT_EQ(std::memcmp(down(*gpu, *gx).data(), down(*gpu, *gx2).data(), hx.size() * sizeof(Real)), 0)
        << "cg_advance x != axpby(alpha, p, 1, x)";
    EXPECT_EQ(std::memcmp(down(*gpu, *gy).data(), down(*gpu, *gp2).data(), hy.size() * sizeof(Real)), 0)
        << "cg_advance p != axpby(1, z, beta, p)";
  }

  // scale: owned only, y's old contents (NaN here) never read; y's ghosts untouched.
  const auto hnan_y = poison<Real>(l);
  gpu->upload(*gx, hx);
  gpu->upload(*gy, hnan_y);
  ref.upload(*rx, hx);
  ref.upload(*ry, hnan_y);
  gpu->scale(Real(-0.35), *gx, *gy);
  ref.scale(Real(-0.35), *rx, *ry);
  {
    const auto g = down(*gpu, *gy), r = down(ref, *ry);
    long bad = 0;
    for_all(l, [&](int i, int j, int k, long n) {
      if (owned(l, i, j, k)) bad += !(g[n] == r[n]) || std::isnan(static_cast<double>(g[n]));
      else bad += !std::isnan(static_cast<double>(g[n]));
    });
    EXPECT_EQ(bad, 0) << "scale";
  }

  // dot / norm2 / norm_inf over owned cells (ghosts hold large values that must be ignored).
  auto hbig = hx;
  for_all(l, [&](int i, int j, int k, long n) {
    if (!owned(l, i, j, k)) hbig[n] = Real(1000);
  });
  gpu->upload(*gx, hbig);
  ref.upload(*rx, hbig);
  gpu->upload(*gy, hy);
  ref.upload(*ry, hy);
  const double rt = std::is_same_v<Real, double> ? 1e-13 : 1e-6;
  EXPECT_NEAR(gpu->dot(*gx, *gy), ref.dot(*rx, *ry), rt * std::abs(ref.norm2(*rx) * ref.norm2(*ry)));
  EXPECT_NEAR(gpu->norm2(*gx), ref.norm2(*rx), rt * ref.norm2(*rx));
  EXPECT_EQ(gpu->norm_inf(*gx), ref.norm_inf(*rx));
  EXPECT_LT(gpu->norm_inf(*gx), 2.0);

  // NaN propagates through norm_inf and dot.
  auto hnan = hx;
  hnan[l.index(3, 4, 5)] = std::numeric_limits<Real>::quiet_NaN();
  gpu->upload(*gx, hnan);
  EXPECT_TRUE(std::isnan(gpu->norm_inf(*gx)));
  EXPECT_TRUE(std::isnan(gpu->dot(*gx, *gy)));

  // Large reduction (many blocks, second-stage reduce).
  FieldLayout big;
  big.n = {256, 128, 64};
  big.ghost = {1, 1, 1};
  const auto hb1 = random_host<Real>(big, 3), hb2 = random_host<Real>(big, 4);
  auto g1 = gpu->create_field(big), g2 = gpu->create_field(big);
  auto r1 = ref.create_field(big), r2 = ref.create_field(big);
  gpu->upload(*g1, hb1);
  gpu->upload(*g2, hb2);
  ref.upload(*r1, hb1);
  ref.upload(*r2, hb2);
  const double scale = ref.norm2(*r1) * ref.norm2(*r2);
  EXPECT_NEAR(gpu->dot(*g1, *g2), ref.dot(*r1, *r2), (std::is_same_v<Real, double> ? 1e-12 : 1e-6) * scale);
  EXPECT_EQ(gpu->norm_inf(*g1), ref.norm_inf(*r1));
}
TEST(CudaBackendBlas, Double) { blas_test<double>(); }
TEST(CudaBackendBlas, Float) { blas_test<float>(); }

// ---- pack / unpack -----------------------------------------------------------------------------------
template <class Real>
void pack_test() {
  REQUIRE_CUDA(Real);
  const FieldLayout l = blas_layout();
  std::vector<IndexBox> boxes = {
      IndexBox{{0, 0, 0}, {2, 17, 9}},      // low x owned slab
      IndexBox{{43, -1, -1}, {45, 18, 10}},  // high x slab incl. corners of ghosts
      IndexBox{{-2, 0, 3}, {47, 1, 4}},     // a row spanning ghosts
      IndexBox{{5, 5, 5}, {5, 9, 9}},       // empty box
      IndexBox{{0, 0, 8}, {45, 17, 9}},     // top z plane
  };
  // More boxes than one launch batch holds (32).
  for (int i = 0; i < 40; ++i) boxes.push_back(IndexBox{{i % 45, i % 17, i % 9}, {i % 45 + 1, i % 17 + 1, i % 9 + 1}});
  long total = 0;
  for (const auto& b : boxes) total += b.count();
  const auto hx = random_host<Real>(l, 8);
  auto gx = gpu->create_field(l);
  auto rx = ref.create_field(l);
  gpu->upload(*gx, hx);
  ref.upload(*rx, hx);
  std::vector<Real> rbuf(total), gbuf_pageable(total, Real(-7));
  ref.pack(*rx, boxes, rbuf.data());
  HostBuffer<Real> pinned = gpu->create_host_buffer(total);
  gpu->pack(*gx, boxes, pinned.data.get());
  gpu->pack(*gx, boxes, gbuf_pageable.data());
  EXPECT_EQ(std::memcmp(pinned.data.get(), rbuf.data(), total * sizeof(Real)), 0) << "pack (pinned)";
  EXPECT_EQ(std::memcmp(gbuf_pageable.data(), rbuf.data(), total * sizeof(Real)), 0) << "pack (pageable)";

  // unpack: random message into a poisoned field; cells outside the boxes stay poisoned.
  std::vector<Real> msg(total);
  {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> d(1.0, 2.0);
    for (auto& m : msg) m = static_cast<Real>(d(rng));
  }
  const auto hp = poison<Real>(l);
  for (int pinned_src = 0; pinned_src < 2; ++pinned_src) {
    gpu->upload(*gx, hp);
    ref.upload(*rx, hp);
    if (pinned_src) {
      std::memcpy(pinned.data.get(), msg.data(), total * sizeof(Real));
      gpu->unpack(*gx, boxes, pinned.data.get());
    } else {
      gpu->unpack(*gx, boxes, msg.data());
    }
    ref.unpack(*rx, boxes, msg.data());
    const auto g = down(*gpu, *gx), r = down(ref, *rx);
    EXPECT_EQ(std::memcmp(g.data(), r.data(), g.size() * sizeof(Real)), 0) << "unpack pinned=" << pinned_src;
  }
}
TEST(CudaBackendHalo, PackUnpackDouble) { pack_test<double>(); }
TEST(CudaBackendHalo, PackUnpackFloat) { pack_test<float>(); }

// copy_boxes (device-side, two launches) against the reference (host pack/unpack): a 3D block into a
// flat ghost-free vector and back, and slabs of one field into its own ghosts (periodic self-halo).
template <class Real>
void copy_boxes_test() {
  REQUIRE_CUDA(Real);
  const FieldLayout l = blas_layout();
  FieldLayout flat;
  flat.n = {4 * 17 * 9 + 45, 1, 1};
  const std::vector<IndexBox> block = {IndexBox{{3, 0, 0}, {7, 17, 9}}, IndexBox{{-2, -1, -1}, {43, 0, 0}}};
  const std::vector<IndexBox> line = {IndexBox{{0, 0, 0}, {4 * 17 * 9, 1, 1}},
                                      IndexBox{{4 * 17 * 9, 0, 0}, {4 * 17 * 9 + 45, 1, 1}}};
  const auto hx = random_host<Real>(l, 21);
  auto gx = gpu->create_field(l);
  auto rx = ref.create_field(l);
  auto gv = gpu->create_field(flat);
  auto rv = ref.create_field(flat);
  gpu->upload(*gx, hx);
  ref.upload(*rx, hx);
  gpu->upload(*gv, poison<Real>(flat));
  ref.upload(*rv, poison<Real>(flat));
  gpu->copy_boxes(*gx, block, *gv, line);
  ref.copy_boxes(*rx, block, *rv, line);
  auto g = down(*gpu, *gv), r = down(ref, *rv);
  EXPECT_EQ(std::memcmp(g.data(), r.data(), g.size() * sizeof(Real)), 0) << "block -> flat";
  for (const Real v : g) EXPECT_FALSE(std::isnan(v)) << "flat vector not fully written";

  // flat -> poisoned field, then periodic self-halo along x (owned slabs into the opposite ghosts).
  gpu->upload(*gx, poison<Real>(l));
  ref.upload(*rx, poison<Real>(l));
  gpu->copy_boxes(*gv, line, *gx, block);
  ref.copy_boxes(*rv, line, *rx, block);
  const std::vector<IndexBox> src = {IndexBox{{0, 0, 0}, {2, 17, 9}}, IndexBox{{43, 0, 0}, {45, 17, 9}}};
  const std::vector<IndexBox> dst = {IndexBox{{45, 0, 0}, {47, 17, 9}}, IndexBox{{-2, 0, 0}, {0, 17, 9}}};
  gpu->copy_boxes(*gx, src, *gx, dst);
  ref.copy_boxes(*rx, src, *rx, dst);
  g = down(*gpu, *gx), r = down(ref, *rx);
  EXPECT_EQ(std::memcmp(g.data(), r.data(), g.size() * sizeof(Real)), 0) << "flat -> block, self-halo";
  EXPECT_THROW(gpu->copy_boxes(*gx, src, *gx, std::vector<IndexBox>{dst[0]}), std::invalid_argument);
}
TEST(CudaBackendHalo, CopyBoxesDouble) { copy_boxes_test<double>(); }
TEST(CudaBackendHalo, CopyBoxesFloat) { copy_boxes_test<float>(); }

// ---- boundary ghosts ----------------------------------------------------------------------------------
template <class Real>
void boundary_test() {
  REQUIRE_CUDA(Real);
  FieldLayout l;
  l.n = {13, 11, 9};
  l.ghost = {3, 2, 1};
  const auto hx = random_host<Real>(l, 21);
  auto gx = gpu->create_field(l);
  auto rx = ref.create_field(l);
  int cases = 0;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side)
      for (BoundaryType t : {BoundaryType::dirichlet, BoundaryType::neumann, BoundaryType::periodic})
        for (Centering c : {Centering::vertex, Centering::cell})
          for (bool homogeneous : {false, true}) {
            BoundaryFace face;
            face.axis = axis;
            face.side = side;
            face.bc = FaceBoundary{t, 0.37};
            face.centering = c;
            face.spacing = 0.125;
            gpu->upload(*gx, hx);
            ref.upload(*rx, hx);
            gpu->fill_boundary_ghosts(*gx, face, homogeneous);
            ref.fill_boundary_ghosts(*rx, face, homogeneous);
            const auto g = down(*gpu, *gx), r = down(ref, *rx);
            double err = 0.0;
            for (std::size_t n = 0; n < g.size(); ++n)
              err = std::max(err, std::abs(static_cast<double>(g[n]) - static_cast<double>(r[n])));
            const double btol = std::is_same_v<Real, double> ? 1e-15 : 1e-6;
            EXPECT_LE(err, btol)
                << "axis " << axis << " side " << side << " type " << static_cast<int>(t) << " centering "
                << static_cast<int>(c) << " homogeneous " << homogeneous;
            ++cases;
          }
  EXPECT_EQ(cases, 72);
}
TEST(CudaBackendBoundary, Double) { boundary_test<double>(); }
TEST(CudaBackendBoundary, Float) { boundary_test<float>(); }

// fill_boundary_faces: the CUDA backend's one-launch composed rule against the reference's one fill per
// face in order, on random data (ghosts included): every face set of a few shapes, mixed types and
// centrings, ghost widths 1-3, 2D and 3D, and axes left to "MPI" (faces absent: their ghosts must stay as
// they were and feed the corners of the physical faces).
template <class Real>
void boundary_faces_test() {
  REQUIRE_CUDA(Real);
  struct Shape {
    FieldLayout l;
    int dim;
  };
  std::vector<Shape> shapes(3);
  shapes[0].l.n = {13, 11, 9}, shapes[0].l.ghost = {1, 1, 1}, shapes[0].dim = 3;
  shapes[1].l.n = {7, 6, 5}, shapes[1].l.ghost = {3, 2, 1}, shapes[1].dim = 3;
  shapes[2].l.n = {17, 12, 1}, shapes[2].l.ghost = {2, 1, 0}, shapes[2].dim = 2;
  int cases = 0;
  for (const Shape& sh : shapes) {
    const FieldLayout& l = sh.l;
    const auto hx = random_host<Real>(l, 77 + cases);
    auto gx = gpu->create_field(l);
    auto rx = ref.create_field(l);
    const int nfaces = 2 * sh.dim;
    for (int mask = 1; mask < (1 << nfaces); mask += (sh.dim == 3 ? 5 : 1)) {
      for (int variant = 0; variant < 3; ++variant) {
        std::vector<BoundaryFace> faces;
        for (int f = 0; f < nfaces; ++f) {
          if (!(mask & (1 << f))) continue;
          BoundaryFace face;
          face.axis = f / 2;
          face.side = f % 2;
          const int pick = (f + variant) % 3;
          face.bc = FaceBoundary{pick == 1 ? BoundaryType::neumann : BoundaryType::dirichlet, 0.25 + 0.1 * f};
          face.centering = variant == 2 ? Centering::cell : pick == 2 ? Centering::cell : Centering::vertex;
          face.spacing = 0.125 * (face.axis + 1);
          faces.push_back(face);
        }
        for (bool homogeneous : {false, true}) {
          gpu->upload(*gx, hx);
          ref.upload(*rx, hx);
          gpu->fill_boundary_faces(*gx, faces, homogeneous);
          ref.fill_boundary_faces(*rx, faces, homogeneous);
          const auto g = down(*gpu, *gx), r = down(ref, *rx);
          double err = 0.0;
          long changed = 0;
          for (std::size_t n = 0; n < g.size(); ++n) {
            err = std::max(err, std::abs(static_cast<double>(g[n]) - static_cast<double>(r[n])));
            changed += r[n] != hx[n];
          }
          EXPECT_GT(changed, 0) << "mask " << mask;
          EXPECT_LE(err, (std::is_same_v<Real, double> ? 1e-14 : 1e-5))
              << "shape " << l.n[0] << "x" << l.n[1] << "x" << l.n[2] << " mask " << mask << " variant " << variant
              << " homogeneous " << homogeneous;
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 100);
}
TEST(CudaBackendBoundary, AllFacesDouble) { boundary_faces_test<double>(); }
TEST(CudaBackendBoundary, AllFacesFloat) { boundary_faces_test<float>(); }

// ---- factory ------------------------------------------------------------------------------------------
TEST(CudaBackendFactory, CreateOrUnavailable) {
  register_cuda_backend();
  bool have = false;
  try {
    auto b = create_backend<double>("cuda", MPI_COMM_WORLD);
    have = true;
    EXPECT_EQ(b->name(), "cuda");
    FieldLayout l;
    l.n = {4, 4, 4};
    l.ghost = {1, 1, 1};
    auto f = b->create_field(l);
    EXPECT_EQ(f->backend_name(), "cuda");
    b->fill(*f, 2.0);
    EXPECT_EQ(b->norm_inf(*f), 2.0);
  } catch (const BackendUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("backend 'cuda': no CUDA device found"), std::string::npos) << e.what();
  }
  if (!have) GTEST_SKIP() << "SKIPPED: no CUDA device";
}

}  // namespace
