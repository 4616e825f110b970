// PERKS stencil iteration (CudaBackend::persistent_sweeps; framework/backends/cuda/perks_stencil.cuh and
// perks_resident.cuh) against the same sweeps one kernel at a time (fill_boundary_faces + apply_stencil /
// jacobi_update): every compiled shape, apply and Jacobi, fp64 and fp32. The streaming kernel with the
// cache off, small (a few planes: cached and streamed planes in one block) and automatic (the whole domain
// on chip), on grids that give several items per block; the resident kernel with short and long bricks; the
// pipelined kernel on the small and the widest tile; Dirichlet and Neumann faces. The iterates must be equal
// BIT FOR BIT (owned cells, and the boundary ghosts the kernel fills for its last iterate). Jacobi with check_every and thresholds: the same stopping
// sweep, residual and kept iterate as the sweep-by-sweep loop. Without a CUDA device: SKIPPED.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "framework/backends/cuda/perks_model.hpp"
#include "framework/stencil/stencil.hpp"
#include "framework/util/env.hpp"
#include "tests/gpu/gpu_test_support.hpp"

using namespace perksolve;
using gpu_test::download;
using gpu_test::random_values;

namespace {

// Dirichlet and Neumann, vertex- and cell-centred: the cell-centred axis is y, or with `cell_axis` another one, so that
// every kind of rule is also checked on the x faces (their ghosts and sources lie one sector per row, and a fill may
// treat them apart: an attempt to write them from the pipelined kernel's plane loop did, docs/perf/perks.md).
std::vector<BoundaryFace> mixed_faces(int dim, int cell_axis = 1) {
  std::vector<BoundaryFace> f;
  for (int a = 0; a < dim; ++a)
    for (int side = 0; side < 2; ++side)
      f.push_back(BoundaryFace{a, side,
                               FaceBoundary{(a + side) % 3 == 1 ? BoundaryType::neumann : BoundaryType::dirichlet,
                                            0.2 + 0.1 * a},
                               a == cell_axis ? Centering::cell : Centering::vertex, 0.125});
  return f;
}

// The test grids. `wide`: an x extent at which the per-sweep path (and so the pipelined kernel) takes its widest tile
// (3D: 512 / 256-wide rows, dynamic items, bulk row copies for fp32 3d7pt; 2D: 1024 / 2048-wide rows with a partial
// last column, except for the fp32 shapes of >= 13 points on fast memory, which take the 1024-wide row tile there:
// 5120 columns against 6144, NarrowRowFastMemTuneSel). `wide_short`: the same tiles on 2D rows of the same width but
// only 40 of them (a few items per tile column), short enough for compute-sanitizer racecheck; 3D as `wide`.
// `thin`: few planes along the streamed axis for the resident kernel's bricks on every SM (2D 150 rows, 3D 12 planes),
// so that its chunks are shorter than R + 1 planes and a brick's halo reaches bricks several chunks away.
// `wide_tile` (3D): 62 cells wide, which the resident kernel's 64-column tile fills as well as its 32-column one, so the
// shapes other than stars take the 64-column tile there (resident_3d_wide_tile); the standard 70 takes 32 columns.
enum class TestGrid { standard, wide, wide_short, thin, wide_tile };
template <class Real>
FieldLayout grid_for(const Stencil& s, TestGrid grid = TestGrid::standard) {
  FieldLayout l;
  const int r = s.radius();
  const bool wide = grid == TestGrid::wide || grid == TestGrid::wide_short;
  const bool thin = grid == TestGrid::thin;
  if (s.dim() == 3) {
    l.n = wide ? std::array<int, 3>{460, 21, 26}
               : std::array<int, 3>{grid == TestGrid::wide_tile ? 62 : 70, 45, thin ? 12 : 40};  // several tiles and chunks
    l.ghost = {r, r, r};
  } else {
    const int wide_rows = grid == TestGrid::wide_short ? 40 : 300;
    l.n = wide ? std::array<int, 3>{5000, wide_rows, 1} : std::array<int, 3>{1500, thin ? 150 : 700, 1};
    l.ghost = {r, r, 0};
  }
  l.align = grid_row_align<Real>(l);
  return l;
}
const char* test_grid_name(TestGrid grid) {
  return grid == TestGrid::wide         ? " wide grid"
         : grid == TestGrid::wide_short ? " wide short grid"
         : grid == TestGrid::thin       ? " thin grid"
         : grid == TestGrid::wide_tile  ? " wide-tile grid"
                                        : "";
}

// Whether the backends of this run give the resident kernel its sweep flags (PERKSOLVE_PERKS_NEIGHBOUR_SYNC).
bool neighbour_sync_on() { return env_flag("PERKSOLVE_PERKS_NEIGHBOUR_SYNC", true); }
// Whether they shorten the face chunks (PERKSOLVE_PERKS_CHUNK_LEAD).
bool chunk_lead_on() { return env_flag("PERKSOLVE_PERKS_CHUNK_LEAD", true); }
// Whether they run two blocks per SM where cuda_detail::resident_two_blocks_per_sm says so (PERKSOLVE_PERKS_TWO_BLOCKS).
bool two_blocks_on() { return env_flag("PERKSOLVE_PERKS_TWO_BLOCKS", true); }

template <class Real>
long owned_mismatches(const FieldLayout& l, const std::vector<Real>& a, const std::vector<Real>& b) {
  long bad = 0;
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const long n = l.index(i, j, k);
        bad += std::memcmp(&a[n], &b[n], sizeof(Real)) != 0;
      }
  return bad;
}

template <class Real>
long mismatches_with_ghosts(const FieldLayout& l, const std::vector<Real>& a, const std::vector<Real>& b) {
  long bad = 0;
  const IndexBox box = l.with_ghosts();
  for (int k = box.begin[2]; k < box.end[2]; ++k)
    for (int j = box.begin[1]; j < box.end[1]; ++j)
      for (int i = box.begin[0]; i < box.end[0]; ++i) {
        const long n = l.index(i, j, k);
        bad += std::memcmp(&a[n], &b[n], sizeof(Real)) != 0;
      }
  return bad;
}

// `cache`: -1 automatic, 0 none, > 0 bytes per block; `max_blocks` > 0 gives every block several items
// (streaming, pipelined) or longer bricks (resident); `grid`: grid_for(s, grid); `rhs_on_chip` (resident
// Jacobi): b kept on chip where it fits, or streamed through the kernel's ring. Returns the launch's outcome.
template <class Real>
PersistentSweeps check_shape(CudaBackend<Real>& gpu, const Stencil& s, SweepKind kind, PerksKernel kernel, long cache,
                             long sweeps, int max_blocks, TestGrid grid = TestGrid::standard, bool rhs_on_chip = true,
                             int cell_axis = 1) {
  const FieldLayout l = grid_for<Real>(s, grid);
  const std::string what = s.name + (kind == SweepKind::jacobi ? " jacobi" : " apply") +
                           (sizeof(Real) == 8 ? " f64 " : " f32 ") + perks_kernel_name(kernel) + " cache " +
                           std::to_string(cache) + " max_blocks " + std::to_string(max_blocks) +
                           test_grid_name(grid) + (rhs_on_chip ? "" : " b streamed") +
                           " cell-centred axis " + std::to_string(cell_axis);
  SCOPED_TRACE(what);
  const std::vector<BoundaryFace> faces = mixed_faces(s.dim(), cell_axis);
  // Apply sweeps of a PERKS shape grow like its coefficient sum: scale the start so values stay finite.
  const auto hx = random_values<Real>(l.size(), 3 + s.size(), -0.01, 0.01);
  const auto hb = random_values<Real>(l.size(), 7 + s.size());
  FieldPtr<Real> x = gpu.create_field(l), y = gpu.create_field(l), b = gpu.create_field(l);
  FieldPtr<Real> rx = gpu.create_field(l), ry = gpu.create_field(l);
  for (Field<Real>* f : {x.get(), rx.get()}) gpu.upload(*f, hx);
  for (Field<Real>* f : {y.get(), ry.get()}) gpu.upload(*f, hx);
  gpu.upload(*b, hb);
  const Real omega = Real(0.8);
  // Reference: one kernel per sweep, ghosts refilled before each; Jacobi: the last sweep's residual as well.
  Field<Real>* src = rx.get();
  Field<Real>* dst = ry.get();
  double rr_last = -1.0;
  for (long t = 0; t < sweeps; ++t) {
    gpu.fill_boundary_faces(*src, faces, false);
    if (kind == SweepKind::jacobi && t + 1 == sweeps) rr_last = gpu.jacobi_sweep(s, omega, *b, *src, *dst);
    else if (kind == SweepKind::jacobi) gpu.jacobi_update(s, omega, *b, *src, *dst);
    else gpu.apply_stencil(s, *src, *dst);
    std::swap(src, dst);
  }
  gpu.fill_boundary_faces(*x, faces, false);
  PersistentSweepsRequest q;
  q.kind = kind;
  q.omega = omega;
  q.sweeps = sweeps;
  q.cache_bytes = cache;
  q.max_blocks = max_blocks;
  q.kernel = kernel;
  q.rhs_on_chip = rhs_on_chip;
  const PersistentSweeps res = gpu.persistent_sweeps(s, q, kind == SweepKind::jacobi ? b.get() : nullptr, *x, *y,
                                                     faces, false);
  EXPECT_TRUE(res.ran) << "a compiled shape with constant coefficients runs persistently (the resident kernel: "
                          "the test grid fits)";
  if (!res.ran) return res;
  if (kernel != PerksKernel::automatic) EXPECT_EQ(perks_kernel_name(res.kernel), perks_kernel_name(kernel));
  if (!(kind == SweepKind::jacobi && res.kernel == PerksKernel::resident && rhs_on_chip))
    EXPECT_FALSE(res.rhs_on_chip) << "b on chip only in the resident kernel's Jacobi sweeps, and only where asked";
  EXPECT_EQ(res.sweeps, sweeps);
  EXPECT_FALSE(res.stopped);
  if (kind == SweepKind::jacobi) {
    // No check sweeps: the residual of the last sweep only (equal to rounding: another block partition).
    EXPECT_NEAR(res.last_rr, rr_last, 1e-9 * rr_last) << "the last sweep's residual";
    EXPECT_GT(rr_last, 0.0);
    EXPECT_EQ(static_cast<long>(res.rr_history.size()), sweeps);
    if (!res.rr_history.empty()) EXPECT_EQ(res.rr_history.back(), res.last_rr);
    for (long t = 0; t + 1 < static_cast<long>(res.rr_history.size()); ++t)
      EXPECT_TRUE(std::isnan(res.rr_history[t])) << "history entry " << t << " (not a check sweep): NaN";
  }
  if (kernel == PerksKernel::pipelined) {
    EXPECT_EQ(res.cache_planes, 0);
    EXPECT_EQ(res.cached_fraction, 0.0);
  } else {
    if (cache != 0) EXPECT_GT(res.cache_planes, 0);
    if (cache == 0) EXPECT_EQ(res.cache_planes, 0);
  }
  Field<Real>& got = res.sweeps % 2 == 0 ? *x : *y;
  const auto g = download(gpu, got), r = download(gpu, *src);
  EXPECT_EQ(owned_mismatches(l, g, r), 0) << "owned cells differ (cached planes " << res.cache_planes << ", fraction "
                                          << res.cached_fraction << ")";
  double mx = 0;
  for (int i = 0; i < l.n[0]; ++i) mx = std::max(mx, std::abs(static_cast<double>(r[l.index(i, l.n[1] / 2, l.n[2] / 2)])));
  EXPECT_GT(mx, 0.0) << "trivial data";
  // The kernel fills the boundary ghosts of every iterate it writes (the blocks that wrote their sources), the
  // last one included: they must equal one boundary fill of the reference's last iterate.
  gpu.fill_boundary_faces(*src, faces, false);
  const auto r2 = download(gpu, *src);
  const auto& g2 = g;
  EXPECT_EQ(mismatches_with_ghosts(l, g2, r2), 0) << "cells with ghosts differ (the kernel's boundary ghosts of its last iterate)";
  if (res.kernel != PerksKernel::resident) EXPECT_FALSE(res.face_planes_on_chip) << "face planes: resident kernel only";
  EXPECT_EQ(res.neighbour_sync, res.kernel == PerksKernel::resident && neighbour_sync_on())
      << "the resident kernel syncs with its neighbouring bricks (unless PERKSOLVE_PERKS_NEIGHBOUR_SYNC=0)";
  // (the PERKS shapes reach as far along the streamed axis as in the plane)
  if (res.kernel != PerksKernel::resident) EXPECT_EQ(res.plane_sync_steps, 0) << "plane barriers: resident kernel only";
  else EXPECT_TRUE(res.plane_sync_steps == s.shape.radius || res.plane_sync_steps == s.shape.radius + 1)
      << "the resident plane loop's barriers: at most R steps apart, or R + 1 with the write-back one step late; got "
      << res.plane_sync_steps;
  if (res.kernel != PerksKernel::resident || !chunk_lead_on()) EXPECT_EQ(res.chunk_lead, 0) << "chunk lead: resident only";
  EXPECT_GE(res.chunk_lead, 0);
  return res;
}

template <class Real>
void all_shapes_test() {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  std::vector<Stencil> stencils;
  for (const auto& name : perks_shape_names()) stencils.push_back(perks_stencil(name));
  stencils.push_back(laplacian_27pt_fe(0.1));  // the symmetric (CSE) kernel
  int on_chip = 0, resident_jacobi = 0, face_planes = 0, face_plane_shapes = 0, led = 0, resident = 0;
  int two_blocks = 0, two_block_launches = 0;
  for (const Stencil& s : stencils)
    for (SweepKind kind : {SweepKind::apply, SweepKind::jacobi}) {
      // Streaming: cache off, a few planes with several items per block, the whole domain.
      for (long cache : {-1L, 0L, 40000L})
        check_shape(*gpu, s, kind, PerksKernel::streaming, cache, 7, cache == 40000L ? 16 : 0);
      // Resident: short bricks on every SM, and (3D) 32 blocks with bricks of 5 planes; Jacobi with b on chip
      // where it fits (most shapes on these grids) and streamed.
      // Face planes (the bricks at the streamed axis's faces compute their ghost planes on chip): the shapes of radius
      // >= 2 (perks_resident.cuh: kResidentFacePlanes, less two Jacobi kernels), where the first and the last brick own
      // the cells those ghosts mirror (so far every launch of these grids).
      auto tally_face_planes = [&](const PersistentSweeps& res) {
        led += res.chunk_lead > 0;
        ++resident;
        // Two blocks of 256 threads per SM where the rule says so and they fit; else one of 512.
        const bool star = s.shape.kind == ShapeKind::star;
        if (two_blocks_on() && cuda_detail::resident_two_blocks_per_sm(s.dim(), star, s.radius(),
                                                                       kind == SweepKind::jacobi, sizeof(Real) == 4)) {
          two_blocks += res.threads == 256;
          ++two_block_launches;
        } else {
          EXPECT_EQ(res.threads, 512) << s.name << ": one block per SM";
        }
        EXPECT_TRUE(res.threads == 256 || res.threads == 512) << res.threads;
        if (s.radius() >= 2) {
          face_planes += res.face_planes_on_chip;
          ++face_plane_shapes;
        } else {
          EXPECT_FALSE(res.face_planes_on_chip) << "radius 1: no face planes";
        }
      };
      const PersistentSweeps short_bricks = check_shape(*gpu, s, kind, PerksKernel::resident, -1, 7, 0);
      const bool chip = short_bricks.rhs_on_chip;
      tally_face_planes(short_bricks);
      bool chip32 = false;
      if (s.dim() == 3) {
        const PersistentSweeps long_bricks = check_shape(*gpu, s, kind, PerksKernel::resident, -1, 7, 32);
        chip32 = long_bricks.rhs_on_chip;
        tally_face_planes(long_bricks);
        EXPECT_EQ(short_bricks.tile_x, 32) << s.name << ": 70 wide, the 32-column tile";
        const PersistentSweeps wide_tile =
            check_shape(*gpu, s, kind, PerksKernel::resident, -1, 7, 0, TestGrid::wide_tile);
        EXPECT_EQ(wide_tile.tile_x, s.shape.kind == ShapeKind::star ? 32 : 64)
            << s.name << ": 62 wide, the 64-column tile except for stars";
      }
      if (kind == SweepKind::jacobi) {
        on_chip += chip + chip32;
        resident_jacobi += 1 + (s.dim() == 3);
        check_shape(*gpu, s, kind, PerksKernel::resident, -1, 7, 0, TestGrid::standard, false);
        if (s.dim() == 3) check_shape(*gpu, s, kind, PerksKernel::resident, -1, 7, 32, TestGrid::standard, false);
      }
    }
  std::printf("resident Jacobi with b on chip: %d of %d launches\n", on_chip, resident_jacobi);
  std::printf("resident launches of radius >= 2 with face planes on chip: %d of %d\n", face_planes, face_plane_shapes);
  EXPECT_GE(4 * face_planes, 3 * face_plane_shapes) << "face planes on chip in most resident launches of radius >= 2";
  std::printf("resident launches with shorter face chunks: %d of %d\n", led, resident);
  std::printf("resident launches with two blocks per SM: %d of the %d the rule gives them\n", two_blocks,
              two_block_launches);
  if (two_blocks_on()) EXPECT_GE(2 * two_blocks, two_block_launches) << "two blocks per SM in most launches of the rule";
  if (chunk_lead_on()) EXPECT_GT(led, 0) << "the face chunks' lead runs in some of these launches (plan_brick_face_lead)";
  EXPECT_GE(2 * on_chip, resident_jacobi) << "b on chip in at least half of the resident Jacobi launches";
}
TEST(CudaPerks, EveryShapeBitIdenticalDouble) { all_shapes_test<double>(); }
TEST(CudaPerks, EveryShapeBitIdenticalFloat) { all_shapes_test<float>(); }
// A short resident case for compute-sanitizer: 2D tiles on 1500-wide rows, where the last tile has columns dead in
// whole warps and columns dead in some lanes only: fp64 4 interleaved (2d5pt) and 2 consecutive columns per thread
// (2d13pt), fp32 4 and 2 consecutive (2d13pt, 2d21pt), the three with rotating partial sums (ResidentTuneSel's ROT); and
// radius 2 in 3D (3d13pt).
template <class Real>
void resident_sanitizer_case(const std::vector<std::string>& names) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  for (const std::string& name : names) {
    check_shape(*gpu, perks_stencil(name), SweepKind::apply, PerksKernel::resident, -1, 7, 0);
    const PersistentSweeps jacobi =
        check_shape(*gpu, perks_stencil(name), SweepKind::jacobi, PerksKernel::resident, -1, 7, 0);
    EXPECT_TRUE(jacobi.rhs_on_chip) << name << ": b on chip (fits on this grid)";
    if (perks_stencil(name).radius() >= 2 && perks_stencil(name).radius() <= 4)  // kResidentFacePlanes
      EXPECT_TRUE(jacobi.face_planes_on_chip) << name << ": face planes on chip";
    check_shape(*gpu, perks_stencil(name), SweepKind::jacobi, PerksKernel::resident, -1, 7, 0, TestGrid::standard,
                false);
  }
}
// The resident kernel's sync with the neighbouring bricks (perks_sweep_common.cuh, perks_wait_neighbours) where a
// brick's halo reaches bricks several chunks away: chunks shorter than R + 1 planes (the thin grids; in 2D radius 1 takes
// 2-3 rows), and enough sweeps for the blocks to drift apart between device-wide barriers (apply 41, Jacobi 13: its
// sweeps grow the iterate on these coefficients). The other tests run it on chunks of R + 1 planes or more.
template <class Real>
void resident_short_chunks_test() {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  for (const char* name : {"2d5pt", "2d13pt", "2ds25pt", "3d7pt", "3d13pt"})
    for (SweepKind kind : {SweepKind::apply, SweepKind::jacobi}) {
      const Stencil s = perks_stencil(name);
      const PersistentSweeps res = check_shape(*gpu, s, kind, PerksKernel::resident, -1,
                                               kind == SweepKind::apply ? 41 : 13, 0, TestGrid::thin);
      if (s.radius() >= 2) EXPECT_LE(res.cache_planes, s.radius()) << name << ": chunks shorter than R + 1 planes";
    }
}
TEST(CudaPerks, ResidentShortChunksDouble) { resident_short_chunks_test<double>(); }
TEST(CudaPerks, ResidentShortChunksFloat) { resident_short_chunks_test<float>(); }

TEST(CudaPerks, ResidentSanitizerCaseDouble) { resident_sanitizer_case<double>({"2d5pt", "2d13pt", "3d13pt"}); }
TEST(CudaPerks, ResidentSanitizerCaseFloat) { resident_sanitizer_case<float>({"2d13pt", "2d21pt"}); }
// The 3D 64-column tile (the shapes other than stars, where it fills the x tiles as well as 32 columns do).
TEST(CudaPerks, ResidentSanitizerCaseWideTileDouble) {
  PERKSOLVE_REQUIRE_GPU(double, gpu);
  for (SweepKind kind : {SweepKind::apply, SweepKind::jacobi}) {
    const PersistentSweeps res =
        check_shape(*gpu, perks_stencil("poisson"), kind, PerksKernel::resident, -1, 7, 0, TestGrid::wide_tile);
    EXPECT_EQ(res.tile_x, 64);
  }
}

// The pipelined kernel: the small tile, the widest tile, and the widest tile on 7 blocks (dynamic items: the
// counters restart every sweep; static items: several per block, including a short last chunk taken after a
// full one), the last with cell-centred x faces. `names` empty: every shape (and the symmetric 27-point kernel).
// `grid`: the grid of the two wide-tile cases (the small tile's case is left out for TestGrid::wide_short).
template <class Real>
void pipelined_test(const std::vector<std::string>& names, TestGrid grid = TestGrid::wide) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  std::vector<Stencil> stencils;
  for (const auto& name : names.empty() ? perks_shape_names() : names) stencils.push_back(perks_stencil(name));
  if (names.empty()) stencils.push_back(laplacian_27pt_fe(0.1));
  for (const Stencil& s : stencils)
    for (SweepKind kind : {SweepKind::apply, SweepKind::jacobi}) {
      if (grid != TestGrid::wide_short) check_shape(*gpu, s, kind, PerksKernel::pipelined, -1, 7, 0);
      check_shape(*gpu, s, kind, PerksKernel::pipelined, -1, 7, 0, grid);
      check_shape(*gpu, s, kind, PerksKernel::pipelined, -1, 6, 7, grid, true, 0);
    }
}
TEST(CudaPerks, PipelinedEveryShapeBitIdenticalDouble) { pipelined_test<double>({}); }
TEST(CudaPerks, PipelinedEveryShapeBitIdenticalFloat) { pipelined_test<float>({}); }
// A short case for compute-sanitizer: the three kinds of ring (scalar, dynamic items, bulk row copies), and the
// radius-2 star with its per-item ghost fill (its fast-memory large tile: bulk rows in fp32, dynamic items in fp64).
// In fp32 with the fast-memory tiers, 3d7pt, 3d27pt, 2d9pt and 2ds25pt take the tiles with consecutive columns (bulk
// rows in 3D; 16-byte rows in 2D, 512 threads for radius <= 4, 256 beyond). The row-tile case: 2d13pt and 2d25pt on
// the wide grid take the 256-thread row tile with its per-item ghost fill (NarrowRowFastMemTuneSel), two and three
// blocks per SM (pipelined_min_blocks), and 2d21pt, which rotates its partial sums there (pipelined_tune); on 40 rows,
// for racecheck.
TEST(CudaPerks, PipelinedSanitizerCaseDouble) { pipelined_test<double>({"3d7pt", "2d5pt", "3d13pt"}); }
TEST(CudaPerks, PipelinedSanitizerCaseFloat) {
  pipelined_test<float>({"3d7pt", "3d13pt", "3d27pt", "2d9pt", "2ds25pt"});
}
TEST(CudaPerks, PipelinedSanitizerCaseRowTileFloat) {
  pipelined_test<float>({"2d13pt", "2d25pt", "2d21pt"}, TestGrid::wide_short);
}
// fp64 on the wide grid: 2d13pt on the 1024-wide row tile and 2ds25pt on the 512-wide one, whose apply sweeps rotate the
// partial sums (Tune's ROT: the plane loop unrolled by 7 and 13 planes; on 40 rows the items end inside an unrolled
// round).
TEST(CudaPerks, PipelinedSanitizerCaseRowTileDouble) {
  pipelined_test<double>({"2d13pt", "2ds25pt"}, TestGrid::wide_short);
}
// The 512 x 4 tiles on one block per SM (LargeFastMemTuneSel since 2026-11-30: fp32 3d7pt with 8 stages, the fp64
// radius-1 boxes with consecutive pairs of columns), one shape each, for compute-sanitizer with the large tier forced
// (PERKSOLVE_CUDA_WIDE_TILE=large PERKSOLVE_CUDA_MEMORY=fast; the five shapes of the fp32 case above take longer than
// racecheck's minute there). The per-sweep kernels they are compared with run the same tiles.
TEST(CudaPerks, PipelinedSanitizerCasePlaneTilesFloat) { pipelined_test<float>({"3d7pt"}); }
TEST(CudaPerks, PipelinedSanitizerCasePlaneTilesDouble) { pipelined_test<double>({"3d27pt"}); }

// Jacobi stopping inside the kernel: thresholds met at a check sweep stop it there, keeping that sweep's
// input iterate, with the residual the sweep-by-sweep loop measures (jacobi_sweep) at the same iteration; the
// history holds the residuals of the check sweeps and the last one, NaN elsewhere (the resident kernel does not
// compute those).
// radius 2: a diagonally dominant 13-point star (centre 13, the others -1; the damped Jacobi iteration contracts), on
// which the resident kernel computes its face planes on chip and writes the face ghosts before the check sweeps only.
template <class Real>
void jacobi_stop_test(PerksKernel kernel, int radius = 1) {
  PERKSOLVE_REQUIRE_GPU(Real, gpu);
  Stencil A = laplacian_7pt(1.0, 1.0, 1.0);
  if (radius == 2) {
    A = perks_stencil("3d13pt");
    for (int i = 0; i < A.size(); ++i) A.coeffs[i] = i == A.center_index() ? 13.0 : -1.0;
  }
  FieldLayout l;
  l.n = {63, 61, 59};
  l.ghost = {radius, radius, radius};
  l.align = grid_row_align<Real>(l);
  std::vector<BoundaryFace> faces;
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side)
      faces.push_back(BoundaryFace{a, side, FaceBoundary{BoundaryType::dirichlet, 0.0}, Centering::vertex, 1.0});
  const auto hx = random_values<Real>(l.size(), 11), hb = random_values<Real>(l.size(), 12);
  FieldPtr<Real> x = gpu->create_field(l), y = gpu->create_field(l), b = gpu->create_field(l);
  FieldPtr<Real> rx = gpu->create_field(l), ry = gpu->create_field(l);
  gpu->upload(*x, hx);
  gpu->upload(*rx, hx);
  gpu->upload(*y, hx);
  gpu->upload(*ry, hx);
  gpu->upload(*b, hb);
  const Real omega = Real(0.8);
  const int check_every = 3;
  // Reference loop: the residual of x_k comes with sweep k. The threshold is the residual at k = 12, so the
  // loop stops at the first check (k % 3 == 0) whose residual is at most that: k = 12 if they decrease.
  auto sweep_loop = [&](long sweeps, std::vector<double>& rr) {
    gpu->upload(*rx, hx);
    gpu->upload(*ry, hx);
    Field<Real>* s = rx.get();
    Field<Real>* d = ry.get();
    for (long k = 0; k < sweeps; ++k) {
      gpu->fill_boundary_faces(*s, faces, true);
      rr.push_back(gpu->jacobi_sweep(A, omega, *b, *s, *d));
      if (k + 1 < sweeps) std::swap(s, d);
    }
    return s;  // x_{sweeps - 1}, the last sweep's input
  };
  std::vector<double> rr;
  (void)sweep_loop(30, rr);
  const double thr = std::sqrt(rr[12]) * (1.0 + 1e-9);  // (the kernel sums the same squares in another order)
  long k_stop = -1;
  for (long k = 0; k < 30 && k_stop < 0; k += check_every)
    if (std::sqrt(rr[k]) <= thr) k_stop = k;
  ASSERT_GT(k_stop, 0);
  std::vector<double> rr2;
  Field<Real>* src = sweep_loop(k_stop + 1, rr2);  // x_{k_stop}
  gpu->fill_boundary_faces(*src, faces, true);
  const auto want = download(*gpu, *src);
  gpu->fill_boundary_faces(*x, faces, true);
  PersistentSweepsRequest q;
  q.kind = SweepKind::jacobi;
  q.omega = omega;
  q.sweeps = 200;
  q.check_every = check_every;
  q.stop_rel = thr;
  q.kernel = kernel;
  const PersistentSweeps res = gpu->persistent_sweeps(A, q, b.get(), *x, *y, faces, true);
  ASSERT_TRUE(res.ran);
  EXPECT_EQ(perks_kernel_name(res.kernel), perks_kernel_name(kernel));
  if (kernel == PerksKernel::resident) EXPECT_EQ(res.face_planes_on_chip, radius >= 2);
  EXPECT_TRUE(res.stopped);
  EXPECT_EQ(res.sweeps, k_stop + 1);
  // The same squared residuals, summed over a different block partition: equal to rounding.
  EXPECT_NEAR(res.last_rr, rr[k_stop], 1e-10 * rr[k_stop]);
  ASSERT_EQ(static_cast<long>(res.rr_history.size()), res.sweeps);
  for (long k = 0; k < res.sweeps; ++k) {
    if (k % check_every == 0) EXPECT_NEAR(res.rr_history[k], rr[k], 1e-10 * rr[k]) << "history, check sweep " << k;
    else EXPECT_TRUE(std::isnan(res.rr_history[k])) << "history, sweep " << k << " (not a check): NaN";
  }
  EXPECT_EQ(res.rr_history.back(), res.last_rr) << "one summation for the stop test and the history";
  Field<Real>& kept = (res.sweeps - 1) % 2 == 0 ? *x : *y;
  EXPECT_EQ(owned_mismatches(l, download(*gpu, kept), want), 0);
  EXPECT_EQ(mismatches_with_ghosts(l, download(*gpu, kept), want), 0) << "the kept iterate's ghosts";
}
TEST(CudaPerks, JacobiStopsInKernelDouble) { jacobi_stop_test<double>(PerksKernel::streaming); }
TEST(CudaPerks, JacobiStopsInKernelFloat) { jacobi_stop_test<float>(PerksKernel::streaming); }
TEST(CudaPerks, JacobiStopsInResidentKernelDouble) { jacobi_stop_test<double>(PerksKernel::resident); }
TEST(CudaPerks, JacobiStopsInResidentKernelFloat) { jacobi_stop_test<float>(PerksKernel::resident); }
TEST(CudaPerks, JacobiStopsInResidentKernelRadius2Double) { jacobi_stop_test<double>(PerksKernel::resident, 2); }
TEST(CudaPerks, JacobiStopsInResidentKernelRadius2Float) { jacobi_stop_test<float>(PerksKernel::resident, 2); }
TEST(CudaPerks, JacobiStopsInPipelinedKernelDouble) { jacobi_stop_test<double>(PerksKernel::pipelined); }
TEST(CudaPerks, JacobiStopsInPipelinedKernelFloat) { jacobi_stop_test<float>(PerksKernel::pipelined); }

}  // namespace
