// GPU tests of the persistent CG (CudaBackend::persistent_cg, framework/backends/cuda/persistent_cg.cu):
// the one-kernel CG loop against the same loop run operation by operation on the same backend (spmv, dot,
// cg_update, axpby), on random SPD matrices whose rows cross thread, tile and block boundaries, with the
// on-chip caches off, partial and full, and several block counts; its in-kernel stopping (thresholds,
// breakdown); and whole solves with solver.persistent = "on" against the Kokkos backend. The SpMV sums
// rows in another order (merge-path carries) and the reductions are per block, so iterates agree to
// rounding, not bit for bit. The row-block walk (CudaCgWalk::rows) runs the same checks, and its SpMV is
// compared bit for bit with the operation loop's stream SpMV. Without a CUDA device every test calls GTEST_SKIP().
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/operators/csr_operator.hpp"
#include "framework/runtime/run.hpp"
#include "tests/gpu/gpu_test_support.hpp"
#include "tests/gpu/persistent_cg_test_support.hpp"

namespace perksolve {
namespace {

// A symmetric, strictly diagonally dominant (so SPD) matrix: a 3D 7-point pattern on an n^3 grid with
// random off-diagonal weights, plus `dense` rows/columns coupled to everything (an "arrow"), whose rows
// are longer than a tile of merge items.
CsrBlock spd_block(int n, int dense, unsigned seed) {
  const long rows = static_cast<long>(n) * n * n;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> w(0.1, 1.0);
  std::vector<std::vector<std::pair<int, double>>> entries(static_cast<std::size_t>(rows));
  auto couple = [&](long a, long b, double v) {
    entries[a].emplace_back(static_cast<int>(b), -v);
    entries[b].emplace_back(static_cast<int>(a), -v);
  };
  for (long e = 0; e < rows; ++e) {
    const long i = e % n, j = (e / n) % n, k = e / (static_cast<long>(n) * n);
    if (i + 1 < n) couple(e, e + 1, w(rng));
    if (j + 1 < n) couple(e, e + n, w(rng));
    if (k + 1 < n) couple(e, e + static_cast<long>(n) * n, w(rng));
  }
  for (int d = 0; d < dense; ++d) {
    const long a = (d * 7919L) % rows;
    for (long e = 0; e < rows; ++e)
      if (e != a && (e % 3 == 0)) couple(a, e, 0.01 * w(rng));
  }
  CsrBlock b;
  b.rows = rows;
  b.row_ptr.push_back(0);
  for (long r = 0; r < rows; ++r) {
    auto& row = entries[r];
    std::sort(row.begin(), row.end());
    double off = 0.0;
    for (auto& [c, v] : row) off += std::abs(v);
    row.emplace_back(static_cast<int>(r), off + 0.05 + 0.5 * w(rng));
    std::sort(row.begin(), row.end());
    // merge duplicates (dense rows may couple to a neighbour twice)
    std::vector<std::pair<int, double>> merged;
    for (auto& [c, v] : row) {
      if (!merged.empty() && merged.back().first == c) merged.back().second += v;
      else merged.emplace_back(c, v);
    }
    for (auto& [c, v] : merged) {
      b.col.push_back(c);
      b.val.push_back(v);
    }
    b.row_ptr.push_back(static_cast<long>(b.col.size()));
  }
  return b;
}

// Sets the backend's persistent CG walk for a scope and restores the one before (the tests share one backend).
template <class Real>
struct WalkScope {
  CudaBackend<Real>& be;
  const CudaCgWalk before;
  WalkScope(CudaBackend<Real>& b, CudaCgWalk w) : be(b), before(b.cg_walk()) { be.set_cg_walk(w); }
  ~WalkScope() { be.set_cg_walk(before); }
};

template <class Real>
struct CgVectors {
  FieldPtr<Real> x, r, p, q, b;
};

// x = random, r = b - A x for a random b, p = r, q poisoned; returns r.r.
template <class Real>
double cg_start(CudaBackend<Real>& be, const SparseMatrix<Real>& A, CgVectors<Real>& v, long rows, unsigned seed) {
  const FieldLayout l = vector_layout(rows);
  v.x = be.create_field(l);
  v.r = be.create_field(l);
  v.p = be.create_field(l);
  v.q = be.create_field(l);
  v.b = be.create_field(l);
  be.upload(*v.x, gpu_test::random_values<Real>(rows, seed));
  be.upload(*v.b, gpu_test::random_values<Real>(rows, seed + 1));
  be.spmv(A, *v.x, nullptr, *v.q);
  be.copy(*v.b, *v.r);
  be.axpby(Real(-1), *v.q, Real(1), *v.r);
  be.copy(*v.r, *v.p);
  be.upload(*v.q, gpu_test::nan_values<Real>(rows));
  return be.dot(*v.r, *v.r);
}

// `iterations` CG iterations operation by operation (the cg solver's loop without preconditioner).
template <class Real>
std::vector<double> cg_by_operations(CudaBackend<Real>& be, const SparseMatrix<Real>& A, CgVectors<Real>& v, double rr,
                                     long iterations) {
  std::vector<double> history;
  for (long k = 0; k < iterations; ++k) {
    be.spmv(A, *v.p, nullptr, *v.q);
    const double pq = be.dot(*v.p, *v.q);
    const double rr_new = be.cg_update(static_cast<Real>(rr / pq), *v.p, *v.q, *v.x, *v.r);
    be.axpby(Real(1), *v.r, static_cast<Real>(rr_new / rr), *v.p);
    rr = rr_new;
    history.push_back(rr);
  }
  return history;
}

template <class Real>
double max_rel_diff(CudaBackend<Real>& be, const Field<Real>& a, const Field<Real>& b) {
  const auto ha = gpu_test::download(be, a), hb = gpu_test::download(be, b);
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < ha.size(); ++i) {
    if (!std::isfinite(static_cast<double>(ha[i]))) return INFINITY;
    diff = std::max(diff, std::abs(static_cast<double>(ha[i]) - static_cast<double>(hb[i])));
    norm = std::max(norm, std::abs(static_cast<double>(hb[i])));
  }
  return diff / norm;
}

// Whether two fields hold the same bits, value by value.
template <class Real>
::testing::AssertionResult same_bits(CudaBackend<Real>& be, const Field<Real>& a, const Field<Real>& b) {
  const auto ha = gpu_test::download(be, a), hb = gpu_test::download(be, b);
  if (ha.size() != hb.size()) return ::testing::AssertionFailure() << "sizes " << ha.size() << " and " << hb.size();
  long differ = 0;
  for (std::size_t i = 0; i < ha.size(); ++i) differ += std::memcmp(&ha[i], &hb[i], sizeof(Real)) != 0;
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " of " << ha.size() << " values differ";
}

// A persistent CG case: spd_block(n, dense), the on-chip budget (PersistentCgRequest::cache_bytes) and a block limit.
struct CgCase {
  int n, dense;
  long cache_bytes;
  int max_blocks;
  std::string label() const {
    return "n " + std::to_string(n) + " dense " + std::to_string(dense) + " cache_bytes " + std::to_string(cache_bytes) +
           " max_blocks " + std::to_string(max_blocks);
  }
};

template <class Real>
void persistent_matches_operations(CudaCgWalk walk) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  const WalkScope<Real> scope(*gpu, walk);
  // Against the operation loop for a few iterations (later ones amplify the rounding differences of the
  // other summation order as CG loses orthogonality, fp32 first); then, over a longer run, CG's own
  // invariants: the recursive residual stays b - A x and the reported r.r is r.r.
  const double tol = sizeof(Real) == 8 ? 1e-10 : 2e-4;
  const long compare = 3, longer = 40;
  // 6^3: one block; 24^3 with arrow rows: rows longer than a tile (4096 merge items), 1 / 3 / all blocks;
  // caches off, 2 KB (a few rows of r), and everything that fits.
  for (const CgCase c : {CgCase{6, 0, -1, 0}, CgCase{24, 2, -1, 0}, CgCase{24, 2, 0, 0}, CgCase{24, 2, 2048, 3},
                       CgCase{24, 0, -1, 1}, CgCase{24, 1, 0, 1}, CgCase{40, 0, -1, 0}, CgCase{40, 0, 4096, 0}}) {
    SCOPED_TRACE(c.label());
    const CsrBlock blk = spd_block(c.n, c.dense, 11 + c.n);
    auto A = gpu->create_sparse_matrix(blk);
    CgVectors<Real> ref, per;
    const double rr0 = cg_start(*gpu, *A, ref, blk.rows, 5);
    ASSERT_EQ(cg_start(*gpu, *A, per, blk.rows, 5), rr0);
    const std::vector<double> h_ref = cg_by_operations(*gpu, *A, ref, rr0, compare);
    PersistentCgRequest req;
    req.iterations = compare;
    req.rr = rr0;
    req.check_every = 0;
    req.cache_bytes = c.cache_bytes;
    req.max_blocks = c.max_blocks;
    const PersistentCg run = gpu->persistent_cg(*A, *per.x, *per.r, *per.p, *per.q, req);
    ASSERT_TRUE(run.ran);
    std::printf("[persistent_cg] n %d dense %d: %d blocks, on chip r %.2f q %.2f x %.2f p %d A %d\n", c.n, c.dense,
                run.blocks, run.cached_r, run.cached_q, run.cached_x, run.cached_p ? 1 : 0, run.cached_a ? 1 : 0);
    EXPECT_EQ(run.stop, PersistentCgStop::budget);
    ASSERT_EQ(run.iterations, compare);
    ASSERT_EQ(run.rr_history.size(), h_ref.size());
    for (std::size_t i = 0; i < h_ref.size(); ++i)
      EXPECT_NEAR(run.rr_history[i], h_ref[i], tol * h_ref[i]) << "iteration " << i + 1;
    const double scale = std::sqrt(rr0 / h_ref.back());  // r and p shrink; x does not
    EXPECT_LE(max_rel_diff(*gpu, *per.x, *ref.x), tol);
    EXPECT_LE(max_rel_diff(*gpu, *per.r, *ref.r), tol * scale);
    EXPECT_LE(max_rel_diff(*gpu, *per.p, *ref.p), tol * scale);
    if (c.cache_bytes == 0)  // nothing cached: q = A p of the last iteration is in global memory
      EXPECT_LE(max_rel_diff(*gpu, *per.q, *ref.q), tol * scale);

    // Continue the persistent run in a second launch (the state hands over) and check the invariants.
    gpu_test::expect_cg_invariants_after_more(
        *gpu, req, compare, run.rr, longer, rr0, 1e-2, *per.x, *per.r, *per.b,
        [&](const PersistentCgRequest& q) { return gpu->persistent_cg(*A, *per.x, *per.r, *per.p, *per.q, q); },
        [&](Field<Real>& x, Field<Real>& ax) { gpu->spmv(*A, x, nullptr, ax); });
  }
}

TEST(CudaPersistentCg, MatchesOperationLoopDouble) { persistent_matches_operations<double>(CudaCgWalk::staged); }
TEST(CudaPersistentCg, MatchesOperationLoopFloat) { persistent_matches_operations<float>(CudaCgWalk::staged); }
TEST(CudaPersistentCg, RowsWalkMatchesOperationLoopDouble) { persistent_matches_operations<double>(CudaCgWalk::rows); }
TEST(CudaPersistentCg, RowsWalkMatchesOperationLoopFloat) { persistent_matches_operations<float>(CudaCgWalk::rows); }

// The row-block walk's SpMV is the operation loop's stream SpMV body (csr_stream_rows): after one iteration from
// the same start, q = A p agrees bit for bit with CudaBackend::spmv's native path, including rows longer than a
// stream block (arrow rows: one block sums them) and grids with fewer blocks than row blocks.
template <class Real>
void rows_walk_spmv_matches_stream_spmv() {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  ASSERT_EQ(gpu->spmv_path(), CudaSpmvPath::native);
  const WalkScope<Real> scope(*gpu, CudaCgWalk::rows);
  for (const CgCase c : {CgCase{24, 2, 0, 0}, CgCase{24, 2, 0, 3}, CgCase{40, 0, 0, 0}, CgCase{40, 0, 0, 5}}) {
    SCOPED_TRACE(c.label());
    const CsrBlock blk = spd_block(c.n, c.dense, 41 + c.n);
    auto A = gpu->create_sparse_matrix(blk);
    CgVectors<Real> ref, per;
    const double rr0 = cg_start(*gpu, *A, ref, blk.rows, 13);
    ASSERT_EQ(cg_start(*gpu, *A, per, blk.rows, 13), rr0);
    gpu->spmv(*A, *ref.p, nullptr, *ref.q);
    PersistentCgRequest req;
    req.iterations = 1;
    req.rr = rr0;
    req.check_every = 0;
    req.max_blocks = c.max_blocks;
    const PersistentCg run = gpu->persistent_cg(*A, *per.x, *per.r, *per.p, *per.q, req);
    ASSERT_TRUE(run.ran);
    ASSERT_EQ(run.iterations, 1);
    std::printf("[rows walk] n %d dense %d: %d blocks of %d threads\n", c.n, c.dense, run.blocks, run.threads);
    if (c.max_blocks > 0) EXPECT_EQ(run.blocks, c.max_blocks);
    EXPECT_TRUE(same_bits(*gpu, *per.q, *ref.q));
  }
}

TEST(CudaPersistentCg, RowsWalkSpmvMatchesStreamSpmvBitForBitDouble) { rows_walk_spmv_matches_stream_spmv<double>(); }
TEST(CudaPersistentCg, RowsWalkSpmvMatchesStreamSpmvBitForBitFloat) { rows_walk_spmv_matches_stream_spmv<float>(); }

// The staged walk (tile entries read coalesced, products and row ends in shared memory) against the per-thread
// walk over global memory: the same products added in the same order, so x, r, p, q and the r.r history agree bit
// for bit. Rows longer than a tile (arrow rows), several tiles and blocks per block, caches off and partial; the
// matrix is never cached whole here (that case always walks per thread).
template <class Real>
void staged_walk_matches_per_thread_walk() {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  const WalkScope<Real> scope(*gpu, CudaCgWalk::staged);
  for (const CgCase c :
       {CgCase{24, 2, 0, 0}, CgCase{24, 2, 2048, 3}, CgCase{24, 1, 0, 1}, CgCase{40, 0, 0, 0}, CgCase{40, 0, 4096, 5}}) {
    SCOPED_TRACE(c.label());
    const CsrBlock blk = spd_block(c.n, c.dense, 31 + c.n);
    auto A = gpu->create_sparse_matrix(blk);
    CgVectors<Real> walk[2];
    const double rr0 = cg_start(*gpu, *A, walk[0], blk.rows, 7);
    ASSERT_EQ(cg_start(*gpu, *A, walk[1], blk.rows, 7), rr0);
    PersistentCgRequest req;
    req.iterations = 12;
    req.rr = rr0;
    req.check_every = 0;
    req.cache_bytes = c.cache_bytes;
    req.max_blocks = c.max_blocks;
    PersistentCg run[2];
    for (int w = 0; w < 2; ++w) {
      gpu->set_cg_walk(w == 0 ? CudaCgWalk::staged : CudaCgWalk::per_thread);
      run[w] = gpu->persistent_cg(*A, *walk[w].x, *walk[w].r, *walk[w].p, *walk[w].q, req);
      ASSERT_TRUE(run[w].ran);
      ASSERT_FALSE(run[w].cached_a);
    }
    std::printf("[staged walk] n %d dense %d: %d blocks, %ld iterations\n", c.n, c.dense, run[0].blocks,
                run[0].iterations);
    ASSERT_EQ(run[0].iterations, req.iterations);
    ASSERT_EQ(run[1].iterations, req.iterations);
    EXPECT_EQ(run[0].rr_history, run[1].rr_history);
    for (auto f : {&CgVectors<Real>::x, &CgVectors<Real>::r, &CgVectors<Real>::p, &CgVectors<Real>::q})
      EXPECT_TRUE(same_bits(*gpu, *(walk[0].*f), *(walk[1].*f)));
  }
}

TEST(CudaPersistentCg, StagedWalkMatchesPerThreadWalkBitForBitDouble) { staged_walk_matches_per_thread_walk<double>(); }
TEST(CudaPersistentCg, StagedWalkMatchesPerThreadWalkBitForBitFloat) { staged_walk_matches_per_thread_walk<float>(); }

// In-kernel stopping: at the first check iteration whose ||r|| is below the threshold, the same one the
// operation loop finds; chunks continue where the previous one stopped.
TEST(CudaPersistentCg, StopsAtThresholdInChunks) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  const CsrBlock blk = spd_block(16, 1, 3);
  auto A = gpu->create_sparse_matrix(blk);
  CgVectors<double> ref, per;
  const double rr0 = cg_start(*gpu, *A, ref, blk.rows, 9);
  const std::vector<double> h = cg_by_operations(*gpu, *A, ref, rr0, 200);
  const WalkScope<double> scope(*gpu, CudaCgWalk::staged);
  for (const CudaCgWalk walk : {CudaCgWalk::staged, CudaCgWalk::rows}) {
    SCOPED_TRACE(walk == CudaCgWalk::rows ? "rows walk" : "staged walk");
    gpu->set_cg_walk(walk);
    cg_start(*gpu, *A, per, blk.rows, 9);
    gpu_test::expect_stop_at_threshold_in_chunks(h, rr0, 1e-6 * std::sqrt(rr0), 3, [&](const PersistentCgRequest& req) {
      return gpu->persistent_cg(*A, *per.x, *per.r, *per.p, *per.q, req);
    });
  }
}

// p.Ap <= 0 stops before any update of that iteration.
TEST(CudaPersistentCg, BreakdownOnIndefiniteMatrix) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  CsrBlock blk = spd_block(8, 0, 4);
  for (long r = 0; r < blk.rows; ++r)
    for (long e = blk.row_ptr[r]; e < blk.row_ptr[r + 1]; ++e) blk.val[e] = -blk.val[e];  // negative definite
  auto A = gpu->create_sparse_matrix(blk);
  const WalkScope<double> scope(*gpu, CudaCgWalk::staged);
  for (const CudaCgWalk walk : {CudaCgWalk::staged, CudaCgWalk::rows}) {
    SCOPED_TRACE(walk == CudaCgWalk::rows ? "rows walk" : "staged walk");
    gpu->set_cg_walk(walk);
    CgVectors<double> v;
    const double rr0 = cg_start(*gpu, *A, v, blk.rows, 2);
    gpu_test::expect_breakdown_before_any_update(*gpu, rr0, *v.x, [&](const PersistentCgRequest& req) {
      return gpu->persistent_cg(*A, *v.x, *v.r, *v.p, *v.q, req);
    });
  }
}

// Above the L2 (a matrix whose working set, A and four vectors, is at least twice the L2): the automatic walk
// takes the row-block walk (256-thread blocks, nothing on chip), also for solver.persistent = "auto"
// (only_where_faster); a merge walk forced there is declined by "auto" with the reason, leaving the vectors
// untouched, and runs with "on" (512-thread blocks). A small matrix takes the merge walk with "auto".
TEST(CudaPersistentCg, AutoTakesTheRowWalkAboveL2AndDeclinesAForcedMergeWalkThere) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  const long l2 = gpu->perks_device().l2_bytes;
  ASSERT_GT(l2, 0);
  // 7-point pattern on n^3 rows: about 116 bytes per row in fp64 (7 entries of 12 bytes, 4 vectors of 8), so that
  // the working set is at least twice the L2.
  int n = 40;
  while (116.0 * n * n * n < 2.0 * static_cast<double>(l2)) n += 10;
  const CsrBlock big = spd_block(n, 0, 5);
  auto A = gpu->create_sparse_matrix(big);
  CgVectors<double> v;
  PersistentCgRequest req;
  req.iterations = 2;
  req.rr = cg_start(*gpu, *A, v, big.rows, 3);
  req.check_every = 0;
  req.only_where_faster = true;
  {
    const WalkScope<double> scope(*gpu, CudaCgWalk::automatic);
    const PersistentCg rows = gpu->persistent_cg(*A, *v.x, *v.r, *v.p, *v.q, req);
    std::printf("[auto] %ld rows, L2 %ld MB: %d blocks of %d threads\n", big.rows, l2 >> 20, rows.blocks, rows.threads);
    EXPECT_TRUE(rows.ran);
    EXPECT_TRUE(rows.declined.empty());
    EXPECT_EQ(rows.iterations, 2);
    EXPECT_EQ(rows.threads, 256);
    EXPECT_EQ(rows.cached_r, 0.0);
  }
  const WalkScope<double> scope(*gpu, CudaCgWalk::staged);
  req.rr = cg_start(*gpu, *A, v, big.rows, 3);
  const std::vector<double> x0 = gpu_test::download(*gpu, *v.x);
  const PersistentCg declined = gpu->persistent_cg(*A, *v.x, *v.r, *v.p, *v.q, req);
  std::printf("[auto, staged walk forced] %s\n", declined.declined.c_str());
  EXPECT_FALSE(declined.ran);
  EXPECT_NE(declined.declined.find("exceed the L2 cache"), std::string::npos) << declined.declined;
  EXPECT_EQ(gpu_test::download(*gpu, *v.x), x0);
  req.only_where_faster = false;
  const PersistentCg forced = gpu->persistent_cg(*A, *v.x, *v.r, *v.p, *v.q, req);
  EXPECT_TRUE(forced.ran);
  EXPECT_TRUE(forced.declined.empty());
  EXPECT_EQ(forced.iterations, 2);
  EXPECT_EQ(forced.threads, 512);
  gpu->set_cg_walk(CudaCgWalk::automatic);
  const CsrBlock small = spd_block(16, 1, 3);
  auto S = gpu->create_sparse_matrix(small);
  CgVectors<double> w;
  req.rr = cg_start(*gpu, *S, w, small.rows, 9);
  req.only_where_faster = true;
  const PersistentCg runs = gpu->persistent_cg(*S, *w.x, *w.r, *w.p, *w.q, req);
  EXPECT_TRUE(runs.ran);
  EXPECT_EQ(runs.iterations, 2);
  EXPECT_EQ(runs.threads, 512);
}

// Whole solves through the deck: solver.persistent = "on" on the cuda backend against the Kokkos backend.
TEST(CudaPersistentCg, SolveMatchesKokkos) {
  if (gpu_test::backend<double>() == nullptr) GTEST_SKIP() << "SKIPPED: no CUDA device";
  const CsrBlock blk = spd_block(20, 1, 21);
  CsrMatrix M;
  M.n = blk.rows;
  M.row_ptr = blk.row_ptr;
  M.col.assign(blk.col.begin(), blk.col.end());
  M.val = blk.val;
  const std::string path = "/tmp/perksolve_gpu_persistent_cg.mtx";
  write_matrix_market(path, M, false);
  auto solve = [&](const std::string& backend, const std::string& persistent, int check_every) {
    const std::string text = "[grid]\ndimension = 2\nextents = [1, 1]\n[problem]\ntype = \"matrix_market\"\nfile = \"" +
                             path + "\"\nrhs = \"ax\"\nseed = 3\n[solver]\ntype = \"cg\"\npersistent = \"" + persistent +
                             "\"\n[solver.stop]\nmax_iterations = 3000\nrtol = 1e-10\ncheck_every = " +
                             std::to_string(check_every) + "\n[backend]\ntype = \"" + backend +
                             "\"\n[monitor]\nquiet = true\n";
    return solve_deck<double>(config::load_deck_from_string(text, "gpu-persistent-cg-" + backend, {}), MPI_COMM_WORLD,
                              true);
  };
  for (int check_every : {1, 4}) {
    SCOPED_TRACE("check_every " + std::to_string(check_every));
    const RunOutcome g = solve("cuda", "on", check_every);
    const RunOutcome r = solve("kokkos", "off", check_every);
    std::printf("[e2e] persistent CG 8000 rows, check_every %d: cuda %ld it |r| %.6e   kokkos %ld it |r| %.6e\n",
                check_every, g.result.iterations, g.result.final_residual, r.result.iterations,
                r.result.final_residual);
    EXPECT_TRUE(r.result.converged());
    EXPECT_EQ(g.result.reason, r.result.reason);
    EXPECT_EQ(g.result.iterations, r.result.iterations);
    EXPECT_NEAR(g.result.final_residual, r.result.final_residual, 1e-10 * r.result.initial_residual);
    gpu_test::expect_close_solutions(g.global_solution, r.global_solution, 1e-9);
  }
}

}  // namespace
}  // namespace perksolve
