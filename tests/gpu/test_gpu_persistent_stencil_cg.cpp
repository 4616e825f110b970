// GPU tests of the matrix-free persistent CG (CudaBackend::persistent_stencil_cg,
// framework/backends/cuda/persistent_stencil_cg.cu): the one-kernel CG loop with a constant stencil against
// the same loop run operation by operation on the same backend (homogeneous boundary fill + apply_stencil,
// dot, cg_update, axpby), for every compiled CG shape (3D 7 / 27 points, 2D 5 / 9 points), fp64 and fp32, with
// Dirichlet (vertex- and cell-centred) and Neumann (cell-centred) faces, the r / x caches off, partial and
// automatic, and block counts that give every block several items; p's boundary ghosts as the kernel leaves
// them against one homogeneous fill of the reference; in-kernel stopping and breakdown; whole solves with
// solver.persistent = "on" / "off" against the Kokkos backend. The reductions are per block, so iterates agree
// to rounding, not bit for bit. Without a CUDA device every test calls GTEST_SKIP().
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/runtime/run.hpp"
#include "framework/stencil/stencil.hpp"
#include "tests/gpu/gpu_test_support.hpp"
#include "tests/gpu/persistent_cg_test_support.hpp"

namespace perksolve {
namespace {

// Symmetric faces (so the operator with homogeneous ghosts is SPD): axis 0 vertex-centred Dirichlet on both
// sides (constant ghosts: the boundary vertex), axes 1 and 2 cell-centred, Dirichlet on one side and Neumann
// on the other.
std::vector<BoundaryFace> spd_faces(int dim) {
  std::vector<BoundaryFace> f;
  for (int a = 0; a < dim; ++a)
    for (int side = 0; side < 2; ++side) {
      const bool neumann = a > 0 && side == (a == 1 ? 1 : 0);
      f.push_back(BoundaryFace{a, side, FaceBoundary{neumann ? BoundaryType::neumann : BoundaryType::dirichlet, 0.0},
                               a == 0 ? Centering::vertex : Centering::cell, 1.0});
    }
  return f;
}

// The CG operators: the Laplacians, and a 9-point 2D one (8 at the centre, -1 around).
Stencil cg_stencil(const std::string& name) {
  if (name == "laplacian_7pt") return laplacian_7pt(1.0, 1.0, 1.0);
  if (name == "laplacian_27pt_fe") return laplacian_27pt_fe(1.0);
  if (name == "laplacian_5pt") return laplacian_5pt(1.0, 1.0);
  Stencil s = make_stencil("box9", {2, ShapeKind::box, 1});
  s.coeffs.assign(static_cast<std::size_t>(s.size()), -1.0);
  s.coeffs[static_cast<std::size_t>(s.center_index())] = 8.0;
  return s;
}

template <class Real>
struct Vectors {
  FieldPtr<Real> x, r, p, q, b;
};

// x, b random; r = b - A x (homogeneous ghosts of x), p = r with its ghosts filled, q poisoned; returns r.r.
template <class Real>
double start(CudaBackend<Real>& be, const Stencil& A, const std::vector<BoundaryFace>& faces, const FieldLayout& l,
             Vectors<Real>& v, unsigned seed) {
  for (FieldPtr<Real>* f : {&v.x, &v.r, &v.p, &v.q, &v.b}) *f = be.create_field(l);
  be.upload(*v.x, gpu_test::random_values<Real>(l.size(), seed));
  be.upload(*v.b, gpu_test::random_values<Real>(l.size(), seed + 1));
  be.fill_boundary_faces(*v.x, faces, true);
  be.apply_stencil(A, *v.x, *v.q);
  be.copy(*v.b, *v.r);
  be.axpby(Real(-1), *v.q, Real(1), *v.r);
  be.copy(*v.r, *v.p);
  be.fill_boundary_faces(*v.p, faces, true);
  be.upload(*v.q, gpu_test::nan_values<Real>(l.size()));
  return be.dot(*v.r, *v.r);
}

// `iterations` CG iterations operation by operation (GridOperator::apply and the cg solver's loop).
template <class Real>
std::vector<double> by_operations(CudaBackend<Real>& be, const Stencil& A, const std::vector<BoundaryFace>& faces,
                                  Vectors<Real>& v, double rr, long iterations) {
  std::vector<double> history;
  for (long k = 0; k < iterations; ++k) {
    be.fill_boundary_faces(*v.p, faces, true);
    be.apply_stencil(A, *v.p, *v.q);
    const double pq = be.dot(*v.p, *v.q);
    const double rr_new = be.cg_update(static_cast<Real>(rr / pq), *v.p, *v.q, *v.x, *v.r);
    be.axpby(Real(1), *v.r, static_cast<Real>(rr_new / rr), *v.p);
    rr = rr_new;
    history.push_back(rr);
  }
  be.fill_boundary_faces(*v.p, faces, true);
  return history;
}

// max |a - b| / max |b| over the owned cells (and the ghost cells when `ghosts`).
template <class Real>
double rel_diff(CudaBackend<Real>& be, const FieldLayout& l, const Field<Real>& a, const Field<Real>& b, bool ghosts) {
  const auto ha = gpu_test::download(be, a), hb = gpu_test::download(be, b);
  const IndexBox box = ghosts ? l.with_ghosts() : l.owned();
  double diff = 0.0, norm = 0.0;
  for (int k = box.begin[2]; k < box.end[2]; ++k)
    for (int j = box.begin[1]; j < box.end[1]; ++j)
      for (int i = box.begin[0]; i < box.end[0]; ++i) {
        const long n = l.index(i, j, k);
        const double x = static_cast<double>(ha[n]), y = static_cast<double>(hb[n]);
        if (!std::isfinite(x)) return INFINITY;
        diff = std::max(diff, std::abs(x - y));
        norm = std::max(norm, std::abs(y));
      }
  return diff / norm;
}

template <class Real>
FieldLayout grid(int dim, std::array<int, 3> n) {
  FieldLayout l;
  l.n = n;
  l.ghost = {1, 1, dim == 3 ? 1 : 0};
  l.align = grid_row_align<Real>(l);
  return l;
}

template <class Real>
void matches_operations() {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  const double tol = sizeof(Real) == 8 ? 1e-10 : 2e-4;
  struct Case {
    const char* stencil;
    std::array<int, 3> n;
    long cache_bytes;
    int max_blocks;
  };
  // Narrow and wide rows (small and large tiles), several items per block (max_blocks), caches automatic,
  // off and a few KB (part of each block's range on chip).
  for (const Case c : {Case{"laplacian_7pt", {70, 45, 40}, -1, 0}, Case{"laplacian_7pt", {70, 45, 40}, 0, 5},
                       Case{"laplacian_7pt", {460, 21, 26}, 4096, 0}, Case{"laplacian_27pt_fe", {70, 45, 40}, -1, 7},
                       Case{"laplacian_27pt_fe", {33, 31, 29}, 2048, 0}, Case{"laplacian_5pt", {1500, 90, 1}, -1, 0},
                       Case{"laplacian_5pt", {301, 200, 1}, 0, 3}, Case{"box9", {700, 123, 1}, 4096, 0}}) {
    const Stencil A = cg_stencil(c.stencil);
    const int dim = A.dim();
    const FieldLayout l = grid<Real>(dim, c.n);
    SCOPED_TRACE(std::string(c.stencil) + " " + std::to_string(c.n[0]) + "x" + std::to_string(c.n[1]) + "x" +
                 std::to_string(c.n[2]) + " cache " + std::to_string(c.cache_bytes) + " max_blocks " +
                 std::to_string(c.max_blocks) + (sizeof(Real) == 8 ? " f64" : " f32"));
    const std::vector<BoundaryFace> faces = spd_faces(dim);
    Vectors<Real> ref, per;
    const double rr0 = start(*gpu, A, faces, l, ref, 5);
    ASSERT_EQ(start(*gpu, A, faces, l, per, 5), rr0);
    const long compare = 3, longer = 40;
    const std::vector<double> h_ref = by_operations(*gpu, A, faces, ref, rr0, compare);
    PersistentCgRequest req;
    req.iterations = compare;
    req.rr = rr0;
    req.check_every = 0;
    req.cache_bytes = c.cache_bytes;
    req.max_blocks = c.max_blocks;
    const PersistentCg run = gpu->persistent_stencil_cg(A, faces, *per.x, *per.r, *per.p, *per.q, req);
    ASSERT_TRUE(run.ran);
    std::printf("[persistent_stencil_cg] %s %dx%dx%d: %d blocks x %d threads, on chip r %.2f x %.2f\n", c.stencil,
                c.n[0], c.n[1], c.n[2], run.blocks, run.threads, run.cached_r, run.cached_x);
    if (c.cache_bytes == 0) {
      EXPECT_EQ(run.cached_r, 0.0);
      EXPECT_EQ(run.cached_x, 0.0);
    } else {
      EXPECT_GT(run.cached_r, 0.0);
    }
    EXPECT_EQ(run.stop, PersistentCgStop::budget);
    ASSERT_EQ(run.iterations, compare);
    ASSERT_EQ(run.rr_history.size(), h_ref.size());
    for (std::size_t i = 0; i < h_ref.size(); ++i)
      EXPECT_NEAR(run.rr_history[i], h_ref[i], tol * h_ref[i]) << "iteration " << i + 1;
    const double scale = std::sqrt(rr0 / h_ref.back());  // r and p shrink; x does not
    EXPECT_LE(rel_diff(*gpu, l, *per.x, *ref.x, false), tol);
    EXPECT_LE(rel_diff(*gpu, l, *per.r, *ref.r, false), tol * scale);
    EXPECT_LE(rel_diff(*gpu, l, *per.p, *ref.p, true), tol * scale) << "p with its boundary ghosts";
    EXPECT_LE(rel_diff(*gpu, l, *per.q, *ref.q, false), tol * scale) << "q = A p of the last iteration";

    // Continue in a second launch (the state hands over) and check CG's invariants.
    gpu_test::expect_cg_invariants_after_more(
        *gpu, req, compare, run.rr, longer, rr0, 0.5, *per.x, *per.r, *per.b,
        [&](const PersistentCgRequest& q) { return gpu->persistent_stencil_cg(A, faces, *per.x, *per.r, *per.p, *per.q, q); },
        [&](Field<Real>& x, Field<Real>& ax) {
          gpu->fill_boundary_faces(x, faces, true);
          gpu->apply_stencil(A, x, ax);
        });
  }
}

TEST(CudaPersistentStencilCg, MatchesOperationLoopDouble) { matches_operations<double>(); }
TEST(CudaPersistentStencilCg, MatchesOperationLoopFloat) { matches_operations<float>(); }

// A shape the CG kernel does not compile runs operation by operation (ran = false), as does a periodic face.
TEST(CudaPersistentStencilCg, DeclinesOtherShapesAndPeriodicFaces) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  const FieldLayout l = grid<double>(3, {20, 20, 20});
  Vectors<double> v;
  const Stencil A = cg_stencil("laplacian_7pt");
  std::vector<BoundaryFace> faces = spd_faces(3);
  const double rr0 = start(*gpu, A, faces, l, v, 3);
  PersistentCgRequest req;
  req.iterations = 2;
  req.rr = rr0;
  Stencil star2 = perks_stencil("3d13pt");
  FieldLayout l2 = l;
  l2.ghost = {2, 2, 2};
  Vectors<double> w;
  start(*gpu, star2, faces, l2, w, 3);
  EXPECT_FALSE(gpu->persistent_stencil_cg(star2, faces, *w.x, *w.r, *w.p, *w.q, req).ran);
  faces[0].bc.type = BoundaryType::periodic;
  faces[1].bc.type = BoundaryType::periodic;
  EXPECT_FALSE(gpu->persistent_stencil_cg(A, faces, *v.x, *v.r, *v.p, *v.q, req).ran);
}

// In-kernel stopping: at the first check iteration whose ||r|| is below the threshold, the same one the
// operation loop finds; chunks continue where the previous one stopped.
TEST(CudaPersistentStencilCg, StopsAtThresholdInChunks) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  const Stencil A = cg_stencil("laplacian_7pt");
  const FieldLayout l = grid<double>(3, {24, 20, 18});
  const std::vector<BoundaryFace> faces = spd_faces(3);
  Vectors<double> ref, per;
  const double rr0 = start(*gpu, A, faces, l, ref, 9);
  start(*gpu, A, faces, l, per, 9);
  const std::vector<double> h = by_operations(*gpu, A, faces, ref, rr0, 300);
  gpu_test::expect_stop_at_threshold_in_chunks(h, rr0, 1e-6 * std::sqrt(rr0), 3, [&](const PersistentCgRequest& req) {
    return gpu->persistent_stencil_cg(A, faces, *per.x, *per.r, *per.p, *per.q, req);
  });
}

// p.Ap <= 0 (a negative definite stencil) stops before any update of that iteration.
TEST(CudaPersistentStencilCg, BreakdownOnNegativeDefiniteStencil) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  Stencil A = cg_stencil("laplacian_5pt");
  for (double& c : A.coeffs) c = -c;
  const FieldLayout l = grid<double>(2, {100, 60, 1});
  const std::vector<BoundaryFace> faces = spd_faces(2);
  Vectors<double> v;
  const double rr0 = start(*gpu, A, faces, l, v, 2);
  gpu_test::expect_breakdown_before_any_update(*gpu, rr0, *v.x, [&](const PersistentCgRequest& req) {
    return gpu->persistent_stencil_cg(A, faces, *v.x, *v.r, *v.p, *v.q, req);
  });
}

// Whole solves through the deck on a grid problem: solver.persistent = "on" and "off" on the cuda backend
// against the Kokkos backend (iterations equal, residuals and solutions to rounding).
TEST(CudaPersistentStencilCg, GridSolveMatchesKokkos) {
  if (gpu_test::backend<double>() == nullptr) GTEST_SKIP() << "SKIPPED: no CUDA device";
  for (const char* dims : {"dimension = 3\nextents = [31, 27, 23]", "dimension = 2\nextents = [200, 150]"}) {
    auto solve = [&](const std::string& backend, const std::string& persistent, int check_every) {
      const std::string text = std::string("[grid]\n") + dims +
                               "\n[problem]\ntype = \"poisson_random\"\n[solver]\ntype = \"cg\"\npersistent = \"" +
                               persistent + "\"\n[solver.stop]\nmax_iterations = 3000\nrtol = 1e-10\ncheck_every = " +
                               std::to_string(check_every) + "\n[backend]\ntype = \"" + backend +
                               "\"\n[monitor]\nquiet = true\n";
      return solve_deck<double>(config::load_deck_from_string(text, "gpu-stencil-cg-" + backend, {}), MPI_COMM_WORLD,
                                true);
    };
    for (int check_every : {1, 4}) {
      SCOPED_TRACE(std::string(dims) + " check_every " + std::to_string(check_every));
      const RunOutcome on = solve("cuda", "on", check_every);
      const RunOutcome off = solve("cuda", "off", check_every);
      const RunOutcome ref = solve("kokkos", "off", check_every);
      std::printf("[e2e] matrix-free persistent CG (%s), check_every %d: on %ld it |r| %.6e (%.4f s)  off %ld it "
                  "(%.4f s)  kokkos %ld it |r| %.6e\n",
                  dims, check_every, on.result.iterations, on.result.final_residual, on.result.seconds,
                  off.result.iterations, off.result.seconds, ref.result.iterations, ref.result.final_residual);
      EXPECT_TRUE(ref.result.converged());
      for (const RunOutcome* g : {&on, &off}) {
        EXPECT_EQ(g->result.reason, ref.result.reason);
        EXPECT_EQ(g->result.iterations, ref.result.iterations);
        EXPECT_NEAR(g->result.final_residual, ref.result.final_residual, 1e-10 * ref.result.initial_residual);
        gpu_test::expect_close_solutions(g->global_solution, ref.global_solution, 1e-9);
      }
    }
  }
}

}  // namespace
}  // namespace perksolve
