// The PERKS concurrency model (framework/backends/cuda/perks_model.hpp): Little's law picks the blocks per
// SM, shared memory left over becomes the cache, and the prediction follows the cached fraction and the
// tile's boundary share. Plain C++, checked here on the CPU.
#include <gtest/gtest.h>

#include "framework/backends/cuda/perks_model.hpp"

namespace perksolve::cuda_detail {
namespace {

PerksDeviceModel h100_like() {
  PerksDeviceModel d;
  d.sms = 132;
  d.smem_per_sm = 228 * 1024;
  d.smem_per_block = 227 * 1024;
  d.bandwidth = 3.35e12;
  d.latency = 1e-6;
  return d;
}

// A tile with a 40 KB ring of 8 KB planes of 1024 cells, 30 KB in flight (above the 25.4 KB target).
PerksTileModel test_tile(double ring_share) {
  PerksTileModel t;
  t.ring_bytes = 40 * 1024;
  t.inflight_bytes = 30 * 1024;
  t.plane_bytes = 8 * 1024;
  t.plane_cells = 1024;
  t.ring_share = ring_share;
  return t;
}

// 132 blocks of 10 planes of that tile: the whole domain fits the cache.
PerksDomainModel fitting_domain() {
  PerksDomainModel dom;
  dom.blocks = 132;
  dom.planes_per_block = 10;
  dom.cells = 132.0 * 10 * 1024;
  return dom;
}

// The fast-memory stencil tiles: an H200 (HBM3e at 3.2 GHz on a 6144-bit bus, 4.9 TB/s, 37 KB in flight per SM)
// takes them, an H100 SXM (3.35 TB/s, 25.4 KB) does not, nor a device whose bandwidth is unknown.
TEST(PerksModel, FastMemoryTilesFollowTheBytesInFlightPerSm) {
  PerksDeviceModel d = h100_like();
  EXPECT_FALSE(perks_fast_memory(d));
  d.bandwidth = 2.0 * 3201e6 * 6144 / 8;
  EXPECT_TRUE(perks_fast_memory(d));
  d.sms = 264;  // the same memory over twice the SMs: 18.6 KB per SM
  EXPECT_FALSE(perks_fast_memory(d));
  d.bandwidth = 0;
  d.sms = 132;
  EXPECT_FALSE(perks_fast_memory(d));
}

TEST(PerksModel, RingShareOfTiles) {
  // 3D 7-point fp64 PERKS tile 256 x 4, R = 1, sector halo 4 in x: stores 516 of 1024, loads 560 halo cells.
  EXPECT_NEAR(tile_ring_share(256, 4, 1, 1, 4, 1), (516.0 + 560.0) / 2048.0, 1e-15);
  // A 2D row (by = 1, no y ring): only the x ring and halo remain.
  EXPECT_NEAR(tile_ring_share(1024, 1, 1, 0, 4, 0), (2.0 + 8.0) / 2048.0, 1e-15);
  // Taller tiles keep less.
  EXPECT_LT(tile_ring_share(32, 16, 1, 1, 4, 1), tile_ring_share(256, 4, 1, 1, 4, 1));
}

TEST(PerksModel, LittlesLawPicksFewestBlocksThatSaturate) {
  const PerksDeviceModel d = h100_like();  // needs 3.35e12 * 1e-6 / 132 = 25.4 KB in flight per SM
  PerksTileModel t = test_tile(0.5);
  t.max_blocks_per_sm = 4;
  PerksDomainModel dom;
  dom.cells = 1e9;
  dom.planes_per_block = 1000;
  dom.blocks = 132;
  t.inflight_bytes = 26 * 1024;
  EXPECT_EQ(plan_perks(d, t, dom).blocks_per_sm, 1);
  t.inflight_bytes = 10 * 1024;
  EXPECT_EQ(perks_blocks_per_sm(d, t), 3);  // what the launcher asks before it splits the work
  const PerksPlan p3 = plan_perks(d, t, dom);
  EXPECT_EQ(p3.blocks_per_sm, 3);
  EXPECT_NEAR(p3.needed_per_sm, 3.35e12 * 1e-6 / 132, 1e-6);
  EXPECT_DOUBLE_EQ(p3.inflight_per_sm, 30.0 * 1024);
  // Cache: the SM's shared memory split three ways, less the ring, in whole planes.
  EXPECT_EQ(p3.cache_planes, static_cast<int>((228 * 1024 / 3 - 40 * 1024) / (8 * 1024)));
  t.inflight_bytes = 4 * 1024;  // even 4 blocks fall short: take 4, and predict the bandwidth share
  const PerksPlan p4 = plan_perks(d, t, dom);
  EXPECT_EQ(p4.blocks_per_sm, 4);
  EXPECT_LT(p4.predicted_speedup, 1.0);
}

TEST(PerksModel, CacheOverrideAndPrediction) {
  const PerksDeviceModel d = h100_like();
  const PerksTileModel t = test_tile(0.5);
  const PerksDomainModel dom = fitting_domain();  // f = 1: speed-up 1 / ring share
  const PerksPlan all = plan_perks(d, t, dom);
  EXPECT_EQ(all.cache_planes, 10);
  EXPECT_DOUBLE_EQ(all.cached_fraction, 1.0);
  EXPECT_DOUBLE_EQ(all.predicted_speedup, 2.0);
  const PerksPlan none = plan_perks(d, t, dom, 0);
  EXPECT_EQ(none.cache_planes, 0);
  EXPECT_DOUBLE_EQ(none.predicted_speedup, 1.0);
  const PerksPlan some = plan_perks(d, t, dom, 5 * 8 * 1024 + 100);  // 5 planes of 10
  EXPECT_EQ(some.cache_planes, 5);
  EXPECT_DOUBLE_EQ(some.cached_fraction, 0.5);
  EXPECT_DOUBLE_EQ(some.predicted_speedup, 1.0 / (1.0 - 0.5 * 0.5));
}

// With the bytes of a sweep the fixed costs enter: a small domain that fits cannot gain more than the
// per-sweep kernel's time over the barriers and a latency.
TEST(PerksModel, FixedCostsBoundSmallDomains) {
  const PerksDeviceModel d = h100_like();
  const PerksTileModel t = test_tile(0.01);
  PerksDomainModel dom = fitting_domain();
  dom.bytes_per_sweep = dom.cells * 16.0;  // 21.6 MB: 6.5 us at 3.35 TB/s
  const PerksPlan p = plan_perks(d, t, dom);
  const double per_sweep = dom.bytes_per_sweep / d.bandwidth + d.kernel_boundary;
  const double persistent = dom.bytes_per_sweep * 0.01 / d.bandwidth + kPerksBarriersPerSweep * d.barrier + d.latency;
  EXPECT_NEAR(p.predicted_speedup, per_sweep / persistent, 1e-12);
  EXPECT_LT(p.predicted_speedup, per_sweep / (kPerksBarriersPerSweep * d.barrier + d.latency) + 1e-12);
  EXPECT_GT(p.predicted_speedup, 2.0);
}

// A block's share of an SM's shared memory: the SM's divided among the co-resident blocks, less the runtime's 1 KB per
// block, never above one block's opt-in maximum (H100 / H200: 228 KB per SM, 227 KB per block).
TEST(PerksModel, SharedMemoryShareOfCoResidentBlocks) {
  EXPECT_EQ(smem_per_block_share(233472, 232448, 1), 232448);
  EXPECT_EQ(smem_per_block_share(233472, 232448, 2), 115712);
  EXPECT_EQ(smem_per_block_share(233472, 232448, 3), 76800);
  EXPECT_EQ(smem_per_block_share(233472, 200000, 1), 200000) << "the opt-in maximum bounds one block";
  EXPECT_EQ(smem_per_block_share(233472, 232448, 0), 232448) << "no blocks counts as one";
}

// The resident kernel: the planes of a tile column spread over the blocks left per column; the domain fits
// when that chunk (with its 2 R halo planes) fits one block's shared memory, or the deck's cap.
TEST(PerksModel, ResidentFitsWhenTheChunkFitsOneBlock) {
  const PerksDeviceModel d = h100_like();
  PerksResidentTile t;
  t.plane_bytes = 66 * 18 * 8;  // 64 x 16 fp64 tile, halo 1
  t.fixed_bytes = 128;
  t.halo_planes = 2;
  t.plane_cells = 64 * 16;
  PerksDomainModel dom;
  dom.cells = 128.0 * 128 * 128;
  dom.bytes_per_sweep = dom.cells * 16.0;
  // 128^3: 2 x 8 = 16 tile columns, 132 / 16 = 8 chunks of 16 planes: 18 planes of 9504 bytes.
  const PerksResidentPlan p = plan_perks_resident(d, t, dom, 16, 128, d.sms);
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.chunk, 16);
  EXPECT_EQ(p.items, 128);
  EXPECT_EQ(p.smem_bytes, 18 * 9504 + 128);
  const double per_sweep = dom.bytes_per_sweep / d.bandwidth + d.kernel_boundary;
  EXPECT_NEAR(p.predicted_speedup, per_sweep / (kPerksBarriersPerSweep * d.barrier + d.latency + 18 * d.resident_plane_step), 1e-12);
  // 400 planes: chunks of 50 do not fit 227 KB.
  EXPECT_FALSE(plan_perks_resident(d, t, dom, 16, 400, d.sms).fits);
  // More tile columns than blocks, no cache allowed, or a cap below the brick: not resident.
  EXPECT_FALSE(plan_perks_resident(d, t, dom, 200, 8, d.sms).fits);
  EXPECT_FALSE(plan_perks_resident(d, t, dom, 16, 128, d.sms, 0).fits);
  EXPECT_FALSE(plan_perks_resident(d, t, dom, 16, 128, d.sms, 100000).fits);
  EXPECT_TRUE(plan_perks_resident(d, t, dom, 16, 128, d.sms, 18 * 9504).fits);
  // Fewer blocks (a test's max_blocks): longer bricks.
  const PerksResidentPlan few = plan_perks_resident(d, t, dom, 16, 128, 64);
  EXPECT_EQ(few.chunk, 32);
  EXPECT_FALSE(few.fits);
  // Jacobi with b on chip: b of every owned plane (64 x 16 fp64) beside the brick. 128 planes (chunks of 16)
  // fit without it (above), not with it (18 x 9504 + 16 x 8192 bytes); 96 planes (chunks of 12) fit with it.
  PerksResidentTile tb = t;
  tb.owned_plane_bytes = 64 * 16 * 8;
  EXPECT_FALSE(plan_perks_resident(d, tb, dom, 16, 128, d.sms).fits);
  const PerksResidentPlan pb = plan_perks_resident(d, tb, dom, 16, 96, d.sms);
  EXPECT_TRUE(pb.fits);
  EXPECT_EQ(pb.chunk, 12);
  EXPECT_EQ(pb.smem_bytes, 14 * 9504 + 12 * 8192 + 128);
}

// The pipelined kernel caches nothing: a large domain predicts ~1 (the per-sweep rate, a kernel boundary traded
// for the barriers and a refill), a small one below 1.
TEST(PerksModel, PipelinedTradesBoundariesForBarriers) {
  const PerksDeviceModel d = h100_like();
  PerksDomainModel dom;
  dom.cells = 512.0 * 512 * 512;
  dom.bytes_per_sweep = dom.cells * 16.0;  // 2.1 GB: 640 us at 3.35 TB/s
  const PerksPlan big = plan_perks_pipelined(d, dom);
  EXPECT_EQ(big.cached_fraction, 0.0);
  const double stream = dom.bytes_per_sweep / d.bandwidth;
  EXPECT_NEAR(big.predicted_speedup, (stream + d.kernel_boundary) / (stream + kPerksBarriersPerSweep * d.barrier + d.latency), 1e-12);
  EXPECT_GT(big.predicted_speedup, 0.995);
  EXPECT_LT(big.predicted_speedup, 1.0);
  dom.cells = 64.0 * 64 * 64;
  dom.bytes_per_sweep = dom.cells * 16.0;  // 4.2 MB: 1.25 us, so the fixed costs dominate
  const double small_stream = dom.bytes_per_sweep / d.bandwidth;
  const double small = plan_perks_pipelined(d, dom).predicted_speedup;
  EXPECT_NEAR(small, (small_stream + d.kernel_boundary) / (small_stream + kPerksBarriersPerSweep * d.barrier + d.latency),
              1e-12);
  EXPECT_LT(small, 0.75);  // 0.71 with one barrier per sweep
  // A face phase of its own (a second barrier per sweep) costs one more barrier.
  const double phase = plan_perks_pipelined(d, dom, kPerksBarriersPerSweep + 1.0).predicted_speedup;
  EXPECT_NEAR(phase,
              (small_stream + d.kernel_boundary) / (small_stream + (kPerksBarriersPerSweep + 1.0) * d.barrier + d.latency),
              1e-12);
  EXPECT_LT(phase, small);
}

// The persistent CSR CG's merge walks pay where the matrix and its four vectors fit in L2 or the matrix is held on
// chip; above that "auto" declines a forced merge walk, saying why (the H200's cg_bench: 5-10x faster below, 0.6-0.8x
// of the operation loop above, where the automatic walk takes the row-block walk instead).
TEST(PerksModel, PersistentCgRunsWhereTheWorkingSetFitsL2) {
  const double l2 = 60e6;
  // laplace3d_24 in fp64: 13 824 rows, 89 352 non-zeros.
  EXPECT_EQ(persistent_cg_declines(89352 * 12.0 + 13825 * 4.0, 13824 * 8.0, l2, false), "");
  // Exactly at the L2 size: runs; one byte more: declines.
  EXPECT_EQ(persistent_cg_declines(l2 - 4e6, 1e6, l2, false), "");
  const std::string why = persistent_cg_declines(l2 - 4e6 + 1, 1e6, l2, false);
  EXPECT_NE(why.find("(60 MB)"), std::string::npos) << why;
  EXPECT_NE(why.find("operation-by-operation"), std::string::npos) << why;
  // laplace7_192 in fp64 (7.1 M rows, 49 M non-zeros): 600 MB of matrix, 57 MB per vector.
  const std::string big = persistent_cg_declines(49.2e6 * 12.0 + 7.08e6 * 4.0, 7.08e6 * 8.0, l2, false);
  EXPECT_NE(big.find("(845 MB)"), std::string::npos) << big;
  // A matrix held whole in shared memory always runs; an unknown L2 size (0) declines nothing.
  EXPECT_EQ(persistent_cg_declines(1e9, 1e9, l2, true), "");
  EXPECT_EQ(persistent_cg_declines(1e9, 1e9, 0.0, false), "");
}

// The row-block walk's blocks per SM: 6 up to 6x the L2 (matrix + four vectors), 8 above; 6 where the L2 is unknown.
TEST(PerksModel, RowsWalkTakesEightBlocksPerSmAboveSixTimesTheL2) {
  const double l2 = 60e6;
  // laplace27_96 fp64 (0.88 M rows, 23.9 M non-zeros): 291 MB + 4 x 7 MB, about 5x: 6.
  EXPECT_EQ(rows_walk_blocks_per_sm(23.9e6 * 12.0 + 0.885e6 * 4.0, 0.885e6 * 8.0, l2), 6);
  // laplace7_192 fp64: 617 MB + 4 x 57 MB, about 14x: 8.
  EXPECT_EQ(rows_walk_blocks_per_sm(49.2e6 * 12.0 + 7.08e6 * 4.0, 7.08e6 * 8.0, l2), 8);
  // At exactly 6x: 6; one byte more: 8.
  EXPECT_EQ(rows_walk_blocks_per_sm(6.0 * l2 - 4e6, 1e6, l2), 6);
  EXPECT_EQ(rows_walk_blocks_per_sm(6.0 * l2 - 4e6 + 1.0, 1e6, l2), 8);
  EXPECT_EQ(rows_walk_blocks_per_sm(1e12, 1e9, 0.0), 6);
}

}  // namespace
}  // namespace perksolve::cuda_detail
